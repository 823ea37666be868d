//! The JSON-RPC 2.0 endpoint (`POST /a2a`, the card's `JSONRPC` interface): reads the
//! envelope, checks the protocol version, and dispatches the A2A 1.x methods by name.
//! Every answer is HTTP 200: a JSON-RPC response, or for the streaming methods
//! (`SendStreamingMessage`, `SubscribeToTask`) a Server-Sent Events stream.
//!
//! Checks, in the order of the Python SDK's server: the body must be JSON (-32700), one
//! request object (a batch is refused) with `"jsonrpc": "2.0"`, an id that is a string,
//! an integer or null (absent: null), and a method name (-32600); the method must be
//! an A2A 1.x one (-32601; the 0.3 names such as `message/send` are not); its params
//! must be an object that reads as the method's request (-32602); and the caller must
//! speak 1.x: the `A2A-Version` header (or the `A2A-Version` query parameter) must have
//! major version 1 — absent, it means 0.3, which is not supported (-32009).
//!
//! A notification (a valid request object without an `id` member; `"id": null` is a
//! request) gets no JSON-RPC response, as JSON-RPC 2.0 requires: HTTP 204 with an empty
//! body. A2A defines no notifications, so only the methods that change something are
//! run — `SendMessage` and `SendStreamingMessage` take the message as with
//! `returnImmediately` (nothing streamed), `CancelTask` cancels — and any error is only
//! logged; the reading methods do nothing. A body that is not a valid request is still
//! answered (-32700, -32600), since its id could not be known.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::errors::RpcError;
use super::methods;
use super::sse::{self, Until};
use super::wire::{JsonRpcId, JsonRpcResponse, SendMessageResponse, Success};
use crate::api::ApiState;

/// The service parameter (header or query parameter) naming the protocol version.
pub(crate) const VERSION_HEADER: &str = "A2A-Version";

/// The A2A 1.x methods by their JSON-RPC names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    SendMessage,
    SendStreamingMessage,
    GetTask,
    ListTasks,
    CancelTask,
    SubscribeToTask,
    PushConfig,
    GetExtendedAgentCard,
}

impl Method {
    fn parse(name: &str) -> Option<Method> {
        Some(match name {
            "SendMessage" => Method::SendMessage,
            "SendStreamingMessage" => Method::SendStreamingMessage,
            "GetTask" => Method::GetTask,
            "ListTasks" => Method::ListTasks,
            "CancelTask" => Method::CancelTask,
            "SubscribeToTask" => Method::SubscribeToTask,
            "CreateTaskPushNotificationConfig"
            | "GetTaskPushNotificationConfig"
            | "ListTaskPushNotificationConfigs"
            | "DeleteTaskPushNotificationConfig" => Method::PushConfig,
            "GetExtendedAgentCard" => Method::GetExtendedAgentCard,
            _ => return None,
        })
    }
}

/// One call: its method and params.
struct Call {
    method: String,
    params: Value,
    /// No `id` member: a notification, answered with nothing.
    notification: bool,
}

/// `POST /a2a`.
pub(crate) async fn handle(
    State(api): State<ApiState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let (id, call) = match envelope(body) {
        Ok(read) => read,
        Err((id, e)) => return error(id, &e),
    };
    if call.notification {
        notify(&api, &headers, query.as_deref(), call).await;
        return StatusCode::NO_CONTENT.into_response();
    }
    match dispatch(&api, &headers, query.as_deref(), &id, call).await {
        Ok(response) => response,
        Err(e) => error(id, &e),
    }
}

/// A JSON-RPC error response.
fn error(id: JsonRpcId, e: &RpcError) -> Response {
    if matches!(e, RpcError::Internal(_)) {
        tracing::warn!(error = %e, "A2A call failed");
    }
    Json(JsonRpcResponse::error(id, e.to_jsonrpc())).into_response()
}

/// Reads the envelope; a refusal comes with the id when it could be read.
fn envelope(
    body: Result<Bytes, BytesRejection>,
) -> Result<(JsonRpcId, Call), (JsonRpcId, RpcError)> {
    let fail = |e| Err((JsonRpcId::Null, e));
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return fail(RpcError::InvalidRequest(rejection.body_text())),
    };
    let value: Value = match serde_json::from_slice(&body) {
        Ok(value) => value,
        Err(e) => return fail(RpcError::Parse(e.to_string())),
    };
    let mut object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return fail(RpcError::InvalidRequest(
                "batch requests are not supported".into(),
            ));
        }
        _ => {
            return fail(RpcError::InvalidRequest(
                "a request is a JSON object".into(),
            ));
        }
    };
    let notification = !object.contains_key("id");
    let id = match object.remove("id") {
        None | Some(Value::Null) => JsonRpcId::Null,
        Some(Value::String(s)) => JsonRpcId::String(s),
        Some(Value::Number(n)) if n.is_i64() => JsonRpcId::Number(n.as_i64().unwrap_or_default()),
        Some(_) => {
            return fail(RpcError::InvalidRequest(
                "id must be a string, an integer or null".into(),
            ));
        }
    };
    let invalid = |why: &str| Err((id.clone(), RpcError::InvalidRequest(why.to_owned())));
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("jsonrpc must be \"2.0\"");
    }
    let method = match object.remove("method") {
        Some(Value::String(m)) if !m.is_empty() => m,
        _ => return invalid("method is required (a string)"),
    };
    let params = match object.remove("params") {
        None | Some(Value::Null) => Value::Object(Default::default()),
        Some(params @ Value::Object(_)) => params,
        Some(_) => {
            return Err((
                id,
                RpcError::InvalidParams("params must be an object".into()),
            ));
        }
    };
    let call = Call {
        method,
        params,
        notification,
    };
    Ok((id, call))
}

