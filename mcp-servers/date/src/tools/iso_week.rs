//! `iso_week {date?}` → the ISO 8601 week number of a date and the ISO year it
//! belongs to.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::civil::Date;
use serde_json::json;

use super::{object_schema, output_schema, weekday_name};
use crate::{DateError, context::date_or_today};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "iso_week",
        description: "The ISO 8601 week number (1-53; weeks start on Monday, week 1 holds the year's first Thursday) of a date, with the ISO year it belongs to, which differs from the calendar year near New Year. Example: iso_week(\"2027-01-01\") = 53 with iso_year 2026 (a Friday); iso_week(\"2026-11-23\") = 48. Without `date`, today.",
        input_schema: object_schema(
            json!({
                "date": {"type": "string", "description": "Date as YYYY-MM-DD. Default: today."},
            }),
            &[],
        ),
        output_schema: Some(output_schema(
            "integer",
            json!({"iso_year": {"type": "integer"}, "weekday": {"type": "string"}}),
        )),
    }
}

/// Reads `date` (default today).
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["date", "now", "timezone"])?;
    let date = date_or_today(args, false)?;
    let (week, iso_year) = iso_week(date);
    let weekday = weekday_name(date.weekday());
    let text = format!("{date} ({weekday}) is in ISO week {week} of {iso_year}.");
    Ok(ToolReply::result(week, text)
        .with_field("iso_year", iso_year)
        .with_field("weekday", weekday))
}

/// The ISO week number of `date` and its ISO week-numbering year.
pub fn iso_week(date: Date) -> (i64, i64) {
    let iso = date.iso_week_date();
    (i64::from(iso.week()), i64::from(iso.year()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn weeks_near_new_year_belong_to_the_iso_year_of_their_thursday() {
        assert_eq!(iso_week(date(2027, 1, 1)), (53, 2026));
        assert_eq!(iso_week(date(2027, 1, 4)), (1, 2027));
        assert_eq!(iso_week(date(2026, 11, 23)), (48, 2026));
        assert_eq!(iso_week(date(2024, 12, 30)), (1, 2025));
        assert_eq!(iso_week(date(2026, 1, 1)), (1, 2026));
    }
}
