//! The price of one, from the price of a pack and how many it holds: `hộp thuốc 30 viên
//! giá 145k, 1 viên bao nhiêu tiền` is 145,000 ÷ 30, never 30 × 145,000.

use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

use super::roles::{Quantity, Role, big, roles};
use super::words::*;

/// `unit_price` over a whole request, before any other reader (an everyday reader
/// would multiply the pack's price by its count).
pub fn price_of_one(toks: &[Token]) -> Option<Expr> {
    // (The frame wants a large amount and a count: without two numbers, one of them
    // large, no word need be folded — most requests stop here.)
    let nums = crate::lexer::number_positions(toks);
    if nums.len() < 2 || !nums.iter().any(|&k| toks[k].number().is_some_and(big)) {
        return None;
    }
    let w = Words::new(toks);
    if super::another_question(&w, true) {
        return None;
    }
    unit_price(&w, &roles(&w))
}

/// `amount ÷ count`, when the request says an amount, a count of some thing and asks
/// the price of one of that thing (`1 viên`, `một viên`, `mỗi viên`, `each`, `per tablet`)
/// after both, with no other number.
pub(super) fn unit_price(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let amounts: Vec<&Quantity> = q
        .iter()
        .filter(|x| x.role == Role::Amount && big(&x.value))
        .collect();
    let [amount] = amounts.as_slice() else {
        return None;
    };
    let counts: Vec<(&Quantity, &Vec<String>)> = q
        .iter()
        .filter_map(|x| match &x.role {
            Role::Count(nouns) if x.value != "1" => Some((x, nouns)),
            _ => None,
        })
        .collect();
    let [(count, nouns)] = counts.as_slice() else {
        return None;
    };
    // Every other number is the `1` of the one asked.
    if q.len() != 2 + q.iter().filter(|x| x.value == "1").count() {
        return None;
    }
    let noun = |i: usize| {
        w.word(i)
            .is_some_and(|k| nouns.iter().any(|n| is_key(n, k)))
    };
    // (Either said first: `shop trả 2 triệu 7 cho 18 khăn, vậy 1 khăn giá bao nhiêu`.)
    let one_asked = (amount.at.max(count.at) + 1..w.toks.len()).any(|i| {
        let one = w.toks[i].number() == Some("1")
            || w.word(i)
                .is_some_and(|k| is_in(&["một", "mỗi", "each", "per", "a", "one"], k));
        one && noun(i + 1)
    });
    let asked = w.says(&[&["bao", "nhiêu"], &["bn"], &["how", "much"]]);
    (one_asked && asked).then(|| {
        Expr::bin(
            MathOp::Divide,
            Expr::Num(amount.value.clone()),
            Expr::Num(count.value.clone()),
        )
    })
}
