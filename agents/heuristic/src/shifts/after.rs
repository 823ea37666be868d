//! Overtime after so many hours a day: `i did 10 hrs today at $21.50, OT after 8 hrs is
//! time and a half`, `rate 18.50/hr, OT after 8 hrs at 1.5x. mon 9.5 hrs, tue 11 hrs`.
//! Each day's hours up to the threshold are paid at the rate, the rest at the rate
//! times the multiple: Σ min(h, T) × R + Σ (h − T) × R × M.

use super::{HOURS, MULTIPLES, OVERTIME, per_hour};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Token, words_at};

/// Words before the hours overtime starts after (`after 8 hrs`, `over 40 hours`).
const AFTER: &[&str] = &["after", "over", "past", "beyond", "sau", "quá", "ngoài"];

/// The pay `toks` ask for hours worked with overtime after a threshold; `None` unless
/// the threshold, the multiple, the rate and at least one day's hours are all said, and
/// no other number.
pub fn overtime_after(toks: &[Token]) -> Option<Expr> {
    if !crate::lexer::says(toks, OVERTIME) || crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let is_hours = |k: usize| word(k + 1).is_some_and(|w| HOURS.contains(&w));
    let mut multiple = MULTIPLES
        .iter()
        .find(|(p, _)| (0..toks.len()).any(|i| words_at(toks, i, p)))
        .map(|(_, m)| (*m).to_owned());
    let (mut threshold, mut rate, mut hours, mut others) = (None, None, Vec::new(), Vec::new());
    for k in crate::lexer::number_positions(toks) {
        let n = toks[k].number()?.to_owned();
        let times = matches!(word(k + 1), Some("x" | "times")) || k > 0 && word(k - 1) == Some("x");
        if k > 0 && word(k - 1).is_some_and(|w| AFTER.contains(&w)) && is_hours(k) {
            threshold = Some(n);
        } else if multiple.is_none() && times && n.parse::<f64>().ok()? < 5.0 {
            multiple = Some(n);
        } else if per_hour(toks, k) {
            rate = Some(n);
        } else if is_hours(k) {
            hours.push(n);
        } else {
            others.push(n);
        }
    }
    let (t, r, m) = (threshold?, super::the_rate(rate, &others)?, multiple?);
    if hours.is_empty() {
        return None;
    }
    let limit: f64 = t.parse().ok()?;
    let num = |s: &str| Expr::Num(s.to_owned());
    let mut regular = Vec::new();
    let mut over = Vec::new();
    for h in &hours {
        match h.parse::<f64>().ok()? > limit {
            true => {
                regular.push(num(&t));
                over.push(Expr::bin(MathOp::Subtract, num(h), num(&t)));
            }
            false => regular.push(num(h)),
        }
    }
    let base = Expr::bin(
        MathOp::Multiply,
        Expr::chain(MathOp::Sum, regular)?,
        num(&r),
    );
    let Some(over) = Expr::chain(MathOp::Sum, over) else {
        return Some(base);
    };
    let extra = Expr::bin(
        MathOp::Multiply,
        Expr::bin(MathOp::Multiply, over, num(&r)),
        num(&m),
    );
    Some(Expr::bin(MathOp::Sum, base, extra))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    #[test]
    fn hours_past_the_threshold_are_paid_at_the_multiple() {
        let e = overtime_after(&lex(
            "i did 10 hours today at 21.50, OT after 8 hours is time and a half",
        ))
        .unwrap();
        let n = |s: &str| Expr::Num(s.into());
        let want = Expr::bin(
            MathOp::Sum,
            Expr::bin(MathOp::Multiply, n("8"), n("21.5")),
            Expr::bin(
                MathOp::Multiply,
                Expr::bin(
                    MathOp::Multiply,
                    Expr::bin(MathOp::Subtract, n("10"), n("8")),
                    n("21.5"),
                ),
                n("1.5"),
            ),
        );
        assert_eq!(e, want);
        // No threshold said: the plain overtime reader's.
        assert_eq!(
            overtime_after(&lex("10 hours OT at 21.50/hour, time and a half")),
            None
        );
    }
}
