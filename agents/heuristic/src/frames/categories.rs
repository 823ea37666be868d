//! Prices by kind, then how many of each kind: `ve nguoi lon 150k, tre em 80k. chuyen
//! nay 6 nguoi lon 3 tre em, tong bn`, `adults $25, kids $12, we are 2 adults and 3
//! kids`. Each price is named by the words before it, each count by the words after
//! it; every price meets its count and the total is the sum of count × price.

use crate::expr::{Expr, MathOp};

use super::roles::*;
use super::words::*;

/// The total of every kind's count times its price; `None` unless at least two kinds
/// are priced and counted, and every number is one of them.
pub(super) fn categories(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let label = |x: &Quantity| -> Vec<String> {
        let mut words = Vec::new();
        let mut k = x.at;
        while k > 0 && words.len() < 2 {
            match w.word(k - 1).filter(|n| is_noun(n)) {
                Some(n) => words.insert(0, n.to_owned()),
                None => break,
            }
            k -= 1;
        }
        words
    };
    let (prices, counts): (Vec<&Quantity>, Vec<&Quantity>) = q
        .iter()
        .partition(|x| x.role == Role::Amount && big(&x.value));
    if prices.len() < 2 || counts.len() != prices.len() {
        return None;
    }
    let named = |p: &Quantity, nouns: &[String]| {
        let l = label(p);
        !l.is_empty() && l.len() >= nouns.len() && l[l.len() - nouns.len()..] == *nouns
    };
    let mut terms = Vec::new();
    let mut used: Vec<usize> = Vec::new();
    for c in &counts {
        let Role::Count(nouns) = &c.role else {
            return None;
        };
        // One price per kind, each price counted once.
        let at: Vec<usize> = (0..prices.len())
            .filter(|&k| named(prices[k], nouns))
            .collect();
        let [k] = at[..] else { return None };
        if used.contains(&k) {
            return None;
        }
        used.push(k);
        terms.push(Expr::bin(
            MathOp::Multiply,
            Expr::Num(c.value.clone()),
            Expr::Num(prices[k].value.clone()),
        ));
    }
    Expr::chain(MathOp::Sum, terms)
}
