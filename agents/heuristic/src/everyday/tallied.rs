//! Counts of one unit tallied at one rate: `trả công: anh Hai 5 ngày, thằng Ba 4 ngày,
//! chú Tư 6 ngày, 320k 1 ngày. tổng?` and `3 workers: 5 days, 4 days and 6 days at 320 a
//! day, total pay?` are (5 + 4 + 6) × 320 — never the counts multiplied together, nor
//! the rate taken with the last count alone.

use super::items::{OF_EACH, counts_people};
use super::read::num;
use super::units::{PER_UNIT, unit_of};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, number_positions};

/// Words of what is left of a count, or of a count not worked (`nghỉ 1 ngày, làm 6
/// ngày`).
const LEFT: &[&str] = &[
    "còn",
    "lại",
    "left",
    "remaining",
    "remain",
    "nghỉ",
    "off",
    "except",
    "missed",
];

/// Operations said in words: arithmetic as written, never a tally.
const OPERATIONS: &[&str] = &[
    "x", "times", "nhân", "plus", "cộng", "minus", "trừ", "chia", "divided", "over", "thêm",
];

/// Symbols that may stand in such a request: a list's and a sentence's.
const PUNCTUATION: &[char] = &[
    ',', '.', ':', ';', '?', '!', '-', '$', '€', '£', '¥', '₫', '₩',
];

/// The tally of `toks`, when they say two or more counts of one unit, one rate per that
/// unit, and perhaps how many people the counts are (one each), and ask nothing of each.
pub(super) fn at_one_rate(toks: &[Token]) -> Option<Expr> {
    // (`mỗi ngày 320k` is a rate; `vốn mỗi kg khô bao nhiêu` asks of each one. `còn 6
    // kg khô`: what is left of a count, no count of its own.)
    let of_each = (0..toks.len()).any(|i| {
        toks[i]
            .word()
            .is_some_and(|w| OF_EACH.contains(&w) && !ties_rate(toks, i) || LEFT.contains(&w))
    });
    if of_each
        || toks
            .iter()
            .any(|t| matches!(t.tok, Tok::Sym(c) if !PUNCTUATION.contains(&c) && c != '/'))
    {
        return None;
    }
    if toks
        .iter()
        .any(|t| t.word().is_some_and(|w| OPERATIONS.contains(&w)))
    {
        return None;
    }
    let listed = |j: usize| toks.get(j).and_then(Token::number).is_some();
    let nums = number_positions(toks);
    let mut rate: Option<(usize, String)> = None;
    let mut tie: Option<usize> = None;
    let mut people: Option<usize> = None;
    let mut counts: Vec<(usize, String)> = Vec::new();
    for &k in &nums {
        if tie == Some(k) {
            continue;
        }
        if let Some((unit, tied)) = rate_unit(toks, k) {
            if rate.replace((k, unit)).is_some() {
                return None;
            }
            tie = tied;
            continue;
        }
        match toks.get(k + 1).and_then(Token::word) {
            Some(w) if counts_people(w) => {
                if people.replace(k).is_some() {
                    return None;
                }
            }
            // (`2, 3 and 4 days`: a list's unit is said once, at its end; `$450, flight
            // $1,320.50`: amounts, no list of counts.)
            Some("and" | "và" | "với") if listed(k + 2) => counts.push((k, String::new())),
            Some(w) => counts.push((k, unit_of(w))),
            None if toks.get(k + 1).is_some_and(|t| t.is_sym(',')) && listed(k + 2) => {
                counts.push((k, String::new()));
            }
            None => return None,
        }
    }
    for i in (0..counts.len()).rev() {
        if counts[i].1.is_empty() {
            counts[i].1 = counts.get(i + 1).map(|c| c.1.clone())?;
        }
    }
    let (rk, unit) = rate?;
    // (`3 helpers for 2, 3 and 4 days`: one count of something else, as many as the
    // counts of the unit, counts who they are.)
    let others: Vec<usize> = (0..counts.len()).filter(|&i| counts[i].1 != unit).collect();
    if let [o] = others.as_slice()
        && people.is_none()
        && toks[counts[*o].0].number() == Some(&(counts.len() - 1).to_string())
    {
        counts.remove(*o);
    }
    if counts.len() < 2 || counts.iter().any(|(_, u)| *u != unit) {
        return None;
    }
    if let Some(p) = people
        && toks[p].number() != Some(&counts.len().to_string())
    {
        return None;
    }
    let sum = Expr::chain(
        MathOp::Sum,
        counts
            .iter()
            .filter_map(|(k, _)| toks[*k].number().map(num)),
    )?;
    Some(Expr::bin(MathOp::Multiply, sum, num(toks[rk].number()?)))
}

/// The unit the number at `k` is a rate of (`320k 1 ngày`, `320 a day`, `320/day`,
/// `320 per day`, `mỗi ngày 320k`), and the position of a `1` tying it, if one does.
fn rate_unit(toks: &[Token], k: usize) -> Option<(String, Option<usize>)> {
    let word = |j: usize| toks.get(j).and_then(Token::word);
    let tied = |j: usize| {
        toks.get(j).and_then(Token::number) == Some("1")
            || word(j).is_some_and(|w| PER_UNIT.contains(&w) || w == "mỗi")
            || toks.get(j).is_some_and(|t| t.is_sym('/'))
    };
    if tied(k + 1)
        && let Some(u) = word(k + 2)
    {
        let one = (toks[k + 1].number() == Some("1")).then_some(k + 1);
        return Some((unit_of(u), one));
    }
    // (`mỗi tháng 2 vợ chồng để dành`: a number counting something of its own.)
    if k > 1 && word(k - 2) == Some("mỗi") && word(k + 1).is_none() {
        return word(k - 1).map(|u| (unit_of(u), None));
    }
    None
}

/// Whether the word at `i` ties a rate to its unit (`0.3 per km`, `mỗi ngày 320k`).
fn ties_rate(toks: &[Token], i: usize) -> bool {
    let word_after = toks.get(i + 1).and_then(Token::word).is_some();
    let num_before = i > 0 && toks[i - 1].number().is_some();
    let num_after_unit = toks.get(i + 2).and_then(Token::number).is_some();
    word_after && (num_before || toks[i].word() == Some("mỗi") && num_after_unit)
}
