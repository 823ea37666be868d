//! `day_of_year {date?}` → the ordinal day of a date in its year (1..=366).

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::civil::Date;
use serde_json::json;

use super::{object_schema, output_schema};
use crate::{DateError, context::date_or_today};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "day_of_year",
        description: "The day number of a date within its year, 1 for January 1 up to 365 (366 in a leap year) for December 31, with the year's length. Example: day_of_year(\"2026-12-31\") = 365; day_of_year(\"2028-12-31\") = 366. Without `date`, today.",
        input_schema: object_schema(
            json!({
                "date": {"type": "string", "description": "Date as YYYY-MM-DD. Default: today."},
            }),
            &[],
        ),
        output_schema: Some(output_schema(
            "integer",
            json!({"days_in_year": {"type": "integer"}}),
        )),
    }
}

/// Reads `date` (default today).
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["date", "now", "timezone"])?;
    let date = date_or_today(args, false)?;
    let (day, days_in_year) = day_of_year(date);
    let text = format!(
        "{date} is day {day} of {} ({days_in_year} days).",
        date.year()
    );
    Ok(ToolReply::result(day, text).with_field("days_in_year", days_in_year))
}

/// The ordinal day of `date` and the number of days in its year.
pub fn day_of_year(date: Date) -> (i64, i64) {
    (
        i64::from(date.day_of_year()),
        i64::from(date.days_in_year()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn days_count_from_one_and_leap_years_have_366() {
        assert_eq!(day_of_year(date(2026, 1, 1)), (1, 365));
        assert_eq!(day_of_year(date(2026, 3, 1)), (60, 365));
        assert_eq!(day_of_year(date(2028, 3, 1)), (61, 366));
        assert_eq!(day_of_year(date(2026, 12, 31)), (365, 365));
        assert_eq!(day_of_year(date(2028, 12, 31)), (366, 366));
        assert_eq!(day_of_year(date(2100, 12, 31)), (365, 365));
    }
}
