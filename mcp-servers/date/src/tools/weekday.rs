//! `weekday {date, day_first?}` → the weekday of a date ("Friday").

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::civil::Date;
use serde_json::json;

use super::{day_first_property, object_schema, output_schema, weekday_name};
use crate::{DateError, context::date_or_today};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "weekday",
        description: "The day of the week of a date, e.g. weekday(\"2026-12-25\") = \"Friday\". Without `date`, today's weekday.",
        input_schema: object_schema(
            json!({
                "date": {"type": "string", "description": "Date as YYYY-MM-DD (dd/mm/yyyy with day_first). Default: today."},
                "day_first": day_first_property(),
            }),
            &[],
        ),
        output_schema: Some(output_schema("string", json!({"date": {"type": "string"}}))),
    }
}

/// Reads `date` (default today) and `day_first`.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["date", "day_first", "now", "timezone"])?;
    let day_first = args.opt_bool("day_first")?.unwrap_or(false);
    let date = date_or_today(args, day_first)?;
    let name = weekday(date);
    Ok(
        ToolReply::result(name, format!("{date} is a {name}."))
            .with_field("date", date.to_string()),
    )
}

/// The English weekday name of `date`.
pub fn weekday(date: Date) -> &'static str {
    weekday_name(date.weekday())
}
