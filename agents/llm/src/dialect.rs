//! Structured output: how a server is asked for JSON of the plan's shape. Servers speak
//! different dialects of `response_format` — OpenAI, vLLM, Ollama and llama.cpp's own
//! `llama-server` take `json_schema`; llama-cpp-python's server refuses it ("Input
//! should be 'text' or 'json_object'") and takes `json_object` with a `schema` beside
//! it; old servers take a bare `json_object`. With `response_format = "auto"` the first
//! is tried, and a refusal moves this process to the next one for good, with one `warn`
//! line saying which dialect the server refused and why.
//!
//! The schema sent is the plan's schema with one change ([`wire_schema`]): the reference
//! argument `{"$ref": "s1"}` is an object whose property is literally named `$ref`, and
//! grammar converters (llama.cpp's among them) read any `$ref` key as a JSON Schema
//! reference and reject the request. That object is sent as an open object described
//! in words; the answer is checked in code against the bus contract all the same.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::client::LlmClient;
use crate::error::LlmError;
use crate::wire::ChatMessage;

/// The `llm.response_format` setting: which dialect to speak, or `auto`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormat {
    /// `json_schema` first; on a refusal `json_object` with the schema, then a bare
    /// `json_object`.
    #[default]
    Auto,
    /// Only `{"type": "json_schema", "json_schema": {"schema": …}}`.
    JsonSchema,
    /// Only `{"type": "json_object", "schema": …}` (llama-cpp-python's server).
    JsonObjectSchema,
    /// Only `{"type": "json_object"}`: valid JSON, shape left to the prompt.
    JsonObject,
}

/// One dialect of `response_format`, in the order `auto` tries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dialect {
    /// `{"type": "json_schema", "json_schema": {"name", "strict": false, "schema"}}`.
    JsonSchema = 0,
    /// `{"type": "json_object", "schema": …}`.
    JsonObjectSchema = 1,
    /// `{"type": "json_object"}`.
    JsonObject = 2,
}

impl Dialect {
    fn from_u8(n: u8) -> Dialect {
        match n {
            0 => Dialect::JsonSchema,
            1 => Dialect::JsonObjectSchema,
            _ => Dialect::JsonObject,
        }
    }

    /// The dialect's name, as in the settings and the logs.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::JsonSchema => "json_schema",
            Dialect::JsonObjectSchema => "json_object_schema",
            Dialect::JsonObject => "json_object",
        }
    }

    /// The next dialect `auto` tries after this one is refused.
    fn next(self) -> Option<Dialect> {
        match self {
            Dialect::JsonSchema => Some(Dialect::JsonObjectSchema),
            Dialect::JsonObjectSchema => Some(Dialect::JsonObject),
            Dialect::JsonObject => None,
        }
    }

    /// The `response_format` object of this dialect with `schema`.
    pub fn body(self, schema: &Value) -> Value {
        match self {
            Dialect::JsonSchema => json!({
                "type": "json_schema",
                "json_schema": { "name": "chorus_plan", "strict": false, "schema": schema }
            }),
            Dialect::JsonObjectSchema => json!({ "type": "json_object", "schema": schema }),
            Dialect::JsonObject => json!({ "type": "json_object" }),
        }
    }
}

/// The dialect a process speaks, shared by every clone of a planner or verifier: it
/// starts where the settings say and, under `auto`, moves on when the server refuses.
#[derive(Debug, Clone)]
pub struct Dialects {
    current: Arc<AtomicU8>,
    auto: bool,
}

impl Dialects {
    /// The dialects `setting` allows. The older `json_schema = false` means a bare
    /// `json_object` when `setting` is `auto`.
    pub fn new(setting: ResponseFormat, json_schema: bool) -> Self {
        let (start, auto) = match setting {
            ResponseFormat::Auto if !json_schema => (Dialect::JsonObject, false),
            ResponseFormat::Auto => (Dialect::JsonSchema, true),
            ResponseFormat::JsonSchema => (Dialect::JsonSchema, false),
            ResponseFormat::JsonObjectSchema => (Dialect::JsonObjectSchema, false),
            ResponseFormat::JsonObject => (Dialect::JsonObject, false),
        };
        Dialects {
            current: Arc::new(AtomicU8::new(start as u8)),
            auto,
        }
    }

    /// The dialect to speak now.
    pub fn current(&self) -> Dialect {
        Dialect::from_u8(self.current.load(Ordering::Relaxed))
    }

