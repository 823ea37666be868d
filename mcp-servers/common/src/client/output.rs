//! What the client hands back: tool listings and call outputs.
//!
//! Servers answer in more than one shape. Chorus's own servers give structured content
//! `{"result": …}` and a text; others give structured content of their own shape
//! (`{"source": {…}, "time_difference": "-3.5h"}`), the same JSON only as text, plain
//! text, or nothing at all. [`ToolOutput`] reads each into one answer `value` and one
//! `text`, so nothing downstream needs to know which shape a server uses.

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
    /// The answer. From the structured content when there is one: its `result` field
    /// when it has one (Chorus's servers), else the whole structured content. Without
    /// structured content, a text that is a JSON object or array (as some servers send
    /// their structured answer) is read the same way; any other text is the answer as a
    /// JSON string (numbers stay strings, as written).
    pub value: Value,
    /// The structured content, if any (an explicit `null` counts as none).
    pub structured: Option<Value>,
    /// All text content blocks, joined by newlines; when the server sent no text, the
    /// structured content as compact JSON, and for a failure with neither, a sentence
    /// saying so (never empty for a failure).
    pub text: String,
}

/// The text of a failure that came with no text and no structured content.
const SILENT_ERROR: &str = "the tool reported an error without a message";

impl From<CallToolResult> for ToolOutput {
    fn from(result: CallToolResult) -> Self {
        let is_error = result.is_error.unwrap_or(false);
        let text = result
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
            .collect::<Vec<_>>()
            .join("\n");
        // An explicit `null` is no structured content.
        let structured = result.structured_content.filter(|v| !v.is_null());
        let value = match &structured {
            Some(content) => answer_in(content),
            None => {
                json_in_text(&text).map_or_else(|| Value::String(text.clone()), |v| answer_in(&v))
            }
        };
        let text = match (&structured, text.trim().is_empty()) {
            (_, false) => text,
            (Some(content), true) => content.to_string(),
            (None, true) if is_error => SILENT_ERROR.to_owned(),
            (None, true) => text,
        };
        Self {
            is_error,
            value,
            structured,
            text,
        }
    }
}

/// The answer in structured content: its `result` field when it is an object that has
/// one, else all of it.
fn answer_in(content: &Value) -> Value {
    match content {
        Value::Object(map) => map.get("result").unwrap_or(content).clone(),
        other => other.clone(),
    }
}

/// `text` read as JSON when it is a JSON object or array (a structured answer sent as
/// text); `None` for anything else, numbers and quoted strings included.
fn json_in_text(text: &str) -> Option<Value> {
    let t = text.trim();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    serde_json::from_str::<Value>(t)
        .ok()
        .filter(|v| v.is_object() || v.is_array())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ContentBlock;
    use serde_json::json;

    fn result(text: Option<&str>, structured: Option<Value>, is_error: bool) -> CallToolResult {
        let mut r = CallToolResult::success(text.map(ContentBlock::text).into_iter().collect());
        r.structured_content = structured;
        r.is_error = Some(is_error);
        r
    }

    #[test]
    fn a_structured_result_field_is_the_answer() {
        let out = ToolOutput::from(result(Some("6"), Some(json!({"result": "6"})), false));
        assert_eq!(out.value, json!("6"));
        assert_eq!(out.text, "6");
    }

    #[test]
    fn structured_content_of_another_shape_is_the_answer_whole() {
        let content = json!({"target": {"datetime": "2026-11-24T05:45:00+05:30"}, "time_difference": "-3.5h"});
        let out = ToolOutput::from(result(Some("{…}"), Some(content.clone()), false));
        assert_eq!(out.value, content);
        // No text: the structured content is the text.
        let out = ToolOutput::from(result(None, Some(content.clone()), false));
        assert_eq!(out.text, content.to_string());
        // An explicit null is no structured content: the text is the answer.
        let out = ToolOutput::from(result(Some("sunny"), Some(Value::Null), false));
        assert_eq!((out.value, out.structured), (json!("sunny"), None));
    }

    #[test]
    fn json_in_a_text_only_result_is_read_like_structured_content() {
        let text = "{\n  \"timezone\": \"Asia/Tokyo\",\n  \"is_dst\": false\n}";
        let out = ToolOutput::from(result(Some(text), None, false));
        assert_eq!(
            out.value,
            json!({"timezone": "Asia/Tokyo", "is_dst": false})
        );
        assert_eq!(out.text, text, "the tool's own text is kept");
        assert_eq!(out.structured, None);
        let out = ToolOutput::from(result(Some("{\"result\": 42}"), None, false));
        assert_eq!(out.value, json!(42));
        let out = ToolOutput::from(result(Some("[1, 2]"), None, false));
        assert_eq!(out.value, json!([1, 2]));
    }

    #[test]
    fn other_text_stays_text_numbers_included() {
        for text in ["0.10", "It is sunny.", "{not json", "\"quoted\""] {
            let out = ToolOutput::from(result(Some(text), None, false));
            assert_eq!(out.value, json!(text), "{text}");
        }
    }

    #[test]
    fn a_failure_always_says_something() {
        let out = ToolOutput::from(result(Some("Invalid timezone"), None, true));
        assert!(out.is_error);
        assert_eq!(out.text, "Invalid timezone");
        let out = ToolOutput::from(result(None, None, true));
        assert_eq!(out.text, SILENT_ERROR);
        let out = ToolOutput::from(result(None, Some(json!({"code": 7})), true));
        assert_eq!(out.text, "{\"code\":7}");
    }
}
