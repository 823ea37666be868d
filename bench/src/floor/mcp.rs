//! The MCP hop with no work on either side: a server that reads a `tools/call` POST and
//! answers it with the real math server's answer to `sum(2, 4)`, kept as a constant, and
//! the client side the pool agent's short way uses (one POST on a pooled keep-alive
//! connection with `TCP_NODELAY`, the same headers, the body read whole, not parsed).

use std::sync::atomic::{AtomicI64, Ordering};

use axum::Router;
use axum::body::Bytes;
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::routing::post;

use super::super::BenchError;

/// What the math server answers to `sum(2, 4)` over Streamable HTTP (JSON response), as
/// one captured from `chorus-mcp-math`.
pub const ANSWER: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"6"}],"structuredContent":{"result":"6"},"isError":false}}"#;

/// Serves `POST /mcp` on `127.0.0.1:port` until the process ends.
pub async fn serve(port: u16) -> Result<(), BenchError> {
    let app = Router::new().route(
        "/mcp",
        post(|body: Bytes| async move {
            drop(body);
            ([(CONTENT_TYPE, "application/json")], ANSWER)
        }),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| BenchError::Spawn {
            what: format!("the MCP floor server on port {port}"),
            reason: e.to_string(),
        })?;
    axum::serve(listener, app)
        .await
        .map_err(|e| BenchError::Spawn {
            what: "the MCP floor server".into(),
            reason: e.to_string(),
        })
}

/// The pool agent's side of the hop: POSTs a `tools/call` and reads the answer.
pub struct Poster {
    http: reqwest::Client,
    url: String,
    params: serde_json::Value,
    next_id: AtomicI64,
}

impl Poster {
    /// A client for `url` calling the tool `params` names (`{"name", "arguments"}`), with
    /// the pool agent's HTTP settings.
    pub fn new(url: &str, params: serde_json::Value) -> Result<Poster, BenchError> {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(32)
            .tcp_nodelay(true)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| BenchError::Spawn {
                what: "the HTTP client".into(),
                reason: e.to_string(),
            })?;
        Ok(Poster {
            http,
            url: url.to_owned(),
            params,
            next_id: AtomicI64::new(1),
        })
    }

    /// One call: the answer's length in bytes.
    pub async fn call(&self) -> Result<usize, String> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "tools/call",
            "params": &self.params,
        });
        let response = self
            .http
            .post(&self.url)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let bytes = response.bytes().await.map_err(|e| e.to_string())?;
        Ok(bytes.len())
    }
}
