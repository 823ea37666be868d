//! The difference of two amounts, asked by a word that wants it: the change from a
//! note (`Khách đưa tờ 500k, tiền nước 176k, chị thối lại bao nhiêu?`), what is still
//! missing (`saved $2,480 so far, need $3,100 … how much more`), a rise or a fall
//! (`giá tuần trước 96.800 tuần này 98.500 tăng bao nhiêu 1kg`). The answer is the
//! larger less the smaller: each cue says which way it goes by itself.

use crate::expr::{Expr, MathOp};

use super::roles::{Quantity, Role, big};
use super::words::*;

/// Phrases asking the difference of two amounts (compared folded).
pub(super) const DIFFERENCE: &[&[&str]] = &[
    &["how", "much", "more"],
    &["how", "much", "less"],
    &["how", "much", "short"],
    &["how", "much", "change"],
    &["how", "much", "higher"],
    &["how", "much", "lower"],
    &["how", "much", "cheaper"],
    &["how", "much", "dearer"],
    &["difference"],
    &["diff"],
    &["my", "change"],
    &["still", "need"],
    &["thối", "lại"],
    &["thối"],
    &["thói", "lại"],
    &["trả", "lại", "bao"],
    &["tăng", "bao", "nhiêu"],
    &["giảm", "bao", "nhiêu"],
    &["lên", "bao", "nhiêu"],
    &["xuống", "bao", "nhiêu"],
    &["chênh"],
    &["thiếu", "bao", "nhiêu"],
    &["hơn", "bao", "nhiêu"],
    &["cần", "thêm", "bao"],
    &["cần", "thêm"],
    &["dư", "bao", "nhiêu"],
    &["còn", "nợ"],
    &["còn", "phải", "trả"],
    &["còn", "thiếu"],
    &["still", "owe"],
    &["lãi", "bao", "nhiêu"],
    &["lời", "bao", "nhiêu"],
    &["profit"],
];

/// Words of handing money over: what the change is from.
const HANDS: &[&str] = &[
    "đưa", "pays", "paid", "gave", "hands", "handed", "tendered", "give", "gives",
];

/// Whether `toks` ask the change from money handed over (`paid with 600k, how much
/// change`, `đưa 600 tệ, thối lại bao nhiêu`): one frame over the whole request.
pub fn asks_change(toks: &[crate::lexer::Token]) -> bool {
    // (A cheap look at the words as typed first: folding every word costs.)
    // (`change from 2,000,000 for a 1,740,000 bill`: the money it is from, named.)
    let hands = toks
        .iter()
        .any(|t| t.word().is_some_and(|h| HANDS.contains(&h)))
        || crate::lexer::says(toks, &[&["change", "from"]]);
    if !hands {
        return false;
    }
    let w = Words::new(toks);
    w.says(&[&["change"], &["thối"], &["trả", "lại"], &["tiền", "thừa"]])
}

/// `khách lấy 3 thùng táo 185 tệ một thùng, đưa 600 tệ, thối lại bao nhiêu`: what was
/// handed over less a rate times its counts.
fn handed_over(w: &Words, q: &[&Quantity]) -> Option<Expr> {
    let handed = |x: &&&Quantity| {
        matches!(x.role, Role::Amount | Role::Count(_))
            && (x.at.saturating_sub(2)..x.at).any(|k| w.word(k).is_some_and(|h| is_in(HANDS, h)))
    };
    let [paid] = q.iter().filter(handed).collect::<Vec<_>>()[..] else {
        return None;
    };
    let rest: Vec<&&Quantity> = q.iter().filter(|x| x.at != paid.at).collect();
    let [rate] = rest
        .iter()
        .filter(|x| matches!(x.role, Role::Rate(_)))
        .collect::<Vec<_>>()[..]
    else {
        return None;
    };
    let counts: Vec<&&Quantity> = rest
        .iter()
        .copied()
        .filter(|x| matches!(x.role, Role::Count(_)))
        .collect();
    if counts.len() + 1 != rest.len() {
        return None;
    }
    let cost = super::base::product(rate, &counts)?;
    Some(Expr::bin(
        MathOp::Subtract,
        Expr::Num(paid.value.clone()),
        cost,
    ))
}

/// `larger − smaller` of the request's two amounts, when a cue asks their difference
/// and nothing else is said with a number.
pub(super) fn difference(w: &Words, q: &[Quantity]) -> Option<Expr> {
    // (`lãi bao nhiêu phần trăm`: a percentage asked, not the difference.)
    let percent = w.says(&[&["phần", "trăm"], &["percent"], &["percentage"], &["%"]])
        || w.toks.iter().any(|t| t.is_sym('%'));
    // (`customer pays 500k cash for a 372,500 bill, change?`: the change asked in a word,
    // the money handed over said.)
    if !(w.says(DIFFERENCE) || asks_change(w.toks)) || percent {
        return None;
    }
    // (`tăng bao nhiêu 1kg`: the one unit a price is for is no amount.)
    let per_one = |x: &&Quantity| {
        x.value == "1" && matches!(&x.role, Role::Count(_) | Role::Rate(_)) && x.at > 0
    };
    let amounts: Vec<&Quantity> = q.iter().filter(|x| !per_one(x)).collect();
    if let Some(e) = handed_over(w, &amounts) {
        return Some(e);
    }
    let [a, b] = amounts.as_slice() else {
        return None;
    };
    let amount = |x: &Quantity| match &x.role {
        Role::Amount => true,
        // (`mỗi tháng chạy 26 ngày, mỗi ngày lời 420 nghìn`: days counted are no amount;
        // `giá hôm qua 52.000` is.)
        Role::Count(nouns) => !nouns
            .iter()
            .any(|n| is_person(n) || is_group(n) || is_period(n) && !big(&x.value)),
        _ => false,
    };
    if !(amount(a) && amount(b)) {
        return None;
    }
    let (x, y): (f64, f64) = (a.value.parse().ok()?, b.value.parse().ok()?);
    let (big, small) = if x >= y { (a, b) } else { (b, a) };
    Some(Expr::bin(
        MathOp::Subtract,
        Expr::Num(big.value.clone()),
        Expr::Num(small.value.clone()),
    ))
}