/// Runs a notification's method when it changes something; errors are only logged.
async fn notify(api: &ApiState, headers: &HeaderMap, query: Option<&str>, call: Call) {
    let outcome = match version(headers, query).map(|()| Method::parse(&call.method)) {
        Err(e) => Err(e),
        Ok(Some(Method::SendMessage | Method::SendStreamingMessage)) => {
            match read::<super::wire::SendMessageRequest>(call.params) {
                Ok(request) => methods::start(api, request).await.map(drop),
                Err(e) => Err(e),
            }
        }
        Ok(Some(Method::CancelTask)) => match read(call.params) {
            Ok(request) => methods::cancel(api, request).await.map(drop),
            Err(e) => Err(e),
        },
        _ => Ok(()),
    };
    match outcome {
        Ok(()) => tracing::debug!(method = %call.method, "A2A notification taken"),
        Err(e) => tracing::debug!(method = %call.method, error = %e, "A2A notification failed"),
    }
}

/// Runs one call.
async fn dispatch(
    api: &ApiState,
    headers: &HeaderMap,
    query: Option<&str>,
    id: &JsonRpcId,
    call: Call,
) -> Result<Response, RpcError> {
    let method = Method::parse(&call.method).ok_or(RpcError::MethodNotFound(call.method))?;
    let params = call.params;
    match method {
        Method::SendMessage => {
            let request = read(params)?;
            version(headers, query)?;
            let task = methods::send(api, request).await?;
            Ok(reply(id, SendMessageResponse::Task(task)))
        }
        Method::SendStreamingMessage => {
            let request = read(params)?;
            version(headers, query)?;
            let started = methods::start(api, request).await?;
            Ok(sse::stream(id.clone(), started, Until::Interrupted).into_response())
        }
        Method::GetTask => {
            let request = read(params)?;
            version(headers, query)?;
            Ok(reply(id, methods::get(api, request).await?))
        }
        Method::CancelTask => {
            let request = read(params)?;
            version(headers, query)?;
            Ok(reply(id, methods::cancel(api, request).await?))
        }
        Method::SubscribeToTask => {
            let request = read(params)?;
            version(headers, query)?;
            let started = methods::subscribe(api, request).await?;
            Ok(sse::stream(id.clone(), started, Until::Terminal).into_response())
        }
        Method::ListTasks => {
            version(headers, query)?;
            Err(RpcError::Unsupported(
                "ListTasks: Chorus keeps no task index; GetTask reads a task by its id".into(),
            ))
        }
        Method::PushConfig => {
            version(headers, query)?;
            Err(RpcError::PushNotSupported)
        }
        Method::GetExtendedAgentCard => {
            version(headers, query)?;
            Err(RpcError::Unsupported(
                "there is no extended agent card (capabilities.extendedAgentCard is false)".into(),
            ))
        }
    }
}

/// The method's request, from its params.
fn read<T: DeserializeOwned>(params: Value) -> Result<T, RpcError> {
    serde_json::from_value(params).map_err(|e| RpcError::InvalidParams(e.to_string()))
}

/// The JSON-RPC response to call `id` with `result`.
fn reply(id: &JsonRpcId, result: impl serde::Serialize) -> Response {
    Json(Success::new(id, result)).into_response()
}

/// Checks the caller speaks A2A 1.x (`A2A-Version`: header, else query parameter;
/// absent or empty is 0.3).
fn version(headers: &HeaderMap, query: Option<&str>) -> Result<(), RpcError> {
    let from_query = || {
        query?.split('&').find_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            name.eq_ignore_ascii_case(VERSION_HEADER)
                .then(|| value.to_owned())
        })
    };
    let asked = headers
        .get(VERSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_owned())
        .or_else(from_query)
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "0.3".to_owned());
    let mut parts = asked.split('.');
    let major = parts.next().and_then(|m| m.parse::<u32>().ok());
    let rest_numeric = parts.all(|p| p.parse::<u32>().is_ok());
    if major == Some(1) && rest_numeric {
        Ok(())
    } else {
        Err(RpcError::Version(asked))
    }
}
