//! A fake OpenAI-compatible server for the end-to-end tests, on 127.0.0.1:0, written on
//! tokio alone (the e2e crate has no HTTP server dependency): `POST
//! /v1/chat/completions`, whole or streamed as SSE, answering what the test scripted
//! (changeable while the cluster runs) and recording what it was asked.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the fake model answers: plan requests (they carry `response_format`) and
/// report requests (they do not), each with text or an HTTP error status.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with this text (whole, or as SSE chunks when the request streams).
    Text(String),
    /// This HTTP status with an OpenAI-style error body.
    Status(u16),
    /// Answers the text only after this long (a model slower than the task's deadline).
    Slow(Duration, String),
}

/// The answers the server gives now.
#[derive(Debug, Clone)]
pub struct Script {
    /// The answer to plan requests.
    pub plan: Reply,
    /// The answer to report requests.
    pub report: Reply,
}

/// What the fake model was asked: (`plan`, `report` or `verify`, streamed).
pub type Log = Arc<Mutex<Vec<(&'static str, bool)>>>;

/// The request bodies, with their kind (`plan`, `report` or `verify`), in order.
type Bodies = Arc<Mutex<Vec<(&'static str, Value)>>>;

/// The answers to report checks (requests whose instructions ask for FINISHED or
/// REITERATE), one per check in order, the last one repeated; FINISHED when none.
type Checks = Arc<Mutex<Vec<Reply>>>;

/// A fake OpenAI-compatible server on 127.0.0.1:0 speaking `POST /v1/chat/completions`,
/// whole or streamed (SSE chunks, `data: [DONE]`), one request per connection. Written
/// on tokio alone: the e2e crate has no HTTP server dependency.
pub struct FakeModel {
    /// `http://127.0.0.1:<port>/v1`.
    pub base_url: String,
    script: Arc<Mutex<Script>>,
    checks: Checks,
    log: Log,
    bodies: Bodies,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeModel {
    /// Starts the server answering as `script` says.
    pub async fn start(script: Script) -> FakeModel {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let script = Arc::new(Mutex::new(script));
        let log: Log = Arc::default();
        let checks: Checks = Arc::default();
        let bodies: Bodies = Arc::default();
        let (s, c, l, b) = (script.clone(), checks.clone(), log.clone(), bodies.clone());
        let task = tokio::spawn(async move {
            while let Ok((conn, _)) = listener.accept().await {
                tokio::spawn(serve(conn, s.clone(), c.clone(), l.clone(), b.clone()));
            }
        });
        FakeModel {
            base_url: format!("http://{addr}/v1"),
            script,
            checks,
            log,
            bodies,
            task,
        }
    }

    /// The answers to the next report checks, in order (the last one repeated).
    pub fn set_checks(&self, replies: Vec<Reply>) {
        *self.checks.lock().expect("lock") = replies;
    }

    /// Changes the answers from now on.
    pub fn set(&self, script: Script) {
        *self.script.lock().expect("lock") = script;
    }

    /// Every request so far: (`plan` or `report`, streamed).
    pub fn asked(&self) -> Vec<(&'static str, bool)> {
        self.log.lock().expect("lock").clone()
    }

    /// Every request body so far, with its kind (`plan`, `report` or `verify`).
    pub fn bodies(&self) -> Vec<(&'static str, Value)> {
        self.bodies.lock().expect("lock").clone()
    }

    /// Environment pointing every role at this server, the model's timeout 5 s.
    pub fn env(&self) -> BTreeMap<String, String> {
        self.env_with_timeout(5_000)
    }

    /// Environment pointing every role at this server, with the model's timeout.
    pub fn env_with_timeout(&self, timeout_ms: u64) -> BTreeMap<String, String> {
        [
            ("CHORUS__LLM__BASE_URL", self.base_url.clone()),
            ("CHORUS__LLM__MODEL", "fake-model".into()),
            ("CHORUS__LLM__API_KEY_ENV", "CHORUS_E2E_NO_SUCH_KEY".into()),
            ("CHORUS__LLM__TIMEOUT_MS", timeout_ms.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }
}

/// The prompt tokens every answer reports in its `usage`.
pub const PROMPT_TOKENS: u64 = 21;

/// The answer tokens every answer reports in its `usage`.
pub const COMPLETION_TOKENS: u64 = 8;

/// Reads one HTTP request and answers it as scripted.
async fn serve(
    mut conn: TcpStream,
    script: Arc<Mutex<Script>>,
    checks: Checks,
    log: Log,
    bodies: Bodies,
) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let (head_end, length) = loop {
        let Ok(n) = conn.read(&mut chunk).await else {
            return;
        };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            break (end + 4, length);
        }
    };
    while buf.len() < head_end + length {
        match conn.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    let body: Value = serde_json::from_slice(&buf[head_end..head_end + length]).unwrap_or_default();
    let instructions = body["messages"][0]["content"].as_str().unwrap_or_default();
    let kind = if body.get("response_format").is_some() {
        "plan"
    } else if instructions.contains("FINISHED or REITERATE") {
        "verify"
    } else {
        "report"
    };
    let stream = body["stream"] == true;
    log.lock().expect("lock").push((kind, stream));
    bodies.lock().expect("lock").push((kind, body.clone()));
    let reply = if kind == "verify" {
        let mut c = checks.lock().expect("lock");
        match c.len() {
            0 => Reply::Text("FINISHED".into()),
            1 => c[0].clone(),
            _ => c.remove(0),
        }
    } else {
        let s = script.lock().expect("lock");
        if kind == "plan" {
            s.plan.clone()
        } else {
            s.report.clone()
        }
    };
    let reply = match reply {
        Reply::Slow(wait, text) => {
            tokio::time::sleep(wait).await;
            Reply::Text(text)
        }
        other => other,
    };
    let _ = match reply {
        Reply::Status(code) => {
            let text =
                json!({"error": {"message": "the fake model is down", "type": "server_error"}});
            respond(&mut conn, code, "application/json", &text.to_string()).await
        }
        Reply::Text(text) if !stream => {
            let answer = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "model": "fake-model", "usage": {"prompt_tokens": PROMPT_TOKENS, "completion_tokens": COMPLETION_TOKENS}});
            respond(&mut conn, 200, "application/json", &answer.to_string()).await
        }
        Reply::Text(text) => stream_text(&mut conn, &text).await,
        Reply::Slow(..) => Ok(()),
    };
    let _ = conn.shutdown().await;
}

async fn respond(conn: &mut TcpStream, status: u16, kind: &str, body: &str) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status} X\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    conn.write_all(head.as_bytes()).await?;
    conn.write_all(body.as_bytes()).await?;
    conn.flush().await
}

/// The text as SSE chunks of a few characters each, written with pauses as a model
/// would, then `[DONE]`.
async fn stream_text(conn: &mut TcpStream, text: &str) -> std::io::Result<()> {
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n";
    conn.write_all(head.as_bytes()).await?;
    let chars: Vec<char> = text.chars().collect();
    for piece in chars.chunks(6) {
        let piece: String = piece.iter().collect();
        let chunk = json!({"choices": [{"index": 0, "delta": {"content": piece}}]});
        conn.write_all(format!("data: {chunk}\n\n").as_bytes())
            .await?;
        conn.flush().await?;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The token counts come last, as OpenAI sends them (`stream_options.include_usage`).
    let usage = json!({"choices": [], "model": "fake-model",
        "usage": {"prompt_tokens": PROMPT_TOKENS, "completion_tokens": COMPLETION_TOKENS}});
    conn.write_all(format!("data: {usage}\n\n").as_bytes())
        .await?;
    conn.write_all(b"data: [DONE]\n\n").await?;
    conn.flush().await
}
