//! The chat-completion wire format, as our own serde types handed to async-openai's
//! "bring your own types" calls.
//!
//! The response types are lenient on purpose: every field is optional and unknown
//! fields are ignored, because OpenAI-compatible servers (Ollama, vLLM, llama.cpp)
//! omit fields that async-openai's typed responses require (`id`, `created`, `usage`,
//! `object`, `system_fingerprint`, …). We only need the text of the first choice.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One message of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system` or `user`.
    pub role: String,
    /// The message text.
    pub content: String,
}

impl ChatMessage {
    /// A system message: the instructions.
    pub fn system(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "system".to_owned(),
            content: content.into(),
        }
    }

    /// A user message: the data to work on.
    pub fn user(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "user".to_owned(),
            content: content.into(),
        }
    }
}

/// The body of `POST /chat/completions`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ChatRequest<'a> {
    pub model: &'a str,
    pub messages: &'a [ChatMessage],
    pub max_tokens: u32,
    pub temperature: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_format: Option<&'a Value>,
    pub stream: bool,
}

/// A chat completion, leniently: only what we read.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ChatResponse {
    pub choices: Vec<Choice>,
    /// Some servers answer 200 with an error object instead of choices.
    pub error: Option<Value>,
    /// The model that answered, when the server says.
    pub model: Option<String>,
    /// Token counts, when the server reports them (traces record them).
    pub usage: Option<Usage>,
}

/// A completion's token counts.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Usage {
    /// Tokens of the prompt.
    pub prompt_tokens: Option<u64>,
    /// Tokens of the answer.
    pub completion_tokens: Option<u64>,
}

/// One choice of a completion.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Choice {
    pub message: Option<ResponseMessage>,
    pub finish_reason: Option<String>,
}

/// The assistant's message in a completion.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ResponseMessage {
    /// A string, or (rarely) an array of `{type, text}` parts; null with a refusal.
    pub content: Option<Value>,
    pub refusal: Option<String>,
}

/// One streamed chunk, leniently.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ChatChunk {
    pub choices: Vec<ChunkChoice>,
    pub error: Option<Value>,
    /// The model that answered, when the server says.
    pub model: Option<String>,
    /// Token counts, sent by some servers with the last chunk.
    pub usage: Option<Usage>,
}

/// One choice of a streamed chunk.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ChunkChoice {
    pub delta: Option<Delta>,
}

/// The new text in a streamed chunk.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Delta {
    pub content: Option<Value>,
}

/// The text of a `content` value: a string, or the concatenated `text` of its parts.
pub(crate) fn content_text(content: &Value) -> Option<String> {
    match content {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let text: String = parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            Some(text)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_with_only_choices_parses() {
        let r: ChatResponse = serde_json::from_str(
            r#"{"choices":[{"message":{"role":"assistant","content":"hi"}}]}"#,
        )
        .expect("lenient response");
        let content = r.choices[0]
            .message
            .as_ref()
            .and_then(|m| m.content.as_ref());
        assert_eq!(content.and_then(content_text), Some("hi".to_owned()));
    }

    #[test]
    fn content_parts_are_joined() {
        let v = serde_json::json!([{"type":"text","text":"a"},{"type":"text","text":"b"}]);
        assert_eq!(content_text(&v), Some("ab".to_owned()));
    }
}
