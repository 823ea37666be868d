//! A chat request as Chorus reads it: the request (the last `user` message), the
//! conversation before it (its `user` and `assistant` messages; system, developer and
//! tool messages are ignored), and the keys that name a conversation in the store.
//!
//! A conversation's key is `chorus:chat:` and the SHA-256, in hex, of the canonical JSON
//! of its `[role, text]` pairs: `[["user","2+4"],["assistant","2 + 4 = 6"]]`, each text
//! with its whitespace runs made one space and trimmed, so a client that re-wraps or
//! trims a reply it sends back still names the same conversation. SHA-256 rather than a
//! short hash: a key found is an answer handed to a waiting task and a session's turns
//! copied, so a crafted collision must not be practical.

use sha2::{Digest, Sha256};

use super::error::OpenAiError;
use super::wire::{ChatRequest, Content, MODEL, words};

/// The prefix of the store keys of conversations.
pub const KEY_PREFIX: &str = chorus_bus::keys::CHAT_PREFIX;

/// Who said a message that counts for the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    /// The person.
    User,
    /// Chorus (or whatever produced the reply).
    Assistant,
}

impl Speaker {
    fn name(self) -> &'static str {
        match self {
            Speaker::User => "user",
            Speaker::Assistant => "assistant",
        }
    }
}

/// A chat completion request, read.
#[derive(Debug, Clone)]
pub struct Chat {
    /// The conversation before the request, texts canonical.
    pub history: Vec<(Speaker, String)>,
    /// The request: the last user message's text, trimmed.
    pub request: String,
    /// Words in every message (the usage's prompt tokens).
    pub prompt_words: u64,
    /// Whether to stream the completion.
    pub stream: bool,
    /// Whether a streamed completion ends with a usage chunk.
    pub include_usage: bool,
}

impl Chat {
    /// Reads `body`: the model must be `chorus`, there must be a user message, and the
    /// request must be text.
    pub fn read(body: &ChatRequest) -> Result<Chat, OpenAiError> {
        if body.model != MODEL {
            return Err(OpenAiError::UnknownModel(body.model.clone()));
        }
        let mut said = Vec::with_capacity(body.messages.len());
        let mut prompt_words = 0;
        for (i, message) in body.messages.iter().enumerate() {
            let speaker = match message.role.as_str() {
                "user" => Some(Speaker::User),
                "assistant" => Some(Speaker::Assistant),
                "system" | "developer" | "tool" | "function" => None,
                other => {
                    return Err(OpenAiError::InvalidMessages(format!(
                        "messages[{i}].role {other:?} is not one of system, developer, user, assistant, tool, function"
                    )));
                }
            };
            let text = text_of(message.content.as_ref());
            prompt_words += words(&text.text);
            said.push((speaker, text));
        }
        let last = said
            .iter()
            .rposition(|(speaker, _)| *speaker == Some(Speaker::User))
            .ok_or(OpenAiError::NoUserMessage)?;
        let request = &said[last].1;
        if request.other_parts {
            return Err(OpenAiError::InvalidMessages(format!(
                "messages[{last}]: Chorus reads text only; the request has parts of another type"
            )));
        }
        let history = said[..last]
            .iter()
            .filter_map(|(speaker, text)| speaker.map(|s| (s, canonical(&text.text))))
            .collect();
        Ok(Chat {
            history,
            request: request.text.trim().to_owned(),
            prompt_words,
            stream: body.stream.unwrap_or(false),
            include_usage: body
                .stream_options
                .as_ref()
                .and_then(|o| o.include_usage)
                .unwrap_or(false),
        })
    }

    /// The key of the conversation before the request, `None` when there was none.
    pub fn history_key(&self) -> Option<String> {
        (!self.history.is_empty()).then(|| key(&self.history))
    }

    /// The key of the conversation once `reply` answered the request: what a client
    /// sends back as the history of its next request.
    pub fn key_after(&self, reply: &str) -> String {
        let mut all = self.history.clone();
        all.push((Speaker::User, canonical(&self.request)));
        all.push((Speaker::Assistant, canonical(reply)));
        key(&all)
    }
}

/// A message's text: its string, or its text parts joined by a line break.
struct Text {
    text: String,
    /// Whether it had parts other than text (images, audio, files, refusals).
    other_parts: bool,
}

