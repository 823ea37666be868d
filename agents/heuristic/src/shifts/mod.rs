//! Time worked, read over the whole request: the hours between two clock times
//! (`night shift starts at 7pm and I get off at 7:30am, how many hours` is 31.5 − 19,
//! the end on the next day when it is not after the start; `ca từ 7 giờ sáng đến 3 giờ
//! 30 chiều, mấy tiếng` 15.5 − 7), and overtime paid at a multiple of a rate (`I make
//! $42.80 an hour and OT is time and a half, whats my overtime rate` is 42.80 × 1.5,
//! `4 hrs overtime at 1.5x my 42.80 rate` 4 × 1.5 × 42.80).
//!
//! Clock times are converted to hours here, as any reading of the words is: the
//! subtraction is the math tool's. Minutes that make no exact decimal of an hour
//! (`9:20`) are counted in minutes and divided by 60.

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, words_at};
use crate::places::time_at;

mod after;
pub use after::overtime_after;

/// Words asking how long, in hours: (phrase).
const HOURS_ASKED: &[&[&str]] = &[
    &["how", "many", "hours"],
    &["how", "many", "hrs"],
    &["how", "long"],
    &["total", "hours"],
    &["mấy", "tiếng"],
    &["mấy", "giờ", "đồng", "hồ"],
    &["bao", "nhiêu", "tiếng"],
    &["bao", "nhiêu", "giờ", "đồng", "hồ"],
    &["bn", "tiếng"],
];

/// Words counting the shifts worked (`3 shifts`, `4 đêm`), after the count.
const SHIFT_COUNTS: &[&str] = &[
    "shifts", "shift", "nights", "night", "days", "day", "ca", "đêm", "ngày", "buổi",
];

/// Words saying the time is in a place (then a conversion is asked, not hours).
const PLACED: &[&str] = &["in", "ở", "bên", "tại"];

/// Words a shift said alone by its two clock times may stand among (`còn ca 20h tới
/// 4h30?`, `and the shift 10pm to 6am?`).
const SHIFT_ALONE: &[&str] = &[
    "ca", "shift", "còn", "từ", "đến", "tới", "thì", "sao", "nữa", "and", "the", "what", "about",
    "from", "to", "till", "until",
];

/// Whether `toks` name a shift by its two clock times and say nothing else: its hours
/// are what is asked.
fn shift_alone(toks: &[Token]) -> bool {
    let named = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| matches!(w, "ca" | "shift")));
    let mut times = 0;
    let mut i = 0;
    while i < toks.len() {
        if let Some((_, next)) = time_at(toks, i) {
            times += 1;
            i = next;
            continue;
        }
        let other = match &toks[i].tok {
            Tok::Word(w) => !SHIFT_ALONE.contains(&w.as_str()),
            Tok::Sym(c) => !matches!(c, '?' | ',' | '-' | '.'),
            _ => true,
        };
        if other {
            return false;
        }
        i += 1;
    }
    named && times == 2
}

/// The hours between the two clock times `toks` hold, when hours are asked.
pub fn hours_between(toks: &[Token]) -> Option<Expr> {
    if !crate::lexer::says(toks, HOURS_ASKED) && !shift_alone(toks) {
        return None;
    }
    let mut times = Vec::new();
    let mut i = 0;
    let mut counted: Option<String> = None;
    while i < toks.len() {
        if let Some((hhmm, next)) = time_at(toks, i) {
            times.push(hhmm);
            i = next;
            continue;
        }
        // (`22:00-06:00 three nights a week`: a count of shifts spelled out.)
        if toks[i].number().is_none()
            && let Some((n, next)) = crate::numbers::parse_words(toks, i, false)
            && toks
                .get(next)
                .and_then(Token::word)
                .is_some_and(|w| SHIFT_COUNTS.contains(&w))
        {
            if counted.replace(n).is_some() {
                return None;
            }
            i = next;
            continue;
        }
        if let Some(n) = toks[i].number() {
            // Only a count of shifts may stand beside the times.
            let counts = toks
                .get(i + 1)
                .and_then(Token::word)
                .is_some_and(|w| SHIFT_COUNTS.contains(&w));
            if !counts || counted.is_some() {
                return None;
            }
            counted = Some(n.to_owned());
        }
        if matches!(toks[i].tok, Tok::Date(_))
            || toks[i].word().is_some_and(|w| PLACED.contains(&w))
        {
            return None;
        }
        i += 1;
    }
    let [start, end] = times.as_slice() else {
        return None;
    };
    let minutes = |hhmm: &str| -> Option<u32> {
        let (h, m) = hhmm.split_once(':')?;
        Some(h.parse::<u32>().ok()? * 60 + m.parse::<u32>().ok()?)
    };
    let from = minutes(start)?;
    let mut to = minutes(end)?;
    if to <= from {
        to += 24 * 60;
    }
    // An exact decimal of an hour: minutes a multiple of 3 (0.05 h each).
    let hours = match (from % 3, to % 3) {
        (0, 0) => Expr::bin(
            MathOp::Subtract,
            Expr::Num(decimal_hours(to)),
            Expr::Num(decimal_hours(from)),
        ),
        _ => Expr::bin(
            MathOp::Divide,
            Expr::bin(
                MathOp::Subtract,
                Expr::Num(to.to_string()),
                Expr::Num(from.to_string()),
            ),
            Expr::Num("60".into()),
        ),
    };
    Some(match counted {
        Some(n) => Expr::bin(MathOp::Multiply, Expr::Num(n), hours),
        None => hours,
    })
}

