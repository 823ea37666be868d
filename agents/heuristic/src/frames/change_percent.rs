//! A change as a percentage of where it started: a profit on what was paid (`vốn 25
//! triệu bán được 31 triệu thì lời mấy phần trăm`), a rise from one month to the next
//! (`tháng 11 bán 62 khăn tháng 10 bán 48 khăn tăng bao nhiêu phần trăm`). The start
//! is what was paid (`vốn`, `cost`, `bought`), else the earlier month said, else the
//! amount told first; the answer is the change × 100 ÷ the start, a fall counted down.

use crate::expr::{Expr, MathOp};

use super::roles::{Quantity, Role};
use super::vocabulary::PERCENT_WORDS;
use super::words::*;

/// Words of a rise or a profit.
const RISE: &[&str] = &[
    "tăng", "lời", "lãi", "loi", "lai", "profit", "increase", "rise", "grow", "grew", "up", "gain",
    "more",
];

/// Words of a fall or a loss.
const FALL: &[&str] = &[
    "giảm", "lỗ", "drop", "fall", "fell", "decrease", "loss", "down", "less",
];

/// Words said before an amount of an earlier time: the start.
const EARLIER: &[&str] = &[
    "trước",
    "last",
    "previous",
    "yesterday",
    "before",
    "cũ",
    "old",
];

/// Words said before what was paid: the start.
const PAID: &[&str] = &["vốn", "mua", "nhập", "cost", "bought", "paid", "was", "tư"];

/// `(new − start) × 100 ÷ start` of the request's two amounts, when a change is asked
/// as a percentage.
pub(super) fn change_percent(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let asked = w.says(PERCENT_WORDS)
        && !w.toks.iter().any(|t| t.is_sym('%'))
        && (0..w.toks.len()).any(|i| w.word(i).is_some_and(|k| is_in(RISE, k) || is_in(FALL, k)));
    if !asked {
        return None;
    }
    let month = |x: &Quantity| {
        x.at >= 1
            && w.word(x.at - 1)
                .is_some_and(|k| is_in(&["tháng", "month"], k))
    };
    let amounts: Vec<&Quantity> = q
        .iter()
        .filter(|x| !month(x) && matches!(x.role, Role::Amount | Role::Count(_)))
        .collect();
    if amounts.len() + q.iter().filter(|x| month(x)).count() != q.len() {
        return None;
    }
    // (`mua 1.000 cổ phiếu giá 25.400, bây giờ giá lên 28.194`, `bán 1 kg 350.000đ, vốn
    // 200.000đ`: the two prices, whatever was counted.)
    let prices: Vec<&Quantity> = amounts
        .iter()
        .filter(|x| x.role == Role::Amount)
        .copied()
        .collect();
    let amounts = if amounts.len() > 2 { prices } else { amounts };
    let [a, b] = amounts.as_slice() else {
        return None;
    };
    let paid = |x: &Quantity| {
        (x.at.saturating_sub(2)..x.at).any(|k| w.word(k).is_some_and(|k| is_in(PAID, k)))
    };
    // The month said before each amount, if any.
    let month_of = |x: &Quantity| -> Option<u32> {
        q.iter()
            .rfind(|m| month(m) && m.at < x.at)
            .and_then(|m| m.value.parse().ok())
    };
    // (`tuần này 4200 trái, tuần trước 3500 trái, tăng mấy phần trăm`, `this week 4200,
    // last week 3500`: the amount said of the earlier time is the start.)
    let earlier = |x: &Quantity| {
        (x.at.saturating_sub(3)..x.at).any(|k| w.word(k).is_some_and(|k| is_in(EARLIER, k)))
    };
    let (start, end) = if paid(b) && !paid(a) || earlier(b) && !earlier(a) {
        (b, a)
    } else if let (Some(ma), Some(mb)) = (month_of(a), month_of(b))
        && mb < ma
    {
        (b, a)
    } else {
        (a, b)
    };
    let fall = (0..w.toks.len()).any(|i| w.word(i).is_some_and(|k| is_in(FALL, k)));
    let (x, y) = if fall { (start, end) } else { (end, start) };
    let change = Expr::bin(
        MathOp::Subtract,
        Expr::Num(x.value.clone()),
        Expr::Num(y.value.clone()),
    );
    Some(Expr::percent_of(change, Expr::Num(start.value.clone())))
}
