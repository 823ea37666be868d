//! An amount, what was taken from it, and what is left asked, read over the whole
//! request: `i had 5 million, paid 1.75 million for stock and 600k shipping, how much
//! left` is 5000000 − 1750000 − 600000; `có 500k, mua sách 120k, ăn trưa 45k, còn lại
//! bao nhiêu` 500000 − 120000 − 45000; `I owe 12,600,000. paid 4,500,000 already. how
//! much do i still owe` 12600000 − 4500000.
//!
//! The first amount is the one had (a word of having before it); every later amount
//! is taken away, after a word of spending or paying said before them. No percentage,
//! share, income or date: anything else is left to the other readers.

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, words_at};

/// Words asking what is left.
const LEFT: &[&[&str]] = &[
    &["left"],
    &["remaining"],
    &["remain"],
    &["remains"],
    &["still", "owe"],
    &["còn", "nợ"],
    &["balance"],
    &["còn", "lại"],
    // (`tổng 4tr5, thương lái mới trả 2tr7, còn thiếu bao nhiêu`.)
    &["còn", "thiếu"],
    &["còn", "bao", "nhiêu"],
];

/// Words asking the change given back from what was handed over.
const CHANGE: &[&[&str]] = &[&["change"], &["thối", "lại"], &["thối"], &["trả", "lại"]];

/// Words saying the first amount was handed over (`paid with a 500k note`, `khách đưa
/// tờ 200 nghìn`) and the later one what it paid for (`for 137,000 worth`).
const HANDED: &[&str] = &[
    "paid", "gave", "hands", "handed", "with", "note", "đưa", "tờ",
];
const PAID_FOR: &[&str] = &["for", "worth", "mua", "hết", "bought", "cost", "costs"];

/// Words saying the first amount is had (or owed, or budgeted).
const HAD: &[&str] = &[
    "had", "have", "has", "got", "budget", "owe", "owed", "started", "start", "saved", "có",
    "wallet", "behind", "owes", "borrowed", "loan", "nợ", "tổng", "phí", "budget", "total",
    // (`i take home like 3400 a month and bills are 2564`.)
    "home", "income", "salary", "paycheck",
];

/// Periods an amount owed may be counted in (`behind 3 months at 1,850/mo`).
const PERIODS: &[&str] = &[
    "months",
    "month",
    "weeks",
    "week",
    "tháng",
    "tuần",
    "instalments",
    "installments",
    "payments",
    "đợt",
];

/// Words between a count of periods and its rate (`3 months at 1850`, `3 tháng, mỗi
/// tháng 1tr8`).
const AT_RATE: &[&str] = &[
    "at", "of", "rent", "x", "@", "*", ",", "mỗi", "tháng", "tiền", "nhà",
];

/// Words saying a later amount was taken away.
const TAKEN: &[&str] = &[
    "paid", "pay", "spent", "spend", "used", "bought", "gave", "lost", "withdrew", "trả", "tiêu",
    "mua", "hết", "mất", "cọc", "deposit", "trừ", "minus", "less", "bills", "expenses",
];

/// Words of another question: income added, a share, a percentage, a date.
const OTHER: &[&str] = &[
    "earned", "earn", "received", "receive", "more", "plus", "each", "per", "split", "times",
    "divided", "percent", "tip", "tax", "interest", "date", "until", "till", "til", "since", "ago",
    "nhận", "thêm", "chia", "mỗi", "lãi", "đến", "tới",
];

