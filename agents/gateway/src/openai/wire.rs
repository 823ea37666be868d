//! The OpenAI wire types Chorus reads and writes: the chat completion request (only the
//! fields Chorus uses; every other field — `temperature`, `max_tokens`, `tools`, … — is
//! accepted and ignored), the completion, the streamed chunk, usage, and the model list.

use chorus_bus::TaskId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The one model Chorus serves.
pub const MODEL: &str = "chorus";

/// `created` of the model (2026-01-01T00:00:00Z): the model is the whole system, not a
/// weights file with a release date, so this is a fixed, stable value.
pub const MODEL_CREATED: u64 = 1_767_225_600;

/// The body of `POST /v1/chat/completions`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ChatRequest {
    /// Must be `chorus`.
    pub model: String,
    /// The conversation: the last `user` message is the request, the messages before
    /// it are the conversation so far (system and developer messages are ignored).
    pub messages: Vec<ChatMessage>,
    /// Stream the completion as Server-Sent Events of `chat.completion.chunk`.
    #[serde(default)]
    pub stream: Option<bool>,
    /// With `stream`: `{"include_usage": true}` adds a last chunk with the usage.
    #[serde(default)]
    pub stream_options: Option<StreamOptions>,
}

/// `stream_options` of a chat completion request.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
pub struct StreamOptions {
    /// Send a chunk with the usage (and no choices) before `[DONE]`.
    #[serde(default)]
    pub include_usage: Option<bool>,
}

/// One message of the conversation.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ChatMessage {
    /// `system`, `developer`, `user`, `assistant`, `tool` or `function`.
    pub role: String,
    /// A string, or an array of content parts of which the `text` ones are read; `null`
    /// for an assistant message that only called tools.
    #[serde(default)]
    pub content: Option<Content>,
}

/// A message's content.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Content {
    /// Plain text.
    Text(String),
    /// Content parts (`{"type": "text", "text": "…"}`, images, audio, …).
    Parts(Vec<ContentPart>),
}

/// One content part.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ContentPart {
    /// `text` (read), or another kind (`image_url`, `input_audio`, `file`, `refusal`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The text of a `text` part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// Token counts. Chorus calls no model to answer (a configured model only plans and
/// writes), so these count words: runs of non-whitespace characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct Usage {
    /// Words in every message of the request.
    pub prompt_tokens: u64,
    /// Words in the completion.
    pub completion_tokens: u64,
    /// The sum.
    pub total_tokens: u64,
}

impl Usage {
    /// The usage of a request of `prompt` words answered with `completion`.
    pub fn new(prompt: u64, completion: &str) -> Usage {
        let completion = words(completion);
        Usage {
            prompt_tokens: prompt,
            completion_tokens: completion,
            total_tokens: prompt + completion,
        }
    }
}

/// The number of words in `text` (what [`Usage`] counts).
pub fn words(text: &str) -> u64 {
    text.split_whitespace().count() as u64
}

/// Chorus's own fields on a completion (clients ignore what they do not know).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct ChorusInfo {
    /// The task that answered (`GET /tasks/{task_id}` shows its report).
    pub task_id: TaskId,
    /// The report's status (`completed`, `partial`, …), or `input_required` when the
    /// completion is the task's question.
    pub status: String,
}

/// The answer to a non-streaming `POST /v1/chat/completions`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ChatCompletion {
    /// `chatcmpl-<task_id>`.
    pub id: String,
    /// `chat.completion`.
    pub object: String,
    /// Unix seconds.
    pub created: u64,
    /// `chorus`.
    pub model: String,
    /// One choice.
    pub choices: Vec<Choice>,
    /// Word counts.
    pub usage: Usage,
    /// The task behind the completion.
    pub chorus: ChorusInfo,
}

/// The one choice of a completion.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct Choice {
    /// 0.
    pub index: u32,
    /// The assistant's message: the report's text, or the task's question.
    pub message: AssistantMessage,
    /// `stop`.
    pub finish_reason: String,
    /// Always `null`.
    pub logprobs: Option<serde_json::Value>,
}

/// An assistant message.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct AssistantMessage {
    /// `assistant`.
    pub role: String,
    /// Markdown.
    pub content: String,
}

/// One `data:` event of a streamed completion.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ChatCompletionChunk {
    /// `chatcmpl-<task_id>`, the same in every chunk.
    pub id: String,
    /// `chat.completion.chunk`.
    pub object: String,
    /// Unix seconds, the same in every chunk.
    pub created: u64,
    /// `chorus`.
    pub model: String,
    /// One choice, or none in the usage chunk.
    pub choices: Vec<ChunkChoice>,
    /// `null`, except in the last chunk when `stream_options.include_usage` asked.
    pub usage: Option<Usage>,
    /// The task behind the completion, on the chunk that ends the choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chorus: Option<ChorusInfo>,
}

/// The choice of a chunk.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ChunkChoice {
    /// 0.
    pub index: u32,
    /// What this chunk adds.
    pub delta: Delta,
    /// `null`, then `stop` on the last chunk of the choice.
    pub finish_reason: Option<String>,
}

/// What a chunk adds to the message.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
pub struct Delta {
    /// `assistant`, on the first chunk only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The next piece of the content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// A model of `GET /v1/models`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct Model {
    /// `chorus`.
    pub id: String,
    /// `model`.
    pub object: String,
    /// Unix seconds ([`MODEL_CREATED`]).
    pub created: u64,
    /// `chorus`.
    pub owned_by: String,
}

impl Model {
    /// The one model.
    pub fn chorus() -> Model {
        Model {
            id: MODEL.to_owned(),
            object: "model".to_owned(),
            created: MODEL_CREATED,
            owned_by: MODEL.to_owned(),
        }
    }
}

/// The answer to `GET /v1/models`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ModelList {
    /// `list`.
    pub object: String,
    /// The one model.
    pub data: Vec<Model>,
}

/// Unix seconds now.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_are_ignored_and_content_is_a_string_or_parts() {
        let body = serde_json::json!({
            "model": "chorus", "temperature": 0.2, "max_tokens": 9, "stream": null,
            "messages": [
                {"role": "system", "content": "be brief", "name": "x"},
                {"role": "user", "content": [{"type": "text", "text": "2+4"},
                    {"type": "image_url", "image_url": {"url": "http://x"}}]},
                {"role": "assistant", "content": null, "tool_calls": []}
            ]
        });
        let request: ChatRequest = serde_json::from_value(body).expect("a request");
        assert_eq!(request.stream, None);
        assert_eq!(request.messages.len(), 3);
        let Some(Content::Parts(parts)) = &request.messages[1].content else {
            panic!("parts: {:?}", request.messages[1]);
        };
        assert_eq!(parts[0].text.as_deref(), Some("2+4"));
        assert_eq!(parts[1].kind, "image_url");
        assert!(request.messages[2].content.is_none());
    }

    #[test]
    fn usage_counts_words() {
        assert_eq!(words(" (2 + 4) × 3 = 18\n\n**Steps:**"), 8);
        let usage = Usage::new(3, "2 + 4 = 6\n");
        assert_eq!((usage.completion_tokens, usage.total_tokens), (5, 8));
    }
}
