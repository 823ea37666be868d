//! `next_date {month, day, year?, year_offset?, direction?, now?, timezone?}` → the next
//! date with that month and day, today included (or with `direction = "last"` the last
//! one, today included: `since christmas`): how "Christmas" or "New Year's Day" becomes
//! a date. With `year` (`christmas 2027`) or `year_offset` (`christmas next year` is 1,
//! `this year's` 0, `last year's` -1) it is that year's date instead, past or not.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::civil::Date;
use serde_json::json;

use super::{object_schema, output_schema, weekday_name};
use crate::{DateError, context::Clock};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "next_date",
        description: "The next date (today included, in the time zone) falling on a month and day; February 29 gives the next leap day. With `year`, that year's date; with `year_offset`, the date in today's year plus the offset (1 next year, 0 this year, -1 last year), past or not. Example: next_date(month=12, day=25, now=\"2026-11-22\") = \"2026-12-25\"; next_date(month=1, day=1, now=\"2026-11-22\") = \"2027-01-01\"; next_date(month=12, day=25, year_offset=1, now=\"2026-11-22\") = \"2027-12-25\".",
        input_schema: object_schema(
            json!({
                "month": {"type": "integer", "minimum": 1, "maximum": 12, "description": "Month, 1-12."},
                "day": {"type": "integer", "minimum": 1, "maximum": 31, "description": "Day of the month, 1-31."},
                "year": {"type": "integer", "minimum": 1, "maximum": 9999, "description": "That year's date instead of the next one (not with year_offset)."},
                "year_offset": {"type": "integer", "minimum": -100, "maximum": 100, "description": "The date in today's year plus this many years (1 next year, -1 last year; not with year)."},
                "direction": {"type": "string", "enum": ["next", "last", "nearest"], "default": "next", "description": "next: the first such date on or after today; last: the latest on or before today; nearest: whichever of those two is fewer days away, next on a tie (not with year or year_offset)."},
            }),
            &["month", "day"],
        ),
        output_schema: Some(output_schema(
            "string",
            json!({"today": {"type": "string"}, "weekday": {"type": "string"}}),
        )),
    }
}

/// Reads `month`, `day`, the optional year and the clock.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&[
        "month",
        "day",
        "year",
        "year_offset",
        "direction",
        "now",
        "timezone",
    ])?;
    let (month, day) = (args.i64("month")?, args.i64("day")?);
    let today = Clock::from_args(args)?.today();
    let direction = match args.opt_str("direction")? {
        None | Some("next") => Direction::Next,
        Some("last") => Direction::Last,
        Some("nearest") => Direction::Nearest,
        Some(other) => return Err(DateError::UnknownDirection(other.to_owned())),
    };
    let last = direction != Direction::Next;
    let year = match (args.opt_i64("year")?, args.opt_i64("year_offset")?) {
        (Some(_), Some(_)) => {
            return Err(DateError::InvalidDate {
                input: format!("month {month}, day {day}"),
                reason: "give year or year_offset, not both".to_owned(),
            });
        }
        (Some(year), None) => Some(year),
        (None, Some(offset)) if (-100..=100).contains(&offset) => {
            Some(i64::from(today.year()) + offset)
        }
        (None, Some(offset)) => {
            return Err(DateError::InvalidDate {
                input: format!("year_offset {offset}"),
                reason: "the offset must be -100 to 100 years".to_owned(),
            });
        }
        (None, None) => None,
    };
    let (date, text) = match year {
        Some(year) => {
            let date = date_in(year, month, day)?;
            let text = format!("{date} is a {}.", weekday_name(date.weekday()));
            (date, text)
        }
        None => {
            let (date, which) = match direction {
                Direction::Next => (next_date(today, month, day)?, "next"),
                Direction::Last => (last_date(today, month, day)?, "last"),
                Direction::Nearest => nearest_date(today, month, day)?,
            };
            let text = format!(
                "The {which} {} is {date}, a {}.",
                month_day(month, day),
                weekday_name(date.weekday())
            );
            (date, text)
        }
    };
    if last && year.is_some() {
        return Err(DateError::InvalidDate {
            input: format!("month {month}, day {day}"),
            reason: "direction is not used with year or year_offset".to_owned(),
        });
    }
    Ok(ToolReply::result(date.to_string(), text)
        .with_field("today", today.to_string())
        .with_field("weekday", weekday_name(date.weekday())))
}

