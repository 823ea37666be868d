//! `days_until {date, day_first?, now?, timezone?}` → whole days from today to a date.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::{Unit, civil::Date};
use serde_json::json;

use super::{day_first_property, object_schema, output_schema};
use crate::{DateError, context::Clock, parse::parse_date};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "days_until",
        description: "Number of whole days from today (in the time zone) until a date; negative if the date is past, 0 if it is today. Example: days_until(\"2026-12-25\", now=\"2026-11-22\") = 33.",
        input_schema: object_schema(
            json!({
                "date": {"type": "string", "description": "Target date as YYYY-MM-DD (dd/mm/yyyy with day_first)."},
                "day_first": day_first_property(),
            }),
            &["date"],
        ),
        output_schema: Some(output_schema(
            "integer",
            json!({"date": {"type": "string"}, "today": {"type": "string"}}),
        )),
    }
}

/// Reads `date`, `day_first` and the clock.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["date", "day_first", "now", "timezone"])?;
    let day_first = args.opt_bool("day_first")?.unwrap_or(false);
    let target = parse_date(args.str("date")?, day_first)?;
    let today = Clock::from_args(args)?.today();
    let days = days_until(today, target)?;
    let text = match days {
        0 => format!("{target} is today."),
        1 => format!("{target} is tomorrow (1 day from {today})."),
        n if n > 0 => format!("{target} is in {n} days (from {today})."),
        -1 => format!("{target} was yesterday (1 day before {today})."),
        n => format!("{target} was {} days ago (before {today}).", -n),
    };
    Ok(ToolReply::result(days, text)
        .with_field("date", target.to_string())
        .with_field("today", today.to_string()))
}

/// Signed whole days from `today` to `target`.
pub fn days_until(today: Date, target: Date) -> Result<i64, DateError> {
    let span = today
        .until((Unit::Day, target))
        .map_err(|_| DateError::OutOfRange)?;
    Ok(i64::from(span.get_days()))
}
