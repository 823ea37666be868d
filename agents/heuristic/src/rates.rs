//! An amount per one period asked per another, read over the whole request: `i earn
//! 4200 a month, how much is that a year` is 4200 × 12, `lương 15 triệu một tháng thì
//! một năm bao nhiêu` 15000000 × 12, `$52,000 a year, how much a week` 52000 ÷ 52.
//!
//! Only periods that hold a whole number of each other every time (a day in a week, a
//! week or a month in a year): a month in weeks varies, so `… a month, how much a
//! week` is left to the other readers rather than guessed.

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, words_at};

/// Words tying an amount to its period: `4200 a month`, `/month`, `per year`.
const TIES: &[&str] = &["a", "an", "per", "every", "each", "một", "mỗi", "/"];

/// Period names, singular and adverbs: (words, period).
const PERIODS: &[(&[&str], Period)] = &[
    (&["day"], Period::Day),
    (&["daily"], Period::Day),
    (&["ngày"], Period::Day),
    (&["week"], Period::Week),
    (&["weekly"], Period::Week),
    (&["wk"], Period::Week),
    (&["tuần"], Period::Week),
    (&["month"], Period::Month),
    (&["monthly"], Period::Month),
    (&["mo"], Period::Month),
    (&["tháng"], Period::Month),
    (&["year"], Period::Year),
    (&["yearly"], Period::Year),
    (&["annually"], Period::Year),
    (&["annual"], Period::Year),
    (&["yr"], Period::Year),
    (&["năm"], Period::Year),
];

/// A period an amount is given per.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Period {
    Day,
    Week,
    Month,
    Year,
}

/// How many of `small` a `big` holds, when that is always a whole number.
fn holds(big: Period, small: Period) -> Option<&'static str> {
    match (big, small) {
        (Period::Week, Period::Day) => Some("7"),
        (Period::Year, Period::Day) => Some("365"),
        (Period::Year, Period::Week) => Some("52"),
        (Period::Year, Period::Month) => Some("12"),
        _ => None,
    }
}

/// Words of another question: a total over a count, a share, a percentage, interest.
const OTHER: &[&str] = &[
    "interest", "lãi", "tax", "thuế", "tip", "split", "each", "chia", "nhân", "times", "plus",
    "minus", "trừ", "cộng", "người", "people", "for", "trong", "sau", "after", "in",
];

/// The period named at `i` (after an optional tie word), and the index after it.
fn period_at(toks: &[Token], i: usize) -> Option<(Period, usize)> {
    PERIODS
        .iter()
        .find(|(w, _)| words_at(toks, i, w))
        .map(|(w, p)| (*p, i + w.len()))
}

/// `toks` with every `1` before a period written as the tie `một` (`1 tháng`, `1 năm`),
/// when there is one and another number is left.
fn one_as_tie(toks: &[Token]) -> Option<Vec<Token>> {
    let one = |k: usize| toks[k].number() == Some("1") && period_at(toks, k + 1).is_some();
    let ones = (0..toks.len()).filter(|&k| one(k)).count();
    let nums = crate::lexer::number_positions(toks).len();
    if ones == 0 || ones == nums {
        return None;
    }
    let mut out = toks.to_vec();
    for (k, t) in out.iter_mut().enumerate() {
        if one(k) {
            t.tok = Tok::Word("một".to_owned());
        }
    }
    Some(out)
}

/// Whether the word at `i` names its period as an adverb (`monthly`, `annually`).
fn adverb(toks: &[Token], i: usize) -> bool {
    toks.get(i).and_then(Token::word).is_some_and(|w| {
        matches!(
            w,
            "daily" | "weekly" | "monthly" | "yearly" | "annually" | "annual"
        )
    })
}

/// The rate conversion `toks` asks, if that is what it asks.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    // (`6tr850 1 tháng, 1 năm được bao nhiêu`: a `1` before a period ties it, as `một`.)
    let ones = one_as_tie(toks);
    let toks = ones.as_deref().unwrap_or(toks);
    let nums = crate::lexer::number_positions(toks);
    let [k] = nums.as_slice() else {
        return None;
    };
    let k = *k;
    // (`whats that for the year`: `for the` asks a period, no duration.)
    let for_the = |i: usize| words_at(toks, i, &["for", "the"]) && period_at(toks, i + 2).is_some();
    if toks.iter().enumerate().any(|(i, t)| {
        matches!(t.tok, Tok::Date(_))
            || t.is_sym('%')
            || t.word().is_some_and(|w| OTHER.contains(&w)) && !for_the(i)
    }) {
        return None;
    }
    // The amount's own period: right after it, tied (`4200 a month`, `4200/month`,
    // `15 triệu một tháng`) or as an adverb (`4200 monthly`).
    let tied = |i: usize| {
        toks.get(i)
            .is_some_and(|t| t.is_sym('/') || t.word().is_some_and(|w| TIES.contains(&w)))
            || i > 0 && for_the(i - 1)
    };
    // (A bare `3 tuần` is a duration, not a rate.)
    let rate_at = |i: usize| match tied(i) {
        true => period_at(toks, i + 1),
        false => period_at(toks, i).filter(|_| adverb(toks, i)),
    };
    let (given, after) = rate_at(k + 1)?;
    // The period asked, later: tied (`how much a year`, `một năm`) or an adverb.
    let asked = (after..toks.len()).find_map(|i| rate_at(i).filter(|(p, _)| *p != given));
    let (asked, _) = asked?;
    let how = toks.iter().any(|t| {
        t.is_sym('?')
            || t.word().is_some_and(|w| {
                matches!(
                    w,
                    "how" | "what" | "whats" | "what's" | "bao" | "bn" | "nhiêu"
                )
            })
    });
    if !how {
        return None;
    }
    let amount = Expr::Num(toks[k].number()?.to_owned());
    match (holds(asked, given), holds(given, asked)) {
        (Some(n), _) => Some(Expr::bin(MathOp::Multiply, amount, Expr::Num(n.into()))),
        (_, Some(n)) => Some(Expr::bin(MathOp::Divide, amount, Expr::Num(n.into()))),
        _ => None,
    }
}

