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
    /// A count of days asked in weeks (`how many weeks until 20/12/2026`, `how many
    /// weeks between September 7, 2026 and January 11, 2027`): the days, then ÷ 7 by
    /// the math tool.
    InWeeks(Box<DateQuery>),
    /// Whole days between two days written without a year (`check in 23/12, check out
    /// 27/12, how many nights`): each found by `next_date`, then their difference.
    DaysBetweenDays {
        /// The first day: (month, day).
        from: (i64, i64),
        /// The second day: (month, day).
        to: (i64, i64),
    },
    /// Days from a past date until today (`how many days since 19 May 2026`, `từ
    /// 19/5/2026 đến nay`): today, then the difference from the date to it.
    DaysSince {
        /// The date.
        date: String,
    },
    /// Days from today until a date.
    DaysUntil {
        /// The date.
        date: String,
    },
    /// A date a tool finds — a named day (Christmas), a weekday (next Monday), the end
    /// of the month — then what was asked of it.
    Anchored {
        /// The date to find.
        anchor: Anchor,
        /// What was asked of it.
        then: NamedThen,
    },
    /// The day of the year (1–366) of a date (today when absent).
    DayOfYear {
        /// The date.
        date: Option<String>,
    },
    /// The ISO 8601 week number of a date (today when absent).
    IsoWeek {
        /// The date.
        date: Option<String>,
    },
    /// The age in whole years of someone born on a date.
    Age {
        /// The birth date.
        born: String,
    },
    /// The current time at a place (`time_in`).
    TimeIn {
        /// The place as the user wrote it (the tool resolves it to a time zone).
        place: String,
    },
    /// How many hours the clocks at `to` are ahead of those at `from` now
    /// (`time_difference`), or how far apart they are (`absolute`: then `abs`).
    TimeDifference {
        /// The place counted from.
        from: String,
        /// The place compared.
        to: String,
        /// The distance asked either way (`time difference between X and Y`).
        absolute: bool,
    },
    /// A wall-clock time at one place as the time at another (`convert_time`).
    ConvertTime {
        /// `HH:MM`, 24-hour.
        time: String,
        /// Where that time is.
        from: String,
        /// Where it is wanted.
        to: String,
    },
}

/// A date found by a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The next date (today included) with this month and day: `next_date`.
    Named {
        /// Month, 1–12.
        month: i64,
        /// Day of the month.
        day: i64,
        /// Which year's: the next one by default.
        year: NamedYear,
        /// Whether the user wrote the day and month (`15/12`, `dec 18`), or asked the
        /// days left in a month or the year, rather than naming a day (`christmas`,
        /// `4th of july`): the days until it are then the whole answer.
        said: bool,
    },
    /// The next (or last) date falling on a weekday: `find_weekday`.
    Weekday {
        /// The English name (`Monday`).
        name: &'static str,
        /// The last one before today rather than the next one after it.
        last: bool,
    },
    /// The last day of this month: `end_of_month`.
    EndOfMonth,
    /// A weekday of this week, the next or the last (weeks start on Monday): `thứ 6
    /// tuần này` (`weeks` 0), `thứ 6 tuần sau` (1, never the coming Friday of this
    /// week), `thứ 6 tuần trước` (-1), `friday next week`. Found from the last Sunday
    /// before today (`find_weekday`), then that many days on.
    WeekdayOfWeek {
        /// The English name (`Friday`).
        name: &'static str,
        /// Weeks from this one.
        weeks: i64,
    },
}

/// The year a named day is asked in: `christmas` (the next one), `christmas 2027`,
/// `giáng sinh năm sau` (next year's, past or not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedYear {
    /// The next one, today included.
    Next,
    /// That year's.
    In(i64),
    /// The one in today's year plus this many years.
    Offset(i64),
    /// The last one, today included (`since christmas`).
    Last,
}

/// Words naming a year relative to this one, after a named day (`christmas next year`,
/// `20/11 năm sau`) or before it (`next year's christmas`): (words, years from now).
const YEAR_AFTER: &[(&[&str], i64)] = &[
    (&["next", "year"], 1),
    (&["this", "year"], 0),
    (&["last", "year"], -1),
    (&["năm", "sau"], 1),
    (&["năm", "tới"], 1),
    (&["năm", "nay"], 0),
    (&["năm", "ngoái"], -1),
    (&["năm", "trước"], -1),
];
/// (The lexer reads `year's` as `year`: `next year's christmas`.)
const YEAR_BEFORE: &[(&[&str], i64)] = &[
    (&["next", "year"], 1),
    (&["this", "year"], 0),
    (&["last", "year"], -1),
];

/// The year written after a named day ending before `i`: `2027`, `năm 2027`, `in
/// 2027`, `, 2027`, `next year`, `năm sau`; with the index after it.
fn year_after(toks: &[Token], i: usize) -> Option<(NamedYear, usize)> {
    if let Some((w, offset)) = YEAR_AFTER.iter().find(|(w, _)| words_at(toks, i, w)) {
        return Some((NamedYear::Offset(*offset), i + w.len()));
    }
    let lead = match toks.get(i) {
        Some(t) if t.is_sym(',') => 1,
        Some(t) if matches!(t.word(), Some("năm" | "in" | "of")) => 1,
        _ => 0,
    };
    match &toks.get(i + lead)?.tok {
        Tok::Num(n) if n.len() == 4 => {
            let year: i64 = n.parse().ok()?;
            (1583..=9999)
                .contains(&year)
                .then_some((NamedYear::In(year), i + lead + 1))
        }
        _ => None,
    }
}

/// Sets the question's anchor to `new`, unless one is set already: then `false` (two
/// dates to find), except for one day named twice (`ngày nhà giáo 20/11 năm sau`, a
/// holiday and its date restated), where the year said with either holds.
fn restate(anchor: &mut Option<Anchor>, new: Anchor) -> bool {
    let Some(was) = *anchor else {
        *anchor = Some(new);
        return true;
    };
    match (was, new) {
        (
            Anchor::Named {
                month,
                day,
                year,
                said,
            },
            Anchor::Named {
                month: m,
                day: d,
                year: y,
                said: s,
            },
        ) if month == m && day == d => {
            let year = match (year, y) {
                (NamedYear::Next, y) => y,
                (year, NamedYear::Next) => year,
                (year, y) if year == y => year,
                _ => return false,
            };
            let said = said && s;
            *anchor = Some(Anchor::Named {
                month,
                day,
                year,
                said,
            });
            true
        }
        _ => false,
    }
}

impl Anchor {
    /// A day named (`christmas`), not written in digits.
    fn named(month: i64, day: i64, year: NamedYear) -> Self {
        Anchor::Named {
            month,
            day,
            year,
            said: false,
        }
    }

    /// The last day of a month or of the year (`the end of november`, `days left this
    /// year`): the days left are the whole answer, as for a date the user wrote.
    fn end_of(month: i64, day: i64, year: NamedYear) -> Self {
        Anchor::Named {
            month,
            day,
            year,
            said: true,
        }
    }
}

/// Words after a weekday naming its week: (words, weeks from this one).
const WEEK_AFTER: &[(&[&str], i64)] = &[
    (&["tuần", "này"], 0),
    (&["tuần", "nay"], 0),
    (&["tuần", "sau"], 1),
    (&["tuần", "tới"], 1),
    (&["tuần", "trước"], -1),
    (&["this", "week"], 0),
    (&["next", "week"], 1),
    (&["last", "week"], -1),
    (&["of", "this", "week"], 0),
    (&["of", "next", "week"], 1),
    (&["of", "last", "week"], -1),
];

/// Days from a Sunday to each weekday of the week after it.
fn days_from_sunday(name: &str) -> i64 {
    match name {
        "Monday" => 1,
        "Tuesday" => 2,
        "Wednesday" => 3,
        "Thursday" => 4,
        "Friday" => 5,
        "Saturday" => 6,
        _ => 7,
    }
}

/// What a question about a found date asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedThen {
    /// Its date.
    Date,
    /// Its weekday.
    Weekday,
    /// The days from today until it.
    DaysUntil,
    /// The days from it until today.
    DaysSince,
    /// Its day of the year.
    DayOfYear,
    /// Its ISO week.
    IsoWeek,
    /// A date some time after (or before) it (`45 days after dec 1`, `project starts dec
    /// 7, 8 weeks of work`), and that date's weekday when asked.
    Shift {
        /// Forward when true.
        add: bool,
        /// Whole units.
        amount: i64,
        /// `days`, `weeks`, `months` or `years`.
        unit: &'static str,
        /// Also its weekday.
        weekday: bool,
    },
}

