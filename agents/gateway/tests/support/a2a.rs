//! The A2A door's helpers: a JSON-RPC client for `POST /a2a` that reads plain responses
//! and Server-Sent Events streams, messages, and what a stream's results are.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};

use super::{Events, System};

impl System {
    /// `POST /a2a` with `body` and the header `A2A-Version: 1.0`: the JSON response.
    pub async fn post(&self, body: &str) -> Value {
        let (status, _, bytes) = self.send(post(body, Some("1.0"))).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
        serde_json::from_slice(&bytes).expect("a JSON-RPC response")
    }

    /// Calls `method` with `params`: the whole JSON-RPC response.
    pub async fn rpc(&self, method: &str, params: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
        self.post(&body.to_string()).await
    }

    /// Calls `method`, which must succeed: its result.
    pub async fn result(&self, method: &str, params: Value) -> Value {
        let response = self.rpc(method, params).await;
        assert_eq!(response["id"], 7, "{response}");
        assert!(response.get("error").is_none(), "{response}");
        response["result"].clone()
    }

    /// Calls `method`, which must fail: its error object.
    pub async fn error(&self, method: &str, params: Value) -> Value {
        let response = self.rpc(method, params).await;
        assert!(response.get("result").is_none(), "{response}");
        response["error"].clone()
    }

    /// A streaming method: its events as they come.
    pub async fn rpc_stream(&self, method: &str, params: Value) -> Events {
        let body = json!({"jsonrpc": "2.0", "id": "s-1", "method": method, "params": params});
        let events = self.events(post(&body.to_string(), Some("1.0"))).await;
        let kind = events.headers["content-type"].to_str().unwrap_or("");
        assert!(
            kind.starts_with("text/event-stream"),
            "not a stream: {kind}"
        );
        events
    }
}

/// `POST /a2a` with `body`, and `A2A-Version` when given.
pub fn post(body: &str, version: Option<&str>) -> Request<Body> {
    let mut request = Request::builder()
        .method("POST")
        .uri("/a2a")
        .header("content-type", "application/json");
    if let Some(v) = version {
        request = request.header("A2A-Version", v);
    }
    request.body(Body::from(body.to_owned())).expect("request")
}

/// A user's message with one text part.
pub fn message(text: &str) -> Value {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    json!({"messageId": format!("m-{id}"), "role": "ROLE_USER", "parts": [{"text": text}]})
}

/// The text of the first text part of the task's `report` artifact.
pub fn report_text(task: &Value) -> String {
    task["artifacts"][0]["parts"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

impl Events {
    /// The next event (name, data as JSON) within 10 s; `None` at the stream's end.
    /// Nothing in 10 s fails the test.
    pub async fn next_event(&mut self) -> Option<(String, Value)> {
        self.try_next(Duration::from_secs(10))
            .await
            .unwrap_or_else(|so_far| panic!("no event within 10 s; so far: {:?}", so_far.0))
    }

    /// The results (`StreamResponse`s) up to the end of the stream; every event must be
    /// a `message` event answering call `s-1`.
    pub async fn results(&mut self) -> Vec<Value> {
        let mut results = Vec::new();
        while let Some((name, data)) = self.next_event().await {
            assert_eq!(name, "message", "{data}");
            assert_eq!(data["jsonrpc"], "2.0");
            assert_eq!(data["id"], "s-1", "{data}");
            results.push(data["result"].clone());
        }
        results
    }
}

/// What each stream response is: `task`, `statusUpdate` or `artifactUpdate`, with the
/// state for tasks and status updates (`task:TASK_STATE_SUBMITTED`, …).
pub fn kinds(results: &[Value]) -> Vec<String> {
    results
        .iter()
        .map(|r| {
            if let Some(t) = r.get("task") {
                format!("task:{}", t["status"]["state"].as_str().unwrap_or("?"))
            } else if let Some(s) = r.get("statusUpdate") {
                format!("status:{}", s["status"]["state"].as_str().unwrap_or("?"))
            } else if r.get("artifactUpdate").is_some() {
                "artifact".to_owned()
            } else {
                format!("unknown:{r}")
            }
        })
        .collect()
}
