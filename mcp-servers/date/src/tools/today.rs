//! `today {now?, timezone?}` → today's date in the zone, with its weekday.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::civil::Date;
use serde_json::json;

use super::{object_schema, output_schema, weekday_name};
use crate::{DateError, context::Clock};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "today",
        description: "Today's date (YYYY-MM-DD) and weekday in a time zone (default UTC). Example result: {\"result\": \"2026-11-22\", \"weekday\": \"Sunday\"}.",
        input_schema: object_schema(json!({}), &[]),
        output_schema: Some(output_schema(
            "string",
            json!({"weekday": {"type": "string"}, "timezone": {"type": "string"}}),
        )),
    }
}

/// Reads the clock arguments.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["now", "timezone"])?;
    let clock = Clock::from_args(args)?;
    let date = today(&clock);
    let weekday = weekday_name(date.weekday());
    Ok(ToolReply::result(
        date.to_string(),
        format!("Today is {weekday}, {date} ({}).", clock.zone_name),
    )
    .with_field("weekday", weekday)
    .with_field("timezone", clock.zone_name.clone()))
}

/// Today's date on `clock`.
pub fn today(clock: &Clock) -> Date {
    clock.today()
}
