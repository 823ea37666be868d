//! Reading tool arguments from a raw JSON object.
//!
//! Servers take `tools/call` arguments as a plain JSON object and read them
//! through [`Args`], so a missing argument, a wrong type or an unknown name is a
//! readable tool error (`isError: true`) rather than a JSON-RPC protocol error.

use rmcp::model::JsonObject;
use serde_json::Value;

/// Why an argument could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// A required argument is absent (or `null`).
    #[error("missing required argument '{name}'")]
    Missing {
        /// Argument name.
        name: String,
    },
    /// An argument has the wrong JSON type or an unusable value.
    #[error("argument '{name}' must be {expected}, got {got}")]
    WrongType {
        /// Argument name.
        name: String,
        /// What the tool expects, e.g. "an integer".
        expected: String,
        /// A short description of what was received.
        got: String,
    },
    /// An argument name the tool does not take.
    #[error("unknown argument '{name}'; this tool takes: {allowed}")]
    Unknown {
        /// The unexpected argument name.
        name: String,
        /// The accepted names, comma separated.
        allowed: String,
    },
}

/// Describes a JSON value briefly for error messages ("a string \"x\"", "an array").
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => "a long string".into(),
        Value::String(s) => format!("the string \"{s}\""),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A read-only view of one call's arguments.
#[derive(Debug, Clone, Copy)]
pub struct Args<'a> {
    map: &'a JsonObject,
}

impl<'a> Args<'a> {
    /// Wraps the arguments object.
    pub fn new(map: &'a JsonObject) -> Self {
        Self { map }
    }

    /// Rejects any argument name not in `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<(), ArgError> {
        match self.map.keys().find(|key| !allowed.contains(&key.as_str())) {
            Some(name) => Err(ArgError::Unknown {
                name: name.clone(),
                allowed: allowed.join(", "),
            }),
            None => Ok(()),
        }
    }

    /// The value of `name`, treating `null` as absent.
    pub fn optional(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|value| !value.is_null())
    }

    /// The value of `name`, or [`ArgError::Missing`].
    pub fn required(&self, name: &str) -> Result<&'a Value, ArgError> {
        self.optional(name).ok_or_else(|| ArgError::Missing {
            name: name.to_owned(),
        })
    }

    /// A required string argument.
    pub fn str(&self, name: &str) -> Result<&'a str, ArgError> {
        let value = self.required(name)?;
        value.as_str().ok_or_else(|| wrong(name, "a string", value))
    }

    /// An optional string argument.
    pub fn opt_str(&self, name: &str) -> Result<Option<&'a str>, ArgError> {
        match self.optional(name) {
            None => Ok(None),
            Some(value) => value
                .as_str()
                .map(Some)
                .ok_or_else(|| wrong(name, "a string", value)),
        }
    }

    /// A required integer argument: a JSON integer, a float with no fraction
    /// (`3.0`), or a string holding an integer (`"3"`).
    pub fn i64(&self, name: &str) -> Result<i64, ArgError> {
        let value = self.required(name)?;
        integer(value).ok_or_else(|| wrong(name, "an integer", value))
    }

    /// An optional integer argument (see [`Args::i64`]).
    pub fn opt_i64(&self, name: &str) -> Result<Option<i64>, ArgError> {
        match self.optional(name) {
            None => Ok(None),
            Some(value) => integer(value)
                .map(Some)
                .ok_or_else(|| wrong(name, "an integer", value)),
        }
    }

    /// An optional boolean argument (`true`/`false`, or the strings "true"/"false").
    pub fn opt_bool(&self, name: &str) -> Result<Option<bool>, ArgError> {
        match self.optional(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) if s == "true" => Ok(Some(true)),
            Some(Value::String(s)) if s == "false" => Ok(Some(false)),
            Some(value) => Err(wrong(name, "a boolean", value)),
        }
    }
}

/// Builds an [`ArgError::WrongType`].
pub fn wrong(name: &str, expected: &str, got: &Value) -> ArgError {
    ArgError::WrongType {
        name: name.to_owned(),
        expected: expected.to_owned(),
        got: describe(got),
    }
}

fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            let f = n.as_f64()?;
            let in_range = f.fract() == 0.0 && f.abs() < 9.0e15;
            in_range.then_some(f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn obj(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn integer_accepts_numbers_whole_floats_and_strings() {
        let map = obj(json!({"a": 3, "b": 4.0, "c": "-7", "d": 1.5, "e": null}));
        let args = Args::new(&map);
        assert_eq!(args.i64("a"), Ok(3));
        assert_eq!(args.i64("b"), Ok(4));
        assert_eq!(args.i64("c"), Ok(-7));
        assert!(matches!(args.i64("d"), Err(ArgError::WrongType { .. })));
        assert_eq!(args.i64("e"), Err(ArgError::Missing { name: "e".into() }));
        assert_eq!(args.opt_i64("e"), Ok(None));
    }

    #[test]
    fn unknown_arguments_are_named_in_the_error() {
        let map = obj(json!({"a": 1, "typo": 2}));
        let err = Args::new(&map).only(&["a", "b"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown argument 'typo'; this tool takes: a, b"
        );
    }

    #[test]
    fn wrong_type_message_describes_the_value() {
        let map = obj(json!({"flag": [1]}));
        let err = Args::new(&map).opt_bool("flag").unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 'flag' must be a boolean, got an array"
        );
    }
}
