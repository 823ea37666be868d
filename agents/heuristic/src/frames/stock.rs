//! What a product leaves once some is taken off, and how long a supply lasts:
//!
//! - **deductions**: a rate times its counts, less amounts said with a word that takes
//!   them off, when what is left is asked (`ngay chay 3 chuyen moi chuyen 8 khach 150k,
//!   tru xang 400k con lai bn`; `Kho còn 4 thùng, mỗi thùng 48 hộp, sáng nay bán 37
//!   hộp. Còn lại bao nhiêu hộp?`);
//! - **a supply**: a rate times its counts used so many a period, when how many periods
//!   is asked (`Hộp này 5 vỉ, mỗi vỉ 12 viên, ngày uống 3 viên thì được mấy ngày?`).

use crate::expr::{Expr, MathOp};

use super::base::base;
use super::roles::*;
use super::vocabulary::*;
use super::words::*;

/// Words that take an amount off (said before it).
pub(super) const TAKE_OFF: &[&[&str]] = &[
    &["trừ"],
    &["minus"],
    &["less"],
    &["deduct"],
    &["bán"],
    &["sold"],
    &["sell"],
    &["used"],
    &["dùng"],
    &["xuất"],
    &["tạm", "ứng"],
    &["ứng"],
    &["advance"],
    &["gave", "away"],
];

/// One amount less every amount listed after a take-off word, when what is left is
/// asked (`tiền lúa vụ này 68 triệu, trừ phân 12,76 triệu, thuốc 6,5 triệu, tiền công
/// 5,4 triệu, còn lại bao nhiêu`, `Thu 16.700.000đ, trừ tiền dầu 5.150.000đ, tiền sửa
/// máy 1.200.000đ, còn lại`): the list's amounts are each taken off the first.
///
/// With no take-off word, or one amount taken, what is left must be asked after the last
/// number and the first amount must exceed the rest together (`stipend came in, 1,850
/// eur. rent 620, what's left`; `mốc 190.000 km, đồng hồ đang 187.350 km, còn bao nhiêu
/// km nữa`). A count before the first amount only says what it was for (`Lương 9 chuyến
/// 25.200.000đ, trừ tiền ăn 3.150.000đ còn bao nhiêu`).
pub(super) fn listed_deductions(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.iter().any(|x| x.role == Role::Percent) || !w.says(LEFT) {
        return None;
    }
    let q = match q {
        [count, amount, _, ..]
            if matches!(count.role, Role::Count(_))
                && !big(&count.value)
                && amount.at == count.at + 2
                && big(&amount.value) =>
        {
            &q[1..]
        }
        _ => q,
    };
    let [first, rest @ ..] = q else { return None };
    let off = (first.at + 1..rest.first()?.at).any(|i| TAKE_OFF.iter().any(|p| w.at(i, p)));
    let unit = match &first.role {
        Role::Count(nouns) => nouns.first().map(String::as_str),
        _ => None,
    };
    let money = |x: &Quantity| match &x.role {
        Role::Amount => big(&x.value) || !off,
        Role::Count(nouns) => {
            big(&x.value) || unit.is_some_and(|u| nouns.first().is_some_and(|n| n == u))
        }
        _ => false,
    };
    if rest.is_empty() || !money(first) || !rest.iter().all(money) {
        return None;
    }
    if !off || rest.len() < 2 {
        let last = rest.last()?.at;
        let asked_after = (last + 1..w.toks.len()).any(|i| LEFT.iter().any(|p| w.at(i, p)));
        let value = |x: &Quantity| x.value.parse::<f64>().unwrap_or(f64::NAN);
        let taken: f64 = rest.iter().map(value).sum();
        if !asked_after || value(first).partial_cmp(&taken) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
    }
    Some(rest.iter().fold(Expr::Num(first.value.clone()), |e, x| {
        Expr::bin(MathOp::Subtract, e, Expr::Num(x.value.clone()))
    }))
}

/// The product of `q` less each quantity a take-off word comes just before, when what
/// is left is asked; `None` without one of each.
pub(super) fn deductions(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.iter().any(|x| x.role == Role::Percent) || !w.says(LEFT) {
        return None;
    }
    let taken = |x: &Quantity| w.near(x.at, 3, 0, TAKE_OFF);
    let (off, rest): (Vec<&Quantity>, Vec<&Quantity>) = q.iter().partition(|x| taken(x));
    if off.is_empty() {
        return None;
    }
    let product @ Expr::Op(..) = base(w, &rest)? else {
        return None;
    };
    let mut e = product;
    for x in off {
        let amount = match &x.role {
            Role::Amount => true,
            Role::Count(nouns) => big(&x.value) || rest.iter().any(|r| counts_alike(w, r, nouns)),
            _ => false,
        };
        if !amount {
            return None;
        }
        e = Expr::bin(MathOp::Subtract, e, Expr::Num(x.value.clone()));
    }
    Some(e)
}

/// Whether the number `r` counts the same thing as `nouns` (`mỗi thùng 48 hộp` … `bán
/// 37 hộp`).
fn counts_alike(w: &Words, r: &Quantity, nouns: &[String]) -> bool {
    let (Some(noun), Some(its)) = (nouns.first(), w.word(r.at + 1)) else {
        return false;
    };
    same_thing(its, noun)
}

/// Words asking how many periods something lasts.
const HOW_LONG: &[&[&str]] = &[
    &["mấy", "ngày"],
    &["bao", "nhiêu", "ngày"],
    &["how", "many", "days"],
    &["how", "many", "weeks"],
    &["mấy", "tuần"],
    &["how", "long"],
    &["bao", "lâu"],
];

/// A supply (a rate times its counts) over what is used a period (`ngày uống 3 viên`,
/// `4 tablets a day`), when how many periods it lasts is asked.
pub(super) fn supply(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.iter().any(|x| x.role == Role::Percent) || !w.says(HOW_LONG) {
        return None;
    }
    // The use a period: a count said right after a period word or before a tie to one.
    let per_period = |x: &Quantity| {
        // (`ngày 3 viên`, `ngày uống 2 viên`)
        let before = (x.at.saturating_sub(2)..x.at).any(|k| w.word(k).is_some_and(is_period));
        let after = w.word(x.at + 2).is_some_and(|t| is_in(TIES, t))
            && w.word(x.at + 3).is_some_and(is_period);
        matches!(x.role, Role::Count(_)) && (before || after)
    };
    let (used, rest): (Vec<&Quantity>, Vec<&Quantity>) = q.iter().partition(|x| per_period(x));
    let [used] = used.as_slice() else {
        return None;
    };
    // (`hộp 60 viên, ngày uống 2 viên`: a supply counted in what is used.)
    let alike = match (rest.as_slice(), &used.role) {
        ([whole], Role::Count(used_nouns)) => match &whole.role {
            Role::Count(nouns) => nouns
                .first()
                .zip(used_nouns.first())
                .is_some_and(|(a, b)| same_thing(a, b)),
            _ => false,
        },
        _ => false,
    };
    if let ([whole], true) = (rest.as_slice(), alike) {
        return Some(Expr::bin(
            MathOp::Divide,
            Expr::Num(whole.value.clone()),
            Expr::Num(used.value.clone()),
        ));
    }
    let product @ Expr::Op(..) = base(w, &rest)? else {
        return None;
    };
    Some(Expr::bin(
        MathOp::Divide,
        product,
        Expr::Num(used.value.clone()),
    ))
}