/// An amount per period times a count of periods, a total asked: `mỗi tháng trả góp
/// 1tr750, 24 tháng thì tổng cộng bao nhiêu` is 1750000 × 24; `2,100 a month for 18
/// months, total?` 2100 × 18.
pub fn over_periods(toks: &[Token]) -> Option<Expr> {
    if crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let total_asked = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "total" | "tổng" | "altogether" | "overall"))
    });
    // (`1 tháng 2100000`: the one period only ties the amount to it.)
    let nums: Vec<usize> = crate::lexer::number_positions(toks)
        .into_iter()
        .filter(|&k| !(toks[k].number() == Some("1") && period_at(toks, k + 1).is_some()))
        .collect();
    let [a, b] = nums.as_slice() else {
        return None;
    };
    if !total_asked {
        return None;
    }
    let word = |k: usize| toks.get(k).and_then(Token::word);
    // The period an amount is per: `1750000 a month`, `1750000/tháng`, `mỗi tháng
    // 1750000`, `1 tháng 2100000`.
    // (Words may stand between: `mỗi tháng trả góp 1750000`.)
    let per = |k: usize| {
        rate_after(toks, k).or_else(|| {
            (k.saturating_sub(5)..k).find_map(|j| {
                let tied =
                    word(j).is_some_and(|w| TIES.contains(&w)) || toks[j].number() == Some("1");
                let (p, next) = period_at(toks, j + 1).filter(|_| tied)?;
                toks[next..k]
                    .iter()
                    .all(|t| t.word().is_some())
                    .then_some(p)
            })
        })
    };
    // The count of periods: `24 tháng`, `18 months`.
    let count = |k: usize| {
        period_at(toks, k + 1).map(|(p, _)| p).or_else(|| {
            let plural = word(k + 1)?.strip_suffix('s')?;
            PERIODS
                .iter()
                .find(|(w, _)| w.len() == 1 && w[0] == plural)
                .map(|(_, p)| *p)
        })
    };
    let (amount, periods) = match (per(*a), count(*b), per(*b), count(*a)) {
        (Some(p), Some(q), _, _) if p == q => (*a, *b),
        (_, _, Some(p), Some(q)) if p == q => (*b, *a),
        _ => return None,
    };
    Some(Expr::bin(
        MathOp::Multiply,
        Expr::Num(toks[amount].number()?.to_owned()),
        Expr::Num(toks[periods].number()?.to_owned()),
    ))
}

/// The period a rate is given per right after the amount at `k` (`4200 a month`,
/// `4200/month`, `4200 monthly`).
fn rate_after(toks: &[Token], k: usize) -> Option<Period> {
    let tied = toks
        .get(k + 1)
        .is_some_and(|t| t.is_sym('/') || t.word().is_some_and(|w| TIES.contains(&w)));
    match tied {
        true => period_at(toks, k + 2).map(|(p, _)| p),
        false => period_at(toks, k + 1)
            .filter(|_| adverb(toks, k + 1))
            .map(|(p, _)| p),
    }
}

/// Words naming an amount counted in months of rent.
const DEPOSITS: &[&str] = &["deposit", "bond", "cọc", "đặt", "security"];

