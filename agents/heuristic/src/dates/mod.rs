//! Date questions: today, now, N units from now or ago (optionally from a given date),
//! days between two dates, the weekday of a date, days until a date, in English and
//! Vietnamese. A part is read as a set of recognised pieces (dates, durations, keyword
//! phrases, harmless words); any other word means the part is not a date question.
//!
//! "What day is it in 10 days" asks for a day, so it plans `add_duration` and then
//! `weekday` on its result; both are shown. "In 3 weeks" plans `add_duration` only.

mod events;
mod lower;
mod named;
mod parse;
mod spans;
mod stated;
mod words;
mod written;

pub use events::{events_dropped, falls_on, weekday_of_said};
pub use named::{
    apart_from_today, bare_weekday, named_day_end, period_left_said_first, weekday_phrase_end,
};
pub use parse::parse;
pub use spans::span_end;
pub use stated::{tolerant, tolerant_shift};
pub(crate) use words::KIN;
pub use written::{
    between_day_months, birth_year_first, first_date, written_date, year_said_apart,
};
pub(crate) use written::{day_month_end, month_number};

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
    /// A count of days with both ends counted (`im off dec 21 to jan 3 inclusive, how
    /// many days off is that`): the days between, then + 1 by the math tool.
    Inclusive(Box<DateQuery>),
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
    /// A day of next month (`ngày 5 tháng sau`, `the 5th of next month`): this month's
    /// last day (`end_of_month`), then that many days on.
    DayOfNextMonth {
        /// Day of the month, 1–31.
        day: i64,
    },
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
    /// The next or the last, whichever is nearer today: a day and month the user wrote
    /// as the start of a span (`thả giống ngày 20/10, 85 ngày nữa`).
    Nearest,
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

/// `q`, a count of days between two days, with both ends counted when `toks` say so
/// (`inclusive`, `tính cả hai đầu`); `q` unchanged otherwise.
pub fn inclusive_if_said(toks: &[crate::lexer::Token], q: DateQuery) -> DateQuery {
    let said = (0..toks.len()).any(|i| {
        toks[i]
            .word()
            .is_some_and(|w| matches!(w, "inclusive" | "incl"))
            || crate::lexer::words_at(toks, i, &["tính", "cả", "hai", "đầu"])
    });
    match q {
        DateQuery::Difference { .. } | DateQuery::DaysBetweenDays { .. } if said => {
            DateQuery::Inclusive(Box::new(q))
        }
        q => q,
    }
}