/// `toks` read as an amount less what was taken from it, when that is what is asked.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    let change = (0..toks.len()).find(|&i| CHANGE.iter().any(|p| words_at(toks, i, p)));
    let asked =
        change.or_else(|| (0..toks.len()).find(|&i| LEFT.iter().any(|p| words_at(toks, i, p))))?;
    let (had_words, taken_words) = match change {
        Some(_) => (HANDED, PAID_FOR),
        None => (HAD, TAKEN),
    };
    let nums = crate::lexer::number_positions(toks);
    let word_in = |lo: usize, hi: usize, table: &[&str]| {
        toks[lo..hi]
            .iter()
            .any(|t| t.word().is_some_and(|w| table.contains(&w)))
    };
    let num = |k: usize| toks[k].number().map(|n| Expr::Num(n.to_owned()));
    // The amounts, in order: one number, or a count of periods at a rate (`behind 3
    // months at 1,850/mo`, `trả 5 tháng mỗi tháng 3 triệu`), each with the index of its
    // first and last number.
    let mut amounts: Vec<(Expr, usize, usize)> = Vec::new();
    let mut j = 0;
    while j < nums.len() {
        let k = nums[j];
        let periods = nums.get(j + 1).is_some_and(|&r| {
            toks.get(k + 1)
                .and_then(Token::word)
                .is_some_and(|w| PERIODS.contains(&w))
                && toks[k + 2..r].iter().all(|t| match &t.tok {
                    Tok::Word(w) => AT_RATE.contains(&w.as_str()),
                    Tok::Sym(c) => AT_RATE.contains(&c.to_string().as_str()),
                    _ => false,
                })
        });
        // (`khách đưa 500 nghìn mua 3 hộp 135k, thối lại bao nhiêu`: things counted, then
        // the price of one right after their word.)
        let value = |i: usize| toks[i].number().and_then(|n| n.parse::<f64>().ok());
        let priced = nums.get(j + 1).is_some_and(|&r| {
            r == k + 2
                && toks[k + 1]
                    .word()
                    .is_some_and(|w| w.chars().count() > 1 && w != "x")
                && toks[k].end < toks[k + 1].start
                && value(k).is_some_and(|c| c.fract() == 0.0 && (2.0..=1000.0).contains(&c))
                && value(r).zip(value(k)).is_some_and(|(p, c)| p >= 1000.0 * c)
        });
        match periods || priced {
            true => {
                let r = nums[j + 1];
                amounts.push((Expr::bin(MathOp::Multiply, num(k)?, num(r)?), k, r));
                j += 2;
            }
            false => {
                amounts.push((num(k)?, k, k));
                j += 1;
            }
        }
    }
    // Words of another question, outside the amounts' own words (`mỗi tháng`).
    let inside = |i: usize| amounts.iter().any(|(_, a, b)| (*a..=*b).contains(&i));
    let other =
        (0..toks.len()).any(|i| !inside(i) && toks[i].word().is_some_and(|w| OTHER.contains(&w)));
    let percent = toks.iter().any(|t| t.is_sym('%'));
    let dated = toks.iter().any(|t| matches!(t.tok, Tok::Date(_)));
    // Two amounts or more, all before the question; the first one had, the next one
    // after a word of spending.
    // (`groceries were 67.43, 12.99 and 8.50, paid with a $100 bill, change?`: the money
    // handed over said last, after what it paid for.)
    // (Never over counted things: `3 thùng táo 185 tệ một thùng, đưa 600 tệ` prices
    // the apples per box.)
    let counted = amounts[..amounts.len().saturating_sub(1)]
        .iter()
        .any(|(_, a, _)| {
            toks[*a].number().is_some_and(|n| !n.contains('.'))
                && toks
                    .get(a + 1)
                    .and_then(Token::word)
                    .is_some_and(|w| !matches!(w, "and" | "và" | "plus" | "with" | "với"))
        });
    let handed_last = change.is_some()
        && !counted
        && amounts.len() >= 2
        && !word_in(0, nums[0], HANDED)
        && word_in(
            amounts[amounts.len() - 2].2 + 1,
            amounts[amounts.len() - 1].1,
            HANDED,
        );
    if handed_last {
        let handed = amounts.pop()?;
        amounts.insert(0, handed);
    }
    let mut amounts = amounts.into_iter();
    let (had, _, had_end) = amounts.next()?;
    let taken: Vec<(Expr, usize, usize)> = amounts.collect();
    let (_, next, _) = taken.first()?;
    let before_question = nums.iter().all(|&k| k < asked);
    if percent || dated || other || !before_question {
        return None;
    }
    // (`annual leave 14 days, i used 9.5, how many left`: the first amount is had when
    // nothing before it says it was spent.)
    let had_first = word_in(0, nums[0], had_words)
        || matches!(had, Expr::Num(_)) && !word_in(0, nums[0], taken_words);
    // (With the money handed over moved first, what follows it was said before it: no
    // spending word is looked for after it.)
    let said = handed_last || had_first && word_in(had_end + 1, *next, taken_words);
    if !said {
        return None;
    }
    taken.into_iter().try_fold(had, |left, (e, _, _)| {
        Some(Expr::bin(MathOp::Subtract, left, e))
    })
}

