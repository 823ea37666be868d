//! `end_of_month {date?, now?, timezone?}` → the last day of a date's month and
//! how many days remain until it.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::civil::Date;
use serde_json::json;

use super::{days_until::days_until, object_schema, output_schema, weekday_name};
use crate::{DateError, context::date_or_today};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "end_of_month",
        description: "The last day of the month of a date (default: today in the time zone), with its weekday and the days left from the date until it (0 on the last day). Example: end_of_month(date=\"2028-02-10\") = \"2028-02-29\" (days_left 19, a Tuesday).",
        input_schema: object_schema(
            json!({
                "date": {"type": "string", "description": "Date as YYYY-MM-DD. Default: today."},
            }),
            &[],
        ),
        output_schema: Some(output_schema(
            "string",
            json!({"weekday": {"type": "string"}, "days_left": {"type": "integer"}}),
        )),
    }
}

/// Reads `date` (default today).
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["date", "now", "timezone"])?;
    let date = date_or_today(args, false)?;
    let (last, days_left) = end_of_month(date)?;
    let weekday = weekday_name(last.weekday());
    let text = format!("The month of {date} ends on {weekday}, {last} ({days_left} days left).");
    Ok(ToolReply::result(last.to_string(), text)
        .with_field("weekday", weekday)
        .with_field("days_left", days_left))
}

/// The last day of `date`'s month and the whole days from `date` to it.
pub fn end_of_month(date: Date) -> Result<(Date, i64), DateError> {
    let last = date.last_of_month();
    Ok((last, days_until(date, last)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn the_last_day_knows_month_lengths_and_leap_years() {
        assert_eq!(
            end_of_month(date(2028, 2, 10)).unwrap(),
            (date(2028, 2, 29), 19)
        );
        assert_eq!(
            end_of_month(date(2026, 2, 10)).unwrap(),
            (date(2026, 2, 28), 18)
        );
        assert_eq!(
            end_of_month(date(2026, 11, 23)).unwrap(),
            (date(2026, 11, 30), 7)
        );
        assert_eq!(
            end_of_month(date(2026, 12, 31)).unwrap(),
            (date(2026, 12, 31), 0)
        );
        assert_eq!(
            end_of_month(date(2100, 2, 1)).unwrap(),
            (date(2100, 2, 28), 27)
        );
    }
}
