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

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, words_at};

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
const BUY: &[&str] = &["bought", "buy", "buying", "mua", "nhập", "cost", "costs"];
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

/// Separators between the clauses that place each amount.
fn separates(t: &Token) -> bool {
    t.is_sym(',') || t.is_sym(';') || t.is_sym('.') || matches!(t.word(), Some("and" | "và"))
}

/// Whether `phrase` (from a table) starts at some index in `toks[lo..hi]`.
fn said(toks: &[Token], lo: usize, hi: usize, table: &[&[&str]]) -> bool {
    (lo..hi).any(|i| {
        table
            .iter()
            .any(|p| i + p.len() <= hi && words_at(toks, i, p))
    })
}

/// The clause around index `k`: from after the separator before it to the next one.
fn clause(toks: &[Token], k: usize) -> (usize, usize) {
    let lo = (0..k)
        .rev()
        .find(|&i| separates(&toks[i]))
        .map_or(0, |i| i + 1);
    let hi = (k + 1..toks.len())
        .find(|&i| separates(&toks[i]))
        .unwrap_or(toks.len());
    (lo, hi)
}

/// The word before index `k`, past symbols such as `$`.
fn word_before(toks: &[Token], k: usize) -> Option<&str> {
    toks[..k]
        .iter()
        .rev()
        .find(|t| !matches!(t.tok, Tok::Sym(_)))?
        .word()
}

/// Whether the earlier time is said first, when `toks` say exactly two times, one
/// earlier and one later, each beside its own amount (`T₁ A T₂ B` or `A T₁ B T₂`).
fn in_order(toks: &[Token], nums: &[usize]) -> Option<bool> {
    let mut times: Vec<(usize, bool)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let found = [(EARLIER, true), (LATER, false)]
            .iter()
            .find_map(|(table, earlier)| {
                let p = table.iter().find(|p| words_at(toks, i, p))?;
                Some((p.len(), *earlier))
            });
        match found {
            Some((len, earlier)) => {
                times.push((i, earlier));
                i += len;
            }
            None => i += 1,
        }
    }
    let ([(t1, e1), (t2, e2)], [n1, n2]) = (times.as_slice(), nums) else {
        return None;
    };
    let interleaved = (t1 < n1 && n1 < t2 && t2 < n2) || (n1 < t1 && t1 < n2 && n2 < t2);
    (e1 != e2 && interleaved).then_some(*e1)
}

/// The months named in `toks` (`tháng 10`, `october`): (index, month), and the indices
/// of the numbers that only name a month.
fn months(toks: &[Token]) -> (Vec<(usize, u32)>, Vec<usize>) {
    let (mut named, mut numbers) = (Vec::new(), Vec::new());
    for (i, t) in toks.iter().enumerate() {
        let Some(w) = t.word() else {
            continue;
        };
        if w == "tháng"
            && let Some(m) = toks
                .get(i + 1)
                .and_then(Token::number)
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|m| (1..=12).contains(m))
        {
            named.push((i, m));
            numbers.push(i + 1);
        } else if let Some(m) = crate::dates::month_number(w) {
            named.push((i, m));
        }
    }
    (named, numbers)
}

/// Whether the month `a` comes before `b` (within half a year either way: December
/// comes before January).
fn month_before(a: u32, b: u32) -> bool {
    let ahead = (b + 12 - a) % 12;
    (1..=6).contains(&ahead)
}

/// Whether the amount after a word of `earlier` comes first, when `toks` say one word
/// of each table, each before its own amount (`bought at 80k sell at 125k`).
fn in_order_of(toks: &[Token], nums: &[usize], earlier: &[&str], later: &[&str]) -> Option<bool> {
    let at = |table: &[&str]| {
        let found: Vec<usize> = (0..toks.len())
            .filter(|&i| toks[i].word().is_some_and(|w| table.contains(&w)))
            .collect();
        match found.as_slice() {
            [i] => Some(*i),
            _ => None,
        }
    };
    let (e, l) = (at(earlier)?, at(later)?);
    let [n1, n2] = nums else {
        return None;
    };
    if e < *n1 && *n1 < l && l < *n2 {
        Some(true)
    } else if l < *n1 && *n1 < e && e < *n2 {
        Some(false)
    } else {
        None
    }
}

