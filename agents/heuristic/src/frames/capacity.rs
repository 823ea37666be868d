//! How many of something a total takes, each holding a number of the same thing:
//! `ghe cho dc 10 nguoi, doan khach 40 nguoi, can may chuyen` (trips of a boat that
//! carries 10), `placement is 80 hrs and i do 8hr shifts, how many shifts is that`.
//! The total ÷ what one holds, rounded up when it does not divide: a last trip half
//! full is still a trip.

use crate::expr::{Expr, MathOp};

use super::roles::{Quantity, Role};
use super::words::*;

/// The trips, shifts or boxes a total of a thing takes, each holding a count of the same
/// thing; `None` unless exactly two counts of one thing and a count asked of another.
pub(super) fn capacity(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let [a, b] = q else { return None };
    let (Role::Count(na), Role::Count(nb)) = (&a.role, &b.role) else {
        return None;
    };
    let (ta, tb) = (na.first()?, nb.first()?);
    if !same_thing(ta, tb) {
        return None;
    }
    // What is asked: a thing named after `how many`, neither the counted one nor money.
    let asked = w.count_asked()?;
    // (`14 days leave, used 9.5 days, how many left`: what is left, no count of holders.)
    if same_thing(asked, ta) || matches!(asked, "left" | "remaining" | "over") {
        return None;
    }
    // (`8hr shifts`: the asked thing named beside one count holds it.)
    let named = |n: &[String]| n.get(1).is_some_and(|x| same_thing(x, asked));
    let (x, y): (f64, f64) = (a.value.parse().ok()?, b.value.parse().ok()?);
    let (total, each) = match (named(na), named(nb)) {
        (true, false) => (b, a),
        (false, true) => (a, b),
        _ if x >= y => (a, b),
        _ => (b, a),
    };
    let (t, e): (f64, f64) = (total.value.parse().ok()?, each.value.parse().ok()?);
    if e <= 0.0 || t < e {
        return None;
    }
    let share = Expr::bin(
        MathOp::Divide,
        Expr::Num(total.value.clone()),
        Expr::Num(each.value.clone()),
    );
    // (`đóng hộp 500g được mấy hộp`, `how many full boxes`: only full ones are packed.)
    // (`đóng thùng 20kg thì cần mấy thùng`: the boxes needed hold it all, the last one
    // part full.)
    let needed = w.says(&[&["cần"], &["need"], &["needs"], &["needed"]]);
    let packed = w.says(&[&["đóng"], &["đầy"], &["full"], &["pack"], &["fill"]]) && !needed;
    Some(match ((t / e).fract() == 0.0, packed) {
        (true, _) => share,
        (false, true) => Expr::round_down(share),
        (false, false) => Expr::round_up(share),
    })
}
