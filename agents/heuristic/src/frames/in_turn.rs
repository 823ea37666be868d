//! Two percentages applied in turn to one amount: `knife set $159, 25% off then extra
//! 10% member discount` is 159 less 25 %, then less 10 % of what is left; `bill 312, add
//! 10% service then 9% gst on that` is 312 plus 10 %, then plus 9 % of that — never
//! both taken from the first amount. Written as the chain the grammar reads: `159 minus
//! 25%, then minus 10%`.

use crate::lexer::{Tok, Token};

/// Words that take a percentage off.
const LESS: &[&str] = &[
    "off",
    "discount",
    "discounts",
    "giảm",
    "bớt",
    "chiết",
    "minus",
    "less",
    "trừ",
];

/// Words that add a percentage on.
const MORE: &[&str] = &[
    "add",
    "plus",
    "service",
    "gst",
    "tax",
    "vat",
    "thuế",
    "phí",
    "tip",
    "tăng",
    "surcharge",
    "cộng",
];

/// Words between the two that say the second comes after the first.
const THEN: &[&str] = &["then", "rồi", "after", "sau"];

/// The request as a chain of the two percentages, when `toks` say one amount and two
/// percentages, each with one direction, the second after `then`.
pub fn percentages_in_turn(toks: &[Token]) -> Option<String> {
    let pcts: Vec<usize> = (0..toks.len())
        .filter(|&k| toks[k].number().is_some() && toks.get(k + 1).is_some_and(|t| t.is_sym('%')))
        .collect();
    let [p1, p2] = pcts.as_slice() else {
        return None;
    };
    let amounts: Vec<usize> = crate::lexer::number_positions(toks)
        .into_iter()
        .filter(|k| !pcts.contains(k))
        .collect();
    let [a] = amounts.as_slice() else {
        return None;
    };
    // (Already the chain: read as it is, never written again.)
    let chained = matches!(
        toks.get(a + 1).and_then(Token::word),
        Some("minus" | "plus")
    );
    if chained
        || a > p1
        || !toks[p1 + 2..*p2]
            .iter()
            .any(|t| t.word().is_some_and(|w| THEN.contains(&w)))
    {
        return None;
    }
    // Each percentage's words: from the token after the one before it to the next
    // percentage (or the end).
    let then_at = (p1 + 2..*p2).find(|&k| toks[k].word().is_some_and(|w| THEN.contains(&w)))?;
    let direction = |from: usize, to: usize| {
        let words: Vec<&str> = toks[from..to].iter().filter_map(Token::word).collect();
        let less = words.iter().any(|w| LESS.contains(w));
        let more = words.iter().any(|w| MORE.contains(w));
        match (less, more) {
            (true, false) => Some("minus"),
            (false, true) => Some("plus"),
            _ => None,
        }
    };
    let first = direction(a + 1, then_at)?;
    let second = direction(then_at + 1, toks.len())?;
    let n = |k: usize| toks[k].number();
    if toks.iter().any(|t| matches!(t.tok, Tok::Date(_))) {
        return None;
    }
    Some(format!(
        "{} {first} {}%, then {second} {}%",
        n(*a)?,
        n(*p1)?,
        n(*p2)?
    ))
}
