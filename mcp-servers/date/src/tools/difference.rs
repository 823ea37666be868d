//! `difference {from, to, day_first?}` → signed whole days plus a
//! years/months/days breakdown.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::{Unit, civil::Date};
use serde_json::json;

use super::{day_first_property, object_schema, output_schema};
use crate::{DateError, context::Clock, parse::parse_date};

/// The difference between two dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateDifference {
    /// Signed whole days from `from` to `to`.
    pub total_days: i64,
    /// Whole years of the breakdown (same sign as `total_days`).
    pub years: i64,
    /// Remaining whole months.
    pub months: i64,
    /// Remaining days.
    pub days: i64,
}

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "difference",
        description: "Time between two dates: result is the signed number of whole days from `from` to `to` (negative if `to` is earlier), plus a years/months/days breakdown. Example: difference(\"2026-01-01\", \"2026-12-25\") = 358 (11 months, 24 days). `from` defaults to today.",
        input_schema: object_schema(
            json!({
                "from": {"type": "string", "description": "Start date YYYY-MM-DD (dd/mm/yyyy with day_first). Default: today."},
                "to": {"type": "string", "description": "End date YYYY-MM-DD (dd/mm/yyyy with day_first)."},
                "day_first": day_first_property(),
            }),
            &["to"],
        ),
        output_schema: Some(output_schema(
            "integer",
            json!({"years": {"type": "integer"}, "months": {"type": "integer"}, "days": {"type": "integer"}}),
        )),
    }
}

/// Reads `from` (default today), `to` and `day_first`.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["from", "to", "day_first", "now", "timezone"])?;
    let day_first = args.opt_bool("day_first")?.unwrap_or(false);
    let to = parse_date(args.str("to")?, day_first)?;
    let from = match args.opt_str("from")? {
        Some(text) => parse_date(text, day_first)?,
        None => Clock::from_args(args)?.today(),
    };
    let diff = difference(from, to)?;
    let text = format!(
        "From {from} to {to}: {} days ({} years, {} months, {} days).",
        diff.total_days, diff.years, diff.months, diff.days
    );
    Ok(ToolReply::result(diff.total_days, text)
        .with_field("years", diff.years)
        .with_field("months", diff.months)
        .with_field("days", diff.days))
}

/// Days from `from` to `to`, and the same as years, months and days.
pub fn difference(from: Date, to: Date) -> Result<DateDifference, DateError> {
    let total = from
        .until((Unit::Day, to))
        .map_err(|_| DateError::OutOfRange)?;
    let parts = from
        .until((Unit::Year, to))
        .map_err(|_| DateError::OutOfRange)?;
    Ok(DateDifference {
        total_days: i64::from(total.get_days()),
        years: i64::from(parts.get_years()),
        months: i64::from(parts.get_months()),
        days: i64::from(parts.get_days()),
    })
}
