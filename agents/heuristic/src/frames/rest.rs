//! A share of an amount and the rest, each asked: `Con gửi về 12.225.000, tôi giữ 40%,
//! còn lại đưa bà nó. Mỗi người bao nhiêu?` is 40% of it and what is left of it; `salary
//! 2,340€ gross, tax 21.5%. how much tax and what's left` the tax and the rest; `gửi 50
//! triệu lãi suất 6%/năm, 1 năm được bao nhiêu tiền lãi, tổng cả gốc lẫn lãi` the
//! interest and the amount with it.

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

/// Words asking the share itself: `how much tax`, `bao nhiêu tiền lãi`.
const SHARE_ASKED: &[&[&str]] = &[
    &["how", "much", "tax"],
    &["how", "much", "is", "the", "tax"],
    &["how", "much", "interest"],
    &["how", "much", "fee"],
    &["how", "much", "commission"],
    &["how", "much", "in", "tax"],
    &["bao", "nhiêu", "tiền", "lãi"],
    &["bao", "nhiêu", "tiền", "thuế"],
    &["tiền", "lãi", "bao", "nhiêu"],
    &["tiền", "thuế", "bao", "nhiêu"],
    // (Not `lãi bao nhiêu` alone: folded, it is also `còn lại bao nhiêu`.)
];

/// Words asking what is left after the share: `what's left`, `my net`, `còn lại`.
const REST_ASKED: &[&[&str]] = &[
    &["what's", "left"],
    &["whats", "left"],
    &["what", "is", "left"],
    &["how", "much", "is", "left"],
    &["my", "net"],
    &["the", "net"],
    &["net", "pay"],
    &["take", "home"],
    &["còn", "lại"],
    &["thực", "nhận"],
];

/// Words asking the amount with the share: `tổng cả gốc lẫn lãi`, `total with interest`.
const WITH_SHARE: &[&[&str]] = &[
    &["gốc", "lẫn", "lãi"],
    &["gốc", "và", "lãi"],
    &["total", "with", "interest"],
    &["with", "the", "interest"],
];

/// Whether `toks` ask a share and the rest (or the amount with the share) together:
/// one frame over the whole request, never its first question alone.
pub fn asks_share_and_rest(toks: &[crate::lexer::Token]) -> bool {
    // (A share is a percentage: without one, no words are folded.)
    if !toks.iter().any(|t| t.is_sym('%')) {
        return false;
    }
    let w = Words::new(toks);
    w.says(SHARE_ASKED) && (w.says(REST_ASKED) || w.says(WITH_SHARE))
}

/// `[p% of A, A − p% of A]` when one amount and one percentage are said, the rest is
/// named, and each one's part asked (or the share and the rest asked outright); `[p%
/// of A, A + p% of A]` when the share and the amount with it are asked.
pub(super) fn share_and_rest(w: &Words, q: &[Quantity]) -> Option<Vec<Expr>> {
    // (`1 năm được bao nhiêu tiền lãi`: the one period asked of is no quantity.)
    let q: Vec<&Quantity> = q
        .iter()
        .filter(|x| {
            !(x.value == "1"
                && matches!(&x.role, Role::Count(n) if n.first().is_some_and(|n| super::words::is_period(n))))
        })
        .collect();
    let [a, b] = q.as_slice() else { return None };
    // (`salary 2,340€ gross`: an amount named by what it is.)
    let amount_like = |r: &Role| match r {
        Role::Amount => true,
        // (The word right after it names it: `50 triệu lãi suất` is no count of `suất`.)
        Role::Count(n) => n.first().is_some_and(|n| {
            !super::words::is_person(n) && !super::words::is_group(n) && !super::words::is_period(n)
        }),
        _ => false,
    };
    let (amount, percent) = match (&a.role, &b.role) {
        (r, Role::Percent) if amount_like(r) => (*a, *b),
        (Role::Percent, r) if amount_like(r) => (*b, *a),
        _ => return None,
    };
    let each = w.says(REST) && w.says(EACH);
    let asked = w.says(SHARE_ASKED);
    let with_share = asked && w.says(WITH_SHARE);
    if !big(&amount.value) && !asked || !(each || asked && w.says(REST_ASKED) || with_share) {
        return None;
    }
    let share = Expr::bin(
        MathOp::Percent,
        Expr::Num(percent.value.clone()),
        Expr::Num(amount.value.clone()),
    );
    let op = match with_share {
        true => MathOp::Sum,
        false => MathOp::Subtract,
    };
    let rest = Expr::bin(op, Expr::Num(amount.value.clone()), share.clone());
    Some(vec![share, rest])
}