/// What `toks` have left of one amount once a percentage of it is lost or spoiled
/// (`240 ký dâu, mưa làm hư 15%, còn lại bao nhiêu ký` is 240 − 15 % of 240), or the
/// share said to remain (`phơi khô còn 60% trọng lượng, 500kg tươi thì còn bao nhiêu
/// ký` is 60 % of 500); `None` unless one amount, one percentage and what is left asked.
pub fn percent_lost(toks: &[Token]) -> Option<Expr> {
    let pct: Vec<usize> = (0..toks.len())
        .filter(|&k| toks[k].number().is_some() && toks.get(k + 1).is_some_and(|t| t.is_sym('%')))
        .collect();
    let [p] = pct[..] else { return None };
    let amounts: Vec<usize> = crate::lexer::number_positions(toks)
        .into_iter()
        .filter(|&k| k != p)
        .collect();
    let [a] = amounts[..] else { return None };
    // (LEFT holds `còn bao nhiêu` too.)
    let left = (p + 2..toks.len()).any(|i| LEFT.iter().any(|w| words_at(toks, i, w)));
    if !left {
        return None;
    }
    let before = |k: usize, words: &[&str]| {
        (k.saturating_sub(3)..k).any(|i| toks[i].word().is_some_and(|w| words.contains(&w)))
    };
    let share = Expr::bin(
        MathOp::Percent,
        Expr::Num(toks[p].number()?.to_owned()),
        Expr::Num(toks[a].number()?.to_owned()),
    );
    if before(p, crate::frames::vocabulary::LOST) {
        return Some(Expr::bin(
            MathOp::Subtract,
            Expr::Num(toks[a].number()?.to_owned()),
            share,
        ));
    }
    // (`còn 60%`: the share that remains, said right before it.)
    (p > 0 && toks[p - 1].word() == Some("còn")).then_some(share)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn read(src: &str) -> Option<Expr> {
        parse(&lex(src))
    }

    fn minus(a: Expr, b: &str) -> Expr {
        Expr::bin(MathOp::Subtract, a, Expr::Num(b.into()))
    }

    fn n(s: &str) -> Expr {
        Expr::Num(s.into())
    }

    #[test]
    fn what_was_taken_comes_off_what_was_had() {
        assert_eq!(
            read("i had 500, spent 175 on food and 60 on gas, how much is left"),
            Some(minus(minus(n("500"), "175"), "60"))
        );
        assert_eq!(
            read("có 500000, mua sách 120000, ăn trưa 45000, còn lại bao nhiêu"),
            Some(minus(minus(n("500000"), "120000"), "45000"))
        );
        assert_eq!(
            read("we owe the bank 9000. paid 2500 already. how much do we still owe"),
            Some(minus(n("9000"), "2500"))
        );
    }

    #[test]
    fn what_was_paid_may_be_periods_at_a_rate_too() {
        assert_eq!(
            read("nợ 36000000, đã trả 5 tháng mỗi tháng 3000000, còn nợ bao nhiêu"),
            Some(Expr::bin(
                MathOp::Subtract,
                n("36000000"),
                Expr::bin(MathOp::Multiply, n("5"), n("3000000"))
            ))
        );
    }

    #[test]
    fn the_change_from_a_note_handed_over() {
        assert_eq!(
            read("customer paid with a 500000 note for 137000 worth of veg, how much change"),
            Some(minus(n("500000"), "137000"))
        );
        assert_eq!(
            read("khách đưa tờ 200000, mua hết 143500 đồng, thối lại bao nhiêu"),
            Some(minus(n("200000"), "143500"))
        );
        // A change between two amounts is another question.
        assert_eq!(read("what's the change from 200 to 250"), None);
    }

    #[test]
    fn what_was_owed_may_be_periods_at_a_rate() {
        assert_eq!(
            read(
                "tenant is behind 3 months at 1850/mo, he paid 500 last week. how much does he still owe me"
            ),
            Some(minus(Expr::bin(MathOp::Multiply, n("3"), n("1850")), "500"))
        );
        // Periods with other words between them and the amount are not a rate.
        assert_eq!(
            read("i owe 3 months and 1850 for the car, paid 500, how much do i still owe"),
            None
        );
    }

    #[test]
    fn income_a_share_or_an_unplaced_amount_is_another_question() {
        // Income adds.
        assert_eq!(
            read("i had 500, earned 200 more and spent 100, how much is left"),
            None
        );
        // A share.
        assert_eq!(
            read("i had 500, spent 100, split the rest between 2, how much each is left"),
            None
        );
        // No word of having, or nothing said taken.
        assert_eq!(read("500 and 175, how much left"), None);
        assert_eq!(read("i had 500 and 175, how much left"), None);
        // Nothing left asked.
        assert_eq!(read("i had 500, spent 175"), None);
        // Days counted down to a date are another question; days had are amounts.
        assert_eq!(read("i have 20 days, how many left until christmas"), None);
        assert_eq!(
            read("I have 25 vacation days, used 7 and 3 are booked, how many are left"),
            Some(minus(minus(n("25"), "7"), "3"))
        );
    }
}