/// An amount said as a number of months of another (`deposit = 1.5 months rent and rent
/// is $2,400` is 1.5 × 2400; `cọc 2 tháng, tiền nhà 4tr5` 2 × 4500000): a deposit named,
/// a count of months, and one other amount.
pub fn months_of(toks: &[Token]) -> Option<Expr> {
    if !toks
        .iter()
        .any(|t| t.word().is_some_and(|w| DEPOSITS.contains(&w)))
        || crate::lexer::has_percent_or_date(toks)
    {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let months = |k: usize| {
        toks.get(k + 1)
            .and_then(Token::word)
            .is_some_and(|w| matches!(w, "months" | "month" | "tháng"))
    };
    let counted: Vec<usize> = nums.iter().copied().filter(|&k| months(k)).collect();
    let [count] = counted.as_slice() else {
        return None;
    };
    let others: Vec<usize> = nums.iter().copied().filter(|k| k != count).collect();
    let [rent] = others.as_slice() else {
        return None;
    };
    Some(Expr::bin(
        MathOp::Multiply,
        Expr::Num(toks[*count].number()?.to_owned()),
        Expr::Num(toks[*rent].number()?.to_owned()),
    ))
}

/// The amount of a rate question and whether `follow` asks again per that amount's own
/// period (`nếu mỗi tháng tăng 15% thì mỗi tháng được bao nhiêu` after `6tr2 một tháng,
/// một năm bao nhiêu`): then a follow-up goes on from the amount given, not from the
/// converted answer.
pub fn amount_asked_again(question: &[Token], follow: &[Token]) -> Option<String> {
    parse(question)?;
    let nums = crate::lexer::number_positions(question);
    let [k] = nums.as_slice() else {
        return None;
    };
    let k = *k;
    let given = rate_after(question, k)?;
    // `and the deposit is 1.5 months rent` counts months of the amount given.
    let months_counted = given == Period::Month
        && follow
            .iter()
            .any(|t| t.word().is_some_and(|w| DEPOSITS.contains(&w)));
    let again = months_counted
        || (0..follow.len()).any(|i| {
            let tied = follow[i].is_sym('/') || follow[i].word().is_some_and(|w| TIES.contains(&w));
            tied && period_at(follow, i + 1).is_some_and(|(p, _)| p == given)
                || adverb(follow, i) && period_at(follow, i).is_some_and(|(p, _)| p == given)
        });
    again
        .then(|| question[k].number().map(str::to_owned))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn read(q: &str) -> Option<Expr> {
        parse(&lex(q))
    }

    fn op(op: MathOp, a: &str, b: &str) -> Option<Expr> {
        Some(Expr::bin(op, Expr::Num(a.into()), Expr::Num(b.into())))
    }

    #[test]
    fn a_period_asked_with_for_the() {
        assert_eq!(
            read("rent is 1200 a month, whats that for the year"),
            Some(Expr::bin(
                MathOp::Multiply,
                Expr::Num("1200".into()),
                Expr::Num("12".into())
            ))
        );
        // A duration is no period asked.
        assert_eq!(read("1200 a month for 3 years, how much"), None);
    }

    #[test]
    fn an_amount_per_period_is_asked_per_another() {
        assert_eq!(
            read("i earn 4200 a month, how much is that a year"),
            op(MathOp::Multiply, "4200", "12")
        );
        assert_eq!(
            read("lương 15000000 một tháng thì một năm bao nhiêu"),
            op(MathOp::Multiply, "15000000", "12")
        );
        assert_eq!(
            read("52000 a year, how much a week?"),
            op(MathOp::Divide, "52000", "52")
        );
        assert_eq!(
            read("spend 12 per day, what's that weekly"),
            op(MathOp::Multiply, "12", "7")
        );
    }

    #[test]
    fn an_amount_per_period_over_a_count_of_periods() {
        let read = |q: &str| over_periods(&lex(q));
        assert_eq!(
            read("mỗi tháng trả góp 1750000, 24 tháng thì tổng cộng bao nhiêu"),
            op(MathOp::Multiply, "1750000", "24")
        );
        assert_eq!(
            read("1 tháng trả góp 2100000, 18 tháng tổng bao nhiêu"),
            op(MathOp::Multiply, "2100000", "18")
        );
        assert_eq!(
            read("2100 a month for 18 months, total?"),
            op(MathOp::Multiply, "2100", "18")
        );
        assert_eq!(read("2100 a month for 18 weeks, total?"), None);
    }

    #[test]
    fn a_deposit_counted_in_months_of_rent() {
        let read = |q: &str| months_of(&lex(q));
        assert_eq!(
            read("deposit = 1.5 months rent and rent is 2400, how much do i ask the new guy for"),
            op(MathOp::Multiply, "1.5", "2400")
        );
        assert_eq!(
            read("take 1850, then and the deposit is 1.5 months rent, how much"),
            op(MathOp::Multiply, "1.5", "1850")
        );
        assert_eq!(
            read("tiền nhà 4500000 một tháng, cọc 2 tháng là bao nhiêu"),
            op(MathOp::Multiply, "2", "4500000")
        );
        // No deposit named, or no count of months.
        assert_eq!(read("1.5 months rent and rent is 2400"), None);
        assert_eq!(read("deposit is 2400 and rent is 1850"), None);
    }

    #[test]
    fn periods_of_varying_length_or_other_questions_are_left_alone() {
        assert_eq!(read("4200 a month, how much a week"), None);
        assert_eq!(read("4200 a month for 3 months, how much"), None);
        assert_eq!(read("5000 at 4% a year, interest per month?"), None);
        assert_eq!(read("4200 a month"), None);
        // A duration is no rate.
        assert_eq!(read("3 tuần nữa là ngày mấy, thứ mấy?"), None);
    }
}
