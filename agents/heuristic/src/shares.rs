//! An amount over a count of things, asked per one of them, read over the whole
//! request: `did 23 trips, the fares came to 1,265,000 total, whats the avg per trip` is
//! 1265000 ÷ 23; `loan is 42 million over 24 months, how much a month` 42000000 ÷ 24;
//! `học phí 14.400.000 một năm, đóng làm 3 đợt thì mỗi đợt bao nhiêu` 14400000 ÷ 3.
//!
//! Exactly two numbers: the count, followed by what it counts, and the amount; the
//! question names one of what was counted (`per trip`, `a month`, `mỗi cuốc`, `each
//! one`). Likewise a part of a count asked as a percentage of it
//! ([`percent_of_count`]).

use crate::expr::{Expr, MathOp};
use crate::lexer::{Token, words_at};

/// Words asking per one: (phrase before the thing counted).
const PER: &[&[&str]] = &[
    &["per"],
    &["a"],
    &["an"],
    &["each"],
    &["every"],
    &["mỗi"],
    &["một"],
];

/// Words asking per one without naming it again (`how much is each one`).
const EACH: &[&[&str]] = &[
    &["each", "one"],
    &["each", "instalment"],
    &["each", "installment"],
];

/// A payment for one period asked by its adverb (`monthly payment`; never `daily
/// wage`, which names an amount said): (phrase, the period).
const ADVERBS: &[(&[&str], &str)] = &[
    (&["monthly", "payment"], "month"),
    (&["monthly", "payments"], "month"),
    (&["monthly", "instalment"], "month"),
    (&["monthly", "installment"], "month"),
    (&["weekly", "payment"], "week"),
];

/// A payment for one period asked by its adverb alone, the last word after a comma
/// (`…, monthly?`): (word, the period).
const LONE_ADVERBS: &[(&str, &str)] = &[
    ("monthly", "month"),
    ("weekly", "week"),
    ("daily", "day"),
    ("yearly", "year"),
];

/// Things an amount is paid in, for `each one`.
const INSTALMENTS: &[&str] = &["instalment", "installment", "payment", "part", "đợt", "kỳ"];

/// What a count counts in its singular (`trips` → `trip`).
pub(crate) fn singular(word: &str) -> &str {
    word.strip_suffix('s')
        .filter(|w| w.len() > 2)
        .unwrap_or(word)
}

