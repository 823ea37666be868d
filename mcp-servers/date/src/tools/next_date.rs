//! `next_date {month, day, now?, timezone?}` → the next date with that month and day,
//! today included: how "Christmas" or "New Year's Day" becomes a date.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::civil::Date;
use serde_json::json;

use super::{object_schema, output_schema, weekday_name};
use crate::{DateError, context::Clock};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "next_date",
        description: "The next date (today included, in the time zone) falling on a month and day; February 29 gives the next leap day. Example: next_date(month=12, day=25, now=\"2026-11-22\") = \"2026-12-25\"; next_date(month=1, day=1, now=\"2026-11-22\") = \"2027-01-01\".",
        input_schema: object_schema(
            json!({
                "month": {"type": "integer", "minimum": 1, "maximum": 12, "description": "Month, 1-12."},
                "day": {"type": "integer", "minimum": 1, "maximum": 31, "description": "Day of the month, 1-31."},
            }),
            &["month", "day"],
        ),
        output_schema: Some(output_schema(
            "string",
            json!({"today": {"type": "string"}, "weekday": {"type": "string"}}),
        )),
    }
}

/// Reads `month`, `day` and the clock.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["month", "day", "now", "timezone"])?;
    let (month, day) = (args.i64("month")?, args.i64("day")?);
    let today = Clock::from_args(args)?.today();
    let date = next_date(today, month, day)?;
    let text = format!(
        "The next {} is {date}, a {}.",
        month_day(month, day),
        weekday_name(date.weekday())
    );
    Ok(ToolReply::result(date.to_string(), text)
        .with_field("today", today.to_string())
        .with_field("weekday", weekday_name(date.weekday())))
}

/// `month`/`day` as written in the reply ("12-25").
fn month_day(month: i64, day: i64) -> String {
    format!("{month:02}-{day:02}")
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
}
