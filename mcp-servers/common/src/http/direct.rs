//! The short way for a `tools/call` over stateless Streamable HTTP: the tool runs in
//! the request's own task and its result goes back as one JSON body, without rmcp's
//! per-request service (a peer, two channels and three spawned tasks per call, and a
//! second parse of the body). Measured in docs/performance.md ("Issue 31").
//!
//! Only a request rmcp would accept and answer the same way takes it: stateless mode,
//! a JSON body that is a `tools/call` request with no per-request protocol metadata and
//! no input responses, both media types accepted, an `MCP-Protocol-Version` header that
//! is absent or one of [`VERSIONS`], no `Origin` header, and a `Host` that the
//! allow-list names exactly. Anything else goes on to rmcp, which answers or refuses it
//! as before.

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientJsonRpcMessage, ClientRequest, GetMeta as _,
    RequestId, ServerJsonRpcMessage, ServerResult,
};

/// A tool server that answers `tools/call` without an rmcp session (every
/// [`crate::tool_server!`] server).
pub trait DirectCall: Send + Sync + 'static {
    /// Answers one `tools/call` as its `ServerHandler::call_tool` does; `traceparent`
    /// is the caller's (the request's `_meta`, else its HTTP header).
    fn call_directly(
        &self,
        params: &CallToolRequestParams,
        id: &RequestId,
        traceparent: Option<&str>,
    ) -> CallToolResult;
}

/// The protocol versions the short way answers (those before per-request metadata and
/// the standard `Mcp-Method`/`Mcp-Name` headers; rmcp checks anything newer).
pub const VERSIONS: [&str; 3] = ["2025-03-26", "2025-06-18", "2025-11-25"];

/// What the short way needs to know of the server's settings.
#[derive(Debug, Clone)]
pub(crate) struct Gate {
    /// False in legacy session mode: every request then goes to rmcp.
    pub(crate) stateless: bool,
    /// `None`: any `Host`; else the allow-list, trimmed.
    pub(crate) hosts: Option<Vec<String>>,
}

impl Gate {
    /// The `tools/call` of `message`, when this request may take the short way.
    pub(crate) fn admits<'m>(
        &self,
        parts: &Parts,
        message: &'m ClientJsonRpcMessage,
    ) -> Option<(&'m RequestId, &'m CallToolRequestParams)> {
        if !self.stateless || !self.headers_pass(&parts.headers) {
            return None;
        }
        let ClientJsonRpcMessage::Request(request) = message else {
            return None;
        };
        let ClientRequest::CallToolRequest(call) = &request.request else {
            return None;
        };
        let params = &call.params;
        // rmcp keeps a request's `_meta` beside its params (in its extensions).
        let per_request = request.request.get_meta().protocol_version().is_some()
            || params
                .meta
                .as_ref()
                .is_some_and(|meta| meta.protocol_version().is_some());
        if per_request || params.input_responses.is_some() || params.request_state.is_some() {
            return None;
        }
        Some((&request.id, params))
    }

    /// The caller's `traceparent` of an admitted call: its `_meta`'s, else the header's.
    pub(crate) fn traceparent<'m>(
        parts: &'m Parts,
        message: &'m ClientJsonRpcMessage,
    ) -> Option<&'m str> {
        let from_meta = match message {
            ClientJsonRpcMessage::Request(request) => request.request.get_meta().get_traceparent(),
            _ => None,
        };
        from_meta.or_else(|| {
            parts
                .headers
                .get("traceparent")
                .and_then(|v| v.to_str().ok())
        })
    }

    fn headers_pass(&self, headers: &HeaderMap) -> bool {
        let accepts = |what: &str| {
            headers
                .get_all(header::ACCEPT)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .any(|essence| {
                    let essence = essence.split(';').next().unwrap_or("").trim();
                    essence.eq_ignore_ascii_case(what)
                })
        };
        let version_known = match headers.get_all("mcp-protocol-version").iter().count() {
            0 => true,
            1 => headers
                .get("mcp-protocol-version")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| VERSIONS.contains(&v)),
            _ => false,
        };
        version_known
            && !headers.contains_key(header::ORIGIN)
            && accepts("application/json")
            && accepts("text/event-stream")
            && self.host_passes(headers)
    }

    fn host_passes(&self, headers: &HeaderMap) -> bool {
        let Some(hosts) = &self.hosts else {
            return true;
        };
        let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) else {
            return false;
        };
        let Ok(authority) = host.parse::<axum::http::uri::Authority>() else {
            return false;
        };
        let name = authority.host();
        hosts
            .iter()
            .any(|allowed| allowed.eq_ignore_ascii_case(name) || allowed == authority.as_str())
    }
}

