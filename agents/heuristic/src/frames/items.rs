//! Priced items summed.

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token};

use super::roles::*;
use super::vocabulary::*;
use super::words::*;

/// Priced items summed: two or more items, each a price and the counts it is paid for
/// (`Khách mua 4 ly bạc xỉu 29k với 3 ly đen đá 20k, tổng tiền`, `14 waiters 200k each
/// plus 2 captains 500k each, total?`, `8 ng x 260k x 12 ngay, 5 ng x 240k x 10
/// ngay`), the total asked. In an item the price is its rate (`200k each`, `mỗi ng
/// 150k`) or its one amount of money (1,000 or more) beside counts under 1,000; any
/// other item, a percentage or a date leaves the request to the other readers.
pub fn priced_items(toks: &[Token]) -> Option<Expr> {
    // (Two items hold four numbers at least: no words folded for fewer.)
    if crate::lexer::number_positions(toks).len() < 4 {
        return None;
    }
    // (`1000 cộng 2 cộng với không cộng 1000 trừ 2`: arithmetic written out between
    // numbers, no items priced.)
    let written = toks
        .windows(2)
        .filter(|p| {
            p[0].number().is_some()
                && p[1].word().is_some_and(|w| {
                    matches!(
                        w,
                        "cộng" | "trừ" | "nhân" | "chia" | "plus" | "minus" | "times"
                    )
                })
        })
        .count();
    if written >= 2 {
        return None;
    }
    let w = Words::new(toks);
    if super::another_question(&w, true) || !(w.says(SUM_OF) || w.says(HOW_MUCH)) {
        return None;
    }
    let quantities = roles(&w);
    let breaks: Vec<usize> = (0..toks.len())
        .filter(|&i| {
            matches!(toks[i].tok, Tok::Sym(',' | ';' | '.' | '+' | '&'))
                || w.word(i).is_some_and(|k| is_in(ITEM_BREAKS, k))
        })
        .collect();
    let clause = |at: usize| breaks.iter().filter(|&&b| b < at).count();
    let mut items: Vec<Vec<&Quantity>> = Vec::new();
    for q in &quantities {
        let c = clause(q.at);
        // (`3 khăn 150k 2 khăn 120k`: a count after an item's price starts the next.)
        let priced = |item: &[&Quantity]| {
            item.last()
                .is_some_and(|l| big(&l.value) && l.role == Role::Amount && item.len() >= 2)
        };
        // (`3 ng x 200k x 5 ngay`: a count joined by `x` is the same item's.)
        let joined = q.at > 0 && w.word(q.at - 1).is_some_and(|k| is_in(TIMES, k));
        match items.last_mut() {
            Some(last)
                if clause(last[0].at) == c
                    && (joined
                        || !(priced(last)
                            && matches!(q.role, Role::Count(_))
                            && !big(&q.value))) =>
            {
                last.push(q)
            }
            _ => items.push(vec![q]),
        }
    }
    if items.len() < 2 {
        return None;
    }
    let products = items
        .iter()
        .map(|item| {
            let rates: Vec<&&Quantity> = item
                .iter()
                .filter(|x| matches!(x.role, Role::Rate(_)))
                .collect();
            let price = match rates.as_slice() {
                [one] => **one,
                [] => {
                    let [one] = item.iter().filter(|x| big(&x.value)).collect::<Vec<_>>()[..]
                    else {
                        return None;
                    };
                    *one
                }
                _ => return None,
            };
            let counts: Vec<&&Quantity> = item.iter().filter(|x| x.at != price.at).collect();
            let small =
                |x: &Quantity| !big(&x.value) && matches!(x.role, Role::Count(_) | Role::Amount);
            // (`lương 35k 1 giờ`: a price for one unit is a rate, no item bought.)
            // (`1 nón 80k` before its price is one bought.)
            let for_one = counts.iter().all(|x| x.value == "1" && x.at > price.at);
            // (`tháng 10 được 18.600.000`: a month named by its number, no count.)
            let named_period = counts.iter().any(|x| {
                x.at > 0
                    && toks[x.at - 1]
                        .word()
                        .is_some_and(|p| super::vocabulary::PERIOD_LABELS.contains(&p))
            });
            if counts.is_empty() || for_one || named_period || !counts.iter().all(|x| small(x)) {
                return None;
            }
            // (The numbers as said: `3 adults at 20 each` is 3 × 20.)
            let factors = item.iter().map(|x| Expr::Num(x.value.clone()));
            Expr::chain(MathOp::Multiply, factors)
        })
        .collect::<Option<Vec<Expr>>>()?;
    Expr::chain(MathOp::Sum, products)
}
