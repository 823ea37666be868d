//! The pieces around a number, walked past at most one space: the word, sign or number
//! next to it, and the digits a scale's tail may add (`2 triệu 4`).

use crate::normalise::{Kind, Piece};

/// Words that may follow the digits after a scale (`2 triệu 4 chia 3`): they count
/// nothing, so the digits go on below the scale.
const AFTER_TAIL: &[&str] = &[
    "chia", "cộng", "nhân", "trừ", "là", "thì", "và", "cho", "giảm", "tăng", "boa", "tip", "hết",
    "bao", "mấy", "cong", "nhan", "tru", "la", "thi", "va", "giam", "tang", "het", "còn", "rồi",
];

/// Whether the number at `n` numbers an item of a numbered list (`1. 8 x 35k 2. cộng
/// 50k tiền cơm`): a `.` or `)` after it, in a request that numbers its first item `1`.
pub(super) fn list_marker(pieces: &[Piece], n: usize) -> bool {
    let marker = |k: usize| {
        pieces
            .get(k + 1)
            .is_some_and(|p| matches!(p.text.as_str(), "." | ")"))
    };
    marker(n) && (0..n).any(|k| pieces[k].text == "1" && marker(k))
}

/// The number right after the scale at `s` and its digits, when it is one to three
/// digits that nothing counted follows (the end, a sign, or an operation word).
pub(super) fn tail_digits(pieces: &[Piece], s: usize) -> Option<(usize, String)> {
    let n = next_number(pieces, s)?;
    let digits = pieces[n].text.clone();
    if digits.is_empty() || digits.len() > 3 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // `6tr2 một tháng`: digits glued to the scale go on below it, whatever follows.
    if n == s + 1 {
        return Some((n, digits));
    }
    if list_marker(pieces, n) {
        return None;
    }
    let after = skip_space(pieces, n + 1).map(|j| &pieces[j]);
    let free = match after {
        None => true,
        Some(p) if p.kind == Kind::Other => true,
        // (`385k 1 bao`: a bag, where `2 triệu 4 bao nhiêu` asks.)
        Some(p) if p.kind == Kind::Word && matches!(p.lower().as_str(), "bao") => {
            next_word(pieces, skip_space(pieces, n + 1).unwrap_or(n))
                .is_some_and(|w| matches!(pieces[w].lower().as_str(), "nhiêu" | "nhieu"))
        }
        Some(p) if p.kind == Kind::Word => AFTER_TAIL.contains(&p.lower().as_str()),
        Some(_) => false,
    };
    free.then_some((n, digits))
}

pub(super) fn clear(pieces: &mut [Piece], range: std::ops::RangeInclusive<usize>) {
    for p in &mut pieces[range] {
        p.set(String::new());
    }
}

/// The first word after piece `i`, past at most one space.
pub(super) fn next_word(pieces: &[Piece], i: usize) -> Option<usize> {
    let j = skip_space(pieces, i + 1)?;
    (pieces[j].kind == Kind::Word).then_some(j)
}

/// The first word or sign after piece `i`, past at most one space.
pub(super) fn next_word_or_sign(pieces: &[Piece], i: usize) -> Option<usize> {
    let j = skip_space(pieces, i + 1)?;
    matches!(pieces[j].kind, Kind::Word | Kind::Other).then_some(j)
}

/// The first number after piece `i`, past at most one space.
pub(super) fn next_number(pieces: &[Piece], i: usize) -> Option<usize> {
    let j = skip_space(pieces, i + 1)?;
    (pieces[j].kind == Kind::Number).then_some(j)
}

/// The sign or word just before piece `i` (past at most one space).
pub(super) fn prev_sign(pieces: &[Piece], i: usize) -> Option<usize> {
    let j = i.checked_sub(1)?;
    let j = match pieces[j].kind {
        Kind::Space => j.checked_sub(1)?,
        _ => j,
    };
    matches!(pieces[j].kind, Kind::Other | Kind::Word).then_some(j)
}

pub(super) fn skip_space(pieces: &[Piece], j: usize) -> Option<usize> {
    let p = pieces.get(j)?;
    match p.kind {
        Kind::Space if p.text == " " || p.text.is_empty() => pieces.get(j + 1).map(|_| j + 1),
        _ => Some(j),
    }
}
