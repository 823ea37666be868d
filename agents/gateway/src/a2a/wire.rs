//! The A2A 1.x wire types and what Chorus reads out of them. The types are the official
//! A2A Rust SDK's protocol crate (`a2a-lf`, imported as `a2a`): ProtoJSON as the
//! specification and the Python SDK put it on the wire — camelCase fields, enum values
//! as their proto names (`TASK_STATE_COMPLETED`, `ROLE_USER`), a part is one of `text`,
//! `raw`, `url` or `data` (plus `mediaType`), a stream event is a `StreamResponse`
//! holding one of `task`, `message`, `statusUpdate`, `artifactUpdate`. This file adds
//! the few builders the server needs and reads a client's message into a Chorus
//! request.

use std::collections::HashMap;

pub(crate) use a2a::{
    Artifact, CancelTaskRequest, GetTaskRequest, JsonRpcError, JsonRpcId, JsonRpcResponse, Message,
    Part, PartContent, Role, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use chorus_bus::{TaskContext, TaskId};
use chrono::{DateTime, Utc};
use serde_json::Value;

use super::errors::RpcError;

/// The protocol version this server speaks (`A2A-Version`, the card's interfaces).
pub(crate) const PROTOCOL_VERSION: &str = "1.0";

/// The media type of the report's text.
pub(crate) const TEXT: &str = "text/plain";

/// The media type of the report's data part (the Chorus `final_report`).
pub(crate) const JSON: &str = "application/json";

/// The key of `SendMessageRequest.metadata` that may carry the Chorus request context
/// (`now`, `timezone`, `language`, `day_first`).
pub(crate) const CONTEXT_KEY: &str = "context";

/// A JSON-RPC success response holding `result`, its fields in the order they are
/// declared (the SDK's `JsonRpcResponse` holds a `Value`, which sorts them).
#[derive(Debug, serde::Serialize)]
pub(crate) struct Success<'a, T: serde::Serialize> {
    /// Always `2.0`.
    pub(crate) jsonrpc: &'static str,
    /// The call's id.
    pub(crate) id: &'a JsonRpcId,
    /// The method's result.
    pub(crate) result: T,
}

impl<'a, T: serde::Serialize> Success<'a, T> {
    /// The response to call `id`.
    pub(crate) fn new(id: &'a JsonRpcId, result: T) -> Self {
        Success {
            jsonrpc: "2.0",
            id,
            result,
        }
    }
}

/// An agent's message in task `task` of context `context`, with a stable id.
pub(crate) fn agent_message(id: String, task: &TaskId, context: &str, parts: Vec<Part>) -> Message {
    Message {
        message_id: id,
        context_id: Some(context.to_owned()).filter(|c| !c.is_empty()),
        task_id: Some(task.to_string()),
        role: Role::Agent,
        parts,
        metadata: None,
        extensions: None,
        reference_task_ids: None,
    }
}

/// The user's message that opened task `task`, rebuilt from its query.
pub(crate) fn user_message(task: &TaskId, context: &str, query: &str) -> Message {
    Message {
        role: Role::User,
        ..agent_message(format!("{task}:request"), task, context, vec![text(query)])
    }
}

/// A text part.
pub(crate) fn text(text: &str) -> Part {
    Part::text(text)
}

/// A JSON data part.
pub(crate) fn data(value: Value) -> Part {
    Part::data(value).with_media_type(JSON)
}

/// A status with its time.
pub(crate) fn status(state: TaskState, message: Option<Message>, at: DateTime<Utc>) -> TaskStatus {
    TaskStatus {
        state,
        message,
        timestamp: Some(at),
    }
}

/// Now, to the millisecond (the precision the specification asks for).
pub(crate) fn now() -> DateTime<Utc> {
    at_micros(chorus_bus::now_ms().saturating_mul(1000))
}

