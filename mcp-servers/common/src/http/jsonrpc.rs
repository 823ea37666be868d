//! A POST to the MCP endpoint whose JSON body is no JSON-RPC message gets a JSON-RPC
//! error, not rmcp's `415` text: `-32700` (parse error) for a body that is not JSON,
//! `-32600` (invalid request) for JSON that is no JSON-RPC 2.0 message (a number, an
//! array, an object without `jsonrpc` and `method`…), `-32602` (invalid params) for a
//! request naming a known method with params it cannot take. Each is HTTP 400 with the
//! request's id when it could be read, else `null` (MCP: "the HTTP response body MAY
//! comprise a JSON-RPC error response that has no id"). A body of another content type
//! is left to rmcp (415), as is every message rmcp can read.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientJsonRpcMessage, RequestId};
use serde_json::{Value, json};

/// JSON-RPC 2.0: the body is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC 2.0: the JSON is not a request object.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC 2.0: the method cannot take these params.
pub const INVALID_PARAMS: i64 = -32602;

/// A JSON-RPC error response with id `null`, with HTTP `status`.
pub(crate) fn error_response(status: StatusCode, code: i64, message: &str) -> Response {
    with_id(status, Value::Null, code, message)
}

fn with_id(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    (status, Json(body)).into_response()
}

/// What is wrong with a JSON body rmcp cannot read: the error code, the id when it
/// could be read, and a message.
#[cfg(test)]
pub(crate) fn classify(body: &[u8]) -> Option<(i64, Value, String)> {
    read(body).err()
}

/// The body's JSON-RPC message, or what is wrong with it: the error code, the id when
/// it could be read, and a message.
fn read(body: &[u8]) -> Result<ClientJsonRpcMessage, (i64, Value, String)> {
    match serde_json::from_slice::<ClientJsonRpcMessage>(body) {
        Ok(message) => Ok(message),
        Err(_) => Err(why_unreadable(body)),
    }
}

fn why_unreadable(body: &[u8]) -> (i64, Value, String) {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(e) => return (PARSE_ERROR, Value::Null, format!("Parse error: {e}")),
    };
    let invalid = |id: Value, why: &str| (INVALID_REQUEST, id, format!("Invalid Request: {why}"));
    let Value::Object(object) = value else {
        return invalid(
            Value::Null,
            "a JSON-RPC message is a JSON object (batches are not supported)",
        );
    };
    let id = match object.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(id, "jsonrpc must be \"2.0\"");
    }
    match object.get("method") {
        Some(Value::String(method)) if !id.is_null() => {
            (INVALID_PARAMS, id, format!("Invalid params for {method}"))
        }
        Some(Value::String(_)) => invalid(id, "a request needs an id that is a string or a number"),
        _ => invalid(id, "no method, result or error that this server reads"),
    }
}

/// The short way for `tools/call` (`super::direct`): who may take it, and the call.
#[derive(Clone)]
pub(crate) struct Direct {
    /// Which requests may take it.
    pub(crate) gate: super::direct::Gate,
    /// Runs one call on a handler of the server's factory.
    pub(crate) call: Arc<DirectFn>,
}

/// A tool call answered in the request's task: params, request id, `traceparent` header.
pub(crate) type DirectFn =
    dyn Fn(&CallToolRequestParams, &RequestId, Option<&str>) -> CallToolResult + Send + Sync;

/// The middleware: answers a POST's unreadable JSON body with its JSON-RPC error, and a
/// `tools/call` the gate admits on the short way; everything else goes on to rmcp.
pub(crate) async fn check(State(direct): State<Direct>, request: Request, next: Next) -> Response {
    let is_json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
    if request.method() != Method::POST || !is_json {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    // The body was read in full by `body::read_within`: this collects it at once.
    let bytes: Bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => return error_response(StatusCode::BAD_REQUEST, INVALID_REQUEST, &e.to_string()),
    };
    let message = match read(&bytes) {
        Ok(message) => message,
        Err((code, id, message)) => return with_id(StatusCode::BAD_REQUEST, id, code, &message),
    };
    if let Some((id, params)) = direct.gate.admits(&parts, &message) {
        let traceparent = super::direct::Gate::traceparent(&parts, &message);
        let result = (direct.call)(params, id, traceparent);
        return super::direct::reply(id.clone(), result);
    }
    next.run(Request::from_parts(parts, bytes.into())).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(body: &str) -> Option<(i64, Value)> {
        classify(body.as_bytes()).map(|(code, id, _)| (code, id))
    }

    #[test]
    fn each_kind_of_bad_body_has_its_code_and_id() {
        assert_eq!(
            code("{\"jsonrpc\": \"2.0\", "),
            Some((PARSE_ERROR, Value::Null))
        );
        assert_eq!(code("not json"), Some((PARSE_ERROR, Value::Null)));
        assert_eq!(code("42"), Some((INVALID_REQUEST, Value::Null)));
        assert_eq!(code("[]"), Some((INVALID_REQUEST, Value::Null)));
        assert_eq!(
            code(r#"{"jsonrpc": "1.0", "id": 3, "method": "tools/list"}"#),
            Some((INVALID_REQUEST, json!(3)))
        );
        assert_eq!(
            code(r#"{"jsonrpc": "2.0", "id": "a"}"#),
            Some((INVALID_REQUEST, json!("a")))
        );
        assert_eq!(
            code(r#"{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": "x"}"#),
            Some((INVALID_PARAMS, json!(9)))
        );
    }

    #[test]
    fn messages_rmcp_reads_pass() {
        assert_eq!(
            code(r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#),
            None
        );
        assert_eq!(
            code(r#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#),
            None
        );
        assert_eq!(
            code(r#"{"jsonrpc": "2.0", "id": 2, "method": "no/such"}"#),
            None
        );
    }
}
