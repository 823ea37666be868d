//! An amount for one period asked for a longer one: `pocket money is 4,950 kr a month,
//! how much is that for a whole year` (× 12), `£68.50 a day and she goes 3 days a week.
//! how much is that a fortnight` (a week's × 2). Only periods whose ratio is fixed: a
//! month in a year, a week in a year or a fortnight, a fortnight in a year.

use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

use super::roles::{Quantity, Role, roles};
use super::words::*;

/// `toks` read as an amount for one period asked for a longer one, before any other
/// reading: `… 3 days a week. how much is that a fortnight` is no week's amount.
pub fn longer_period(toks: &[Token]) -> Option<Expr> {
    // (A cheap look first: most requests name no such period, and folding every word
    // costs.)
    let named = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "year" | "fortnight" | "năm" | "nam"))
    });
    if !named {
        return None;
    }
    let w = Words::new(toks);
    asked_period(&w)?;
    if super::another_question(&w, false) {
        return None;
    }
    for_longer_period(&w, &roles(&w))
}

/// How many of the first period the second holds.
const RATIOS: &[(&str, &str, &str)] = &[
    ("month", "year", "12"),
    ("week", "year", "52"),
    ("fortnight", "year", "26"),
    ("week", "fortnight", "2"),
    ("tháng", "năm", "12"),
    ("tuần", "năm", "52"),
];

/// Words asking the amount for one period (`a year`, `for the whole year`, `per
/// fortnight`, `cả năm`).
fn asked_period(w: &Words) -> Option<&'static str> {
    ["year", "fortnight", "năm"].into_iter().find(|p| {
        w.says(&[
            &["a", p],
            &["per", p],
            &["whole", p],
            &["the", p],
            &["cả", p],
            &["một", p],
        ])
    })
}

/// The period an amount is said for, right after it (`4,950 a month`, `3 days a week`).
fn said_per(w: &Words, at: usize) -> Option<String> {
    let tie = w
        .word(at + 1)
        .filter(|t| is_in(&["a", "per", "mỗi", "một", "/"], t));
    tie.and(w.word(at + 2)).map(str::to_owned)
}

/// The amount for the period asked, from the one said for a shorter period.
pub(super) fn for_longer_period(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let asked = asked_period(w)?;
    let ratio = |from: &str| {
        RATIOS
            .iter()
            .find(|(a, b, _)| is_key(a, from) && *b == asked)
            .map(|(_, _, r)| *r)
    };
    match q {
        // `4,950 kr a month, … a whole year`
        [rate] => {
            let Role::Rate(Some(p)) = &rate.role else {
                return None;
            };
            let r = ratio(p)?;
            Some(Expr::bin(
                MathOp::Multiply,
                Expr::Num(rate.value.clone()),
                Expr::Num(r.into()),
            ))
        }
        // `£68.50 a day and she goes 3 days a week. … a fortnight`
        [rate, count] => {
            let (Role::Rate(Some(unit)), Role::Count(nouns)) = (&rate.role, &count.role) else {
                return None;
            };
            if !nouns.first().is_some_and(|n| same_thing(unit, n)) {
                return None;
            }
            // (`3 days a week`; `tuần đi 5 ngày`, the period before the count.)
            let before = (1..=2).find_map(|back| {
                let k = count.at.checked_sub(back)?;
                w.word(k)
                    .filter(|p| RATIOS.iter().any(|(a, _, _)| is_key(a, p)))
                    .map(str::to_owned)
            });
            let per = said_per(w, count.at + 1).or(before)?;
            let r = ratio(&per)?;
            Some(Expr::bin(
                MathOp::Multiply,
                Expr::bin(
                    MathOp::Multiply,
                    Expr::Num(rate.value.clone()),
                    Expr::Num(count.value.clone()),
                ),
                Expr::Num(r.into()),
            ))
        }
        _ => None,
    }
}
