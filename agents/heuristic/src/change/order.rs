//! Which of the two amounts is the earlier: the clause around each, the time or the
//! month said in it, or the order of the words that place them.

use super::{EARLIER, LATER};
use crate::lexer::{Tok, Token, words_at};

/// Separators between the clauses that place each amount.
fn separates(t: &Token) -> bool {
    t.is_sym(',') || t.is_sym(';') || t.is_sym('.') || matches!(t.word(), Some("and" | "và"))
}

/// Whether `phrase` (from a table) starts at some index in `toks[lo..hi]`.
pub(super) fn said(toks: &[Token], lo: usize, hi: usize, table: &[&[&str]]) -> bool {
    (lo..hi).any(|i| {
        table
            .iter()
            .any(|p| i + p.len() <= hi && words_at(toks, i, p))
    })
}

/// The clause around index `k`: from after the separator before it to the next one.
pub(super) fn clause(toks: &[Token], k: usize) -> (usize, usize) {
    let lo = (0..k)
        .rev()
        .find(|&i| separates(&toks[i]))
        .map_or(0, |i| i + 1);
    let hi = (k + 1..toks.len())
        .find(|&i| separates(&toks[i]))
        .unwrap_or(toks.len());
    (lo, hi)
}

/// The word before index `k`, past symbols such as `$`.
pub(super) fn word_before(toks: &[Token], k: usize) -> Option<&str> {
    toks[..k]
        .iter()
        .rev()
        .find(|t| !matches!(t.tok, Tok::Sym(_)))?
        .word()
}

/// Whether the earlier time is said first, when `toks` say exactly two times, one
/// earlier and one later, each beside its own amount (`T₁ A T₂ B` or `A T₁ B T₂`).
pub(super) fn in_order(toks: &[Token], nums: &[usize]) -> Option<bool> {
    let mut times: Vec<(usize, bool)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let found = [(EARLIER, true), (LATER, false)]
            .iter()
            .find_map(|(table, earlier)| {
                let p = table.iter().find(|p| words_at(toks, i, p))?;
                Some((p.len(), *earlier))
            });
        match found {
            Some((len, earlier)) => {
                times.push((i, earlier));
                i += len;
            }
            None => i += 1,
        }
    }
    let ([(t1, e1), (t2, e2)], [n1, n2]) = (times.as_slice(), nums) else {
        return None;
    };
    let interleaved = (t1 < n1 && n1 < t2 && t2 < n2) || (n1 < t1 && t1 < n2 && n2 < t2);
    (e1 != e2 && interleaved).then_some(*e1)
}

/// The months named in `toks` (`tháng 10`, `october`): (index, month), and the indices
/// of the numbers that only name a month.
pub(super) fn months(toks: &[Token]) -> (Vec<(usize, u32)>, Vec<usize>) {
    let (mut named, mut numbers) = (Vec::new(), Vec::new());
    for (i, t) in toks.iter().enumerate() {
        let Some(w) = t.word() else {
            continue;
        };
        if w == "tháng"
            && let Some(m) = toks
                .get(i + 1)
                .and_then(Token::number)
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|m| (1..=12).contains(m))
        {
            named.push((i, m));
            numbers.push(i + 1);
        } else if let Some(m) = crate::dates::month_number(w) {
            named.push((i, m));
        }
    }
    (named, numbers)
}

/// Whether the month `a` comes before `b` (within half a year either way: December
/// comes before January).
pub(super) fn month_before(a: u32, b: u32) -> bool {
    let ahead = (b + 12 - a) % 12;
    (1..=6).contains(&ahead)
}

/// Whether the amount after a word of `earlier` comes first, when `toks` say one word
/// of each table, each before its own amount (`bought at 80k sell at 125k`).
pub(super) fn in_order_of(
    toks: &[Token],
    nums: &[usize],
    earlier: &[&str],
    later: &[&str],
) -> Option<bool> {
    let at = |table: &[&str]| {
        let found: Vec<usize> = (0..toks.len())
            .filter(|&i| toks[i].word().is_some_and(|w| table.contains(&w)))
            .collect();
        match found.as_slice() {
            [i] => Some(*i),
            _ => None,
        }
    };
    let (e, l) = (at(earlier)?, at(later)?);
    let [n1, n2] = nums else {
        return None;
    };
    if e < *n1 && *n1 < l && l < *n2 {
        Some(true)
    } else if l < *n1 && *n1 < e && e < *n2 {
        Some(false)
    } else {
        None
    }
}