/// Named days of the year, longest names first: (words, month, day).
const NAMED_DAYS: &[(&[&str], i64, i64)] = &[
    (&["christmas", "eve"], 12, 24),
    (&["christmas", "day"], 12, 25),
    (&["christmas"], 12, 25),
    (&["xmas"], 12, 25),
    (&["new", "year", "eve"], 12, 31),
    (&["new", "year's", "eve"], 12, 31),
    (&["new", "years", "eve"], 12, 31),
    (&["new", "year's", "day"], 1, 1),
    (&["new", "year", "day"], 1, 1),
    (&["new", "years", "day"], 1, 1),
    (&["new", "year's"], 1, 1),
    (&["new", "years"], 1, 1),
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
    (&["nhà", "giáo"], 11, 20),
];

/// The index after the named day (`christmas`, `new year's day`, `giáng sinh`) that
/// starts at `i`, if one does.
pub fn named_day_end(toks: &[Token], i: usize) -> Option<usize> {
    NAMED_DAYS
        .iter()
        .find(|(w, _, _)| words_at(toks, i, w))
        .map(|(w, _, _)| i + w.len())
}

/// "The end of the month" in its forms: the `end_of_month` anchor.
const END_OF_MONTH: &[&[&str]] = &[
    &["the", "end", "of", "the", "month"],
    &["the", "end", "of", "this", "month"],
    &["end", "of", "the", "month"],
    &["end", "of", "this", "month"],
    &["end", "of", "month"],
    &["the", "last", "day", "of", "the", "month"],
    &["the", "last", "day", "of", "this", "month"],
    &["last", "day", "of", "the", "month"],
    &["last", "day", "of", "this", "month"],
    &["ngày", "cuối", "cùng", "của", "tháng", "này"],
    &["ngày", "cuối", "cùng", "của", "tháng"],
    &["ngày", "cuối", "tháng", "này"],
    &["ngày", "cuối", "tháng"],
    &["cuối", "tháng", "này"],
    &["cuối", "tháng"],
    &["hết", "tháng", "này"],
    &["hết", "tháng"],
    &["left", "in", "the", "month"],
    &["left", "in", "this", "month"],
    &["left", "this", "month"],
];

/// "The end of the year" in its forms, and the year days are left in: December 31.
const END_OF_YEAR: &[&[&str]] = &[
    &["the", "end", "of", "the", "year"],
    &["the", "end", "of", "this", "year"],
    &["end", "of", "the", "year"],
    &["end", "of", "this", "year"],
    &["end", "of", "year"],
    &["left", "in", "the", "year"],
    &["left", "in", "this", "year"],
    &["left", "this", "year"],
    &["hết", "năm", "nay"],
    &["hết", "năm"],
    &["cuối", "năm", "nay"],
    &["cuối", "năm"],
];

/// The days of a month asked by its name (`left in november`, `end of march`, `hết
/// tháng 12`, `cuối tháng 3`): its month and the index after it. February, whose last
/// day depends on the year, is not read here.
fn end_of_named_month(toks: &[Token], i: usize) -> Option<(i64, usize)> {
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let named = |k: usize| {
        MONTH_NAMES
            .iter()
            .find(|(n, _)| Some(*n) == word(k))
            .map(|m| m.1)
    };
    let (month, end) = match word(i)? {
        "end" if word(i + 1) == Some("of") => (named(i + 2)?, i + 3),
        "in" | "of" => (named(i + 1)?, i + 2),
        "hết" | "cuối" if word(i + 1) == Some("tháng") => match &toks.get(i + 2)?.tok {
            Tok::Num(n) => (
                n.parse::<u32>().ok().filter(|m| (1..=12).contains(m))?,
                i + 3,
            ),
            _ => return None,
        },
        _ => return None,
    };
    // `in november` asks days left in it only with `left`/`end` before it.
    let asked = i > 0 && matches!(word(i - 1), Some("left" | "remaining" | "end"))
        || matches!(word(i), Some("hết" | "cuối" | "end"));
    (asked && month != 2).then_some((i64::from(month), end))
}

/// Weekday names: (words, the English name the tools take).
const WEEKDAY_NAMES: &[(&[&str], &str)] = &[
    (&["monday"], "Monday"),
    (&["tuesday"], "Tuesday"),
    (&["wednesday"], "Wednesday"),
    (&["thursday"], "Thursday"),
    (&["friday"], "Friday"),
    (&["saturday"], "Saturday"),
    (&["sunday"], "Sunday"),
    (&["thứ", "hai"], "Monday"),
    (&["thứ", "ba"], "Tuesday"),
    (&["thứ", "tư"], "Wednesday"),
    (&["thứ", "năm"], "Thursday"),
    (&["thứ", "sáu"], "Friday"),
    (&["thứ", "bảy"], "Saturday"),
    (&["chủ", "nhật"], "Sunday"),
];

/// Words before a weekday name saying which one: (words, the last one before today).
const WEEKDAY_BEFORE: &[(&[&str], bool)] = &[
    (&["this", "coming"], false),
    (&["the", "coming"], false),
    (&["coming"], false),
    (&["next"], false),
    (&["this"], false),
    (&["last"], true),
    (&["previous"], true),
    (&["past"], true),
];

/// Words after a weekday name saying which one (Vietnamese): (words, last).
const WEEKDAY_AFTER: &[(&[&str], bool)] = &[
    (&["tuần", "tới"], false),
    (&["tuần", "sau"], false),
    (&["tuần", "này"], false),
    (&["sắp", "tới"], false),
    (&["tới"], false),
    (&["này"], false),
    (&["tuần", "trước"], true),
    (&["vừa", "rồi"], true),
    (&["vừa", "qua"], true),
    (&["trước"], true),
];

/// A weekday at `i` (`next friday`, `last monday`, `thứ hai tới`, `thứ 6 tuần trước`,
/// `chủ nhật`): its English name, which one (`Some(true)` the last, `Some(false)` the
/// next, `None` when not said) and the index after it.
fn weekday_at(toks: &[Token], i: usize) -> Option<(&'static str, Option<bool>, usize)> {
    let (before, at) = match WEEKDAY_BEFORE.iter().find(|(w, _)| words_at(toks, i, w)) {
        Some((w, last)) => (Some(*last), i + w.len()),
        None => (None, i),
    };
    let (name, after_name) =
        if let Some((w, name)) = WEEKDAY_NAMES.iter().find(|(w, _)| words_at(toks, at, w)) {
            (*name, at + w.len())
        } else if toks.get(at).and_then(Token::word) == Some("thứ")
            && let Some(Tok::Num(n)) = toks.get(at + 1).map(|t| &t.tok)
        {
            // `thứ 2` … `thứ 7`: Monday … Saturday.
            let k: usize = n.parse().ok().filter(|k| (2..=7).contains(k))?;
            (WEEKDAY_NAMES[7 + k - 2].1, at + 2)
        } else {
            return None;
        };
    if let Some((w, last)) = WEEKDAY_AFTER
        .iter()
        .find(|(w, _)| words_at(toks, after_name, w))
    {
        return Some((name, before.or(Some(*last)), after_name + w.len()));
    }
    Some((name, before, after_name))
}

/// The end of a weekday phrase starting at `i` (`next friday`, `thứ 6 tuần sau`,
/// `friday next week`), if one does: a follow-up naming another replaces it.
pub fn weekday_phrase_end(toks: &[Token], i: usize) -> Option<usize> {
    let (_, _, next) = weekday_at(toks, i)?;
    let week = WEEK_AFTER
        .iter()
        .find(|(w, _)| words_at(toks, next, w))
        .map_or(0, |(w, _)| w.len());
    Some(next + week)
}

