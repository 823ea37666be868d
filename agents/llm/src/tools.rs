//! The live tools a model may plan with, and the check of a step's arguments against
//! its tool's input JSON Schema.
//!
//! The check covers what a tool call needs to have a chance: every required argument
//! present, no argument the schema does not name (when it closes its properties, as
//! Chorus tools do), and each literal of a type the property allows (with its `enum`,
//! when given). A `{"$ref": "s1"}` argument is accepted for any named property: its type
//! is known only when the earlier step has run, and the tool checks it then.

use std::collections::BTreeMap;

use chorus_bus::{Arg, PoolName, ToolInfo};
use chorus_heuristic::Capabilities;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A tool offered by a pool, as the model sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolTool {
    /// The pool whose agents run the tool (`math`, `date`).
    pub pool: PoolName,
    /// The tool's name.
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
    /// Its input JSON Schema.
    #[serde(default)]
    pub input_schema: Value,
}

impl PoolTool {
    /// `info` as offered by `pool`.
    pub fn new(pool: impl Into<PoolName>, info: ToolInfo) -> Self {
        PoolTool {
            pool: pool.into(),
            name: info.name,
            description: info.description,
            input_schema: info.input_schema,
        }
    }

    /// Every tool of `tools`, offered by `pool` (as a pool agent's heartbeat lists them).
    pub fn from_pool(pool: &PoolName, tools: &[ToolInfo]) -> Vec<PoolTool> {
        tools
            .iter()
            .map(|t| PoolTool::new(pool, t.clone()))
            .collect()
    }
}

/// The heuristic planner's view of the same tools.
pub fn capabilities(tools: &[PoolTool]) -> Capabilities {
    Capabilities::from_tools(tools.iter().map(|t| (t.pool.clone(), t.name.clone())))
}

/// Checks `arguments` against `schema`; the error says which argument is wrong and why.
pub fn check_arguments(schema: &Value, arguments: &BTreeMap<String, Arg>) -> Result<(), String> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect::<Vec<_>>())
        .unwrap_or_default();
    for name in &required {
        if !arguments.contains_key(*name) {
            return Err(format!("required argument {name:?} is missing"));
        }
    }
    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    for (name, arg) in arguments {
        let property = properties.and_then(|p| p.get(name));
        let Some(property) = property else {
            if closed {
                return Err(format!("argument {name:?} is not one the tool takes"));
            }
            continue;
        };
        if let Arg::Value(value) = arg {
            check_value(name, property, value)?;
        }
    }
    Ok(())
}

/// Checks one literal against its property schema (`type`, `enum`, `anyOf`/`oneOf`).
fn check_value(name: &str, property: &Value, value: &Value) -> Result<(), String> {
    let options = property
        .get("anyOf")
        .or_else(|| property.get("oneOf"))
        .and_then(Value::as_array);
    if let Some(options) = options
        && !options.iter().any(|o| check_value(name, o, value).is_ok())
    {
        return Err(format!(
            "argument {name:?} matches none of its allowed forms"
        ));
    }
    if let Some(allowed) = property.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        return Err(format!(
            "argument {name:?} is {value}, not one of {allowed:?}"
        ));
    }
    let types: Vec<&str> = match property.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return Ok(()),
    };
    if types.iter().any(|t| has_type(value, t)) {
        Ok(())
    } else {
        Err(format!(
            "argument {name:?} is {}, expected {}",
            type_name(value),
            types.join(" or ")
        ))
    }
}

/// Whether `value` is of the JSON Schema type `ty`.
fn has_type(value: &Value, ty: &str) -> bool {
    match ty {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "null" => value.is_null(),
        _ => true,
    }
}

/// The JSON type name of `value`, for messages.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> BTreeMap<String, Arg> {
        serde_json::from_value(v).expect("arguments")
    }

    fn sum_schema() -> Value {
        json!({"type":"object","properties":{"a":{"type":["number","string"]},"b":{"type":["number","string"]}},
               "required":["a","b"],"additionalProperties":false})
    }

    #[test]
    fn numbers_strings_and_references_fit_a_decimal_operand() {
        let ok = args(json!({"a": "2.5", "b": {"$ref": "s1"}}));
        assert_eq!(check_arguments(&sum_schema(), &ok), Ok(()));
        assert_eq!(
            check_arguments(&sum_schema(), &args(json!({"a": 2, "b": 4}))),
            Ok(())
        );
    }

    #[test]
    fn a_missing_an_unknown_and_a_mistyped_argument_are_named() {
        let s = sum_schema();
        assert_eq!(
            check_arguments(&s, &args(json!({"a": 1}))),
            Err("required argument \"b\" is missing".into())
        );
        assert_eq!(
            check_arguments(&s, &args(json!({"a": 1, "b": 2, "c": 3}))),
            Err("argument \"c\" is not one the tool takes".into())
        );
        assert_eq!(
            check_arguments(&s, &args(json!({"a": true, "b": 2}))),
            Err("argument \"a\" is a boolean, expected number or string".into())
        );
    }

    /// `convert_time`'s input schema as the third-party `mcp-server-time` lists it
    /// (pydantic: titles, descriptions, no `additionalProperties`).
    fn third_party_convert_time() -> Value {
        json!({"type": "object", "title": "convert_timeArguments",
               "properties": {
                   "source_timezone": {"type": "string", "title": "Source Timezone", "description": "Source IANA timezone name"},
                   "time": {"type": "string", "title": "Time", "description": "Time to convert in 24-hour format (HH:MM)"},
                   "target_timezone": {"type": "string", "title": "Target Timezone", "description": "Target IANA timezone name"}},
               "required": ["source_timezone", "time", "target_timezone"]})
    }

    #[test]
    fn a_third_party_schema_is_checked_as_written() {
        let s = third_party_convert_time();
        let ok = args(
            json!({"source_timezone": "Asia/Kathmandu", "time": "12:00", "target_timezone": "UTC"}),
        );
        assert_eq!(check_arguments(&s, &ok), Ok(()));
        assert_eq!(
            check_arguments(
                &s,
                &args(json!({"time": "12:00", "target_timezone": "UTC"}))
            ),
            Err("required argument \"source_timezone\" is missing".into())
        );
        assert_eq!(
            check_arguments(
                &s,
                &args(json!({"source_timezone": "UTC", "time": 12, "target_timezone": "UTC"}))
            ),
            Err("argument \"time\" is a number, expected string".into())
        );
        // It does not close its properties: an argument it does not name is its to judge.
        let extra = args(json!({"source_timezone": "UTC", "time": "12:00",
                                "target_timezone": "UTC", "date": "2026-11-24"}));
        assert_eq!(check_arguments(&s, &extra), Ok(()));
        // Optional fields as pydantic writes them (`anyOf` with null), and a `$ref`.
        let optional = json!({"type": "object", "properties": {
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null},
            "unit": {"$ref": "#/$defs/Unit"}}});
        assert_eq!(
            check_arguments(&optional, &args(json!({"note": null, "unit": "h"}))),
            Ok(())
        );
        assert!(check_arguments(&optional, &args(json!({"note": 3}))).is_err());
    }

    #[test]
    fn an_enum_property_takes_only_its_values() {
        let s = json!({"type":"object","properties":{"unit":{"type":"string","enum":["days","weeks"]}}});
        assert!(check_arguments(&s, &args(json!({"unit": "days"}))).is_ok());
        assert!(check_arguments(&s, &args(json!({"unit": "fortnights"}))).is_err());
    }
}
