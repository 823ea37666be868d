//! A share of an amount and the rest, each asked: `Con gửi về 12.225.000, tôi giữ 40%,
//! còn lại đưa bà nó. Mỗi người bao nhiêu?` is 40% of it and what is left of it.

use crate::expr::{Expr, MathOp};

use super::roles::{Quantity, Role, big};
use super::words::Words;

/// Words naming the rest of the amount.
const REST: &[&[&str]] = &[&["còn", "lại"], &["the", "rest"], &["phần", "còn", "lại"]];

/// Words asking each one's part.
const EACH: &[&[&str]] = &[
    &["mỗi", "người"],
    &["mỗi", "bên"],
    &["each"],
    &["how", "much", "does", "each"],
    &["each", "get"],
];

/// `[p% of A, A − p% of A]` when one amount and one percentage are said, the rest is
/// named, and each one's part asked.
pub(super) fn share_and_rest(w: &Words, q: &[Quantity]) -> Option<Vec<Expr>> {
    let [a, b] = q else { return None };
    let (amount, percent) = match (&a.role, &b.role) {
        (Role::Amount, Role::Percent) => (a, b),
        (Role::Percent, Role::Amount) => (b, a),
        _ => return None,
    };
    if !big(&amount.value) || !w.says(REST) || !w.says(EACH) {
        return None;
    }
    let share = Expr::bin(
        MathOp::Percent,
        Expr::Num(percent.value.clone()),
        Expr::Num(amount.value.clone()),
    );
    let rest = Expr::bin(
        MathOp::Subtract,
        Expr::Num(amount.value.clone()),
        share.clone(),
    );
    Some(vec![share, rest])
}
