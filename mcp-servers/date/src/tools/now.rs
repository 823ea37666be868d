//! `now {now?, timezone?}` → the current date-time in the zone (RFC 3339).

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::Zoned;
use serde_json::json;

use super::{object_schema, output_schema, rfc3339, weekday_name};
use crate::{DateError, context::Clock};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "now",
        description: "The current date and time in a time zone (default UTC), as RFC 3339 with the zone's offset, e.g. \"2026-11-22T09:30:00+07:00\".",
        input_schema: object_schema(json!({}), &[]),
        output_schema: Some(output_schema(
            "string",
            json!({"date": {"type": "string"}, "weekday": {"type": "string"}, "timezone": {"type": "string"}}),
        )),
    }
}

/// Reads the clock arguments.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["now", "timezone"])?;
    let clock = Clock::from_args(args)?;
    let current = now(&clock);
    let text = rfc3339(&current);
    Ok(
        ToolReply::result(text.clone(), format!("It is {text} ({}).", clock.zone_name))
            .with_field("date", current.date().to_string())
            .with_field("weekday", weekday_name(current.date().weekday()))
            .with_field("timezone", clock.zone_name.clone()),
    )
}

/// The current instant on `clock`, in its zone.
pub fn now(clock: &Clock) -> Zoned {
    clock.now.clone()
}
