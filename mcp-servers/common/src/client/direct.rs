//! `tools/call` over Streamable HTTP as one POST on a kept-alive connection, without
//! rmcp's session loop (the caller's task hands the request to the session's task,
//! which hands it to the transport's worker, and the answer comes back the same way:
//! four task hand-offs per call). Measured in docs/performance.md ("Issue 31").
//!
//! Stateless servers (Chorus's own, and any that gave no `Mcp-Session-Id`) take any
//! request on its own, so the call is the JSON-RPC request and its answer, in a JSON
//! body or an SSE stream. A server that wants its session refuses a request without
//! one (HTTP 4xx with no JSON-RPC answer to it) before running anything: the call then
//! goes through rmcp's session, and so do the later calls of this session.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderValue};
use rmcp::model::{CallToolRequestParams, CallToolResult, ServerJsonRpcMessage, ServerResult};
use serde::Serialize;

use super::McpError;

/// One session's short way to call tools.
#[derive(Debug)]
pub(crate) struct DirectHttp {
    http: reqwest::Client,
    url: String,
    token: Option<String>,
    protocol: HeaderValue,
    next_id: AtomicI64,
    /// False once the server refused a request without its session.
    open: AtomicBool,
    /// Calls in flight at once, as rmcp's session allows (more wait here): so many
    /// connections at most, each kept for the next call.
    in_flight: tokio::sync::Semaphore,
}

/// The JSON-RPC request of one call.
#[derive(Serialize)]
struct Call<'a> {
    jsonrpc: &'static str,
    id: i64,
    method: &'static str,
    params: &'a CallToolRequestParams,
}

impl DirectHttp {
    /// The short way to `url` with `http`, for a session that negotiated `protocol`,
    /// with at most `in_flight` calls at once.
    pub(crate) fn new(
        http: reqwest::Client,
        url: String,
        token: Option<String>,
        protocol: &str,
        in_flight: usize,
    ) -> Option<Self> {
        Some(DirectHttp {
            http,
            url,
            token,
            protocol: HeaderValue::from_str(protocol).ok()?,
            next_id: AtomicI64::new(1),
            open: AtomicBool::new(true),
            in_flight: tokio::sync::Semaphore::new(in_flight.max(1)),
        })
    }

    /// Whether calls may still take the short way.
    pub(crate) fn is_open(&self) -> bool {
        self.open.load(Ordering::Relaxed)
    }

    /// Calls the tool: `Ok(None)` when the server refused the call without its session
    /// (nothing ran; use the session).
    pub(crate) async fn call(
        &self,
        params: &CallToolRequestParams,
        traceparent: Option<&str>,
    ) -> Result<Option<CallToolResult>, McpError> {
        let _turn = self
            .in_flight
            .acquire()
            .await
            .map_err(|e| McpError::Unreachable {
                endpoint: self.url.clone(),
                reason: e.to_string(),
            })?;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let body = serde_json::to_vec(&Call {
            jsonrpc: "2.0",
            id,
            method: "tools/call",
            params,
        })
        .map_err(|e| self.protocol_error(None, format!("encoding the call: {e}")))?;
        let mut request = self
            .http
            .post(&self.url)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .header("mcp-protocol-version", self.protocol.clone())
            .body(body);
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        if let Some(traceparent) = traceparent {
            request = request.header("traceparent", traceparent);
        }
        let response = request.send().await.map_err(|e| self.unreachable(&e))?;
        let status = response.status();
        let is_sse = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("text/event-stream"));
        let bytes = response.bytes().await.map_err(|e| self.unreachable(&e))?;
        if status.is_server_error() {
            return Err(McpError::Unreachable {
                endpoint: self.url.clone(),
                reason: format!("HTTP {status}"),
            });
        }
        let answer = if is_sse {
            sse_messages(&bytes).find_map(|m| answer_to(id, m))
        } else {
            serde_json::from_slice::<ServerJsonRpcMessage>(&bytes)
                .ok()
                .and_then(|m| answer_to(id, m))
        };
        match answer {
            Some(Ok(result)) => Ok(Some(result)),
            Some(Err(error)) => Err(error.into_error(&self.url)),
            None if status.is_client_error() => {
                // Refused before running: the server wants its session.
                self.open.store(false, Ordering::Relaxed);
                Ok(None)
            }
            None => {
                Err(self.protocol_error(None, format!("no answer to the call (HTTP {status})")))
            }
        }
    }

    fn unreachable(&self, e: &reqwest::Error) -> McpError {
        McpError::Unreachable {
            endpoint: self.url.clone(),
            reason: e.to_string(),
        }
    }

    fn protocol_error(&self, code: Option<i32>, message: String) -> McpError {
        McpError::Protocol {
            endpoint: self.url.clone(),
            code,
            message,
        }
    }
}