/// `minutes` as decimal hours (`1170` → `19.5`); minutes a multiple of 3.
fn decimal_hours(minutes: u32) -> String {
    let (h, m) = (minutes / 60, minutes % 60);
    match m {
        0 => h.to_string(),
        m => {
            let frac = format!("{:02}", m * 100 / 60);
            format!("{h}.{}", frac.trim_end_matches('0'))
        }
    }
}

/// Words naming overtime.
const OVERTIME: &[&[&str]] = &[
    &["ot"],
    &["overtime"],
    &["over", "time"],
    &["tăng", "ca"],
    &["làm", "thêm", "giờ"],
    &["ngoài", "giờ"],
];

/// Multiples said in words: (phrase, multiple).
const MULTIPLES: &[(&[&str], &str)] = &[
    (&["time", "and", "a", "half"], "1.5"),
    (&["time", "and", "half"], "1.5"),
    (&["double", "time"], "2"),
    (&["double", "pay"], "2"),
    (&["triple", "time"], "3"),
    (&["gấp", "rưỡi"], "1.5"),
];

/// Words saying a number is an hourly rate when they follow it (`42.80/hr`, `42.80
/// an hour`, `45 nghìn một tiếng`).
const PER_HOUR: &[&[&str]] = &[
    &["/", "hr"],
    &["/", "hour"],
    &["/", "h"],
    &["an", "hour"],
    &["per", "hour"],
    &["per", "hr"],
    &["a", "hour"],
    &["một", "tiếng"],
    &["một", "giờ"],
    &["mỗi", "tiếng"],
    &["mỗi", "giờ"],
];

/// Words saying a number counts hours worked, after it.
const HOURS: &[&str] = &["hours", "hour", "hrs", "hr", "h", "tiếng", "giờ"];

/// The hourly rate: the one named, else the one amount left unnamed (`1.5x my 42.80
/// rate`, `at $21.50`); `None` when an amount is left over or none is the rate.
fn the_rate(named: Option<String>, others: &[String]) -> Option<String> {
    match (named, others) {
        (Some(r), []) => Some(r),
        (None, [n]) => Some(n.clone()),
        _ => None,
    }
}

/// Whether the words (or symbols) right after `toks[k]` say it is an hourly rate.
fn per_hour(toks: &[Token], k: usize) -> bool {
    PER_HOUR.iter().any(|phrase| {
        phrase
            .iter()
            .enumerate()
            .all(|(j, w)| match toks.get(k + 1 + j).map(|t| &t.tok) {
                Some(Tok::Word(x)) => x == w,
                Some(Tok::Sym(c)) => c.to_string() == *w,
                _ => false,
            })
    })
}

