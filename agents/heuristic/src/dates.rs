//! Date questions: today, now, N units from now or ago (optionally from a given date),
//! days between two dates, the weekday of a date, days until a date, in English and
//! Vietnamese. A part is read as a set of recognised pieces (dates, durations, keyword
//! phrases, harmless words); any other word means the part is not a date question.
//!
//! "What day is it in 10 days" asks for a day, so it plans `add_duration` and then
//! `weekday` on its result; both are shown. "In 3 weeks" plans `add_duration` only.

use crate::builder::{PlanBuilder, int, text};
use crate::lexer::{Tok, Token, iso_date, words_at};
use crate::numbers;

/// The date pool's name.
pub const DATE_POOL: &str = "date";

/// A date question, ready to become steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DateQuery {
    /// Today's date, and its weekday when asked.
    Today {
        /// Also plan `weekday` on the result.
        weekday: bool,
    },
    /// The current date and time.
    Now,
    /// A date shifted by a duration.
    Shift {
        /// `add_duration` when true, `subtract_duration` when false.
        add: bool,
        /// Whole units.
        amount: i64,
        /// `days`, `weeks`, `months`, `years`, `hours` or `minutes`.
        unit: &'static str,
        /// The start date (today when absent).
        date: Option<String>,
        /// Also plan `weekday` on the result.
        weekday: bool,
    },
    /// Signed whole days from one date to another.
    Difference {
        /// Start date.
        from: String,
        /// End date.
        to: String,
    },
    /// The weekday of a date.
    Weekday {
        /// The date.
        date: String,
    },
    /// Days from today until a date.
    DaysUntil {
        /// The date.
        date: String,
    },
    /// A named day of the year (Christmas, New Year's Day …): its next date (the
    /// `next_date` tool, today included), then what was asked of it.
    Named {
        /// Month, 1–12.
        month: i64,
        /// Day of the month.
        day: i64,
        /// The date itself, its weekday, or the days until it.
        then: NamedThen,
    },
}

/// What a question about a named day asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedThen {
    /// Its date.
    Date,
    /// Its weekday.
    Weekday,
    /// The days from today until it.
    DaysUntil,
}

/// Named days of the year, longest names first: (words, month, day).
const NAMED_DAYS: &[(&[&str], i64, i64)] = &[
    (&["christmas", "eve"], 12, 24),
    (&["christmas", "day"], 12, 25),
    (&["christmas"], 12, 25),
    (&["xmas"], 12, 25),
    (&["new", "year's", "eve"], 12, 31),
    (&["new", "years", "eve"], 12, 31),
    (&["new", "year's", "day"], 1, 1),
    (&["new", "years", "day"], 1, 1),
    (&["new", "year's"], 1, 1),
    (&["new", "year"], 1, 1),
    (&["halloween"], 10, 31),
    (&["valentine's", "day"], 2, 14),
    (&["valentines", "day"], 2, 14),
    (&["valentine's"], 2, 14),
    (&["valentine"], 2, 14),
    (&["giáng", "sinh"], 12, 25),
    (&["noel"], 12, 25),
    (&["tết", "dương", "lịch"], 1, 1),
    (&["năm", "mới"], 1, 1),
    (&["lễ", "tình", "nhân"], 2, 14),
    (&["quốc", "khánh"], 9, 2),
];

/// What reading a part as a date question gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DateParse {
    /// A date question.
    Query(DateQuery),
    /// The part holds a date-shaped text that is not a real date (`2026-02-30`).
    InvalidDate(String),
    /// Not a date question.
    NotDate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Flag {
    Today,
    Tomorrow,
    Yesterday,
    Now,
    Weekday,
    AskDay,
    AskDate,
    Ago,
    Later,
    Between,
    Until,
    DayAfterTomorrow,
    DayBeforeYesterday,
    /// "day of the year", "week number": asked, but no tool answers it yet.
    Unanswered,
}

