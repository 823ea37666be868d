//! Tool definitions and results shared by every Chorus tool server.
//!
//! A server keeps a static table of [`ToolDef`]s, runs a pure function per tool
//! and hands the outcome to [`into_call_result`]. Failures become MCP tool errors
//! (`isError: true` with a readable text), never protocol errors, so a model or a
//! pool agent can read what went wrong.

use std::{fmt::Display, sync::Arc};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

/// One tool as listed to clients: name, description and JSON Schemas.
#[derive(Debug, Clone)]
pub struct ToolDef {
    /// Tool name used in `tools/call` (the contract; never rename).
    pub name: &'static str,
    /// Description a model can use to pick the tool and fill its arguments.
    pub description: &'static str,
    /// JSON Schema (an object schema) of the arguments.
    pub input_schema: Value,
    /// JSON Schema of the structured output, when the tool has one.
    pub output_schema: Option<Value>,
}

impl ToolDef {
    /// Converts the definition to the rmcp wire type.
    pub fn to_tool(&self) -> Tool {
        let mut tool = Tool::new(
            self.name,
            self.description,
            Arc::new(as_object(&self.input_schema)),
        )
        .annotate(
            ToolAnnotations::new()
                .read_only(true)
                .idempotent(true)
                .open_world(false),
        );
        if let Some(schema) = &self.output_schema {
            tool = tool.with_raw_output_schema(Arc::new(as_object(schema)));
        }
        tool
    }
}

fn as_object(value: &Value) -> JsonObject {
    match value {
        Value::Object(map) => map.clone(),
        _ => JsonObject::new(),
    }
}

/// Output schema for tools whose structured output is `{"result": <string>}` plus
/// optional extra fields.
pub fn result_output_schema(result_type: &str, extra: Value) -> Value {
    let mut properties = serde_json::Map::new();
    properties.insert("result".into(), json!({ "type": result_type }));
    if let Value::Object(extra) = extra {
        properties.extend(extra);
    }
    json!({ "type": "object", "properties": properties, "required": ["result"] })
}

/// A successful tool answer: the structured object and the text line.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReply {
    /// Structured content, always an object with a `result` field.
    pub structured: Value,
    /// Human-readable text content.
    pub text: String,
}

impl ToolReply {
    /// A reply whose structured output is `{"result": value}` and text `text`.
    pub fn result(value: impl Into<Value>, text: impl Into<String>) -> Self {
        Self {
            structured: json!({ "result": value.into() }),
            text: text.into(),
        }
    }

    /// Adds an extra field next to `result` in the structured output.
    pub fn with_field(mut self, name: &str, value: impl Into<Value>) -> Self {
        if let Value::Object(map) = &mut self.structured {
            map.insert(name.to_owned(), value.into());
        }
        self
    }

    /// The `result` field of the structured output.
    pub fn result_value(&self) -> &Value {
        self.structured.get("result").unwrap_or(&Value::Null)
    }
}

/// Turns a tool's outcome into an MCP result: structured content plus text on
/// success, `isError: true` with the error's message on failure.
pub fn into_call_result<E: Display>(outcome: Result<ToolReply, E>) -> CallToolResult {
    match outcome {
        Ok(reply) => {
            let mut result = CallToolResult::success(vec![ContentBlock::text(reply.text)]);
            result.structured_content = Some(reply.structured);
            result
        }
        Err(error) => CallToolResult::error(vec![ContentBlock::text(error.to_string())]),
    }
}

/// The tool error returned for a name no tool has.
pub fn unknown_tool_result(name: &str, known: &[ToolDef]) -> CallToolResult {
    let names: Vec<&str> = known.iter().map(|def| def.name).collect();
    CallToolResult::error(vec![ContentBlock::text(format!(
        "unknown tool '{name}'; available tools: {}",
        names.join(", ")
    ))])
}
