//! Follow-ups read on the last answer: an amount of none of their own, one operation
//! and one amount, both last answers summed.

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token};

use super::roles::*;
use super::vocabulary::*;
use super::words::*;
use super::{another_question, operator_between_numbers, parse_frames};

/// The parts a follow-up asks of the last answer `value`, read as one quantity frame
/// with `value` as its amount: `add 10% service`, `minus booking's 15%`, `split that
/// between the 2 families`. The follow-up itself gives no amount of its own.
pub fn parse_after(value: &str, toks: &[Token]) -> Option<Vec<Expr>> {
    // (`còn nếu giảm giá bán 20% thì lời bao nhiêu`: the profit again with a price
    // changed, never the last profit discounted.)
    if Words::new(toks).says(&[&["lời"], &["profit"]]) {
        return None;
    }
    let own = roles(&Words::new(toks));
    if own.is_empty() || own.iter().any(|q| q.role == Role::Amount) {
        return None;
    }
    let first = Token {
        tok: Tok::Num(value.to_owned()),
        start: 0,
        end: 0,
    };
    // (A comma after it: the answer is an amount, never a count of the next word.)
    let comma = Token {
        tok: Tok::Sym(','),
        start: 0,
        end: 0,
    };
    let with: Vec<Token> = [first, comma]
        .into_iter()
        .chain(toks.iter().cloned())
        .collect();
    parse_frames(&with, false)
}

/// A follow-up that goes on from the last answer `value` by one operation and at most
/// one amount, whatever words name them (`times 15,480 won`, `add my base pay
/// 1,848,000 to that`, `then halve it, half goes to savings`). Two operations, a
/// count of something (`thêm 3 người nữa` adds people, not 3), a percentage, a date or
/// another question: no reading.
pub fn go_on(value: &str, toks: &[Token]) -> Option<Expr> {
    let w = Words::new(toks);
    if another_question(&w, true) || operator_between_numbers(toks) {
        return None;
    }
    let mut ops: Vec<MathOp> = (0..toks.len())
        .filter_map(|i| GO_ON.iter().find(|(p, _)| w.at(i, p)).map(|(_, op)| *op))
        .collect();
    // (`Mai bán thêm 18 hộp nữa thì còn?`: more sold, less left, of what was counted.)
    let sold = w.says(LEFT) && w.says(super::stock::TAKE_OFF);
    if sold {
        ops = vec![MathOp::Subtract];
    }
    let alone: Vec<(MathOp, &str)> = (0..toks.len())
        .filter_map(|i| {
            BY_ITSELF
                .iter()
                .find(|(p, _, _)| w.at(i, p))
                .map(|(_, op, n)| (*op, *n))
        })
        .collect();
    let quantities = roles(&w);
    let last = Expr::Num(value.to_owned());
    match quantities.as_slice() {
        [] => {
            let (op, n) = *alone.first()?;
            let one_kind = alone.iter().all(|a| *a == (op, n)) && ops.iter().all(|o| *o == op);
            one_kind.then(|| Expr::bin(op, last, Expr::Num(n.to_owned())))
        }
        [q] => {
            let amount = match &q.role {
                Role::Amount => true,
                Role::Count(nouns) => {
                    sold || big(&q.value) || nouns.iter().any(|n| is_in(CURRENCY, n))
                }
                _ => false,
            };
            // (`customer gave her 200k, change?`: the difference from the answer.)
            let last_word = (0..toks.len()).rev().find_map(|k| w.word(k));
            let change = last_word == Some("change");
            if amount && ops.is_empty() && (change || w.says(super::difference::DIFFERENCE)) {
                let (x, y): (f64, f64) = (value.parse().ok()?, q.value.parse().ok()?);
                let n = Expr::Num(q.value.clone());
                return Some(match x >= y {
                    true => Expr::bin(MathOp::Subtract, last, n),
                    false => Expr::bin(MathOp::Subtract, n, last),
                });
            }
            let op = *ops.first()?;
            if !amount || !alone.is_empty() || ops.iter().any(|o| *o != op) {
                return None;
            }
            // (`subtract that from 500`, `divide 1000 by it`: the answer is not first.)
            let reversed = w.says(&[&["from"], &["into"], &["by", "that"], &["by", "it"]]);
            if reversed && matches!(op, MathOp::Subtract | MathOp::Divide) {
                return None;
            }
            let n = Expr::Num(q.value.clone());
            // (`add that to the 40`: the amount as said, after the answer named first.)
            let named_first = (0..q.at).any(|k| matches!(w.word(k), Some("that" | "it")));
            Some(match op {
                MathOp::Sum if named_first => Expr::bin(op, n, last),
                _ => Expr::bin(op, last, n),
            })
        }
        _ => None,
    }
}