/// The `200 application/json` response rmcp writes for `result` to a peer on one of
/// [`VERSIONS`] (which know no `resultType`).
pub(crate) fn reply(id: RequestId, result: CallToolResult) -> Response {
    let mut result = ServerResult::CallToolResult(result);
    result.strip_result_type_for_legacy_peer();
    match serde_json::to_vec(&ServerJsonRpcMessage::response(result, id)) {
        Ok(body) => Response::builder()
            .status(StatusCode::OK)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap_or_else(|_| internal_error()),
        Err(_) => internal_error(),
    }
}

fn internal_error() -> Response {
    let mut response = Response::new(Body::from("Internal Server Error: serialize json response"));
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;

    fn parts(headers: &[(&str, &str)]) -> Parts {
        let mut builder = Request::post("/mcp");
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(()).expect("request").into_parts().0
    }

    fn message(body: &str) -> ClientJsonRpcMessage {
        serde_json::from_str(body).expect("a JSON-RPC message")
    }

    const CALL: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"sum","arguments":{"a":1,"b":2}}}"#;
    const OK: [(&str, &str); 4] = [
        ("host", "127.0.0.1:7301"),
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2025-11-25"),
    ];

    fn loopback() -> Gate {
        Gate {
            stateless: true,
            hosts: Some(vec!["localhost".into(), "127.0.0.1".into()]),
        }
    }

    #[test]
    fn a_plain_tool_call_from_an_allowed_host_takes_the_short_way() {
        let call = message(CALL);
        let (id, params) = loopback().admits(&parts(&OK), &call).expect("admitted");
        assert_eq!(id, &RequestId::Number(7));
        assert_eq!(params.name, "sum");
    }

    #[test]
    fn anything_rmcp_must_judge_goes_on_to_rmcp() {
        let call = message(CALL);
        let with = |name: &str, value: &str| {
            let mut headers: Vec<(&str, &str)> =
                OK.iter().copied().filter(|(n, _)| *n != name).collect();
            if !value.is_empty() {
                headers.push((name, value));
            }
            loopback().admits(&parts(&headers), &call).is_some()
        };
        assert!(!with("host", "evil.example:7301"), "a host not on the list");
        assert!(!with("accept", "application/json"), "SSE not accepted");
        assert!(
            !with("mcp-protocol-version", "2026-07-28"),
            "a newer protocol"
        );
        assert!(
            !with("mcp-protocol-version", "1999-01-01"),
            "an unknown protocol"
        );
        assert!(
            with("mcp-protocol-version", ""),
            "no version header: the default"
        );
        let mut origin = OK.to_vec();
        origin.push(("origin", "http://127.0.0.1"));
        assert!(
            loopback().admits(&parts(&origin), &call).is_none(),
            "an Origin"
        );
        let stateful = Gate {
            stateless: false,
            hosts: None,
        };
        assert!(stateful.admits(&parts(&OK), &call).is_none(), "sessions");
        let list = message(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        assert!(
            loopback().admits(&parts(&OK), &list).is_none(),
            "not a call"
        );
        let any = Gate {
            stateless: true,
            hosts: None,
        };
        let other_host = [("host", "math-mcp:7301"), OK[1], OK[2], OK[3]];
        assert!(any.admits(&parts(&other_host), &call).is_some(), "any host");
    }

    #[test]
    fn the_callers_traceparent_comes_from_meta_else_the_header() {
        let tp = "00-22222222222222222222222222222222-2222222222222222-01";
        let with_meta = message(&format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"sum","_meta":{{"traceparent":"{tp}"}}}}}}"#
        ));
        let header = "00-11111111111111111111111111111111-1111111111111111-01";
        let mut headers = OK.to_vec();
        headers.push(("traceparent", header));
        let parts = parts(&headers);
        assert_eq!(Gate::traceparent(&parts, &with_meta), Some(tp));
        assert_eq!(Gate::traceparent(&parts, &message(CALL)), Some(header));
        let per_request = message(
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"sum","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
        );
        assert!(
            loopback().admits(&parts, &per_request).is_none(),
            "per-request protocol metadata is rmcp's to judge"
        );
    }

    #[tokio::test]
    async fn the_reply_is_a_json_rpc_response_without_result_type() {
        use http_body_util::BodyExt;
        let result = CallToolResult::success(vec![rmcp::model::ContentBlock::text("3")]);
        let response = reply(RequestId::Number(7), result);
        assert_eq!(response.status(), StatusCode::OK);
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let json: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(json["jsonrpc"], "2.0");
        assert_eq!(json["id"], 7);
        assert_eq!(json["result"]["content"][0]["text"], "3");
        assert!(json["result"].get("resultType").is_none(), "{json}");
    }
}