/// The first weekday named without saying which one (`friday`, `thứ sáu`): its text as
/// written and its English name.
pub fn bare_weekday(toks: &[Token], src: &str) -> Option<(String, &'static str)> {
    (0..toks.len()).find_map(|i| {
        let (name, last, next) = weekday_at(toks, i)?;
        let text = &src[toks[i].start..toks[next - 1].end];
        last.is_none().then(|| (text.to_owned(), name))
    })
}

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
    /// Counted from a date up to today: `since`, `đến nay`, `and today`.
    Since,
    DayAfterTomorrow,
    DayBeforeYesterday,
    /// "day of the year", "ngày thứ mấy trong năm".
    DayOfYear,
    /// "week number", "ISO week", "tuần thứ mấy".
    IsoWeek,
    /// "how old", "age", "bao nhiêu tuổi".
    Age,
    /// The word `now`, which asks no time on its own.
    NowWord,
}

const PHRASES: &[(&[&str], &[Flag])] = &[
    // Up to today, from a date before it.
    (&["since"], &[Flag::Since]),
    (&["đến", "nay"], &[Flag::Since]),
    (&["tới", "nay"], &[Flag::Since]),
    (&["đến", "hôm", "nay"], &[Flag::Since]),
    (&["to", "today"], &[Flag::Since]),
    (&["and", "today"], &[Flag::Since]),
    // Before `what day`, which would leave `of the week` to count weeks.
    (&["what", "day", "of", "the", "week"], &[Flag::Weekday]),
    (&["which", "day", "of", "the", "week"], &[Flag::Weekday]),
    (&["what", "day", "of", "week"], &[Flag::Weekday]),
    (&["week", "of", "the", "year"], &[Flag::IsoWeek]),
    (&["week", "of", "year"], &[Flag::IsoWeek]),
    (&["day", "of", "the", "year"], &[Flag::DayOfYear]),
    (&["day", "of", "year"], &[Flag::DayOfYear]),
    (&["of", "the", "year"], &[Flag::DayOfYear]),
    (&["week", "number"], &[Flag::IsoWeek]),
    (&["iso", "week", "number"], &[Flag::IsoWeek]),
    (&["iso", "week"], &[Flag::IsoWeek]),
    (&["what", "week"], &[Flag::IsoWeek]),
    (&["which", "week"], &[Flag::IsoWeek]),
    (&["tuần", "thứ", "mấy"], &[Flag::IsoWeek]),
    (&["tuần", "thứ", "bao", "nhiêu"], &[Flag::IsoWeek]),
    (&["tuần", "số", "mấy"], &[Flag::IsoWeek]),
    (&["tuần", "iso"], &[Flag::IsoWeek]),
    (&["trong", "năm"], &[Flag::DayOfYear]),
    (&["của", "năm"], &[Flag::DayOfYear]),
    (&["how", "old"], &[Flag::Age]),
    (&["age"], &[Flag::Age]),
    (&["tuổi"], &[Flag::Age]),
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
    (&["ngày", "nào"], &[Flag::AskDate]),
    (&["ngày", "mấy"], &[Flag::AskDate]),
    (&["thứ", "mấy"], &[Flag::Weekday]),
    (&["thứ", "gì"], &[Flag::Weekday]),
    (&["cách", "đây"], &[Flag::Ago]),
    (&["today"], &[Flag::Today]),
    (&["todays"], &[Flag::Today]),
    (&["today's"], &[Flag::Today]),
    (&["tomorrow"], &[Flag::Tomorrow]),
    (&["yesterday"], &[Flag::Yesterday]),
    // `now` alone asks no time (`what is it now` after an amount): `what time`, `mấy
    // giờ` or `bây giờ` does.
    (&["now"], &[Flag::NowWord]),
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
    (&["add"], &[Flag::Later]),
    (&["thêm"], &[Flag::Later]),
    (&["subtract"], &[Flag::Ago]),
    (&["sau"], &[Flag::Later]),
    (&["nữa"], &[Flag::Later]),
    (&["cộng"], &[Flag::Later]),
    (&["from"], &[Flag::Later, Flag::Between]),
    (&["between"], &[Flag::Between]),
    (&["difference"], &[Flag::Between]),
    (&["giữa"], &[Flag::Between]),
    // `từ nay đến 30/4/2027`: from now until a date.
    (&["từ", "nay", "đến"], &[Flag::Until]),
    (&["từ", "nay", "tới"], &[Flag::Until]),
    // (Also how `nua toi`, `moi toi` read folded: until, not `tôi`; `la toi` stays
    // undecided, `là tôi sinh …` being as likely.)
    (&["nữa", "tới"], &[Flag::Later, Flag::Until]),
    (&["mới", "tới"], &[Flag::Until]),
    (&["mới", "đến"], &[Flag::Until]),
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
    // Asking to work it out: `calculate my age`, `giúp mình tính tuổi với`.
    "calculate",
    "compute",
    "work",
    "out",
    "figure",
    "tính",
    "giúp",
    "giùm",
    "với",
    "what",
    "is",
    "it",
    "the",
    "a",
    "an",
    "of",
    "on",
    "will",
    "be",
    "was",
    "day",
    "days",
    "how",
    "many",
    "are",
    "there",
    "please",
    "tell",
    "me",
    "which",
    "and",
    "going",
    "at",
    "exactly",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "then",
    "also",
    "get",
    "give",
    "là",
    "ngày",
    "hôm",
    "mấy",
    "bao",
    "nhiêu",
    "có",
    "thì",
    "vào",
    "sẽ",
    "cho",
    "tôi",
    "biết",
    "hãy",
    "xem",
    "số",
    "hỏi",
    "nhé",
    "ạ",
    "vậy",
    "rơi",
    "của",
    "và",
    "tuần",
    "tháng",
    "năm",
    "rồi",
    "cũng",
    "nay",
    "gì",
    "when",
    "does",
    "do",
    "fall",
    "falls",
    "this",
    "lễ",
    "dịp",
    "someone",
    "somebody",
    "person",
    "born",
    "i",
    "am",
    "if",
    "was",
    "were",
    "turn",
    "turns",
    "người",
    "sinh",
    "hiện",
    "đã",
    "được",
    "ai",
    "bạn",
    "thuộc",
    "nằm",
    "này",
    "they",
    "he",
    "she",
    "you",
    "we",
    "whats",
    "what's",
    "my",
    "his",
    "her",
    "their",
    "our",
    "now",
    "right",
    "bây",
    "giờ",
    "sleeps",
    "long",
];

/// Whose birthday a request is about (`my daughter was born …, how old is she`, `mẹ tôi
/// sinh ngày …`): harmless in a date question, and what makes the question for a
/// missing birth date ask about someone else.
pub(crate) const KIN: &[&str] = &[
    "daughter",
    "son",
    "kid",
    "child",
    "baby",
    "mom",
    "mum",
    "mother",
    "dad",
    "father",
    "brother",
    "sister",
    "wife",
    "husband",
    "grandma",
    "grandpa",
    "grandmother",
    "grandfather",
    "friend",
    "boss",
    "partner",
    "girlfriend",
    "boyfriend",
    "cousin",
    "aunt",
    "uncle",
    "mẹ",
    "bố",
    "em",
    "anh",
    "ông",
    "bà",
    "vợ",
    "chồng",
    "cháu",
    "nó",
    "mình",
    "gái",
    "trai",
    "nội",
    "ngoại",
];

/// Events whose date a request states (`my wedding is june 12 2027, how many days
/// left`) and the words around them (`do i have left`, `are we in`): harmless in a date
/// question.
const EVENTS: &[&str] = &[
    "wedding",
    "exam",
    "trip",
    "meeting",
    "party",
    "flight",
    "holiday",
    "vacation",
    "interview",
    "concert",
    "deadline",
    "birthday",
    "in",
    "left",
    "have",
    "do",
    "number",
    "lol",
];

/// Whose birth a Vietnamese request states (`mẹ tôi sinh ngày …`, `giờ nó mấy tuổi`):
/// these phrases also teach the normaliser how the words read without their marks
/// (`me toi sinh`).
const WHOSE_BIRTH: &[&[&str]] = &[
    &["mẹ", "tôi", "sinh"],
    &["bố", "tôi", "sinh"],
    &["em", "tôi", "sinh"],
    &["anh", "tôi", "sinh"],
    &["vợ", "tôi", "sinh"],
    &["chồng", "tôi", "sinh"],
    &["tôi", "sinh"],
    &["mình", "sinh"],
    &["nó", "mấy", "tuổi"],
];

