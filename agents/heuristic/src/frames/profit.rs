//! The profit of buying a lot and selling it by the unit: `nhập 1 tạ khoai tây giá
//! 1tr6, bán lẻ 22 nghìn một ký, bán hết thì lời bao nhiêu` (100 × 22,000 − 1,600,000),
//! or per unit when asked so: `she buys tomatoes wholesale, 1,800,000 for 100kg, and
//! sells them at 28k a kg. whats her profit per kg` (28,000 − 1,800,000 ÷ 100).

use crate::expr::{Expr, MathOp};

use super::roles::*;
use super::vocabulary::TIES;
use super::words::*;

/// Words of buying (said before the cost).
const BUY: &[&[&str]] = &[
    &["nhập"],
    &["mua"],
    &["buy"],
    &["buys"],
    &["bought"],
    &["wholesale"],
    &["vốn"],
    &["cost"],
    &["costs"],
];

/// Words of selling (said before the price a unit).
const SELL: &[&[&str]] = &[&["bán"], &["sell"], &["sells"], &["sold"], &["retail"]];

/// Words asking the profit.
const PROFIT: &[&[&str]] = &[
    &["lời"],
    &["lãi"],
    &["profit"],
    &["margin"],
    &["make"],
    &["earn"],
];

/// Sales of a lot bought whole, less what it cost (or per unit, when asked); or so
/// many bought and sold at a price each, the margin times the count.
pub(super) fn profit(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.len() != 3 || !w.says(PROFIT) || q.iter().any(|x| x.role == Role::Percent) {
        return None;
    }
    lot_profit(w, q).or_else(|| unit_margin(w, q))
}

/// `váy nhập 120k bán 199k, bán được 46 cái thì lãi bao nhiêu`, `nhap 20 lop xe 285k 1 cai
/// ban ra 340k, lai bao nhieu`: (the price sold at − the price bought at) × the count;
/// the count is the one small number counted in a thing, the prices the two big ones,
/// one after a word of buying and one after a word of selling.
fn unit_margin(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let counts: Vec<&Quantity> = q
        .iter()
        .filter(|x| matches!(&x.role, Role::Count(n) if n.first().is_some_and(|n| !is_in(super::vocabulary::CURRENCY, n))) && !big(&x.value))
        .collect();
    let [count] = counts.as_slice() else {
        return None;
    };
    let prices: Vec<&Quantity> = q
        .iter()
        .filter(|x| x.at != count.at && big(&x.value))
        .collect();
    let [a, b] = prices.as_slice() else {
        return None;
    };
    // (`nhap 1 ta cam 2tr5, ban le 32k 1 ky`: a price per another unit than the count's
    // is the lot's question, never a margin times a count.)
    let Role::Count(nouns) = &count.role else {
        return None;
    };
    let measure = |u: &str| {
        is_in(
            &[
                "kg", "ký", "kí", "lít", "tạ", "tấn", "mét", "gram", "yến", "lạng",
            ],
            u,
        )
    };
    let other_unit = [a, b].iter().any(|x| {
        matches!(&x.role, Role::Rate(Some(u))
            if measure(u) && !nouns.first().is_some_and(|n| same_thing(n, u)))
    });
    if other_unit {
        return None;
    }
    let sells = |x: &Quantity| w.near(x.at, 3, 0, SELL);
    let buys = |x: &Quantity| w.near(x.at, 4, 0, BUY);
    let (bought, sold) = match (
        buys(a) && !sells(a),
        sells(b),
        buys(b) && !sells(b),
        sells(a),
    ) {
        (true, true, _, _) => (a, b),
        (_, _, true, true) => (b, a),
        // (`nhập 40 hộp bánh sữa giá 48k, bán 65k một hộp`: the word of buying said
        // further before its price; one price sold, the other bought.)
        (_, true, _, false) if w.says(BUY) => (a, b),
        (_, false, _, true) if w.says(BUY) => (b, a),
        _ => return None,
    };
    let n = |x: &Quantity| Expr::Num(x.value.clone());
    // (`mua 40 thùng nước suối 95k/thùng, bán hết được 5.200.000, lời bao nhiêu`: what
    // all of them sold for, half the cost of the lot or more, is the sales of the lot —
    // never a price of one.)
    let value = |x: &Quantity| x.value.parse::<f64>().ok();
    if let (Some(s), Some(b), Some(c)) = (value(sold), value(bought), value(count))
        && !matches!(sold.role, Role::Rate(_))
        && s >= b * c / 2.0
    {
        return Some(Expr::bin(
            MathOp::Subtract,
            n(sold),
            Expr::bin(MathOp::Multiply, n(count), n(bought)),
        ));
    }
    Some(Expr::bin(
        MathOp::Multiply,
        Expr::bin(MathOp::Subtract, n(sold), n(bought)),
        n(count),
    ))
}

/// Sales of a lot bought whole, less what it cost (or per unit, when asked).
fn lot_profit(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let price = q
        .iter()
        .find(|x| matches!(x.role, Role::Rate(Some(_))) && w.near(x.at, 4, 0, SELL))?;
    let Role::Rate(Some(unit)) = &price.role else {
        return None;
    };
    let lot = q.iter().find(
        |x| matches!(&x.role, Role::Count(n) if n.first().is_some_and(|n| same_thing(n, unit))),
    )?;
    let cost = q
        .iter()
        .find(|x| x.at != price.at && x.at != lot.at && big(&x.value))?;
    if !(w.near(cost.at, 5, 0, BUY) || w.near(lot.at, 3, 0, BUY)) {
        return None;
    }
    // (`nhập 40 hộp bánh sữa giá 48k, bán 65k một hộp`: a cost below the price of one
    // is the cost of one, never the whole lot's.)
    if let (Ok(c), Ok(p)) = (cost.value.parse::<f64>(), price.value.parse::<f64>())
        && c < p
    {
        return None;
    }
    let n = |x: &Quantity| Expr::Num(x.value.clone());
    // (`profit per kg`, `mỗi ký lời bao nhiêu`)
    let per_unit = (0..w.toks.len()).any(|i| {
        w.word(i)
            .is_some_and(|t| is_in(TIES, t) && t != "1" && t != "a" && t != "an")
            && w.word(i + 1).is_some_and(|u| same_thing(u, unit))
            && i > price.at + 2
            || (w.word(i) == Some("moi") && w.word(i + 1).is_some_and(|u| same_thing(u, unit)))
    });
    let profit = match per_unit {
        true => Expr::bin(
            MathOp::Subtract,
            n(price),
            Expr::bin(MathOp::Divide, n(cost), n(lot)),
        ),
        false => Expr::bin(
            MathOp::Subtract,
            Expr::bin(MathOp::Multiply, n(lot), n(price)),
            n(cost),
        ),
    };
    // (`lời bao nhiêu phần trăm`, `what % profit`: the profit as a percentage of the
    // cost.)
    if w.says(PERCENT_ASKED) && !per_unit {
        return Some(Expr::percent_of(profit, n(cost)));
    }
    Some(profit)
}

/// Words asking a percentage.
const PERCENT_ASKED: &[&[&str]] = &[
    &["phần", "trăm"],
    &["percent"],
    &["percentage"],
    &["what", "%"],
    &["bao", "nhiêu", "%"],
];