/// Which occurrence of a month and day, with no year given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// The first on or after today.
    Next,
    /// The latest on or before today.
    Last,
    /// Whichever of those two is fewer days from today (the next on a tie): a day and
    /// month said without a year as the start of something (`thả giống ngày 20/10, 85
    /// ngày nữa`) is the one nearest now.
    Nearest,
}

/// The next or the last date with `month` and `day`, whichever is nearer `today`.
fn nearest_date(today: Date, month: i64, day: i64) -> Result<(Date, &'static str), DateError> {
    let next = next_date(today, month, day)?;
    let last = last_date(today, month, day)?;
    let after = (next - today).get_days();
    let before = (today - last).get_days();
    Ok(match before < after {
        true => (last, "last"),
        false => (next, "next"),
    })
}

/// `month`/`day` as written in the reply ("12-25").
fn month_day(month: i64, day: i64) -> String {
    format!("{month:02}-{day:02}")
}

/// The date with `month` and `day` in `year` (February 29 of a common year, April 31
/// and year 0 are invalid dates).
pub fn date_in(year: i64, month: i64, day: i64) -> Result<Date, DateError> {
    let invalid = |reason: &str| DateError::InvalidDate {
        input: format!("{year}-{month:02}-{day:02}"),
        reason: reason.to_owned(),
    };
    let y = i16::try_from(year)
        .ok()
        .filter(|y| (1..=9999).contains(y))
        .ok_or_else(|| invalid("the year must be 1-9999"))?;
    let (m, d) = (
        i8::try_from(month).map_err(|_| invalid("the month must be 1-12"))?,
        i8::try_from(day).map_err(|_| invalid("the day must be 1-31"))?,
    );
    Date::new(y, m, d).map_err(|_| invalid("that year has no such day"))
}

/// The latest date on or before `today` with `month` and `day` (a leap day looks up to
/// eight years back).
pub fn last_date(today: Date, month: i64, day: i64) -> Result<Date, DateError> {
    let invalid = |reason: &str| DateError::InvalidDate {
        input: format!("month {month}, day {day}"),
        reason: reason.to_owned(),
    };
    next_date(today, month, day)?; // the same checks of month and day
    let (m, d) = (month as i8, day as i8);
    for year in (today.year().saturating_sub(8)..=today.year()).rev() {
        if let Ok(date) = Date::new(year, m, d)
            && date <= today
        {
            return Ok(date);
        }
    }
    Err(invalid("no year has this day"))
}

