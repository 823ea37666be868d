//! A fake OpenAI-compatible server for the tests: an axum app on 127.0.0.1:0 speaking
//! `POST /v1/chat/completions`, whole or as SSE (`data: {...}` chunks, `data: [DONE]`),
//! answering what the test scripted and recording every request it received.
//!
//! Its answers are as lean as Ollama's and llama.cpp's: only `choices`, no `id`,
//! `created`, `usage` or `object`, so the tests also pin the client's leniency.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use chorus_bus::ToolInfo;
use chorus_llm::{LlmSettings, PoolTool};
use futures::StreamExt;
use serde_json::{Value, json};

/// What the fake server answers.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with one choice whose message content is this text.
    Content(String),
    /// 200 as SSE: one chunk per string, then `[DONE]`.
    Stream(Vec<String>),
    /// 200 as SSE: these chunks, then nothing more, never `[DONE]` (a stalled server).
    StreamThenStall(Vec<String>),
    /// This HTTP status with this body.
    Status(u16, String),
    /// Waits this long, then answers the content.
    Slow(Duration, String),
    /// As llama-cpp-python's server: HTTP 500 "Input should be 'text' or 'json_object'"
    /// to a `json_schema` response format, the content to anything else.
    RefusesJsonSchema(String),
}

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Received {
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
    /// The JSON body.
    pub body: Value,
}

#[derive(Clone)]
struct AppState {
    reply: Reply,
    received: Arc<Mutex<Vec<Received>>>,
}

/// A running fake server; stopped when dropped.
pub struct FakeOpenAi {
    /// `http://127.0.0.1:<port>/v1`.
    pub base_url: String,
    received: Arc<Mutex<Vec<Received>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeOpenAi {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeOpenAi {
    /// Starts a server answering every request with `reply`.
    pub async fn start(reply: Reply) -> FakeOpenAi {
        let received = Arc::new(Mutex::new(Vec::new()));
        let state = AppState {
            reply,
            received: received.clone(),
        };
        let app = Router::new()
            .route("/v1/chat/completions", post(chat_completions))
            .with_state(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake server");
        let addr = listener.local_addr().expect("local addr");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeOpenAi {
            base_url: format!("http://{addr}/v1"),
            received,
            task,
        }
    }

    /// Settings pointing at this server, with `timeout_ms`.
    pub fn settings(&self, timeout_ms: u64) -> LlmSettings {
        LlmSettings {
            timeout_ms,
            api_key_env: "CHORUS_TEST_NO_SUCH_KEY_VAR".into(),
            ..LlmSettings::new(&self.base_url, "fake-model")
        }
    }

    /// The requests received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().expect("lock").clone()
    }
}

async fn chat_completions(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let asks_json_schema = body["response_format"]["type"] == "json_schema";
    state.received.lock().expect("lock").push(Received {
        authorization: headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        body,
    });
    match state.reply {
        Reply::Content(text) => completion(&text),
        Reply::RefusesJsonSchema(_) if asks_json_schema => {
            let error = json!({"error": {"message": "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input should be 'text' or 'json_object'", "type": "internal_server_error"}});
            (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(error)).into_response()
        }
        Reply::RefusesJsonSchema(text) => completion(&text),
        Reply::Slow(wait, text) => {
            tokio::time::sleep(wait).await;
            completion(&text)
        }
        Reply::Status(code, text) => {
            let code = StatusCode::from_u16(code).expect("status");
            (code, text).into_response()
        }
        Reply::Stream(chunks) => {
            let mut sse: String = chunks.iter().map(|c| sse_chunk(c)).collect();
            sse.push_str("data: [DONE]\n\n");
            sse_response(Body::from(sse))
        }
        Reply::StreamThenStall(chunks) => {
            let events = chunks
                .into_iter()
                .map(|c| Ok::<String, std::convert::Infallible>(sse_chunk(&c)));
            let body = futures::stream::iter(events).chain(futures::stream::pending());
            sse_response(Body::from_stream(body))
        }
    }
}

fn sse_chunk(content: &str) -> String {
    let chunk = json!({"choices": [{"index": 0, "delta": {"content": content}}]});
    format!("data: {chunk}\n\n")
}

fn sse_response(body: Body) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .body(body)
        .expect("sse response")
}

fn completion(text: &str) -> Response {
    let body = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]});
    axum::Json(body).into_response()
}

fn operand(description: &str) -> Value {
    json!({"type": ["number", "string"], "description": description})
}

fn two_operands() -> Value {
    json!({"type": "object", "properties": {"a": operand("first"), "b": operand("second")},
           "required": ["a", "b"], "additionalProperties": false})
}

/// The math pool's sum, subtract and multiply, and the date pool's weekday, with the
/// same input schemas as the real MCP servers.
pub fn live_tools() -> Vec<PoolTool> {
    let math = ["sum", "subtract", "multiply"].map(|name| ToolInfo {
        name: name.into(),
        description: format!("{name} two numbers exactly"),
        input_schema: two_operands(),
    });
    let weekday = ToolInfo {
        name: "weekday".into(),
        description: "The weekday of a date".into(),
        input_schema: json!({"type": "object", "properties": {"date": {"type": "string"},
            "now": {"type": "string"}, "timezone": {"type": "string"}},
            "required": ["date"], "additionalProperties": false}),
    };
    let mut tools = PoolTool::from_pool(&"math".into(), &math);
    tools.extend(PoolTool::from_pool(&"date".into(), &[weekday]));
    tools
}

/// A valid plan for "(2+4)*3" as a model would write it.
pub const GOOD_PLAN: &str = r#"{"steps":[
  {"id":"s1","pool":"math","tool":"sum","arguments":{"a":"2","b":"4"},"part":"2+4","output":false},
  {"id":"s2","pool":"math","tool":"multiply","arguments":{"a":{"$ref":"s1"},"b":"3"},"part":"(2+4)*3","output":true}
]}"#;