    /// After `error` answered a request in `tried`: the dialect to retry with when
    /// the server refused that dialect and `auto` allows another (remembered for the
    /// process, logged once), else `None`.
    fn after(&self, tried: Dialect, error: &LlmError) -> Option<Dialect> {
        if !is_format_refusal(error) {
            return None;
        }
        let Some(next) = tried.next().filter(|_| self.auto) else {
            tracing::warn!(
                dialect = tried.name(),
                error = %error,
                "the model server refused this response_format; set llm.response_format to one it takes (auto, json_schema, json_object_schema, json_object)"
            );
            return None;
        };
        let moved = self
            .current
            .compare_exchange(
                tried as u8,
                next as u8,
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok();
        if moved {
            tracing::warn!(
                refused = tried.name(),
                now = next.name(),
                error = %error,
                "the model server refused response_format {}; speaking {} from now on",
                tried.name(),
                next.name()
            );
        }
        Some(self.current().max(next))
    }
}

/// Whether `error` is a server refusing the request's `response_format` (as opposed to
/// a server that is down, slow or refusing the key): an HTTP 400, 422 or 500 whose
/// message names the response format, a schema or a grammar.
pub fn is_format_refusal(error: &LlmError) -> bool {
    let LlmError::Status { status, message } = error else {
        return false;
    };
    let message = message.to_ascii_lowercase();
    matches!(status, 400 | 422 | 500)
        && [
            "response_format",
            "json_schema",
            "json_object",
            "schema",
            "grammar",
        ]
        .iter()
        .any(|word| message.contains(word))
}

/// The model's JSON answer to `messages` in the shape of `schema`, in the dialect the
/// process speaks; a refused dialect is retried once per remaining dialect (`auto`).
pub async fn complete_structured(
    client: &LlmClient,
    dialects: &Dialects,
    messages: &[ChatMessage],
    schema: &Value,
) -> Result<String, LlmError> {
    let mut dialect = dialects.current();
    loop {
        let format = dialect.body(schema);
        match client.complete(messages, Some(&format)).await {
            Err(e) => match dialects.after(dialect, &e) {
                Some(next) => dialect = next,
                None => return Err(e),
            },
            ok => return ok,
        }
    }
}

/// `schema` as sent to a server: every object schema with a property literally named
/// `$ref` (the bus's reference argument) becomes an open object whose description
/// says what it holds, so no grammar converter mistakes the name for a reference.
pub fn wire_schema(mut schema: Value) -> Value {
    replace_ref_properties(&mut schema);
    schema
}

fn replace_ref_properties(value: &mut Value) {
    match value {
        Value::Object(map) => {
            let names_ref = map
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key("$ref"));
            if names_ref {
                *map = reference_object();
                return;
            }
            map.values_mut().for_each(replace_ref_properties);
        }
        Value::Array(items) => items.iter_mut().for_each(replace_ref_properties),
        _ => {}
    }
}

fn reference_object() -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), json!("object"));
    map.insert(
        "description".into(),
        json!("the result of an earlier step: {\"$ref\": \"s1\"}"),
    );
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(status: u16, message: &str) -> LlmError {
        LlmError::Status {
            status,
            message: message.into(),
        }
    }

    #[test]
    fn no_property_named_ref_is_left_in_the_plan_schema_sent() {
        let sent = wire_schema(crate::planner::plan_schema());
        let text = sent.to_string();
        assert!(!text.contains(r#""properties":{"$ref""#), "{text}");
        fn no_ref_property(v: &Value) -> bool {
            match v {
                Value::Object(m) => {
                    m.get("properties")
                        .and_then(Value::as_object)
                        .is_none_or(|p| !p.contains_key("$ref"))
                        && m.values().all(no_ref_property)
                }
                Value::Array(a) => a.iter().all(no_ref_property),
                _ => true,
            }
        }
        assert!(no_ref_property(&sent));
        // Every `$ref` key left is a JSON Schema reference: a string into `$defs`.
        fn refs_are_strings(v: &Value) -> bool {
            match v {
                Value::Object(m) => m.iter().all(|(k, v)| {
                    (k != "$ref" || v.as_str().is_some_and(|s| s.starts_with("#/")))
                        && refs_are_strings(v)
                }),
                Value::Array(a) => a.iter().all(refs_are_strings),
                _ => true,
            }
        }
        assert!(refs_are_strings(&sent), "{text}");
        assert!(sent["properties"]["steps"].is_object());
    }

    #[test]
    fn a_refused_format_is_told_from_a_server_that_is_down_or_refuses_the_key() {
        assert!(is_format_refusal(&status(
            500,
            "1 validation error: response_format.type: Input should be 'text' or 'json_object'"
        )));
        assert!(is_format_refusal(&status(400, "failed to parse grammar")));
        assert!(!is_format_refusal(&status(500, "out of memory")));
        assert!(!is_format_refusal(&status(401, "bad json_schema key")));
        assert!(!is_format_refusal(&LlmError::Timeout(5)));
    }

    #[test]
    fn auto_moves_on_after_a_refusal_and_remembers_it_a_fixed_dialect_does_not() {
        let refused = status(500, "Input should be 'text' or 'json_object'");
        let auto = Dialects::new(ResponseFormat::Auto, true);
        assert_eq!(auto.current(), Dialect::JsonSchema);
        assert_eq!(
            auto.after(Dialect::JsonSchema, &refused),
            Some(Dialect::JsonObjectSchema)
        );
        assert_eq!(auto.clone().current(), Dialect::JsonObjectSchema);
        assert_eq!(
            auto.after(Dialect::JsonObjectSchema, &refused),
            Some(Dialect::JsonObject)
        );
        assert_eq!(auto.after(Dialect::JsonObject, &refused), None);
        assert_eq!(auto.after(Dialect::JsonSchema, &status(500, "oom")), None);

        let fixed = Dialects::new(ResponseFormat::JsonSchema, true);
        assert_eq!(fixed.after(Dialect::JsonSchema, &refused), None);
        assert_eq!(fixed.current(), Dialect::JsonSchema);
        let old_off = Dialects::new(ResponseFormat::Auto, false);
        assert_eq!(old_off.current(), Dialect::JsonObject);
    }

    #[test]
    fn each_dialect_puts_the_schema_where_its_servers_read_it() {
        let schema = json!({"type": "object"});
        assert_eq!(
            Dialect::JsonSchema.body(&schema)["json_schema"]["schema"],
            schema
        );
        assert_eq!(Dialect::JsonObjectSchema.body(&schema)["schema"], schema);
        assert_eq!(
            Dialect::JsonObjectSchema.body(&schema)["type"],
            "json_object"
        );
        assert_eq!(
            Dialect::JsonObject.body(&schema),
            json!({"type": "json_object"})
        );
    }
}