fn unit(word: &str) -> Option<&'static str> {
    Some(match word {
        // `how many sleeps till christmas`: nights, counted as days.
        "day" | "days" | "ngày" | "sleeps" => "days",
        // A stay's nights move the date a day each (`check in dec 29 for 5 nights`).
        "night" | "nights" | "đêm" => "days",
        // Monday to Friday (`crate::workdays`).
        crate::workdays::WORD => "working_days",
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
    let mut anchor: Option<Anchor> = None;
    // A weekday named without saying which one (`friday`): the next one only where the
    // question settles it (`days until friday`).
    let mut undirected = false;
    // A day and month written `20/11` (which could be a division): a date only where
    // the request asks something of a date.
    let mut slashed = false;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // Every anchor starts with a word: numbers and symbols skip the tables.
        let found = if t.word().is_none() {
            None
        } else if let Some((month, end)) = end_of_named_month(toks, i) {
            let day = match month {
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            let year = NamedYear::Next;
            Some((Anchor::end_of(month, day, year), end))
        } else if let Some(w) = END_OF_MONTH.iter().find(|w| words_at(toks, i, w)) {
            if w[0] == "left" {
                flags.push(Flag::Until);
            }
            Some((Anchor::EndOfMonth, i + w.len()))
        } else if let Some(w) = END_OF_YEAR.iter().find(|w| words_at(toks, i, w)) {
            if w[0] == "left" {
                flags.push(Flag::Until);
            }
            let (month, day, year) = (12, 31, NamedYear::Next);
            Some((Anchor::end_of(month, day, year), i + w.len()))
        } else if let Some((before, offset)) = YEAR_BEFORE
            .iter()
            .find(|(w, _)| words_at(toks, i, w))
            .and_then(|(w, offset)| {
                let at = i + w.len();
                NAMED_DAYS
                    .iter()
                    .find(|(n, _, _)| words_at(toks, at, n))
                    .map(|named| (named, (*offset, at)))
            })
        {
            let (words, month, day) = before;
            let (offset, at) = offset;
            let (month, day, year) = (*month, *day, NamedYear::Offset(offset));
            Some((Anchor::named(month, day, year), at + words.len()))
        } else if let Some((words, month, day)) =
            NAMED_DAYS.iter().find(|(w, _, _)| words_at(toks, i, w))
        {
            let (month, day) = (*month, *day);
            let end = i + words.len();
            let (year, end) = year_after(toks, end).unwrap_or((NamedYear::Next, end));
            Some((Anchor::named(month, day, year), end))
        } else if let Some((name, last, next)) = weekday_at(toks, i) {
            // `thứ 6 tuần sau`, `friday next week`: the weekday of that week.
            // (`tuần sau thứ 6`, `next week friday`: the week said before it.)
            let before = WEEK_AFTER
                .iter()
                .find(|(w, _)| i >= w.len() && words_at(toks, i - w.len(), w))
                .map(|(_, weeks)| (*weeks, next));
            let week = before.or_else(|| {
                (i..=next).rev().find_map(|k| {
                    WEEK_AFTER
                        .iter()
                        .find(|(w, _)| words_at(toks, k, w))
                        .map(|(w, weeks)| (*weeks, k + w.len()))
                })
            });
            match week {
                Some((weeks, end)) if end >= next => {
                    Some((Anchor::WeekdayOfWeek { name, weeks }, end))
                }
                _ => {
                    undirected = last.is_none();
                    let last = last.unwrap_or(false);
                    Some((Anchor::Weekday { name, last }, next))
                }
            }
        } else {
            None
        };
        if let Some((a, next)) = found {
            if !restate(&mut anchor, a) {
                return DateParse::NotDate; // two dates to find: not one question
            }
            i = next;
            continue;
        }
        // `tuần sau thứ 6`: the week before its weekday, read with the weekday.
        if let Some((w, _)) = WEEK_AFTER.iter().find(|(w, _)| words_at(toks, i, w))
            && weekday_at(toks, i + w.len()).is_some()
        {
            i += w.len();
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
        // `July 4`, `4th of July`, `31 tháng 12`: the next such day (no year written).
        if let Some((month, day, next)) = month_day(toks, i) {
            slashed |= toks.get(i + 1).is_some_and(|t| t.is_sym('/'));
            let (year, next) = year_after(toks, next).unwrap_or((NamedYear::Next, next));
            // (`15/12`, `dec 18` are the user's date; `4th of july` names a day.)
            let said = said_date(toks, i, month, day);
            let named = Anchor::Named {
                month,
                day,
                year,
                said,
            };
            // `ngày nhà giáo 20/11`: the named day with its date restated.
            if !restate(&mut anchor, named) {
                return DateParse::NotDate;
            }
            i = next;
            continue;
        }
        if let Some((date, next)) = written_date(toks, i) {
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
            Tok::Word(w) => {
                HARMLESS.contains(&w.as_str())
                    || KIN.contains(&w.as_str())
                    || EVENTS.contains(&w.as_str())
            }
            Tok::Sym(c) => "?!.:\"'".contains(*c),
            _ => false,
        };
        if !harmless {
            return DateParse::NotDate;
        }
        i += 1;
    }
    let has = |f: Flag| flags.contains(&f);
    if let Some(anchor) = anchor {
        // `45 days after dec 1 is what date`: a shift from the day found.
        if let ([], [(amount, unit)]) = (dates.as_slice(), durations.as_slice())
            && counted_in.is_none()
            && !has(Flag::Age)
            && matches!(
                *unit,
                "days" | "working_days" | "weeks" | "months" | "years"
            )
            && has(Flag::Later) != has(Flag::Ago)
            && matches!(anchor, Anchor::Named { .. })
        {
            let then = NamedThen::Shift {
                add: has(Flag::Later),
                amount: *amount,
                unit,
                weekday: has(Flag::Weekday) || has(Flag::AskDay),
            };
            return DateParse::Query(DateQuery::Anchored { anchor, then });
        }
        // `how many days between jan 5 and march 20 2027`: the day and month in the
        // other date's year.
        if let (
            [to],
            [],
            Anchor::Named {
                month,
                day,
                year: NamedYear::Next,
                ..
            },
        ) = (dates.as_slice(), durations.as_slice(), anchor)
            && has(Flag::Between)
            && let Some(year) = to.get(..4).and_then(|y| y.parse::<i32>().ok())
            && let Some(from) = iso_date(year, month as u32, day as u32)
                // (`từ 23/11 đến 15/1/2027`: the day before the date, in the year before.)
                .filter(|from| from.as_str() <= to.as_str())
                .or_else(|| iso_date(year - 1, month as u32, day as u32))
        {
            let days = DateQuery::Difference {
                from,
                to: to.clone(),
            };
            return match counted_in {
                None => DateParse::Query(days),
                Some("weeks") => DateParse::Query(DateQuery::InWeeks(Box::new(days))),
                Some(_) => DateParse::NotDate,
            };
        }
        if !dates.is_empty() || !durations.is_empty() || counted_in.is_some() || has(Flag::Age) {
            return DateParse::NotDate;
        }
        // `how many days since christmas`: the last one, counted to today.
        let mut anchor = anchor;
        let since = has(Flag::Since) && !has(Flag::Until);
        if since {
            match &mut anchor {
                Anchor::Named { year, .. } if *year == NamedYear::Next => *year = NamedYear::Last,
                Anchor::Named { .. } => {}
                _ => return DateParse::NotDate,
            }
        }
        let then = if since {
            NamedThen::DaysSince
        } else if has(Flag::Until) {
            NamedThen::DaysUntil
        } else if has(Flag::IsoWeek) {
            NamedThen::IsoWeek
        } else if has(Flag::DayOfYear) {
            NamedThen::DayOfYear
        } else if (has(Flag::Weekday) || has(Flag::AskDay))
            && !matches!(
                anchor,
                Anchor::Weekday { .. } | Anchor::WeekdayOfWeek { .. }
            )
        {
            NamedThen::Weekday
        } else {
            NamedThen::Date
        };
        if slashed && then == NamedThen::Date {
            return DateParse::NotDate;
        }
        // `friday` alone reads two ways (this week's or next); `days until friday` not.
        if undirected && then != NamedThen::DaysUntil {
            return DateParse::NotDate;
        }
        return DateParse::Query(DateQuery::Anchored { anchor, then });
    }
    // `were they born on` with no date asks about a date written elsewhere, never today.
    let born = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| matches!(w, "born" | "sinh")))
        || crate::lexer::says(toks, WHOSE_BIRTH);
    if born && dates.is_empty() {
        return DateParse::NotDate;
    }
    // A birth date asks an age or a weekday, never the days until it.
    let birth_question = has(Flag::Age) || has(Flag::Weekday) || has(Flag::AskDay);
    if born && !birth_question {
        return DateParse::NotDate;
    }
    // `tuần này là tuần thứ mấy` names weeks; `how many years old` years.
    let counts = |unit: &str| counted_in.is_none_or(|u| u == unit);
    if durations.is_empty() && dates.len() <= 1 {
        let date = dates.first().cloned();
        if has(Flag::Age) && counts("years") {
            return match date {
                Some(born) => DateParse::Query(DateQuery::Age { born }),
                None => DateParse::NotDate,
            };
        }
        if has(Flag::IsoWeek) && counts("weeks") {
            return DateParse::Query(DateQuery::IsoWeek { date });
        }
        if has(Flag::DayOfYear) && counts("days") {
            return DateParse::Query(DateQuery::DayOfYear { date });
        }
    }
    if has(Flag::Age) || has(Flag::IsoWeek) || has(Flag::DayOfYear) {
        return DateParse::NotDate;
    }
    match decide(&dates, &durations, &flags) {
        Some(q @ (DateQuery::Difference { .. } | DateQuery::DaysUntil { .. }))
            if counted_in == Some("weeks") =>
        {
            DateParse::Query(DateQuery::InWeeks(Box::new(q)))
        }
        Some(DateQuery::Difference { .. } | DateQuery::DaysUntil { .. })
            if counted_in.is_some() =>
        {
            DateParse::NotDate
        }
        Some(q) => DateParse::Query(q),
        None => DateParse::NotDate,
    }
}

