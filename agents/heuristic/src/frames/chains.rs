//! Chains of rates and counts, read into one product: what one of a thing yields priced
//! per what it yields (`4 công ruộng, 1 công được 850 kg, bán 7.300 1 kg`), and a count
//! said `each` of another (`3 rooms booked 4 hours each at 120k an hour`).

use crate::expr::{Expr, MathOp};

use super::roles::*;
use super::words::*;

/// `count` of a thing, `first` what one of it yields (its number followed by what it
/// yields), `second` the rate for one of what it yields: the three multiplied.
pub(super) fn chain(
    w: &Words,
    first: &Quantity,
    second: &Quantity,
    count: &Quantity,
) -> Option<Expr> {
    let (Role::Rate(Some(x)), Role::Rate(Some(z)), Role::Count(nouns)) =
        (&first.role, &second.role, &count.role)
    else {
        return None;
    };
    let yields = w.word(first.at + 1).filter(|y| is_noun(y))?;
    let fits = same_thing(z, yields) && nouns.first().is_some_and(|n| same_thing(x, n));
    fits.then(|| {
        Expr::chain(
            MathOp::Multiply,
            [count, first, second]
                .iter()
                .map(|q| Expr::Num(q.value.clone()))
                .collect::<Vec<_>>(),
        )
    })?
}

/// `3 rooms booked 4 hours each at 120k an hour`: the rate's count said `each` of
/// another count — both counts and the rate multiplied.
pub(super) fn each_of(w: &Words, rate: &Quantity, counts: &[&&Quantity]) -> Option<Expr> {
    let (Role::Rate(Some(unit)), [a, b]) = (&rate.role, counts) else {
        return None;
    };
    let fits =
        |c: &Quantity| matches!(&c.role, Role::Count(n) if n.iter().any(|n| same_thing(unit, n)));
    let each = |c: &Quantity| {
        (c.at + 2..=c.at + 3).any(|k| w.word(k).is_some_and(|e| is_in(&["each", "mỗi"], e)))
    };
    let (per, other) = if fits(a) { (a, b) } else { (b, a) };
    (fits(per) && !fits(other) && each(per) && other.at < per.at).then(|| {
        Expr::chain(
            MathOp::Multiply,
            [other, per, &rate]
                .iter()
                .map(|q| Expr::Num(q.value.clone()))
                .collect::<Vec<_>>(),
        )
    })?
}