const PHRASES: &[(&[&str], &[Flag])] = &[
    (&["day", "of", "the", "year"], &[Flag::Unanswered]),
    (&["day", "of", "year"], &[Flag::Unanswered]),
    (&["of", "the", "year"], &[Flag::Unanswered]),
    (&["week", "number"], &[Flag::Unanswered]),
    (&["day", "after", "tomorrow"], &[Flag::DayAfterTomorrow]),
    (&["day", "before", "yesterday"], &[Flag::DayBeforeYesterday]),
    (&["ngày", "kia"], &[Flag::DayAfterTomorrow]),
    (&["ngày", "mốt"], &[Flag::DayAfterTomorrow]),
    (&["hôm", "kia"], &[Flag::DayBeforeYesterday]),
    (&["day", "of", "the", "week"], &[Flag::Weekday]),
    (&["day", "of", "week"], &[Flag::Weekday]),
    (&["from", "now"], &[Flag::Later]),
    (&["from", "today"], &[Flag::Later]),
    (&["kể", "từ", "hôm", "nay"], &[Flag::Later]),
    (&["kể", "từ"], &[Flag::Later]),
    (&["hôm", "nay"], &[Flag::Today]),
    (&["ngày", "mai"], &[Flag::Tomorrow]),
    (&["hôm", "qua"], &[Flag::Yesterday]),
    (&["what", "time"], &[Flag::Now]),
    (&["mấy", "giờ"], &[Flag::Now]),
    (&["bây", "giờ"], &[Flag::Now]),
    (&["what", "day"], &[Flag::AskDay]),
    (&["which", "day"], &[Flag::AskDay]),
    (&["what", "date"], &[Flag::AskDate]),
    (&["ngày", "gì"], &[Flag::AskDay]),
    (&["ngày", "nào"], &[Flag::AskDay]),
    (&["ngày", "mấy"], &[Flag::AskDate]),
    (&["thứ", "mấy"], &[Flag::Weekday]),
    (&["thứ", "gì"], &[Flag::Weekday]),
    (&["cách", "đây"], &[Flag::Ago]),
    (&["today"], &[Flag::Today]),
    (&["tomorrow"], &[Flag::Tomorrow]),
    (&["yesterday"], &[Flag::Yesterday]),
    (&["now"], &[Flag::Now]),
    (&["weekday"], &[Flag::Weekday]),
    (&["thứ"], &[Flag::Weekday]),
    (&["date"], &[Flag::AskDate]),
    (&["ago"], &[Flag::Ago]),
    (&["before"], &[Flag::Ago]),
    (&["earlier"], &[Flag::Ago]),
    (&["minus"], &[Flag::Ago]),
    (&["trước"], &[Flag::Ago]),
    (&["trừ"], &[Flag::Ago]),
    (&["in"], &[Flag::Later]),
    (&["after"], &[Flag::Later]),
    (&["later"], &[Flag::Later]),
    (&["plus"], &[Flag::Later]),
    (&["sau"], &[Flag::Later]),
    (&["nữa"], &[Flag::Later]),
    (&["cộng"], &[Flag::Later]),
    (&["from"], &[Flag::Later, Flag::Between]),
    (&["between"], &[Flag::Between]),
    (&["difference"], &[Flag::Between]),
    (&["giữa"], &[Flag::Between]),
    (&["từ"], &[Flag::Between]),
    (&["until"], &[Flag::Until]),
    (&["till"], &[Flag::Until]),
    (&["to"], &[Flag::Until]),
    (&["left"], &[Flag::Until]),
    (&["remaining"], &[Flag::Until]),
    (&["đến"], &[Flag::Until]),
    (&["tới"], &[Flag::Until]),
    (&["còn"], &[Flag::Until]),
];

/// Words that may appear in a date question without changing it.
const HARMLESS: &[&str] = &[
    "what", "is", "it", "the", "a", "an", "of", "on", "will", "be", "was", "day", "days", "how",
    "many", "are", "there", "please", "tell", "me", "which", "and", "going", "at", "exactly",
    "week", "weeks", "month", "months", "year", "years", "then", "also", "get", "give", "là",
    "ngày", "hôm", "mấy", "bao", "nhiêu", "có", "thì", "vào", "sẽ", "cho", "tôi", "biết", "hãy",
    "xem", "số", "hỏi", "nhé", "ạ", "vậy", "rơi", "của", "và", "tuần", "tháng", "năm", "rồi",
    "cũng", "nay", "gì", "when", "does", "do", "fall", "falls", "this", "lễ", "dịp",
];

fn unit(word: &str) -> Option<&'static str> {
    Some(match word {
        "day" | "days" | "ngày" => "days",
        "week" | "weeks" | "tuần" => "weeks",
        "month" | "months" | "tháng" => "months",
        "year" | "years" | "năm" => "years",
        "hour" | "hours" | "giờ" | "tiếng" => "hours",
        "minute" | "minutes" | "min" | "mins" | "phút" => "minutes",
        _ => return None,
    })
}

