//! Simple interest on a loan or a deposit: `vay agribank 200tr lai 0,75%/thang, moi
//! thang tra lai bn`, `vay 120tr lãi 0,8%/tháng 12 tháng lãi bn`, `5,000 at 4% a year
//! interest for 3 years`. The interest for one period is the rate's share of the
//! amount; for a count of those periods, that many times it.
//!
//! Interest that compounds (`5,000 at 4.5% a year compounding yearly, how much after 2
//! years`, `gửi 500 triệu, lãi suất 6%/năm, lãi nhập gốc hằng năm, sau 3 năm`) is the
//! amount times (1 + rate)^periods: what it is worth then, or — asked for the interest
//! (`tiền lãi`, `how much interest`) — that less the amount.

use crate::expr::{Expr, MathOp};

use crate::lexer::Tok;

use super::roles::{Role, big, roles};
use super::vocabulary::{LEFT, WHOLE};
use super::words::*;

/// Whether interest is named: `interest`, or `lãi` (typed `lai`, which also folds
/// `lại`: never after `còn`, `trả`'s again).
fn names_interest(w: &Words) -> bool {
    (0..w.toks.len()).any(|k| match w.word(k) {
        Some("interest") => true,
        Some("lai") => k == 0 || !matches!(w.word(k - 1), Some("con" | "tinh" | "gui")),
        _ => false,
    })
}

/// The interest asked, when the request holds one amount, one rate per period and at
/// most a count of those periods, and names interest.
pub(super) fn interest(w: &Words) -> Option<Expr> {
    let dated = w.toks.iter().any(|t| matches!(t.tok, Tok::Date(_)));
    // (Interest added to the amount each period compounds: another calculation.)
    let compound = w.says(COMPOUNDS);
    if compound && !dated {
        return compounded(w);
    }
    if dated
        || crate::lexer::has_clock_time(w.toks)
        || !names_interest(w)
        || w.says(LEFT)
        || compound
    {
        return None;
    }
    let q = roles(w);
    let mut amount = None;
    let mut rate = None;
    let mut periods = None;
    for x in &q {
        match &x.role {
            Role::Percent => {
                if rate.replace(x).is_some() {
                    return None;
                }
            }
            // (`200tr lãi`: the word after an amount of money names no count.)
            Role::Amount | Role::Count(_) if amount.is_none() && big(&x.value) => amount = Some(x),
            Role::Count(nouns)
                if periods.is_none() && nouns.first().is_some_and(|n| is_period(n)) =>
            {
                periods = Some(x)
            }
            _ => return None,
        }
    }
    let (amount, rate) = (amount?, rate?);
    // The rate is for one period (`0,75%/tháng`, `4% a year`, `mỗi tháng`), said after it.
    let per =
        (rate.at + 2..(rate.at + 5).min(w.toks.len())).any(|k| w.word(k).is_some_and(is_period));
    if !per {
        return None;
    }
    let share = Expr::bin(
        MathOp::Percent,
        Expr::Num(rate.value.clone()),
        Expr::Num(amount.value.clone()),
    );
    // (`lãi 4,8%/năm gửi 6 tháng`: months at a year's rate are twelfths of it; years at
    // a month's rate twelve of it.)
    let month = |p: &str| is_in(&["tháng", "month", "months"], p);
    let year = |p: &str| is_in(&["năm", "year", "years", "annum"], p);
    let rate_period = (rate.at + 2..(rate.at + 5).min(w.toks.len()))
        .filter_map(|k| w.word(k))
        .find(|p| month(p) || year(p));
    let counted = match &periods.map(|p| &p.role) {
        Some(Role::Count(nouns)) => nouns.first().map(String::as_str),
        _ => None,
    };
    let scale = |e: Expr| match (rate_period, counted) {
        (Some(r), Some(c)) if year(r) && month(c) => {
            Expr::bin(MathOp::Divide, e, Expr::Num("12".into()))
        }
        (Some(r), Some(c)) if month(r) && year(c) => {
            Expr::bin(MathOp::Multiply, e, Expr::Num("12".into()))
        }
        _ => e,
    };
    let interest = match periods {
        Some(n) if n.value != "1" => scale(Expr::bin(
            MathOp::Multiply,
            share,
            Expr::Num(n.value.clone()),
        )),
        Some(_) => scale(share),
        // (`lãi 8,5% một năm, mỗi tháng trả lãi bao nhiêu`: a year's rate asked a month.)
        None => match asked_other_period(w, rate.at) {
            Some(Other::Month) => Expr::bin(MathOp::Divide, share, Expr::Num("12".into())),
            Some(Other::Year) => Expr::bin(MathOp::Multiply, share, Expr::Num("12".into())),
            None => share,
        },
    };
    // (`tổng cộng`, `in total`: the amount with its interest.)
    Some(match w.says(WHOLE) {
        true => Expr::bin(MathOp::Sum, Expr::Num(amount.value.clone()), interest),
        false => interest,
    })
}

/// A period asked other than the rate's.
enum Other {
    /// A year's rate, asked a month.
    Month,
    /// A month's rate, asked a year.
    Year,
}