/// The change between the two amounts of `toks`, when that is what it asks.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    let (named_months, month_numbers) = months(toks);
    let nums: Vec<usize> = crate::lexer::number_positions(toks)
        .into_iter()
        .filter(|k| !month_numbers.contains(k))
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
        true => Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, difference, Expr::Num("100".into())),
            num(a)?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn read(src: &str) -> Option<Expr> {
        parse(&lex(src))
    }

    fn n(s: &str) -> Expr {
        Expr::Num(s.into())
    }

    fn minus(a: &str, b: &str) -> Expr {
        Expr::bin(MathOp::Subtract, n(a), n(b))
    }

    fn pct(a: &str, b: &str, base: &str) -> Expr {
        Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, minus(a, b), n("100")),
            n(base),
        )
    }

    #[test]
    fn what_was_bought_against_what_it_is_worth_now() {
        assert_eq!(
            read("bought at 25000 now it's 28500, what % gain"),
            Some(pct("28500", "25000", "25000"))
        );
    }

    #[test]
    fn a_time_beside_each_amount_places_it_in_either_order() {
        assert_eq!(
            read("electric bill was 120 last month and 150 this month, how much more"),
            Some(minus("150", "120"))
        );
        assert_eq!(
            read("tiền điện tháng này 856000, tháng trước 740000, tăng bao nhiêu tiền"),
            Some(minus("856000", "740000"))
        );
        assert_eq!(
            read("năm ngoái bán 500 cái, năm nay 420 cái, giảm bao nhiêu"),
            Some(minus("500", "420"))
        );
    }

    #[test]
    fn without_separators_each_time_goes_with_its_own_amount() {
        assert_eq!(
            read("tien dien tháng này 856000 d tháng trước 740000 d thi tăng bao nhieu"),
            Some(minus("856000", "740000"))
        );
        assert_eq!(
            read("sold 420 this year vs 500 last year how much less"),
            Some(minus("500", "420"))
        );
        // Both times before both amounts: which is which is not said.
        assert_eq!(
            read("last month and this month: 120 150, how much more"),
            None
        );
    }

    #[test]
    fn a_percentage_is_of_the_earlier_amount() {
        assert_eq!(
            read("salary 12000000 last month, 13500000 this month, what % increase"),
            Some(pct("13500000", "12000000", "12000000"))
        );
        assert_eq!(
            read("lương tháng trước 12000000, tháng này 13500000, tăng bao nhiêu phần trăm"),
            Some(pct("13500000", "12000000", "12000000"))
        );
        // A percent change keeps its sign.
        assert_eq!(
            read("visits 900 last week and 720 this week, percent change?"),
            Some(pct("720", "900", "900"))
        );
    }

    #[test]
    fn from_and_to_place_the_amounts() {
        assert_eq!(
            read("rent went from 1200 to 1350, how much more is it"),
            Some(minus("1350", "1200"))
        );
        assert_eq!(
            read("giá xăng từ 25000 xuống 23500, giảm bao nhiêu"),
            Some(minus("25000", "23500"))
        );
    }

    #[test]
    fn anything_else_is_left_to_the_other_readers() {
        // No change asked.
        assert_eq!(read("120 last month and 150 this month"), None);
        // A total.
        assert_eq!(read("120 last month and 150 this month, total?"), None);
        // Both amounts at one time, or one unplaced.
        assert_eq!(read("120 and 150 this month, how much more"), None);
        // A percentage given, three numbers.
        assert_eq!(read("from 80 to 92, up 15%?"), None);
        assert_eq!(
            read("120 last month, 150 this month, 170 now, how much more"),
            None
        );
    }

    #[test]
    fn months_by_name_or_number_and_buying_and_selling_place_the_amounts() {
        assert_eq!(
            read("tiền nước tháng 3 là 200000, tháng 4 là 260000, tăng mấy phần trăm"),
            Some(pct("260000", "200000", "200000"))
        );
        assert_eq!(
            read("december sales 900, january 750, how much less"),
            Some(minus("900", "750"))
        );
        assert_eq!(
            read("I buy them at 40 and sell at 55, what's my profit on each"),
            Some(minus("55", "40"))
        );
        assert_eq!(
            read("nhập 150000 bán 195000 thì lời bao nhiêu phần trăm"),
            Some(pct("195000", "150000", "150000"))
        );
        // Without selling, `lãi` is interest: another question.
        assert_eq!(read("gửi 1000 lãi 50, tăng bao nhiêu"), None);
    }
}
