//! A weight said in two units, the second the next smaller (`3 tấn 2 tạ`, `1 ký 2 lạng`,
//! typed with or without marks), is one weight in the larger: `3.2 tấn`, `1.2 ký` —
//! as `1tr2` is 1,200,000. Each unit is ten of the next: tấn, tạ, yến, ký, lạng.

use super::super::fold::{fold, near};
use super::super::lexicon::heavy_weight;
use super::super::{Kind, Piece};
use super::walk::clear;

/// The power of ten grams of the weight unit piece `p` names, folded: the Vietnamese
/// weights (`tấn`, `tạ`, `yến`, `ký`), `kí`, `kg` and `lạng`.
fn power(p: &Piece) -> Option<i32> {
    if p.kind != Kind::Word {
        return None;
    }
    heavy_weight(&p.lower()).or_else(|| match fold(&p.lower()).as_str() {
        "ki" | "kg" => Some(3),
        "lang" => Some(2),
        _ => None,
    })
}

/// Joins each weight said in two units into one, in place.
pub(super) fn joined(pieces: &mut [Piece]) {
    let mut i = 0;
    while i < pieces.len() {
        let found = (|| {
            let whole = &pieces[i];
            if whole.kind != Kind::Number || !whole.text.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let u1 = near(pieces, i, true)?;
            let b = near(pieces, u1, true)?;
            let u2 = near(pieces, b, true)?;
            let tenth = &pieces[b];
            let single = tenth.kind == Kind::Number && tenth.text.len() == 1;
            (single && power(&pieces[u2])? + 1 == power(&pieces[u1])?).then_some((u1, b, u2))
        })();
        match found {
            Some((u1, b, u2)) => {
                let joined = format!("{}.{}", pieces[i].text, pieces[b].text);
                pieces[i].set(joined);
                clear(pieces, u1 + 1..=u2);
                i = u2 + 1;
            }
            None => i += 1,
        }
    }
}