/// Reads `toks` (from the query `src`) as a date question.
pub fn parse(toks: &[Token], src: &str) -> DateParse {
    let mut dates: Vec<String> = Vec::new();
    let mut durations: Vec<(i64, &'static str)> = Vec::new();
    let mut flags: Vec<Flag> = Vec::new();
    // A unit named without an amount (`how many weeks until`): the tools count days.
    let mut counted_in: Option<&str> = None;
    let mut named: Option<(i64, i64)> = None;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if let Some((words, month, day)) = NAMED_DAYS.iter().find(|(w, _, _)| words_at(toks, i, w))
        {
            if named.replace((*month, *day)).is_some() {
                return DateParse::NotDate; // two named days: not one question
            }
            i += words.len();
            continue;
        }
        if let Tok::Date(d) = &t.tok {
            match d {
                Some(iso) => dates.push(iso.clone()),
                None => return DateParse::InvalidDate(src[t.start..t.end].to_owned()),
            }
            i += 1;
            continue;
        }
        if let Some((date, next)) = vietnamese_date(toks, i) {
            match date {
                Some(iso) => dates.push(iso),
                None => {
                    let raw = &src[t.start..toks[next - 1].end];
                    return DateParse::InvalidDate(raw.to_owned());
                }
            }
            i = next;
            continue;
        }
        if let Some((amount, next)) = amount_at(toks, i)
            && let Some(u) = toks.get(next).and_then(Token::word).and_then(unit)
        {
            let Ok(amount) = amount.parse::<i64>() else {
                return DateParse::NotDate;
            };
            durations.push((amount, u));
            i = next + 1;
            continue;
        }
        if let Some((phrase, fs)) = PHRASES.iter().find(|(p, _)| words_at(toks, i, p)) {
            flags.extend_from_slice(fs);
            i += phrase.len();
            continue;
        }
        if let Some(u) = t.word().and_then(unit)
            && matches!(u, "weeks" | "months" | "years")
            && t.word() != Some("năm")
        {
            counted_in = Some(u);
        }
        let harmless = match &t.tok {
            Tok::Word(w) => HARMLESS.contains(&w.as_str()),
            Tok::Sym(c) => "?!.:\"'".contains(*c),
            _ => false,
        };
        if !harmless {
            return DateParse::NotDate;
        }
        i += 1;
    }
    if flags.contains(&Flag::Unanswered) {
        return DateParse::NotDate;
    }
    if let Some((month, day)) = named {
        if !dates.is_empty() || !durations.is_empty() || counted_in.is_some() {
            return DateParse::NotDate;
        }
        let has = |f: Flag| flags.contains(&f);
        let then = if has(Flag::Until) {
            NamedThen::DaysUntil
        } else if has(Flag::Weekday) || has(Flag::AskDay) {
            NamedThen::Weekday
        } else {
            NamedThen::Date
        };
        return DateParse::Query(DateQuery::Named { month, day, then });
    }
    match decide(&dates, &durations, &flags) {
        Some(DateQuery::Difference { .. } | DateQuery::DaysUntil { .. })
            if counted_in.is_some() =>
        {
            DateParse::NotDate
        }
        Some(q) => DateParse::Query(q),
        None => DateParse::NotDate,
    }
}

/// The Vietnamese written form `25 tháng 12 năm 2026` at `i`: the ISO date (`None` when
/// not a real date) and the index after it.
fn vietnamese_date(toks: &[Token], i: usize) -> Option<(Option<String>, usize)> {
    let num = |k: usize| match &toks.get(k)?.tok {
        Tok::Num(n) => n.parse::<u32>().ok(),
        _ => None,
    };
    let (d, m, y) = (num(i)?, num(i + 2)?, num(i + 4)?);
    let shaped = toks.get(i + 1).and_then(Token::word) == Some("tháng")
        && toks.get(i + 3).and_then(Token::word) == Some("năm");
    if !shaped {
        return None;
    }
    let y = i32::try_from(y).ok()?;
    Some((iso_date(y, m, d), i + 5))
}

/// A whole amount before a unit: digits, number words, or `a`/`an`.
fn amount_at(toks: &[Token], i: usize) -> Option<(String, usize)> {
    match &toks.get(i)?.tok {
        Tok::Num(n) => Some((n.clone(), i + 1)),
        Tok::Word(w) if w == "a" || w == "an" => Some(("1".into(), i + 1)),
        Tok::Word(_) => numbers::parse_words(toks, i, false),
        _ => None,
    }
}

