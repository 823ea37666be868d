//! The date tools, one per file. Each file has the tool's definition (`def`),
//! its argument handling (`run`) and a pure function doing the calendar work.

use std::sync::OnceLock;

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::{Zoned, civil::Weekday};
use serde_json::{Map, Value, json};

use crate::DateError;

pub mod add_duration;
pub mod age;
pub mod convert_time;
pub mod day_of_year;
pub mod days_until;
pub mod difference;
pub mod end_of_month;
pub mod find_weekday;
pub mod iso_week;
pub mod next_date;
pub mod now;
pub mod subtract_duration;
pub mod time_difference;
pub mod time_in;
pub mod today;
pub mod weekday;

/// A tool's argument handling: arguments in, reply or error out.
pub type Runner = fn(&Args<'_>) -> Result<ToolReply, DateError>;

/// Every date tool with its runner, in listing order.
pub fn registry() -> &'static [(ToolDef, Runner)] {
    static REGISTRY: OnceLock<Vec<(ToolDef, Runner)>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        vec![
            (today::def(), today::run as Runner),
            (now::def(), now::run),
            (add_duration::def(), add_duration::run),
            (subtract_duration::def(), subtract_duration::run),
            (difference::def(), difference::run),
            (weekday::def(), weekday::run),
            (days_until::def(), days_until::run),
            (next_date::def(), next_date::run),
            (find_weekday::def(), find_weekday::run),
            (end_of_month::def(), end_of_month::run),
            (age::def(), age::run),
            (day_of_year::def(), day_of_year::run),
            (iso_week::def(), iso_week::run),
            (time_in::def(), time_in::run),
            (convert_time::def(), convert_time::run),
            (time_difference::def(), time_difference::run),
        ]
    })
}

/// The English name of a weekday ("Friday").
pub fn weekday_name(weekday: Weekday) -> &'static str {
    match weekday {
        Weekday::Monday => "Monday",
        Weekday::Tuesday => "Tuesday",
        Weekday::Wednesday => "Wednesday",
        Weekday::Thursday => "Thursday",
        Weekday::Friday => "Friday",
        Weekday::Saturday => "Saturday",
        Weekday::Sunday => "Sunday",
    }
}

/// RFC 3339 with the zone's offset, to the second: `2026-11-22T09:30:00+07:00`.
pub fn rfc3339(zoned: &Zoned) -> String {
    zoned.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()
}

/// Schema properties every tool accepts: `now` and `timezone`.
pub(crate) fn clock_properties() -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert(
        "now".into(),
        json!({"type": "string", "description": "Optional current time for reproducible answers: RFC 3339 date-time (2026-11-22T09:30:00+07:00) or a plain date YYYY-MM-DD. Default: the system clock."}),
    );
    properties.insert(
        "timezone".into(),
        json!({"type": "string", "description": "Optional IANA time zone, e.g. Asia/Ho_Chi_Minh. Default: UTC.", "default": "UTC"}),
    );
    properties
}

/// The `day_first` property.
pub(crate) fn day_first_property() -> Value {
    json!({"type": "boolean", "description": "Set true to also accept dd/mm/yyyy dates.", "default": false})
}

/// An object schema: `properties` plus `now`/`timezone`, and `required`.
pub(crate) fn object_schema(properties: Value, required: &[&str]) -> Value {
    let mut all = clock_properties();
    if let Value::Object(own) = properties {
        all.extend(own);
    }
    json!({ "type": "object", "properties": all, "required": required, "additionalProperties": false })
}

/// An output schema with `result` of `result_type` and extra fields.
pub(crate) fn output_schema(result_type: &str, extra: Value) -> Value {
    chorus_mcp_common::tool::result_output_schema(result_type, extra)
}