/// Words that ask the days until a date stated among other words: `còn mấy ngày`,
/// `how many days left`, `bao lâu nữa`.
const UNTIL_ASKS: &[&[&str]] = &[
    &["còn", "mấy", "ngày"],
    &["còn", "bao", "nhiêu", "ngày"],
    &["còn", "bao", "lâu"],
    &["bao", "lâu", "nữa"],
    // (`còn` may have been read as the word joining the sentence on.)
    &["mấy", "ngày"],
    &["bao", "nhiêu", "ngày"],
    &["how", "many", "days"],
    &["how", "long", "until"],
    &["how", "long", "till"],
    &["days", "left"],
    &["days", "until"],
    &["days", "till"],
    &["days", "to", "go"],
    &["days", "from", "now"],
    &["days", "from", "today"],
];

/// Words that ask another question of a date (an age, a shift, a span, a weekday): a
/// date stated among other words is not read with one of them.
const OTHER_ASKS: &[&str] = &[
    "ago", "since", "before", "after", "from", "between", "old", "age", "born", "tuổi", "sau",
    "trước", "từ", "giữa", "weekday", "thứ", "week", "tuần", "hours", "giờ", "time", "cách",
    "nhau", "apart", "both", "hai",
];

/// Words that ask the days since a date stated among other words, beside a count
/// asked ([`UNTIL_ASKS`]): `how many days since …`, `từ … đến nay`.
const SINCE_ASKS: &[&[&str]] = &[
    &["since"],
    &["đến", "nay"],
    &["tới", "nay"],
    &["đến", "hôm", "nay"],
    &["tới", "hôm", "nay"],
    &["kể", "từ"],
];

/// Words that ask an age: with a birth word ([`BIRTH_WORDS`]) and one full date, the
/// age of whoever was born then.
const AGE_ASKS: &[&[&str]] = &[
    &["how", "old"],
    &["mấy", "tuổi"],
    &["bao", "nhiêu", "tuổi"],
    &["what", "age"],
];

/// Words that ask the whole years since a date.
const YEARS_ASKS: &[&[&str]] = &[
    &["how", "many", "years"],
    &["bao", "nhiêu", "năm"],
    &["mấy", "năm"],
];

/// Words saying a date is a birth date.
const BIRTH_WORDS: &[&str] = &["born", "birth", "sinh", "dob", "bday", "birthday"];

/// What a date stated among other words is asked about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// The days until it.
    Until,
    /// The days since it.
    Since,
    /// The age of someone born on it.
    Age,
}

/// A date stated among any other words with one question asked of it: the days until
/// it (`ngày 28/12 thi môn Kinh tế vi mô, còn mấy ngày`, `my final exam is on december
/// 14, how many days left`), the days since it (`how many days has it been since the
/// kids went back to school on September 1st?`) or, a birth date, the age (`bé nhà mình
/// sinh ngày 17/3/2020, giờ bé mấy tuổi rồi`). Read only where the strict reading
/// found nothing, with exactly one date and no other number, and no word asking
/// something else of it.
pub fn tolerant(toks: &[Token]) -> Option<DateQuery> {
    let has = |table: &[&[&str]]| crate::lexer::says(toks, table);
    let word = |w: &str| toks.iter().any(|t| t.word() == Some(w));
    let born = BIRTH_WORDS.iter().any(|w| word(w));
    // `t sinh 17/3/2009, còn bao nhiêu ngày nữa là sinh nhật t`: the days until the next
    // birthday, never until the birth date.
    let birthday = word("birthday")
        || word("bday")
        || (0..toks.len()).any(|i| words_at(toks, i, &["sinh", "nhật"]));
    // `ông bà cưới nhau ngày 20/1/1975, tính đến nay được bao nhiêu năm rồi`, `how many
    // years have i been a nurse if i started june 17 2019`: whole years since, as an age.
    let years = has(YEARS_ASKS) && !word("will") && !word("sẽ");
    let asked = match (has(AGE_ASKS), has(UNTIL_ASKS), has(SINCE_ASKS)) {
        (true, false, false) if born && !word("will") && !word("sẽ") => Asked::Age,
        (false, false, _) if years => Asked::Age,
        (false, true, true) => Asked::Since,
        (false, true, false) => Asked::Until,
        _ => return None,
    };
    // Words asking another question of the date; those of the question asked are
    // harmless (`from now` is until; `since`, `từ`, `born`, `tuổi` are its own words).
    let other = (0..toks.len()).any(|k| {
        let Some(w) = toks[k].word() else {
            return false;
        };
        let own = match asked {
            Asked::Until if birthday => matches!(w, "born" | "sinh"),
            Asked::Until => {
                words_at(toks, k, &["from", "now"]) || words_at(toks, k, &["from", "today"])
            }
            Asked::Since => matches!(w, "since" | "từ" | "ago"),
            Asked::Age => matches!(
                w,
                "old" | "age" | "born" | "tuổi" | "sinh" | "giờ" | "bây" | "từ" | "since" | "nhau"
            ),
        };
        // (`Tết Nguyên Đán năm sau mùng 1 là ngày 6/2/2027`: `năm sau` only names the
        // year of the date given in full.)
        let next_year = w == "sau" && k > 0 && toks[k - 1].word() == Some("năm");
        OTHER_ASKS.contains(&w) && !own && !next_year
    });
    if other {
        return None;
    }
    let mut found: Option<(DateQuery, usize, usize)> = None;
    let mut i = 0;
    while i < toks.len() {
        let full = match &toks[i].tok {
            Tok::Date(Some(iso)) => Some((iso.clone(), i + 1)),
            _ => written_date(toks, i).and_then(|(d, next)| Some((d?, next))),
        };
        let here = match (full, asked) {
            (Some((date, next)), Asked::Until) if birthday => {
                let (month, day) = (
                    date.get(5..7)?.parse().ok()?,
                    date.get(8..10)?.parse().ok()?,
                );
                let anchor = Anchor::Named {
                    month,
                    day,
                    year: NamedYear::Next,
                    said: true,
                };
                let then = NamedThen::DaysUntil;
                Some((DateQuery::Anchored { anchor, then }, next))
            }
            (Some((date, next)), Asked::Until) => Some((DateQuery::DaysUntil { date }, next)),
            (Some((date, next)), Asked::Since) => Some((DateQuery::DaysSince { date }, next)),
            (Some((born, next)), Asked::Age) => Some((DateQuery::Age { born }, next)),
            (None, Asked::Age) => None,
            (None, _) => month_day(toks, i).map(|(month, day, next)| {
                let (year, then) = match asked {
                    Asked::Since => (NamedYear::Last, NamedThen::DaysSince),
                    _ => (NamedYear::Next, NamedThen::DaysUntil),
                };
                let said = said_date(toks, i, month, day);
                let anchor = Anchor::Named {
                    month,
                    day,
                    year,
                    said,
                };
                (DateQuery::Anchored { anchor, then }, next)
            }),
        };
        match here {
            Some((q, next)) if found.is_none() => {
                found = Some((q, i, next));
                i = next;
            }
            Some(_) => return None,
            None => i += 1,
        }
    }
    let (query, start, end) = found?;
    // No number outside the date (`2 days`, a price): another question. (`mùng 1`, the
    // first day of a lunar month, only names the day the date gives.)
    let lunar_day = |k: usize| k > 0 && matches!(toks[k - 1].word(), Some("mùng" | "mồng"));
    let other_number = toks
        .iter()
        .enumerate()
        .any(|(k, t)| !(start..end).contains(&k) && matches!(t.tok, Tok::Num(_)) && !lunar_day(k));
    (!other_number).then_some(query)
}

