//! A weight said in two units, the second the next smaller (`3 tấn 2 tạ`, `1 ký 2 lạng`,
//! typed with or without marks), is one weight in the larger: `3.2 tấn`, `1.2 ký` —
//! as `1tr2` is 1,200,000. Each unit is ten of the next: tấn, tạ, yến, ký, lạng.

use super::super::fold::fold;
use super::super::{Kind, Piece};

/// Weight units, folded, as powers of ten grams.
const UNITS: &[(&str, i32)] = &[
    ("tan", 6),
    ("ta", 5),
    ("yen", 4),
    ("ky", 3),
    ("ki", 3),
    ("kg", 3),
    ("lang", 2),
];

fn power(p: &Piece) -> Option<i32> {
    let w = fold(&p.lower());
    (p.kind == Kind::Word)
        .then(|| UNITS.iter().find(|(u, _)| *u == w).map(|(_, n)| *n))
        .flatten()
}

/// Joins each weight said in two units into one, in place.
pub(super) fn joined(pieces: &mut [Piece]) {
    // The next piece after `i` that is not a space.
    let next =
        |pieces: &[Piece], i: usize| (i + 1..pieces.len()).find(|&j| pieces[j].kind != Kind::Space);
    let mut i = 0;
    while i < pieces.len() {
        let found = (|| {
            let whole = &pieces[i];
            if whole.kind != Kind::Number || !whole.text.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let u1 = next(pieces, i)?;
            let b = next(pieces, u1)?;
            let u2 = next(pieces, b)?;
            let tenth = &pieces[b];
            let single = tenth.kind == Kind::Number && tenth.text.len() == 1;
            (single && power(&pieces[u2])? + 1 == power(&pieces[u1])?).then_some((u1, b, u2))
        })();
        match found {
            Some((u1, b, u2)) => {
                let joined = format!("{}.{}", pieces[i].text, pieces[b].text);
                pieces[i].set(joined);
                for piece in &mut pieces[u1 + 1..=u2] {
                    piece.set(String::new());
                }
                i = u2 + 1;
            }
            None => i += 1,
        }
    }
}