fn decide(
    dates: &[String],
    durations: &[(i64, &'static str)],
    flags: &[Flag],
) -> Option<DateQuery> {
    let has = |f: Flag| flags.contains(&f);
    let wants_weekday = has(Flag::Weekday) || has(Flag::AskDay);
    match (dates, durations) {
        ([from, to], []) if has(Flag::Between) || has(Flag::Until) => Some(DateQuery::Difference {
            from: from.clone(),
            to: to.clone(),
        }),
        ([date], []) if has(Flag::Until) || (has(Flag::Between) && has(Flag::Today)) => {
            Some(DateQuery::DaysUntil { date: date.clone() })
        }
        ([date], []) if wants_weekday => Some(DateQuery::Weekday { date: date.clone() }),
        (_, [(amount, unit)]) if dates.len() <= 1 => {
            let add = match (has(Flag::Later), has(Flag::Ago)) {
                (true, false) => true,
                (false, true) => false,
                _ => return None,
            };
            let dated = matches!(*unit, "days" | "weeks" | "months" | "years");
            Some(DateQuery::Shift {
                add,
                amount: *amount,
                unit,
                date: dates.first().cloned(),
                weekday: wants_weekday && dated,
            })
        }
        ([], [])
            if has(Flag::DayAfterTomorrow) != has(Flag::DayBeforeYesterday)
                && !has(Flag::Later)
                && !has(Flag::Ago) =>
        {
            Some(DateQuery::Shift {
                add: has(Flag::DayAfterTomorrow),
                amount: 2,
                unit: "days",
                date: None,
                weekday: wants_weekday,
            })
        }
        ([], [])
            if has(Flag::Tomorrow) != has(Flag::Yesterday)
                && !has(Flag::Later)
                && !has(Flag::Ago) =>
        {
            Some(DateQuery::Shift {
                add: has(Flag::Tomorrow),
                amount: 1,
                unit: "days",
                date: None,
                weekday: wants_weekday,
            })
        }
        ([], []) if has(Flag::Now) && !has(Flag::Today) => Some(DateQuery::Now),
        ([], []) if has(Flag::Today) || has(Flag::AskDate) || has(Flag::AskDay) => {
            Some(DateQuery::Today {
                weekday: wants_weekday,
            })
        }
        _ => None,
    }
}

impl DateQuery {
    /// How many steps this question needs.
    pub fn step_count(&self) -> usize {
        match self {
            DateQuery::Today { weekday: true } | DateQuery::Shift { weekday: true, .. } => 2,
            DateQuery::Named { then, .. } if *then != NamedThen::Date => 2,
            _ => 1,
        }
    }

    /// Adds this question's steps to `plan` for `part`; every step here is an answer.
    pub fn lower_into(&self, plan: &mut PlanBuilder, part: &str) {
        if let DateQuery::Named { month, day, then } = self {
            let args = vec![("month", int(*month)), ("day", int(*day))];
            let date = plan.push(part, DATE_POOL, "next_date", args, true);
            match then {
                NamedThen::Date => {}
                NamedThen::Weekday => {
                    plan.push(part, DATE_POOL, "weekday", vec![("date", date)], true);
                }
                NamedThen::DaysUntil => {
                    plan.push(part, DATE_POOL, "days_until", vec![("date", date)], true);
                }
            }
            return;
        }
        let (tool, args) = match self {
            DateQuery::Today { .. } => ("today", vec![]),
            DateQuery::Now => ("now", vec![]),
            DateQuery::Shift {
                add,
                amount,
                unit,
                date,
                ..
            } => {
                let mut args = vec![("amount", int(*amount)), ("unit", text(unit))];
                if let Some(d) = date {
                    args.push(("date", text(d)));
                }
                (
                    if *add {
                        "add_duration"
                    } else {
                        "subtract_duration"
                    },
                    args,
                )
            }
            DateQuery::Difference { from, to } => {
                ("difference", vec![("from", text(from)), ("to", text(to))])
            }
            DateQuery::Weekday { date } => ("weekday", vec![("date", text(date))]),
            DateQuery::DaysUntil { date } => ("days_until", vec![("date", text(date))]),
            DateQuery::Named { .. } => return, // lowered above
        };
        let result = plan.push(part, DATE_POOL, tool, args, true);
        if self.step_count() == 2 {
            plan.push(part, DATE_POOL, "weekday", vec![("date", result)], true);
        }
    }
}