/// The period the interest is asked for (`mỗi tháng`, `a month`, `monthly`) when it is
/// not the period of the rate said at `rate` (`8,5% một năm`).
fn asked_other_period(w: &Words, rate: usize) -> Option<Other> {
    let month = |k: usize| w.word(k).is_some_and(|p| is_in(&["tháng", "month"], p));
    let year = |k: usize| {
        w.word(k)
            .is_some_and(|p| is_in(&["năm", "year", "annum"], p))
    };
    let each = |k: usize| {
        w.word(k)
            .is_some_and(|t| is_in(&["mỗi", "hàng", "hằng", "per", "a", "each", "every"], t))
    };
    let rate_period = (rate + 2..(rate + 5).min(w.toks.len())).find(|&k| month(k) || year(k))?;
    let asked = (0..w.toks.len())
        .filter(|&k| k != rate_period && k > 0 && each(k - 1))
        .find(|&k| month(k) || year(k))
        .map(month)
        .or_else(|| {
            (0..w.toks.len()).find_map(|k| match w.word(k) {
                Some("monthly") => Some(true),
                Some("yearly" | "annually") => Some(false),
                _ => None,
            })
        })?;
    match (year(rate_period), asked) {
        (true, true) => Some(Other::Month),
        (false, false) => Some(Other::Year),
        _ => None,
    }
}

/// Words saying the interest is added to the amount each period.
const COMPOUNDS: &[&[&str]] = &[
    &["nhập", "gốc"],
    &["compound"],
    &["compounded"],
    &["compounding"],
    &["compounds"],
    &["kép"],
];

/// Words asking the interest alone, not what the amount is worth with it.
const INTEREST_ASKED: &[&[&str]] = &[
    &["how", "much", "interest"],
    &["interest", "earned"],
    &["interest", "will"],
    &["interest", "do"],
    &["tiền", "lãi"],
    &["lãi", "bao", "nhiêu"],
    &["lãi", "được", "bao"],
    &["được", "lãi"],
];

/// Compound interest: one amount, one rate per period said after it, and a count of
/// those periods (a year's rate compounded monthly: twelve times a year at a twelfth).
fn compounded(w: &Words) -> Option<Expr> {
    let q = roles(w);
    let (mut amount, mut rate, mut periods) = (None, None, None);
    for x in &q {
        match &x.role {
            Role::Percent if rate.is_none() => rate = Some(x),
            Role::Count(nouns)
                if periods.is_none() && nouns.first().is_some_and(|n| is_period(n)) =>
            {
                periods = Some((x, nouns[0].clone()))
            }
            Role::Amount | Role::Count(_) | Role::Rate(_) if amount.is_none() && big(&x.value) => {
                amount = Some(x)
            }
            _ => return None,
        }
    }
    let (amount, rate, (count, unit)) = (amount?, rate?, periods?);
    // The rate's period, said within a few words after it (`4.5% a year`, `6%/năm`,
    // `4.2% compounding yearly`).
    // (None said: a year's, as rates are quoted.)
    let counted = period_of(&unit)?;
    let per = (rate.at + 1..(rate.at + 5).min(w.toks.len()))
        .filter_map(|k| w.word(k))
        .find_map(period_of)
        .unwrap_or('y');
    // (`compounded monthly` on a year's rate: twelve periods a year.)
    let monthly = w.says(&[&["monthly"], &["hàng", "tháng"], &["hằng", "tháng"]]);
    let (rate_each, times) = match (per, counted, monthly) {
        (p, c, false) if p == c => (
            Expr::Num(rate.value.clone()),
            Expr::Num(count.value.clone()),
        ),
        ('y', 'y', true) => (
            Expr::bin(
                MathOp::Divide,
                Expr::Num(rate.value.clone()),
                Expr::Num("12".into()),
            ),
            Expr::bin(
                MathOp::Multiply,
                Expr::Num(count.value.clone()),
                Expr::Num("12".into()),
            ),
        ),
        _ => return None,
    };
    let growth = Expr::bin(
        MathOp::Sum,
        Expr::Num("1".into()),
        Expr::bin(MathOp::Divide, rate_each, Expr::Num("100".into())),
    );
    let worth = Expr::bin(
        MathOp::Multiply,
        Expr::Num(amount.value.clone()),
        Expr::bin(MathOp::Power, growth, times),
    );
    // (`được cả gốc lẫn lãi bao nhiêu`: the amount with its interest, though `lãi bao
    // nhiêu` is said.)
    let both = w.says(&[
        &["gốc", "lẫn", "lãi"],
        &["cả", "gốc"],
        &["gốc", "và", "lãi"],
        &["principal", "and", "interest"],
    ]);
    Some(match w.says(INTEREST_ASKED) && !both {
        true => Expr::bin(MathOp::Subtract, worth, Expr::Num(amount.value.clone())),
        false => worth,
    })
}

/// A period word as `y` (a year) or `m` (a month).
fn period_of(word: &str) -> Option<char> {
    if is_in(
        &["year", "yearly", "annually", "annual", "năm", "yr", "p.a"],
        word,
    ) {
        Some('y')
    } else if is_in(&["month", "monthly", "tháng"], word) {
        Some('m')
    } else {
        None
    }
}
