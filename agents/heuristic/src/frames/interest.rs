//! Simple interest on a loan or a deposit: `vay agribank 200tr lai 0,75%/thang, moi
//! thang tra lai bn`, `vay 120tr lãi 0,8%/tháng 12 tháng lãi bn`, `5,000 at 4% a year
//! interest for 3 years`. The interest for one period is the rate's share of the
//! amount; for a count of those periods, that many times it.

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
    let compound = w.says(&[&["nhập", "gốc"], &["compound"], &["compounded"], &["kép"]]);
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
    let interest = match periods {
        Some(n) if n.value != "1" => Expr::bin(MathOp::Multiply, share, Expr::Num(n.value.clone())),
        _ => share,
    };
    // (`tổng cộng`, `in total`: the amount with its interest.)
    Some(match w.says(WHOLE) {
        true => Expr::bin(MathOp::Sum, Expr::Num(amount.value.clone()), interest),
        false => interest,
    })
}