/// A start date, a duration and its end asked, among other words (`project starts dec 7,
/// 8 weeks of work, when does it finish`, `hợp đồng từ 1/12/2026, 6 tháng, ngày nào hết
/// hạn`): the date that long after the start. One date, one whole duration in days, weeks,
/// months or years, no other number, and the end asked.
pub fn tolerant_shift(toks: &[Token]) -> Option<DateQuery> {
    const ENDS: &[&[&str]] = &[
        &["when", "does", "it", "finish"],
        &["when", "does", "it", "end"],
        &["when", "will", "it", "finish"],
        &["when", "will", "it", "end"],
        &["when", "is", "it", "done"],
        &["finish", "date"],
        &["end", "date"],
        &["completion", "date"],
        &["due", "date"],
        &["when", "is", "it", "due"],
        &["checkout", "date"],
        &["check", "out", "date"],
        &["checkout", "day"],
        &["when", "do", "they", "leave"],
        &["trả", "phòng"],
        &["what", "date"],
        &["ngày", "nào"],
        &["ngày", "mấy"],
        &["hết", "hạn"],
    ];
    if !crate::lexer::says(toks, ENDS) {
        return None;
    }
    let mut date: Option<(Anchor, usize, usize)> = None;
    let mut full: Option<(String, usize, usize)> = None;
    let mut duration: Option<(i64, &'static str, usize)> = None;
    let mut i = 0;
    while i < toks.len() {
        if let Tok::Date(Some(iso)) = &toks[i].tok {
            full = Some((iso.clone(), i, i + 1));
            i += 1;
            continue;
        }
        if let Some((month, day, next)) = month_day(toks, i) {
            let anchor = Anchor::Named {
                month,
                day,
                year: NamedYear::Next,
                said: true,
            };
            date = Some((anchor, i, next));
            i = next;
            continue;
        }
        if let (Some(n), Some(u)) = (
            toks[i].number().and_then(|n| n.parse::<i64>().ok()),
            toks.get(i + 1).and_then(Token::word).and_then(unit),
        ) && matches!(u, "days" | "working_days" | "weeks" | "months" | "years")
        {
            if duration.replace((n, u, i)).is_some() {
                return None;
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    let (amount, unit, at) = duration?;
    let spans: Vec<(usize, usize)> = [
        full.as_ref().map(|f| (f.1, f.2)),
        date.as_ref().map(|d| (d.1, d.2)),
    ]
    .into_iter()
    .flatten()
    .collect();
    // `hạn nộp đồ án là 3 tuần nữa kể từ hôm nay, là ngày nào, thứ mấy`: from today.
    let today = toks.iter().any(|t| t.word() == Some("today"))
        || (0..toks.len()).any(|i| words_at(toks, i, &["hôm", "nay"]));
    let weekday = (0..toks.len()).any(|i| {
        words_at(toks, i, &["thứ", "mấy"])
            || words_at(toks, i, &["what", "day"])
            || toks[i].word() == Some("weekday")
    });
    let (start, end) = match spans.as_slice() {
        [(s, e)] => (*s, *e),
        [] if today => (0, 0),
        _ => return None,
    };
    // No other number.
    if toks
        .iter()
        .enumerate()
        .any(|(k, t)| matches!(t.tok, Tok::Num(_)) && k != at && !(start..end).contains(&k))
    {
        return None;
    }
    let back = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "before" | "trước" | "ago"))
    });
    match (full, date) {
        (Some((iso, ..)), None) => Some(DateQuery::Shift {
            add: !back,
            amount,
            unit,
            date: Some(iso),
            weekday,
        }),
        (None, None) => Some(DateQuery::Shift {
            add: !back,
            amount,
            unit,
            date: None,
            weekday,
        }),
        (None, Some((anchor, ..))) => Some(DateQuery::Anchored {
            anchor,
            then: NamedThen::Shift {
                add: !back,
                amount,
                unit,
                weekday,
            },
        }),
        _ => None,
    }
}

/// Whether the day and month at `i` are the user's own date (`15/12`, `dec 18`,
/// `september 1st`) rather than a day the calendar names (`4th of july`, `dec 25`):
/// the days until it are then the whole answer, its date is not shown.
fn said_date(toks: &[Token], i: usize, month: i64, day: i64) -> bool {
    let digits = toks.get(i + 1).is_some_and(|t| t.is_sym('/'));
    let named =
        NAMED_DAYS.iter().any(|(_, m, d)| (*m, *d) == (month, day)) || (month, day) == (7, 4);
    digits || !named
}

/// A date written in words at `i` — `25 tháng 12 năm 2026`, `12 June 1994`, `June 12,
/// 1994`, `feb 29 2000`, `3rd of May 1990` — as the ISO date (`None` when not a real
/// date) and the index after it.
pub fn written_date(toks: &[Token], i: usize) -> Option<(Option<String>, usize)> {
    vietnamese_date(toks, i).or_else(|| month_name_date(toks, i))
}

/// The first date written in `toks` (digits or words), as an ISO date.
pub fn first_date(toks: &[Token]) -> Option<String> {
    (0..toks.len()).find_map(|i| match &toks[i].tok {
        Tok::Date(d) => d.clone(),
        _ => written_date(toks, i).and_then(|(d, _)| d),
    })
}

/// The month an English month name or short form names (`october`, `oct`); `may` is
/// left out, as it is more often the verb.
pub(crate) fn month_number(word: &str) -> Option<u32> {
    (word != "may")
        .then(|| {
            MONTH_NAMES
                .iter()
                .find(|(n, _)| *n == word)
                .map(|(_, m)| *m)
        })
        .flatten()
}

/// English month names and their usual short forms.
/// `src` (lexed as `toks`) with a year said apart from its day and month put after them
/// (`tet 2027 is feb 6` reads `tet is feb 6 2027`, `Tết năm 2027 là ngày 6 tháng 2`
/// reads `Tết là ngày 6 tháng 2 năm 2027`), or dropped when the date has it already (`tết
/// 2027 là ngày 6/2/2027`); `dương lịch` (the solar calendar every date here is in) is
/// dropped too. `None` when there is nothing to change; a lunar date (`âm lịch`) is
/// left alone.
pub fn year_said_apart(toks: &[Token], src: &str) -> Option<String> {
    if (0..toks.len()).any(|i| words_at(toks, i, &["âm", "lịch"])) {
        return None;
    }
    let num = |x: usize| toks.get(x).and_then(Token::number).is_some();
    // (`ngày 6 tháng 2 dương lịch`: said of a date only; `Tết Dương lịch` is a day.)
    let solar = (1..toks.len()).find(|&i| words_at(toks, i, &["dương", "lịch"]) && num(i - 1));
    let year_at = |k: usize| {
        toks[k]
            .number()
            .and_then(|n| n.parse::<i32>().ok())
            .filter(|y| (1900..=2100).contains(y))
    };
    // A year before `is`/`là` and the date after it.
    let apart = (0..toks.len()).find(|&k| {
        year_at(k).is_some()
            && (k + 1..toks.len().min(k + 3))
                .any(|j| matches!(toks[j].word(), Some("is" | "là" | "was" | "falls")))
    });
    // Byte ranges to cut (each with the space before it), and where to put the year.
    let before = |k: usize| k.checked_sub(1).map_or(toks[k].start, |p| toks[p].end);
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    if let Some(i) = solar {
        cuts.push((before(i), toks[i + 1].end));
    }
    let mut insert: Option<(usize, String)> = None;
    if let Some(k) = apart {
        let year = year_at(k)?;
        let lead = k > 0 && matches!(toks[k - 1].word(), Some("năm" | "year"));
        let from = if lead { before(k - 1) } else { before(k) };
        let with_year = toks[k + 1..].iter().any(|t| match &t.tok {
            Tok::Date(Some(d)) => d.starts_with(&year.to_string()),
            _ => false,
        });
        let month = |j: usize| month_at(toks, j).is_some();
        // The day and month after it: `feb 6`, `6 feb`, `ngày 6 tháng 2`.
        let end = (k + 1..toks.len()).find_map(|j| {
            let vi = words_at(toks, j, &["tháng"]) && num(j + 1);
            let day_month = vi || month(j) && num(j + 1) || num(j) && month(j + 1);
            day_month.then_some((j + 2, vi))
        });
        match (with_year, end) {
            (true, _) => cuts.push((from, toks[k].end)),
            // (A day and month with no year of their own: `ngày 6 tháng 2 năm 2027`.)
            (false, Some((end, vi))) if !num(end) => {
                cuts.push((from, toks[k].end));
                let said = if vi {
                    format!(" năm {year}")
                } else {
                    format!(" {year}")
                };
                insert = Some((toks[end - 1].end, said));
            }
            _ => {}
        }
    }
    if cuts.is_empty() {
        return None;
    }
    let mut edits: Vec<(usize, usize, String)> = cuts
        .into_iter()
        .map(|(a, b)| (a, b, String::new()))
        .chain(insert.map(|(p, y)| (p, p, y)))
        .collect();
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = String::new();
    let mut at = 0;
    for (a, b, with) in edits {
        out.push_str(src.get(at..a)?);
        out.push_str(&with);
        at = b;
    }
    out.push_str(src.get(at..)?);
    Some(out)
}

