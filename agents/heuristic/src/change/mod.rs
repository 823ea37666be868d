//! Two amounts compared, read over the whole request before it is split into parts:
//! an earlier amount A and a later one B, and the change asked of them.
//!
//! - Which is earlier: `from A to B` (`từ A lên B`), or a time said beside each
//!   amount — `last month` / `this month`, `tháng trước` / `tháng này`, `năm ngoái` /
//!   `năm nay`, `before` / `now` — in either order (`tiền điện tháng này 856.000đ,
//!   tháng trước 740.000đ`).
//! - What is asked: the difference (`how much more`, `tăng bao nhiêu tiền`, `by how
//!   much did it drop`) is B − A, or A − B for a fall; a percentage (`what % increase`,
//!   `tăng bao nhiêu phần trăm`) is that difference × 100 ÷ A, and `percent change`
//!   keeps its sign (B − A).
//!
//! Exactly two numbers, neither a percentage, each placed, and a change asked in so
//! many words; anything else (a total, a share, a date) leaves the request to the
//! other readers.

mod order;

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, words_at};
use order::{clause, in_order, in_order_of, month_before, months, said, word_before};

/// A time said beside the earlier amount.
const EARLIER: &[&[&str]] = &[
    &["last", "month"],
    &["last", "year"],
    &["last", "week"],
    &["yesterday"],
    &["before"],
    &["previously"],
    &["tháng", "trước"],
    &["năm", "ngoái"],
    &["năm", "trước"],
    &["tuần", "trước"],
    &["hôm", "qua"],
    &["trước", "đây"],
];

/// A time said beside the later amount.
const LATER: &[&[&str]] = &[
    &["this", "month"],
    &["this", "year"],
    &["this", "week"],
    &["today"],
    &["now"],
    &["tháng", "này"],
    &["năm", "nay"],
    &["tuần", "này"],
    &["hôm", "nay"],
    &["bây", "giờ"],
    &["hiện", "tại"],
];

/// Buying said beside the earlier amount (the cost), selling beside the later one
/// (`bought at 80k, sell at 125k, profit?`, `mua 200k bán 260k lãi bao nhiêu %`).
const BUY: &[&str] = &[
    "bought", "buy", "buying", "mua", "nhập", "vốn", "cost", "costs",
];
const SELL: &[&str] = &["sell", "sold", "selling", "sells", "bán", "resell"];

/// Words saying the later amount is what something bought is worth now.
const NOW: &[&str] = &["now", "currently", "today", "giờ", "nay"];

/// Words asking the gain between a cost and a selling price.
const GAIN: &[&str] = &["profit", "margin", "make", "earn", "gain", "lời", "lãi"];

/// Words asking a gain that another question would use (`per item`, `mỗi cái`): with a
/// cost and a selling price they only say the gain is on one item.
const PER_ITEM: &[&str] = &["per", "each", "mỗi", "lãi"];

/// `from` before the earlier amount, `to` before the later one.
const FROM: &[&str] = &["from", "từ"];
const TO: &[&str] = &["to", "lên", "xuống", "đến", "tới"];

/// Words asking a rise or any change (the difference B − A).
const RISE: &[&str] = &[
    "more",
    "increase",
    "increased",
    "higher",
    "up",
    "rise",
    "rose",
    "raise",
    "difference",
    "change",
    "changed",
    "tăng",
    "hơn",
    "chênh",
];

/// Words asking a fall (A − B).
const FALL: &[&str] = &[
    "less",
    "decrease",
    "decreased",
    "lower",
    "down",
    "drop",
    "dropped",
    "fell",
    "fall",
    "cheaper",
    "giảm",
    "bớt",
];

/// Words of another question: a total, a share, an operation, a date.
const OTHER: &[&str] = &[
    "total",
    "sum",
    "altogether",
    "together",
    "each",
    "per",
    "split",
    "times",
    "divided",
    "multiplied",
    "plus",
    "minus",
    "average",
    "tổng",
    "cộng",
    "chia",
    "nhân",
    "trừ",
    "mỗi",
    "tip",
    "tax",
    "interest",
    "days",
    "weeks",
    "date",
    "weekday",
    "lãi",
    "ngày",
    "thứ",
];