/// A follow-up that takes the last answer, a rate for one period (`whats my
/// OT rate now` → 15,750 an hour; `whats my share` of a rent a week), for a count of
/// such periods: `and for 16 hrs?`, `i did 7 hrs on sat so total?`, `12 thang thi
/// bn`. The `earlier` request must have said a rate (`hourly`, `/wk`, `%/tháng`, `một
/// giờ`); the follow-up says one count of periods and no operation of its own.
/// Returns the count, which the last answer is multiplied by.
pub fn for_periods(toks: &[Token], earlier: &[Token]) -> Option<String> {
    let w = Words::new(toks);
    if another_question(&w, true) || operator_between_numbers(toks) || w.says(&[&["each"]]) {
        return None;
    }
    let ops = (0..toks.len()).any(|i| GO_ON.iter().any(|(p, _)| w.at(i, p)))
        || (0..toks.len()).any(|i| BY_ITSELF.iter().any(|(p, _, _)| w.at(i, p)));
    let quantities = roles(&w);
    let [q] = quantities.as_slice() else {
        return None;
    };
    let Role::Count(nouns) = &q.role else {
        return None;
    };
    let period = |n: &str| is_period(n) || is_in(SHORT_PERIODS, n);
    if ops || !nouns.first().is_some_and(|n| period(n)) {
        return None;
    }
    let e = Words::new(earlier);
    let rate = (0..earlier.len()).any(|i| {
        e.word(i).is_some_and(|k| is_in(RATE_WORDS, k))
            || (e.word(i).is_some_and(|k| is_in(TIES, k) && k != "1")
                && e.word(i + 1).is_some_and(period))
    });
    // (`1850 a month, whats that for the year`: the answer is for many periods already.)
    let tied = |i: usize| {
        i > 0
            && (e.word(i - 1).is_some_and(|k| is_in(TIES, k))
                || earlier[i - 1].number() == Some("1"))
    };
    let many = (0..earlier.len()).any(|i| e.word(i).is_some_and(period) && !tied(i));
    // (`1320 yen x 8 hours`, then `and for 22 days?`: a day's hours at a rate, so many
    // days of it.)
    let hours = |k: &str| is_in(&["hour", "hours", "hr", "hrs", "h", "giờ", "tiếng"], k);
    let days = |k: &str| is_in(&["day", "days", "ngày", "shift", "shifts", "ca"], k);
    let a_day = (0..earlier.len()).any(|i| e.word(i).is_some_and(hours))
        && (0..earlier.len()).all(|i| !e.word(i).is_some_and(|k| period(k) && !hours(k)))
        && nouns.first().is_some_and(|n| days(n));
    (rate && !many || a_day).then(|| q.value.clone())
}

/// Periods as people shorten them.
const SHORT_PERIODS: &[&str] = &["hr", "hrs", "h", "wk", "wks", "mth", "mths", "yr", "yrs"];

/// Words that make an amount a rate for one period.
const RATE_WORDS: &[&str] = &[
    "hourly", "weekly", "monthly", "daily", "yearly", "annual", "wage", "rate",
];

/// Words asking what is left of a whole once a share of it is taken.
const THE_REST: &[&[&str]] = &[
    &["còn", "lại"],
    &["the", "rest"],
    &["left"],
    &["remaining"],
    &["remainder"],
    &["what", "remains"],
];

/// The whole an `earlier` request took a percentage of (`tong chi phi 420tr, coc
/// 30%`), when the follow-up `toks` asks only what is left of it (`con lai bao
/// nhieu`, `Vậy mình còn lại bao nhiêu?`): the last answer is taken off it.
pub fn rest_of(toks: &[Token], earlier: &[Token]) -> Option<String> {
    let w = Words::new(toks);
    let own_number = toks.iter().any(|t| t.number().is_some());
    let other_op = (0..toks.len()).any(|i| {
        GO_ON.iter().any(|(p, _)| w.at(i, p)) || BY_ITSELF.iter().any(|(p, _, _)| w.at(i, p))
    });
    let other_op = other_op || w.says(SPLIT);
    if own_number || other_op || !w.says(THE_REST) || another_question(&w, true) {
        return None;
    }
    let e = Words::new(earlier);
    let q = roles(&e);
    let percents = q.iter().filter(|x| x.role == Role::Percent).count();
    let wholes: Vec<&Quantity> = q
        .iter()
        .filter(|x| x.role != Role::Percent && big(&x.value))
        .collect();
    match (percents, wholes.as_slice()) {
        (1, [whole]) if q.len() == 2 => Some(whole.value.clone()),
        _ => None,
    }
}

/// Whether a follow-up asks the sum of the last two answers (`Cộng tiền công hai đứa
/// lại`, `tổng 2 lần bn`, `add both up`): no number but the two it names.
pub fn asks_both_summed(toks: &[Token]) -> bool {
    let w = Words::new(toks);
    let nums = crate::lexer::number_positions(toks);
    let two = match nums.as_slice() {
        [] => false,
        [k] => {
            toks[*k].number() == Some("2")
                && matches!(w.word(k + 1), Some("lan" | "dua" | "ben" | "khoan" | "cai"))
        }
        _ => return false,
    };
    w.says(SUM_OF) && (two || w.says(BOTH)) && !w.says(OTHER_QUESTION)
}