/// The month the word at `k` names (`feb`, `february` → 2), if it names one.
fn month_at(toks: &[Token], k: usize) -> Option<u32> {
    let w = toks.get(k)?.word()?;
    MONTH_NAMES.iter().find(|(n, _)| *n == w).map(|(_, m)| *m)
}

const MONTH_NAMES: &[(&str, u32)] = &[
    ("january", 1),
    ("jan", 1),
    ("february", 2),
    ("feb", 2),
    ("march", 3),
    ("mar", 3),
    ("april", 4),
    ("apr", 4),
    ("may", 5),
    ("june", 6),
    ("jun", 6),
    ("july", 7),
    ("jul", 7),
    ("august", 8),
    ("aug", 8),
    ("september", 9),
    ("sept", 9),
    ("sep", 9),
    ("october", 10),
    ("oct", 10),
    ("november", 11),
    ("nov", 11),
    ("december", 12),
    ("dec", 12),
];

/// `12 June 1994`, `12th of June, 1994`, `June 12 1994`, `June 12th, 1994`: a day, a
/// month name and a four-digit year.
fn month_name_date(toks: &[Token], i: usize) -> Option<(Option<String>, usize)> {
    let num = |k: usize| match &toks.get(k)?.tok {
        Tok::Num(n) => n.parse::<u32>().ok(),
        _ => None,
    };
    let month = |k: usize| month_at(toks, k);
    let skip = |k: usize, words: &[&str]| {
        k + usize::from(
            toks.get(k)
                .and_then(Token::word)
                .is_some_and(|w| words.contains(&w)),
        )
    };
    let ordinal = ["st", "nd", "rd", "th"];
    let (d, m, mut k) = if let Some(m) = month(i) {
        let d = num(i + 1)?;
        (d, m, skip(i + 2, &ordinal))
    } else {
        let d = num(i)?;
        let k = skip(skip(i + 1, &ordinal), &["of"]);
        (d, month(k)?, k + 1)
    };
    if toks.get(k).is_some_and(|t| t.is_sym(',')) {
        k += 1;
    }
    let y = match &toks.get(k)?.tok {
        Tok::Num(n) if n.len() == 4 => n.parse::<i32>().ok()?,
        _ => return None,
    };
    Some((iso_date(y, m, d), k + 1))
}

/// Words asking the days or nights between two days.
const DAYS_ASKED: &[&[&str]] = &[
    &["how", "many", "days"],
    &["how", "many", "nights"],
    &["days", "between"],
    &["nights", "between"],
    &["bao", "nhiêu", "ngày"],
    &["bao", "nhiêu", "đêm"],
    &["mấy", "ngày"],
    &["mấy", "đêm"],
    &["bn", "ngày"],
    &["bn", "đêm"],
];

/// Two days written without a year and the days (or nights) between them asked:
/// `check in 23/12, check out 27/12, how many nights`, `how many days from dec 23 to
/// dec 27`, `khách nhận phòng 23/12, trả phòng 27/12, ở mấy đêm`. No other number.
pub fn between_day_months(toks: &[Token]) -> Option<DateQuery> {
    if !crate::lexer::says(toks, DAYS_ASKED) {
        return None;
    }
    let mut days = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some((m, d, next)) = month_day(toks, i) {
            days.push((m, d));
            i = next;
            continue;
        }
        if toks[i].number().is_some() || matches!(toks[i].tok, Tok::Date(_)) {
            return None;
        }
        i += 1;
    }
    // (`từ hôm nay tới 31/12 …, mà 31/12 là thứ mấy`: one day said twice, counted from
    // today, and a weekday asked — other questions.)
    let other = (0..toks.len()).any(|i| {
        words_at(toks, i, &["hôm", "nay"])
            || words_at(toks, i, &["thứ", "mấy"])
            || toks[i]
                .word()
                .is_some_and(|w| matches!(w, "today" | "now" | "weekday"))
    });
    match days.as_slice() {
        [from, to] if from != to && !other => Some(DateQuery::DaysBetweenDays {
            from: *from,
            to: *to,
        }),
        _ => None,
    }
}

/// A month and a day with no year at `i` (`July 4`, `4th of July`, `31 tháng 12`): the
/// month, the day and the index after them. A year after them makes it a full date
/// ([`written_date`]), not this.
/// The index after a day and month written without a year at `i` (`dec 14`, `14/12`,
/// `31 tháng 12`), if one starts there.
pub(crate) fn day_month_end(toks: &[Token], i: usize) -> Option<usize> {
    month_day(toks, i).map(|(_, _, next)| next)
}