/// The pay for overtime `toks` ask: the rate times the multiple, times the hours when
/// some are said.
pub fn overtime(toks: &[Token]) -> Option<Expr> {
    if !crate::lexer::says(toks, OVERTIME) {
        return None;
    }
    if crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let mut multiple: Option<String> = MULTIPLES.iter().find_map(|(p, m)| {
        (0..toks.len())
            .any(|i| words_at(toks, i, p))
            .then(|| (*m).to_owned())
    });
    let (mut rate, mut hours) = (None, None);
    let mut others = Vec::new();
    for k in crate::lexer::number_positions(toks) {
        let n = toks[k].number()?.to_owned();
        // `1.5x`, `x1.5`, `1.5 times`: the multiple.
        let times_after = matches!(word(k + 1), Some("x" | "times" | "lần"));
        let times_before = k > 0 && (word(k - 1) == Some("x") || toks[k - 1].is_sym('*'));
        if multiple.is_none() && (times_after || times_before) && n.parse::<f64>().ok()? < 5.0 {
            multiple = Some(n);
        } else if per_hour(toks, k) {
            rate = Some(n);
        } else if word(k + 1).is_some_and(|w| HOURS.contains(&w)) {
            if hours.is_some() {
                return None;
            }
            hours = Some(n);
        } else {
            others.push(n);
        }
    }
    let paid = Expr::bin(
        MathOp::Multiply,
        Expr::Num(the_rate(rate, &others)?),
        Expr::Num(multiple?),
    );
    Some(match hours {
        Some(h) => Expr::bin(MathOp::Multiply, Expr::Num(h), paid),
        None => paid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn n(s: &str) -> Expr {
        Expr::Num(s.into())
    }

    fn minus(a: &str, b: &str) -> Option<Expr> {
        Some(Expr::bin(MathOp::Subtract, n(a), n(b)))
    }

    fn times(a: Expr, b: Expr) -> Expr {
        Expr::bin(MathOp::Multiply, a, b)
    }

    #[test]
    fn hours_between_two_clock_times_overnight_or_not() {
        let read = |s: &str| hours_between(&lex(s));
        assert_eq!(
            read("night shift starts at 7pm and I get off at 7:30am, how many hours is that"),
            minus("31.5", "19")
        );
        assert_eq!(
            read("my shift is 09:15 to 17:45, how many hours"),
            minus("17.75", "9.25")
        );
        assert_eq!(
            read("ca từ 7 giờ sáng đến 3 giờ 30 chiều, mấy tiếng"),
            minus("15.5", "7")
        );
        // Minutes that make no exact decimal of an hour are counted in minutes.
        assert_eq!(
            read("from 9:20am to 5pm how many hours"),
            Some(Expr::bin(
                MathOp::Divide,
                Expr::bin(MathOp::Subtract, n("1020"), n("560")),
                n("60")
            ))
        );
        assert_eq!(
            read("3 night shifts from 7pm to 7am, how many hours total"),
            Some(times(n("3"), Expr::bin(MathOp::Subtract, n("31"), n("19"))))
        );
    }

    #[test]
    fn a_time_in_a_place_or_other_amounts_are_other_questions() {
        let read = |s: &str| hours_between(&lex(s));
        assert_eq!(read("if it's 9am in Paris what time is it in Seoul"), None);
        assert_eq!(read("shift 7pm to 7am at 25 an hour, how much"), None);
        assert_eq!(read("what time is it 3 hours after 7pm"), None);
        assert_eq!(read("7pm to 7:30am"), None);
    }

    #[test]
    fn overtime_is_a_multiple_of_the_rate() {
        let read = |s: &str| overtime(&lex(s));
        assert_eq!(
            read("I make $42.80 an hour and OT is time and a half, whats my overtime rate"),
            Some(times(n("42.8"), n("1.5")))
        );
        assert_eq!(
            read("did 4 hours overtime this week at 1.5x my 42.80 rate.. how much extra"),
            Some(times(n("4"), times(n("42.8"), n("1.5"))))
        );
        assert_eq!(
            read("base rate is 42.80/hr and OT is 1.5x, whats the OT rate"),
            Some(times(n("42.8"), n("1.5")))
        );
        assert_eq!(
            read("lương 50000 một tiếng, tăng ca gấp rưỡi, làm 10 tiếng tăng ca được bao nhiêu"),
            Some(times(n("10"), times(n("50000"), n("1.5"))))
        );
        // No overtime named, or two amounts that could be the rate.
        assert_eq!(read("42.80 an hour times 1.5"), None);
        assert_eq!(read("OT at 1.5x, 42.80 or 45.10"), None);
    }
}
