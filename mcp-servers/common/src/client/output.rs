//! What the client hands back: tool listings and call outputs.

use rmcp::model::{CallToolResult, Tool};
use serde_json::Value;

/// A tool offered by a server.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// Tool name for [`super::McpClient::call`].
    pub name: String,
    /// What the tool does (empty if the server gave no description).
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Value,
}

impl From<Tool> for ToolSpec {
    fn from(tool: Tool) -> Self {
        Self {
            name: tool.name.into_owned(),
            description: tool.description.map(|d| d.into_owned()).unwrap_or_default(),
            input_schema: Value::Object((*tool.input_schema).clone()),
        }
    }
}

/// The outcome of one tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// True when the tool reported a failure (its message is in `text`).
    pub is_error: bool,
    /// The answer: the structured `result` field, else the whole structured
    /// content, else the text as a JSON string.
    pub value: Value,
    /// The structured content, if any.
    pub structured: Option<Value>,
    /// All text content blocks, joined by newlines.
    pub text: String,
}

impl From<CallToolResult> for ToolOutput {
    fn from(result: CallToolResult) -> Self {
        let text = result
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
            .collect::<Vec<_>>()
            .join("\n");
        let structured = result.structured_content;
        let value = match &structured {
            Some(Value::Object(map)) if map.contains_key("result") => map["result"].clone(),
            Some(other) => other.clone(),
            None => Value::String(text.clone()),
        };
        Self {
            is_error: result.is_error.unwrap_or(false),
            value,
            structured,
            text,
        }
    }
}
