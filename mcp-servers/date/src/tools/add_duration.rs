//! `add_duration {amount, unit, date?, day_first?, now?, timezone?}` → a date
//! (days, working days, weeks, months, years) or a date-time (hours, minutes) later.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::{Span, civil::Date};
use serde_json::{Value, json};

use super::{day_first_property, object_schema, output_schema, rfc3339, weekday_name};
use crate::{
    DateError,
    context::{Clock, midnight},
    parse::{When, parse_when},
};

/// A duration unit the tools accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurationUnit {
    /// Calendar days.
    Days,
    /// Working days: Monday to Friday, weekends skipped (no public holidays).
    WorkingDays,
    /// Weeks of 7 days.
    Weeks,
    /// Calendar months (Jan 31 + 1 month = Feb 28/29).
    Months,
    /// Calendar years (Feb 29 + 1 year = Feb 28).
    Years,
    /// Hours of elapsed time.
    Hours,
    /// Minutes of elapsed time.
    Minutes,
}

impl DurationUnit {
    /// Parses "days", "day", "Weeks"…
    pub fn parse(text: &str) -> Result<DurationUnit, DateError> {
        let lower = text.trim().to_ascii_lowercase();
        Ok(match lower.strip_suffix('s').unwrap_or(&lower) {
            "day" => DurationUnit::Days,
            "working_day" | "working day" | "business_day" | "business day" | "weekday" => {
                DurationUnit::WorkingDays
            }
            "week" => DurationUnit::Weeks,
            "month" => DurationUnit::Months,
            "year" => DurationUnit::Years,
            "hour" => DurationUnit::Hours,
            "minute" => DurationUnit::Minutes,
            _ => return Err(DateError::UnknownUnit(text.to_owned())),
        })
    }

    /// True for hours and minutes, whose results are date-times.
    pub fn is_clock_time(self) -> bool {
        matches!(self, DurationUnit::Hours | DurationUnit::Minutes)
    }

    fn span(self, amount: i64) -> Result<Span, DateError> {
        let span = Span::new();
        let result = match self {
            DurationUnit::Days | DurationUnit::WorkingDays => span.try_days(amount),
            DurationUnit::Weeks => span.try_weeks(amount),
            DurationUnit::Months => span.try_months(amount),
            DurationUnit::Years => span.try_years(amount),
            DurationUnit::Hours => span.try_hours(amount),
            DurationUnit::Minutes => span.try_minutes(amount),
        };
        result.map_err(|_| DateError::OutOfRange)
    }
}

/// The tool definition.
pub fn def() -> ToolDef {
    definition(
        "add_duration",
        "Add an amount of days, working days (Monday to Friday; weekends skipped, no public holidays), weeks, months, years, hours or minutes to a date (default: today/now in the time zone). Days and larger units give a date (YYYY-MM-DD); hours and minutes give an RFC 3339 date-time. Months clamp to the month's end (2026-01-31 + 1 month = 2026-02-28). Example: add_duration(amount=10, unit=\"days\", date=\"2026-11-22\") = \"2026-12-02\"; add_duration(amount=5, unit=\"working_days\", date=\"2026-11-23\") = \"2026-11-30\".",
    )
}

/// The definition shared with `subtract_duration`.
pub(crate) fn definition(name: &'static str, description: &'static str) -> ToolDef {
    ToolDef {
        name,
        description,
        input_schema: object_schema(
            json!({
                "amount": {"type": "integer", "description": "How many units (may be negative)."},
                "unit": {"type": "string", "enum": ["days", "working_days", "weeks", "months", "years", "hours", "minutes"]},
                "date": {"type": "string", "description": "Start date YYYY-MM-DD or RFC 3339 date-time. Default: today (or now for hours/minutes)."},
                "day_first": day_first_property(),
            }),
            &["amount", "unit"],
        ),
        output_schema: Some(output_schema(
            "string",
            json!({"weekday": {"type": "string"}, "from": {"type": "string"}}),
        )),
    }
}

/// Reads the arguments and adds.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    run_signed(args, 1)
}

/// Shared by add (`sign` 1) and subtract (`sign` −1).
pub(crate) fn run_signed(args: &Args<'_>, sign: i64) -> Result<ToolReply, DateError> {
    args.only(&["amount", "unit", "date", "day_first", "now", "timezone"])?;
    let amount = args.i64("amount")?;
    let unit = DurationUnit::parse(args.str("unit")?)?;
    let day_first = args.opt_bool("day_first")?.unwrap_or(false);
    let clock = Clock::from_args(args)?;
    let start = match args.opt_str("date")? {
        Some(text) => parse_when(text, day_first, &clock.time_zone)?,
        None if unit.is_clock_time() => When::DateTime(clock.now.clone()),
        None => When::Date(clock.today()),
    };
    let signed = amount.checked_mul(sign).ok_or(DateError::OutOfRange)?;
    let from = describe(&start);
    let end = add_duration(&start, signed, unit, &clock)?;
    let (result, weekday) = (describe(&end), weekday_name(date_of(&end).weekday()));
    let verb = if sign < 0 { "-" } else { "+" };
    let unit_name = args.str("unit")?;
    Ok(ToolReply::result(
        result.clone(),
        format!("{from} {verb} {amount} {unit_name} = {result} ({weekday})"),
    )
    .with_field("weekday", weekday)
    .with_field("from", Value::String(from)))
}

/// `start` moved by `amount` `unit`s. Calendar units act on the date; hours and
/// minutes act on the instant (a plain date starts at midnight in the zone).
pub fn add_duration(
    start: &When,
    amount: i64,
    unit: DurationUnit,
    clock: &Clock,
) -> Result<When, DateError> {
    let span = unit.span(amount)?;
    if unit.is_clock_time() {
        let zoned = match start {
            When::Date(date) => midnight(*date, &clock.time_zone)?,
            When::DateTime(zoned) => zoned.clone(),
        };
        return zoned
            .checked_add(span)
            .map(When::DateTime)
            .map_err(|_| DateError::OutOfRange);
    }
    let date = date_of(start);
    if unit == DurationUnit::WorkingDays {
        return working_days_after(date, amount).map(When::Date);
    }
    date.checked_add(span)
        .map(When::Date)
        .map_err(|_| DateError::OutOfRange)
}

/// Most working days moved at once (about 400 years): beyond it, out of range.
const MAX_WORKING_DAYS: i64 = 100_000;

/// `date` moved by `amount` working days (Monday to Friday), counting from the day
/// after (or before) it: Monday + 5 is the next Monday, Friday + 1 the next Monday.
fn working_days_after(date: Date, amount: i64) -> Result<Date, DateError> {
    if amount.abs() > MAX_WORKING_DAYS {
        return Err(DateError::OutOfRange);
    }
    let step = if amount < 0 { -1 } else { 1 };
    let (mut day, mut left) = (date, amount.abs());
    while left > 0 {
        day = day
            .checked_add(Span::new().days(step))
            .map_err(|_| DateError::OutOfRange)?;
        if !matches!(
            day.weekday(),
            jiff::civil::Weekday::Saturday | jiff::civil::Weekday::Sunday
        ) {
            left -= 1;
        }
    }
    Ok(day)
}

fn date_of(when: &When) -> Date {
    match when {
        When::Date(date) => *date,
        When::DateTime(zoned) => zoned.date(),
    }
}

fn describe(when: &When) -> String {
    match when {
        When::Date(date) => date.to_string(),
        When::DateTime(zoned) => rfc3339(zoned),
    }
}