/// The first date on or after `today` with `month` and `day` (a leap day looks up to
/// eight years ahead). A month/day no year has (April 31) is an invalid date.
pub fn next_date(today: Date, month: i64, day: i64) -> Result<Date, DateError> {
    let invalid = |reason: &str| DateError::InvalidDate {
        input: format!("month {month}, day {day}"),
        reason: reason.to_owned(),
    };
    let m = i8::try_from(month)
        .ok()
        .filter(|m| (1..=12).contains(m))
        .ok_or_else(|| invalid("the month must be 1-12"))?;
    let d = i8::try_from(day)
        .ok()
        .filter(|d| (1..=31).contains(d))
        .ok_or_else(|| invalid("the day must be 1-31"))?;
    for year in today.year()..=today.year().saturating_add(8) {
        if let Ok(date) = Date::new(year, m, d)
            && date >= today
        {
            return Ok(date);
        }
    }
    Err(invalid("no year has this day"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn the_next_occurrence_counts_today_and_rolls_into_next_year() {
        let today = date(2026, 11, 22);
        assert_eq!(next_date(today, 12, 25).unwrap(), date(2026, 12, 25));
        assert_eq!(next_date(today, 11, 22).unwrap(), today);
        assert_eq!(next_date(today, 1, 1).unwrap(), date(2027, 1, 1));
        assert_eq!(next_date(today, 2, 29).unwrap(), date(2028, 2, 29));
        assert!(matches!(
            next_date(today, 4, 31),
            Err(DateError::InvalidDate { .. })
        ));
        assert!(matches!(
            next_date(today, 13, 1),
            Err(DateError::InvalidDate { .. })
        ));
        assert!(matches!(
            next_date(today, 0, 1),
            Err(DateError::InvalidDate { .. })
        ));
    }

    #[test]
    fn the_last_occurrence_counts_today_and_rolls_into_last_year() {
        let today = date(2026, 11, 22);
        assert_eq!(last_date(today, 1, 1).unwrap(), date(2026, 1, 1));
        assert_eq!(last_date(today, 12, 25).unwrap(), date(2025, 12, 25));
        assert_eq!(last_date(today, 11, 22).unwrap(), today);
        assert_eq!(last_date(today, 2, 29).unwrap(), date(2024, 2, 29));
        assert!(last_date(today, 4, 31).is_err());
        let at = |dir: &str| {
            call(json!({"month": 12, "day": 25, "direction": dir, "now": "2026-11-22"}))
        };
        assert_eq!(at("last").unwrap(), "2025-12-25");
        assert_eq!(at("next").unwrap(), "2026-12-25");
        assert!(at("sideways").is_err());
    }

    #[test]
    fn the_nearest_occurrence_is_the_closer_of_the_last_and_the_next() {
        let near = |month: i64, day: i64| {
            call(json!({"month": month, "day": day, "direction": "nearest", "now": "2026-11-23"}))
                .unwrap()
        };
        // 34 days ago against 331 ahead; 53 ahead against 312 ago.
        assert_eq!(near(10, 20), "2026-10-20");
        assert_eq!(near(1, 15), "2027-01-15");
        // Today is both: nothing nearer.
        assert_eq!(near(11, 23), "2026-11-23");
        // With a year the direction is refused, as `last` is.
        assert!(
            call(json!({"month": 1, "day": 1, "year": 2027, "direction": "nearest", "now": "2026-11-23"}))
                .is_err()
        );
    }

    #[test]
    fn a_year_gives_that_years_date_past_or_not() {
        assert_eq!(date_in(2027, 12, 25).unwrap(), date(2027, 12, 25));
        assert_eq!(date_in(2020, 1, 1).unwrap(), date(2020, 1, 1));
        assert_eq!(date_in(2028, 2, 29).unwrap(), date(2028, 2, 29));
        assert!(matches!(
            date_in(2027, 2, 29),
            Err(DateError::InvalidDate { .. })
        ));
        assert!(matches!(
            date_in(0, 1, 1),
            Err(DateError::InvalidDate { .. })
        ));
    }

    fn call(args: serde_json::Value) -> Result<String, DateError> {
        let map = args.as_object().cloned().unwrap_or_default();
        run(&Args::new(&map)).map(|r| r.result_value().as_str().unwrap_or_default().to_owned())
    }

    #[test]
    fn a_year_offset_counts_from_todays_year() {
        let now = "2026-12-26";
        let at =
            |offset: i64| call(json!({"month": 12, "day": 25, "year_offset": offset, "now": now}));
        // The day after Christmas: next year's is 2027's, this year's is past.
        assert_eq!(at(1).unwrap(), "2027-12-25");
        assert_eq!(at(0).unwrap(), "2026-12-25");
        assert_eq!(at(-1).unwrap(), "2025-12-25");
        assert_eq!(
            call(json!({"month": 12, "day": 25, "now": now})).unwrap(),
            "2027-12-25"
        );
        assert!(call(json!({"month": 12, "day": 25, "year": 2027, "year_offset": 1})).is_err());
        assert!(call(json!({"month": 12, "day": 25, "year_offset": 500})).is_err());
    }
}