/// The change between the two amounts of `toks`, when that is what it asks.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    let (named_months, month_numbers) = months(toks);
    // (`từ 1tr5 lên 1tr8 1 tấn`: a 1 after an amount and before a unit says what the
    // amounts are for, no amount of its own.)
    let per_one = |k: usize| {
        toks[k].number() == Some("1")
            && k > 0
            && toks[k - 1].number().is_some()
            && toks.get(k + 1).and_then(Token::word).is_some()
    };
    let nums: Vec<usize> = crate::lexer::number_positions(toks)
        .into_iter()
        .filter(|&k| !month_numbers.contains(&k) && !per_one(k))
        .collect();
    let [first, second] = nums.as_slice() else {
        return None;
    };
    let (first, second) = (*first, *second);
    let is_pct = |k: usize| toks.get(k + 1).is_some_and(|t| t.is_sym('%'));
    if is_pct(first) || is_pct(second) || toks.iter().any(|t| matches!(t.tok, Tok::Date(_))) {
        return None;
    }
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    // (`bought at 25,000, now it's 28,500`: what it is worth now is the later amount.)
    let held = words.iter().any(|w| BUY.contains(w)) && words.iter().any(|w| NOW.contains(w));
    let trade =
        words.iter().any(|w| BUY.contains(w)) && (words.iter().any(|w| SELL.contains(w)) || held);
    if words
        .iter()
        .any(|w| OTHER.contains(w) && !(trade && PER_ITEM.contains(w)))
    {
        return None;
    }
    // Which amount is the earlier one.
    let from_to = word_before(toks, first).is_some_and(|w| FROM.contains(&w))
        && word_before(toks, second).is_some_and(|w| TO.contains(&w));
    let (a, b) = if from_to {
        (first, second)
    } else {
        let buy: Vec<&[&str]> = BUY.iter().map(std::slice::from_ref).collect();
        let sell: Vec<&[&str]> = SELL.iter().map(std::slice::from_ref).collect();
        let placed = |k: usize| {
            let (lo, hi) = clause(toks, k);
            let earlier = said(toks, lo, hi, EARLIER) || trade && said(toks, lo, hi, &buy);
            let later = said(toks, lo, hi, LATER) || trade && said(toks, lo, hi, &sell);
            match (earlier, later) {
                (true, false) => Some(true),
                (false, true) => Some(false),
                _ => None,
            }
        };
        // `tháng 10 là 1.250.000, tháng 11 là 1.100.000`: the month said in each
        // amount's clause.
        let month_of = |k: usize| {
            let (lo, hi) = clause(toks, k);
            match named_months
                .iter()
                .filter(|(i, _)| (lo..hi).contains(i))
                .collect::<Vec<_>>()
                .as_slice()
            {
                [(_, m)] => Some(*m),
                _ => None,
            }
        };
        let by_month = match (month_of(first), month_of(second)) {
            (Some(a), Some(b)) if a != b => Some(month_before(a, b)),
            _ => None,
        };
        let earlier_first = match (placed(first), placed(second)) {
            (Some(true), Some(false)) => true,
            (Some(false), Some(true)) => false,
            _ if by_month.is_some() => by_month?,
            _ if trade => in_order_of(toks, &nums, BUY, SELL)
                .or_else(|| in_order_of(toks, &nums, BUY, NOW))?,
            // No separator between them (`thang nay 856.000d thang truoc 740.000d`):
            // the first time said goes with the first amount.
            _ => in_order(toks, &nums)?,
        };
        match earlier_first {
            true => (first, second),
            false => (second, first),
        }
    };
    let percent = toks.iter().enumerate().any(|(k, t)| {
        t.is_sym('%') && !matches!(toks[k - 1].tok, Tok::Num(_))
            || matches!(t.word(), Some("percent" | "percentage"))
            || words_at(toks, k, &["phần", "trăm"])
    });
    let fall = words.iter().any(|w| FALL.contains(w));
    let rise =
        words.iter().any(|w| RISE.contains(w)) || trade && words.iter().any(|w| GAIN.contains(w));
    if !(fall || rise) {
        return None;
    }
    let num = |k: usize| toks[k].number().map(|n| Expr::Num(n.to_owned()));
    let signed = words.contains(&"change") || words.contains(&"changed");
    let (x, y) = if fall && !signed { (a, b) } else { (b, a) };
    let difference = Expr::bin(MathOp::Subtract, num(x)?, num(y)?);
    Some(match percent {
        false => difference,
        true => Expr::percent_of(difference, num(a)?),
    })
}

#[cfg(test)]
mod tests;