fn month_day(toks: &[Token], i: usize) -> Option<(i64, i64, usize)> {
    if written_date(toks, i).is_some() {
        return None;
    }
    let num = |k: usize| match &toks.get(k)?.tok {
        Tok::Num(n) => n.parse::<u32>().ok(),
        _ => None,
    };
    let month = |k: usize| month_at(toks, k);
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let ordinal = |k: usize| usize::from(matches!(word(k), Some("st" | "nd" | "rd" | "th")));
    let (m, d, next) = if toks.get(i + 1).is_some_and(|t| t.is_sym('/')) {
        // `20/11`, `12/25`: the order a number above 12 shows, else day first in a
        // Vietnamese request (a full date `20/11/2027` is one token already).
        if toks.get(i + 3).is_some_and(|t| t.is_sym('/')) {
            return None;
        }
        let (a, b) = (num(i)?, num(i + 2)?);
        let vietnamese = toks.iter().any(|t| t.word().is_some_and(|w| !w.is_ascii()));
        match (a > 12, b > 12) {
            (true, false) => (b, a, i + 3),
            (false, true) => (a, b, i + 3),
            (false, false) if vietnamese || a == b => (b, a, i + 3),
            _ => return None,
        }
    } else if let Some(m) = month(i) {
        let d = num(i + 1)?;
        (m, d, i + 2 + ordinal(i + 2))
    } else if word(i + 1) == Some("tháng") {
        // `31 tháng 12` (`năm` after it would be a full date).
        (num(i + 2)?, num(i)?, i + 3)
    } else {
        let d = num(i)?;
        let k = i + 1 + ordinal(i + 1);
        let k = k + usize::from(word(k) == Some("of"));
        (month(k)?, d, k + 1)
    };
    // The day must exist in some year (29 February included).
    iso_date(2000, m, d)?;
    Some((i64::from(m), i64::from(d), next))
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
        // `how long ago was 1 Jan 2026`: a date and `ago`, no amount.
        ([date], []) if has(Flag::Since) || has(Flag::Ago) => {
            Some(DateQuery::DaysSince { date: date.clone() })
        }
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
            let dated = matches!(
                *unit,
                "days" | "working_days" | "weeks" | "months" | "years"
            );
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
            DateQuery::Anchored { anchor, then } => {
                let after = match then {
                    NamedThen::Date => 0,
                    NamedThen::DaysSince => 2,
                    NamedThen::Shift { weekday: true, .. } => 2,
                    _ => 1,
                };
                after + anchor_steps(anchor)
            }
            DateQuery::DaysSince { .. } => 2,
            DateQuery::DaysBetweenDays { .. } => 3,
            DateQuery::InWeeks(days) => days.step_count() + 1,
            DateQuery::TimeDifference { absolute: true, .. } => 2,
            _ => 1,
        }
    }

    /// Adds this question's steps to `plan` for `part`; every step here is an answer.
    pub fn lower_into(&self, plan: &mut PlanBuilder, part: &str) {
        if let DateQuery::Anchored { anchor, then } = self {
            let (tool, args) = match anchor {
                Anchor::Named {
                    month, day, year, ..
                } => {
                    let mut args = vec![("month", int(*month)), ("day", int(*day))];
                    match year {
                        NamedYear::Next => {}
                        NamedYear::In(y) => args.push(("year", int(*y))),
                        NamedYear::Offset(n) => args.push(("year_offset", int(*n))),
                        NamedYear::Last => args.push(("direction", text("last"))),
                    }
                    ("next_date", args)
                }
                Anchor::Weekday { name, last } => (
                    "find_weekday",
                    vec![
                        ("weekday", text(name)),
                        ("direction", text(if *last { "last" } else { "next" })),
                    ],
                ),
                Anchor::EndOfMonth => ("end_of_month", vec![]),
                Anchor::WeekdayOfWeek { name, weeks } => {
                    let sunday = vec![("weekday", text("Sunday")), ("direction", text("last"))];
                    let days = days_from_sunday(name) + 7 * weeks;
                    if days == 0 {
                        ("find_weekday", sunday)
                    } else {
                        let from = plan.push(part, DATE_POOL, "find_weekday", sunday, false);
                        let tool = if days > 0 {
                            "add_duration"
                        } else {
                            "subtract_duration"
                        };
                        let args = vec![
                            ("amount", int(days.abs())),
                            ("unit", text("days")),
                            ("date", from),
                        ];
                        (tool, args)
                    }
                }
            };
            // `how many days till christmas`, `thi ngày 15/12, còn mấy ngày`: the count
            // answers, the date found is a step. The weekday of a day found by its
            // name lists the date first (`what weekday is christmas`), of a date the
            // user wrote it answers alone (tests/blind/README.md).
            let said = matches!(anchor, Anchor::Named { said: true, .. });
            let counted = matches!(then, NamedThen::DaysUntil | NamedThen::DaysSince);
            let shifted = matches!(then, NamedThen::Shift { .. });
            let shown = !(counted || shifted || said && *then == NamedThen::Weekday);
            let date = plan.push(part, DATE_POOL, tool, args, shown);
            let then_tool = match then {
                NamedThen::Date => return,
                NamedThen::Shift {
                    add,
                    amount,
                    unit,
                    weekday,
                } => {
                    let tool = if *add {
                        "add_duration"
                    } else {
                        "subtract_duration"
                    };
                    let args = vec![
                        ("amount", int(*amount)),
                        ("unit", text(unit)),
                        ("date", date),
                    ];
                    let shifted = plan.push(part, DATE_POOL, tool, args, true);
                    if *weekday {
                        plan.push(part, DATE_POOL, "weekday", vec![("date", shifted)], true);
                    }
                    return;
                }
                NamedThen::DaysSince => {
                    let today = plan.push(part, DATE_POOL, "today", vec![], false);
                    let args = vec![("from", date), ("to", today)];
                    plan.push(part, DATE_POOL, "difference", args, true);
                    return;
                }
                NamedThen::Weekday => "weekday",
                NamedThen::DaysUntil => "days_until",
                NamedThen::DayOfYear => "day_of_year",
                NamedThen::IsoWeek => "iso_week",
            };
            plan.push(part, DATE_POOL, then_tool, vec![("date", date)], true);
            return;
        }
        if let DateQuery::TimeDifference { from, to, absolute } = self {
            let args = vec![("from", text(from)), ("to", text(to))];
            let hours = plan.push(part, DATE_POOL, "time_difference", args, !absolute);
            if *absolute {
                plan.push(
                    part,
                    crate::expr::MATH_POOL,
                    "abs",
                    vec![("x", hours)],
                    true,
                );
            }
            return;
        }
        if let DateQuery::InWeeks(days) = self {
            days.lower_into(plan, part);
            if let Some(counted) = plan.take_last_as_input() {
                let args = vec![("a", counted), ("b", text("7"))];
                plan.push(part, crate::expr::MATH_POOL, "divide", args, true);
            }
            return;
        }
        if let DateQuery::DaysBetweenDays { from, to } = self {
            let found = |plan: &mut PlanBuilder, (month, day): (i64, i64)| {
                let args = vec![("month", int(month)), ("day", int(day))];
                plan.push(part, DATE_POOL, "next_date", args, false)
            };
            let (a, b) = (found(plan, *from), found(plan, *to));
            plan.push(
                part,
                DATE_POOL,
                "difference",
                vec![("from", a), ("to", b)],
                true,
            );
            return;
        }
        if let DateQuery::DaysSince { date } = self {
            let today = plan.push(part, DATE_POOL, "today", vec![], false);
            let args = vec![("from", text(date)), ("to", today)];
            plan.push(part, DATE_POOL, "difference", args, true);
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
            DateQuery::DayOfYear { date } => ("day_of_year", optional_date(date)),
            DateQuery::IsoWeek { date } => ("iso_week", optional_date(date)),
            DateQuery::Age { born } => ("age", vec![("born", text(born))]),
            DateQuery::TimeIn { place } => ("time_in", vec![("place", text(place))]),
            DateQuery::ConvertTime { time, from, to } => (
                "convert_time",
                vec![("time", text(time)), ("from", text(from)), ("to", text(to))],
            ),
            DateQuery::Anchored { .. }
            | DateQuery::DaysSince { .. }
            | DateQuery::DaysBetweenDays { .. }
            | DateQuery::InWeeks(_)
            | DateQuery::TimeDifference { .. } => return, // lowered above
        };
        // `hôm nay thứ mấy`: the weekday answers; today's date is a step.
        let shown = !matches!(self, DateQuery::Today { weekday: true });
        let result = plan.push(part, DATE_POOL, tool, args, shown);
        if self.step_count() == 2 {
            plan.push(part, DATE_POOL, "weekday", vec![("date", result)], true);
        }
    }
}

/// How many steps finding `anchor` takes.
fn anchor_steps(anchor: &Anchor) -> usize {
    match anchor {
        Anchor::WeekdayOfWeek { name, weeks } if days_from_sunday(name) + 7 * weeks != 0 => 2,
        _ => 1,
    }
}

/// `date` as the only argument, when given (the tools default to today).
fn optional_date(date: &Option<String>) -> Vec<(&'static str, chorus_bus::Arg)> {
    date.iter().map(|d| ("date", text(d))).collect()
}

#[cfg(test)]
mod year_apart_tests {
    #[test]
    fn a_year_said_apart_goes_with_its_day_and_month() {
        let text = |q: &str| super::year_said_apart(&crate::lexer::lex(q), q);
        assert_eq!(
            text("tet 2027 is feb 6. how many days left").as_deref(),
            Some("tet is feb 6 2027. how many days left")
        );
        assert_eq!(
            text("Tết năm 2027 là ngày 6 tháng 2 dương lịch, còn mấy ngày").as_deref(),
            Some("Tết là ngày 6 tháng 2 năm 2027, còn mấy ngày")
        );
        assert_eq!(
            text("tết 2027 là ngày 6/2/2027, còn bn ngày").as_deref(),
            Some("tết là ngày 6/2/2027, còn bn ngày")
        );
        // A lunar date is never moved, `Tết Dương lịch` is a day; nothing apart, nothing
        // to change.
        assert_eq!(text("rằm tháng 8 âm lịch năm 2027 là ngày nào"), None);
        assert_eq!(text("tết dương lịch là ngày nào"), None);
        assert_eq!(text("feb 6 2027 is a saturday"), None);
    }
}
