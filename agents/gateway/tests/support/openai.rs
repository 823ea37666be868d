//! The OpenAI-compatible door's helpers: chat completion requests, plain and streamed,
//! and the completion's text.

use serde_json::{Value, json};

use super::System;

impl System {
    /// A non-streaming completion of `messages`, which must succeed.
    pub async fn complete(&self, messages: &[(&str, &str)]) -> Value {
        let (status, completion) = self
            .call("POST", "/v1/chat/completions", chat(messages, false))
            .await;
        assert_eq!(status, 200, "{completion}");
        completion
    }

    /// `POST /v1/chat/completions` with any body: the status and the body as text.
    pub async fn post_completion(&self, body: String) -> (u16, String) {
        self.text("POST", "/v1/chat/completions", "application/json", body)
            .await
    }

    /// A streamed completion of `body`: every `data:` payload, in order.
    pub async fn completion_stream(&self, body: Value) -> Vec<String> {
        let (status, text) = self.post_completion(body.to_string()).await;
        assert_eq!(status, 200, "{text}");
        chorus_testkit::sse::parse_all(&text)
            .into_iter()
            .map(|event| event.data)
            .collect()
    }
}

/// A chat completion request of `(role, content)` messages.
pub fn chat(messages: &[(&str, &str)], stream: bool) -> Value {
    let messages: Vec<Value> = messages
        .iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    json!({"model": "chorus", "messages": messages, "stream": stream, "temperature": 0.7})
}

/// The completion's text.
pub fn content(completion: &Value) -> String {
    completion["choices"][0]["message"]["content"]
        .as_str()
        .unwrap_or_else(|| panic!("no content: {completion}"))
        .to_owned()
}