/// A JSON-RPC error answering the call.
#[derive(Debug, PartialEq)]
struct Refusal {
    code: i32,
    message: String,
}

impl Refusal {
    fn into_error(self, endpoint: &str) -> McpError {
        McpError::Protocol {
            endpoint: endpoint.to_owned(),
            code: Some(self.code),
            message: self.message,
        }
    }
}

/// The answer `message` gives to request `id`, if it is one.
fn answer_to(id: i64, message: ServerJsonRpcMessage) -> Option<Result<CallToolResult, Refusal>> {
    let ours = |other: &rmcp::model::RequestId| *other == rmcp::model::RequestId::Number(id);
    match message {
        ServerJsonRpcMessage::Response(response) if ours(&response.id) => match response.result {
            ServerResult::CallToolResult(result) => Some(Ok(result)),
            other => Some(Err(Refusal {
                code: rmcp::model::ErrorCode::INTERNAL_ERROR.0,
                message: format!("unexpected answer to tools/call: {other:?}"),
            })),
        },
        ServerJsonRpcMessage::Error(error) if error.id.as_ref().is_none_or(ours) => {
            Some(Err(Refusal {
                code: error.error.code.0,
                message: error.error.message.to_string(),
            }))
        }
        _ => None,
    }
}

/// The JSON-RPC messages of an SSE body: each event's `data` lines, joined.
fn sse_messages(body: &[u8]) -> impl Iterator<Item = ServerJsonRpcMessage> + '_ {
    let text = String::from_utf8_lossy(body).replace("\r\n", "\n");
    let events: Vec<String> = text
        .split("\n\n")
        .map(|event| {
            event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|data| data.strip_prefix(' ').unwrap_or(data))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .filter(|data| !data.is_empty())
        .collect();
    events
        .into_iter()
        .filter_map(|data| serde_json::from_str(&data).ok())
}

/// The protocol version a session negotiated, when the short way speaks it: one of
/// [`crate::http::DIRECT_VERSIONS`], whose requests carry no per-request metadata.
pub(crate) fn negotiated(info: Option<Arc<rmcp::model::ServerPeerInfo>>) -> Option<String> {
    let version = info?.protocol_version.to_string();
    crate::http::DIRECT_VERSIONS
        .contains(&version.as_str())
        .then_some(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_to_our_id_is_found_in_json_and_in_sse() {
        let ok = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"6"}],"isError":false}}"#;
        let message: ServerJsonRpcMessage = serde_json::from_str(ok).expect("json");
        let result = answer_to(3, message).expect("ours").expect("ok");
        assert_eq!(
            result.content[0].as_text().map(|t| t.text.as_str()),
            Some("6")
        );
        let message: ServerJsonRpcMessage = serde_json::from_str(ok).expect("json");
        assert!(answer_to(4, message).is_none(), "another id");

        let sse = format!(
            "event: message\ndata: {}\n\nevent: message\r\ndata: {ok}\r\n\r\n",
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#
        );
        let found = sse_messages(sse.as_bytes()).find_map(|m| answer_to(3, m));
        assert!(matches!(found, Some(Ok(_))));
    }

    #[test]
    fn a_json_rpc_error_is_a_refusal_with_its_code() {
        let error =
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid params"}}"#;
        let message: ServerJsonRpcMessage = serde_json::from_str(error).expect("json");
        assert_eq!(
            answer_to(5, message),
            Some(Err(Refusal {
                code: -32602,
                message: "Invalid params".into()
            }))
        );
    }
}