fn text_of(content: Option<&Content>) -> Text {
    match content {
        None => Text {
            text: String::new(),
            other_parts: false,
        },
        Some(Content::Text(text)) => Text {
            text: text.clone(),
            other_parts: false,
        },
        Some(Content::Parts(parts)) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter(|p| p.kind == "text")
                .filter_map(|p| p.text.as_deref())
                .collect();
            Text {
                text: texts.join("\n"),
                other_parts: parts.iter().any(|p| p.kind != "text"),
            }
        }
    }
}

/// `text` with every whitespace run made one space, trimmed.
pub fn canonical(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The store key of a conversation.
pub fn key(said: &[(Speaker, String)]) -> String {
    let pairs: Vec<[&str; 2]> = said
        .iter()
        .map(|(speaker, text)| [speaker.name(), text.as_str()])
        .collect();
    let json = serde_json::to_string(&pairs).unwrap_or_default();
    let digest = Sha256::digest(json.as_bytes());
    let mut key = String::with_capacity(KEY_PREFIX.len() + 64);
    key.push_str(KEY_PREFIX);
    for byte in digest.iter() {
        key.push_str(&format!("{byte:02x}"));
    }
    key
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn chat(messages: serde_json::Value) -> Result<Chat, OpenAiError> {
        let body = json!({"model": "chorus", "messages": messages});
        Chat::read(&serde_json::from_value(body).expect("a request"))
    }

    #[test]
    fn the_last_user_message_is_the_request_and_the_messages_before_are_the_history() {
        let read = chat(json!([
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": "2+4"},
            {"role": "assistant", "content": "2 + 4 = 6\n"},
            {"role": "user", "content": [{"type": "text", "text": " now multiply that by 3 "}]}
        ]))
        .expect("read");
        assert_eq!(read.request, "now multiply that by 3");
        assert_eq!(
            read.history,
            [
                (Speaker::User, "2+4".to_owned()),
                (Speaker::Assistant, "2 + 4 = 6".to_owned())
            ]
        );
        assert_eq!(read.prompt_words, 3 + 1 + 5 + 5);
        assert!(!read.stream);
    }

    #[test]
    fn the_key_is_the_sha256_of_the_canonical_pairs_and_ignores_whitespace_changes() {
        let said = [
            (Speaker::User, "2+4".to_owned()),
            (Speaker::Assistant, "2 + 4 = 6".to_owned()),
        ];
        // printf '%s' '[["user","2+4"],["assistant","2 + 4 = 6"]]' | sha256sum
        assert_eq!(
            key(&said),
            "chorus:chat:a3809a546eb29e297d46a8551b5d6a7ece2376a9d6d95502279f87ddb1a9abc7"
        );
        let first = chat(json!([{"role": "user", "content": "2+4"}])).expect("first");
        assert_eq!(first.history_key(), None);
        let next = chat(json!([
            {"role": "user", "content": "2+4"},
            {"role": "assistant", "content": "  2 + 4\n=   6\n"},
            {"role": "system", "content": "ignored"},
            {"role": "user", "content": "now add 1 to that"}
        ]))
        .expect("next");
        assert_eq!(next.history_key(), Some(first.key_after("2 + 4 = 6\n")));
        assert_ne!(next.history_key(), Some(first.key_after("2 + 4 = 7")));
    }

    #[test]
    fn refusals_name_what_is_wrong() {
        let none = chat(json!([{"role": "system", "content": "hi"}])).expect_err("no user");
        assert_eq!(none.code(), "no_user_message");
        let role = chat(json!([{"role": "robot", "content": "hi"}])).expect_err("role");
        assert!(role.to_string().contains("robot"), "{role}");
        let image = chat(json!([{"role": "user", "content": [
            {"type": "text", "text": "what is this"},
            {"type": "image_url", "image_url": {"url": "http://x/y.png"}}]}]))
        .expect_err("image");
        assert_eq!(image.code(), "invalid_messages");
        let body = json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "2+4"}]});
        let model = Chat::read(&serde_json::from_value(body).expect("request")).expect_err("model");
        assert_eq!(
            (model.status().as_u16(), model.code()),
            (404, "model_not_found")
        );
    }
}