/// The amount per one `toks` ask, if that is what they ask.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    if crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let [a, b] = nums.as_slice() else {
        return None;
    };
    // Asked: a question word, an average named, or a payment for one period (`monthly
    // payment`).
    const ASKED: &[&str] = &[
        "how", "what", "whats", "avg", "average", "bao", "bn", "nhiêu", "mấy", "trung",
    ];
    // (`new phone 2,899 on 12 month instalment, monthly?`: the adverb alone, asked last.)
    let last = toks.iter().rposition(|t| t.word().is_some());
    let asked_last = last.is_some_and(|k| {
        k > 0 && toks[k - 1].is_sym(',') && toks[k + 1..].iter().all(|t| t.is_sym('?'))
    });
    let lone = |thing: &str| {
        asked_last
            && last
                .and_then(|k| toks[k].word())
                .is_some_and(|w| LONE_ADVERBS.iter().any(|(a, p)| *a == w && *p == thing))
    };
    let adverb = |thing: &str| {
        ADVERBS
            .iter()
            .any(|(a, p)| *p == thing && crate::lexer::says(toks, &[a]))
            || lone(thing)
    };
    let by_adverb = ADVERBS.iter().any(|(a, _)| crate::lexer::says(toks, &[a]))
        || LONE_ADVERBS.iter().any(|(_, p)| lone(p));
    if !by_adverb
        && !toks
            .iter()
            .any(|t| t.is_sym('?') || t.word().is_some_and(|w| ASKED.contains(&w)))
    {
        return None;
    }
    // The thing a number counts: the word right after it.
    let counted = |k: usize| toks.get(k + 1).and_then(Token::word).map(singular);
    let asked_per = |thing: &str| {
        adverb(thing)
            || (0..toks.len()).any(|i| {
                PER.iter().any(|p| {
                    words_at(toks, i, p)
                        && toks.get(i + p.len()).and_then(Token::word).map(singular) == Some(thing)
                })
            })
    };
    let each = crate::lexer::says(toks, EACH);
    let (count, amount) = [(*a, *b), (*b, *a)].into_iter().find(|&(c, _)| {
        counted(c).is_some_and(|thing| {
            !matches!(thing, "k" | "đồng" | "dong" | "usd" | "vnd" | "dollar")
                // (`0 nhân một nhân 12`: an operation is no thing counted.)
                && crate::normalise::typo::operation(thing).is_none()
                && !crate::tolerant::VI_OTHER_OPS.contains(&thing)
                && !matches!(thing, "cộng" | "x" | "times" | "by")
                && (asked_per(thing) || each && INSTALMENTS.contains(&thing))
        })
    })?;
    // (An amount per the thing is a rate, no total: `3 kg at 25000 a kg`.)
    let thing = counted(count);
    // (`1150 eur mỗi người`: a currency may stand between.)
    let rate = counted(amount) == thing
        || (amount + 1..amount + 3).any(|j| {
            PER.iter().any(|p| {
                words_at(toks, j, p)
                    && toks.get(j + p.len()).and_then(Token::word).map(singular) == thing
            })
        });
    // (`3 kg táo, mỗi kg 45 nghìn`: an amount after one of the things is its price.)
    // (`mỗi đêm phụ cấp 350k`: a word may name the price between.)
    // (`mỗi tuần em để dành 120 nghìn`: any words between.)
    let priced = (0..amount).any(|i| {
        PER.iter().any(|p| {
            words_at(toks, i, p)
                && toks.get(i + p.len()).and_then(Token::word).map(singular) == thing
        })
    });
    if rate || priced {
        return None;
    }
    Some(Expr::bin(
        MathOp::Divide,
        Expr::Num(toks[amount].number()?.to_owned()),
        Expr::Num(toks[count].number()?.to_owned()),
    ))
}

/// Words saying an amount is an average.
const AVERAGING: &[&[&str]] = &[
    &["averaging"],
    &["average"],
    &["avg"],
    &["on", "average"],
    &["trung", "bình"],
];

/// Words asking a total.
const TOTAL_ASKED: &[&[&str]] = &[&["total"], &["tổng"], &["altogether"], &["in", "all"]];

