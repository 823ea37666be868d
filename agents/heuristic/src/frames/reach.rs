//! How many periods or pieces it takes to reach a target at a rate: `i type about 450
//! words an hour, how many hours for a 6,300 word job`, `moi tuan de danh 100k, dt gia
//! 3tr thi mat bao nhieu tuan`, `i already have 2.1m, phone is 4.5m, saving 300k a
//! week — how many weeks`, `Mỗi ly lời 12k, muốn đủ 18.650.000 … bán ít nhất bao nhiêu
//! ly? Làm tròn lên`. The target (less what is already there) ÷ the rate, rounded up
//! when asked.

use crate::expr::{Expr, MathOp};

use super::roles::*;
use super::vocabulary::TIES;
use super::words::*;

/// Words naming what one already has towards the target.
const ALREADY: &[&[&str]] = &[
    &["already"],
    &["saved"],
    &["so", "far"],
    &["đã", "có"],
    &["có", "sẵn"],
    &["đã", "để", "dành"],
];

/// Words asking the count rounded up.
const ROUND_UP: &[&[&str]] = &[
    &["round", "up"],
    &["at", "least"],
    &["làm", "tròn", "lên"],
    &["ít", "nhất"],
];

/// (target − already) ÷ rate, the rate being so much per the asked thing.
pub(super) fn reach(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.iter().any(|x| x.role == Role::Percent) || !(2..=3).contains(&q.len()) {
        return None;
    }
    let thing = w.count_asked()?;
    // The rate: `300k a week`, `450 words an hour`, `mỗi tuần … 100k`, `Mỗi ly lời 12k`.
    let per_thing = |x: &Quantity| {
        let tied = matches!(&x.role, Role::Rate(Some(u)) if same_thing(u, thing));
        let after = (1..=2).any(|k| {
            w.word(x.at + k).is_some_and(|t| is_in(TIES, t))
                && w.word(x.at + k + 1).is_some_and(|u| same_thing(u, thing))
        });
        let before = (2..=4).any(|k| {
            x.at >= k
                && w.word(x.at - k) == Some("moi")
                && w.word(x.at - k + 1).is_some_and(|u| same_thing(u, thing))
        });
        tied || after || before
    };
    let rates: Vec<&Quantity> = q.iter().filter(|x| per_thing(x)).collect();
    let [rate] = rates[..] else { return None };
    let others: Vec<&Quantity> = q.iter().filter(|x| x.at != rate.at).collect();
    let have = |x: &&Quantity| w.near(x.at, 4, 1, ALREADY);
    let (target, already) = match others[..] {
        [t] => (t, None),
        [a, b] if have(&a) && !have(&b) => (b, Some(a)),
        [a, b] if have(&b) && !have(&a) => (a, Some(b)),
        _ => return None,
    };
    let (t, r): (f64, f64) = (target.value.parse().ok()?, rate.value.parse().ok()?);
    if r <= 0.0 || t <= r {
        return None;
    }
    let mut left = Expr::Num(target.value.clone());
    if let Some(a) = already {
        left = Expr::bin(MathOp::Subtract, left, Expr::Num(a.value.clone()));
    }
    let count = Expr::bin(MathOp::Divide, left, Expr::Num(rate.value.clone()));
    Some(match w.says(ROUND_UP) {
        true => Expr::round_up(count),
        false => count,
    })
}