/// A bus timestamp (µs since the epoch) as a wire timestamp, to the millisecond.
pub(crate) fn at_micros(us: u64) -> DateTime<Utc> {
    let ms = i64::try_from(us / 1000).unwrap_or(i64::MAX);
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

/// What a client's message asks of Chorus.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Input {
    /// The text parts, trimmed and joined by new lines.
    pub(crate) text: String,
    /// The request context from the request's metadata (`metadata.context`).
    pub(crate) context: TaskContext,
    /// Whether the report's JSON data part goes out (the client accepts JSON).
    pub(crate) with_data: bool,
}

/// Reads `request`: a user's message of text parts (any `text/*` media type), the
/// optional Chorus context in `metadata.context`, the accepted output modes.
pub(crate) fn read_input(request: &SendMessageRequest) -> Result<Input, RpcError> {
    let message = &request.message;
    if message.role != Role::User {
        return Err(RpcError::InvalidParams(
            "message.role must be ROLE_USER".to_owned(),
        ));
    }
    if message.parts.is_empty() {
        return Err(RpcError::InvalidParams(
            "message.parts: at least one part is required".to_owned(),
        ));
    }
    let mut texts = Vec::new();
    for part in &message.parts {
        let media = part.media_type.as_deref().unwrap_or(TEXT);
        match &part.content {
            PartContent::Text(t) if media.starts_with("text/") => texts.push(t.trim()),
            other => {
                let kind = match other {
                    PartContent::Text(_) => "text",
                    PartContent::Raw(_) => "raw",
                    PartContent::Url(_) => "url",
                    PartContent::Data(_) => "data",
                };
                return Err(RpcError::ContentType(format!(
                    "a {kind} part of type {media} cannot be read; Chorus reads text parts"
                )));
            }
        }
    }
    let text = texts
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    Ok(Input {
        text,
        context: context_of(request.metadata.as_ref())?,
        with_data: accepts_data(request)?,
    })
}

/// The Chorus context in `metadata.context`; its conversation is the contextId.
fn context_of(metadata: Option<&HashMap<String, Value>>) -> Result<TaskContext, RpcError> {
    let Some(value) = metadata.and_then(|m| m.get(CONTEXT_KEY)) else {
        return Ok(TaskContext::default());
    };
    let context: TaskContext = serde_json::from_value(value.clone())
        .map_err(|e| RpcError::InvalidParams(format!("metadata.context: {e}")))?;
    if context.session_id.is_some() {
        return Err(RpcError::InvalidParams(
            "metadata.context.session_id: the conversation is the message's contextId".into(),
        ));
    }
    Ok(context)
}

/// Whether the JSON data part may go out: the client's `acceptedOutputModes`, when it
/// names any, must include text (the report's text always goes out) and may include
/// JSON.
fn accepts_data(request: &SendMessageRequest) -> Result<bool, RpcError> {
    let modes = request
        .configuration
        .as_ref()
        .and_then(|c| c.accepted_output_modes.as_deref())
        .unwrap_or_default();
    if modes.is_empty() {
        return Ok(true);
    }
    let any = |wanted: &[&str]| modes.iter().any(|m| wanted.contains(&m.trim()));
    if !any(&[TEXT, "text/*", "*/*", "text/markdown"]) {
        return Err(RpcError::ContentType(format!(
            "the report is text ({TEXT}); acceptedOutputModes {modes:?} exclude it"
        )));
    }
    Ok(any(&[JSON, "application/*", "*/*"]))
}

/// Keeps the last `length` messages of `history` (`None`: all; 0: none, and the field
/// is left out), as the specification's history length semantics say.
pub(crate) fn cut_history(task: &mut Task, length: Option<i32>) -> Result<(), RpcError> {
    let Some(length) = length else {
        return Ok(());
    };
    let keep = usize::try_from(length)
        .map_err(|_| RpcError::InvalidParams(format!("historyLength {length} is negative")))?;
    if keep == 0 {
        task.history = None;
    } else if let Some(history) = task.history.as_mut() {
        let drop = history.len().saturating_sub(keep);
        history.drain(..drop);
    }
    Ok(())
}