/// A count times the average each came to, read over the whole request: `18 trips
/// yesterday averaging 62,000 each, total fares?` is 18 × 62000; `chạy 17 cuốc, trung
/// bình 58 nghìn một cuốc, tổng bao nhiêu` 17 × 58000.
pub fn total_of_average(toks: &[Token]) -> Option<Expr> {
    let has = |table: &[&[&str]]| crate::lexer::says(toks, table);
    if crate::lexer::has_percent_or_date(toks) || !has(AVERAGING) || !has(TOTAL_ASKED) {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let [count, amount] = nums.as_slice() else {
        return None;
    };
    // The count counts things (`18 trips`), the average comes after an averaging word.
    let thing = toks.get(count + 1).and_then(Token::word).map(singular)?;
    let averaged = (count + 2..*amount).any(|i| AVERAGING.iter().any(|p| words_at(toks, i, p)));
    if !averaged || matches!(thing, "k" | "đồng" | "dong" | "usd" | "vnd") {
        return None;
    }
    Some(Expr::bin(
        MathOp::Multiply,
        Expr::Num(toks[*count].number()?.to_owned()),
        Expr::Num(toks[*amount].number()?.to_owned()),
    ))
}

/// Words asking a percentage.
const PERCENT_ASKED: &[&[&str]] = &[
    &["what", "percent"],
    &["what", "percentage"],
    &["how", "many", "percent"],
    &["bao", "nhiêu", "phần", "trăm"],
    &["mấy", "phần", "trăm"],
    &["bn", "phần", "trăm"],
    &["occupancy"],
    &["as", "a", "percent"],
    &["as", "a", "percentage"],
    &["tỉ", "lệ"],
    &["tỷ", "lệ"],
];

/// A part of a count as a percentage of it, read over the whole request: `lớp có 52
/// sinh viên, 39 em đậu, tỉ lệ đậu bao nhiêu phần trăm` is 39 × 100 ÷ 52; `120 students
/// and 18 of them failed, what percentage failed` 18 × 100 ÷ 120 (`… passed` the rest,
/// 120 − 18); `6 of 8 rooms are booked, what's the occupancy` 6 × 100 ÷ 8. The count
/// comes first, or after `of`; the part is never larger.
pub fn percent_of_count(toks: &[Token]) -> Option<Expr> {
    // (`đầu tư 150 triệu, nay còn 132 triệu, lỗ bao nhiêu phần trăm`: a change asked,
    // the frames' to read.)
    const CHANGE: &[&str] = &[
        "lỗ", "lời", "lãi", "tăng", "giảm", "loss", "profit", "gain", "increase", "decrease",
        "drop", "rise",
    ];
    if crate::lexer::has_percent_or_date(toks)
        || !crate::lexer::says(toks, PERCENT_ASKED)
        || toks
            .iter()
            .any(|t| t.word().is_some_and(|w| CHANGE.contains(&w)))
    {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let [first, second] = nums.as_slice() else {
        return None;
    };
    // `6 of 8 rooms are booked`, `39 is what percent of 52`: the part first, `of` the
    // whole; else the count first (`52 sinh viên, 39 em đậu`).
    // (`14 đơn trên tổng 175 đơn`, `5 out of a total of 8`: the whole named too.)
    let before = |k: usize| k.checked_sub(1).and_then(|k| toks[k].word());
    // (`5 of our 8 rooms`, likewise.)
    let of_whole = before(*second).is_some_and(|w| matches!(w, "of" | "trên"))
        || before(*second)
            .is_some_and(|w| matches!(w, "tổng" | "total" | "our" | "my" | "the" | "their"))
            && before(*second - 1).is_some_and(|w| matches!(w, "of" | "trên"));
    let (whole, part) = match of_whole {
        true => (second, first),
        false => (first, second),
    };
    let value = |k: usize| toks[k].number().and_then(|n| n.parse::<f64>().ok());
    if value(*part)? > value(*whole)? {
        return None;
    }
    let whole_n = Expr::Num(toks[*whole].number()?.to_owned());
    let part_n = Expr::Num(toks[*part].number()?.to_owned());
    // `18 of them failed, what percentage passed`: the rest of the count is asked.
    let outcome = |i: usize| {
        toks.get(i).and_then(Token::word).and_then(|w| {
            OUTCOMES
                .iter()
                .position(|pair| pair.contains(&w))
                .map(|p| (p, w))
        })
    };
    let stated = (*part + 1..toks.len()).find_map(outcome);
    let asked = (0..toks.len())
        .rev()
        .find_map(outcome)
        .filter(|_| stated.is_some());
    let rest =
        matches!((stated, asked), (Some((p, said)), Some((q, wanted))) if p == q && said != wanted);
    let counted = match rest {
        true => Expr::bin(MathOp::Subtract, whole_n.clone(), part_n),
        false => part_n,
    };
    Some(Expr::percent_of(counted, whole_n))
}

/// Outcomes that split a count in two: (one, the other). (Vietnamese pairs are left
/// out: `đậu` and `đỗ` fold to `dau` and `do`, which the fold lexicon reads otherwise.)
const OUTCOMES: &[&[&str]] = &[
    &["passed", "failed"],
    &["pass", "fail"],
    &["present", "absent"],
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn div(a: &str, b: &str) -> Option<Expr> {
        Some(Expr::bin(
            MathOp::Divide,
            Expr::Num(a.into()),
            Expr::Num(b.into()),
        ))
    }

    #[test]
    fn an_amount_over_a_count_is_asked_per_one() {
        let read = |q: &str| parse(&lex(q));
        assert_eq!(
            read(
                "uncle did 23 trips today n the fares came to 1265000 dong total, whats the avg per trip"
            ),
            div("1265000", "23")
        );
        assert_eq!(
            read("loan is 42000000 dong over 24 months, no interest. how much a month"),
            div("42000000", "24")
        );
        assert_eq!(
            read("học phí 14400000 một năm, đóng làm 3 đợt thì mỗi đợt bao nhiêu"),
            div("14400000", "3")
        );
        assert_eq!(
            read("fees are 12600000 for the year in 4 instalments, how much is each one"),
            div("12600000", "4")
        );
    }

    #[test]
    fn a_count_times_its_average_is_the_total() {
        let read = |q: &str| total_of_average(&lex(q));
        let times = |a: &str, b: &str| {
            Some(Expr::bin(
                MathOp::Multiply,
                Expr::Num(a.into()),
                Expr::Num(b.into()),
            ))
        };
        assert_eq!(
            read("uncle did 18 trips yesterday averaging 62000 each, total fares?"),
            times("18", "62000")
        );
        assert_eq!(
            read("hôm nay chạy 17 cuốc, trung bình 58000 một cuốc, tổng bao nhiêu"),
            times("17", "58000")
        );
        assert_eq!(read("18 trips and 62000, total?"), None);
    }

    #[test]
    fn a_part_of_a_count_as_a_percentage() {
        let read = |q: &str| percent_of_count(&lex(q));
        let pct = |part: &str, whole: &str| {
            Some(Expr::bin(
                MathOp::Divide,
                Expr::bin(
                    MathOp::Multiply,
                    Expr::Num(part.into()),
                    Expr::Num("100".into()),
                ),
                Expr::Num(whole.into()),
            ))
        };
        assert_eq!(
            read("Lớp có 52 sinh viên, 39 em đậu. Tỉ lệ đậu là bao nhiêu phần trăm?"),
            pct("39", "52")
        );
        assert_eq!(
            read("I have 120 students and 18 of them failed. What percentage failed?"),
            pct("18", "120")
        );
        // The rest of the count, when the other outcome is asked.
        assert_eq!(
            read("I have 120 students and 18 of them failed. What percentage passed?"),
            Some(Expr::bin(
                MathOp::Divide,
                Expr::bin(
                    MathOp::Multiply,
                    Expr::bin(
                        MathOp::Subtract,
                        Expr::Num("120".into()),
                        Expr::Num("18".into())
                    ),
                    Expr::Num("100".into())
                ),
                Expr::Num("120".into()),
            ))
        );
        assert_eq!(read("39 is what percent of 52"), pct("39", "52"));
        assert_eq!(
            read("6 of 8 rooms are booked tonight, what's the occupancy"),
            pct("6", "8")
        );
        assert_eq!(read("52 and 390, what percent"), None);
    }

    #[test]
    fn a_rate_or_a_count_not_asked_per_one_is_another_question() {
        let read = |q: &str| parse(&lex(q));
        assert_eq!(read("rent is 1850 a month, 12 months, how much"), None);
        assert_eq!(read("23 trips and 1265000 dong"), None);
        assert_eq!(read("0 nhân một nhân mười hai cộng 0"), None);
        assert_eq!(read("3 kg at 25000 a kg"), None);
        // A price each after the count is a total to multiply.
        assert_eq!(read("mua 3 kg táo, mỗi kg 45000, hết bao nhiêu tiền"), None);
        assert_eq!(
            read("nhập 48 thùng mì, mỗi thùng 115000, tổng bao nhiêu tiền"),
            None
        );
    }
}
