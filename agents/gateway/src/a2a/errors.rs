//! The A2A server's errors, each with its JSON-RPC code (A2A 1.x, section 5.4), and the
//! one place where Chorus's refusals — the one way in's, for requests, answers and
//! cancellations — become A2A errors. On the wire an error is a JSON-RPC error object
//! whose `data` is a list of typed details ending with a `google.rpc.ErrorInfo` (reason
//! such as `TASK_NOT_FOUND`, domain `a2a-protocol.org`, metadata with the task id and
//! Chorus's own code when there is one), as the specification and the Python SDK do.

use std::collections::HashMap;

use a2a::errordetails::{PROTOCOL_DOMAIN, TypedDetail};
use a2a::{A2AError, error_code, error_reason};
use chorus_bus::{BusError, TaskId};
use chorus_core::door::{AnswerError, CancelError, SubmitError};

use super::wire::JsonRpcError;

/// Why a JSON-RPC call failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RpcError {
    /// The body is not JSON (-32700).
    #[error("invalid JSON payload: {0}")]
    Parse(String),
    /// The body is JSON but not a JSON-RPC 2.0 request (-32600).
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// No such method (-32601).
    #[error("method not found: {0:?}")]
    MethodNotFound(String),
    /// The method's params are not what it takes (-32602).
    #[error("invalid params: {0}")]
    InvalidParams(String),
    /// The bus or the store failed; the call may be retried (-32603).
    #[error("internal error: {0}")]
    Internal(String),
    /// No such task, or it expired (-32001).
    #[error("task not found: {task_id}")]
    TaskNotFound {
        /// The id asked for.
        task_id: String,
    },
    /// The task's report is out: it finished, or was canceled already (-32002).
    #[error("not cancelable: {why}")]
    TaskNotCancelable {
        /// The task.
        task_id: TaskId,
        /// Chorus's code (`finished`, `already_canceled`).
        code: &'static str,
        /// Why, in words.
        why: String,
    },
    /// Push notifications are not offered (-32003).
    #[error("push notifications are not supported")]
    PushNotSupported,
    /// The operation, or this use of it, is not supported (-32004).
    #[error("unsupported operation: {0}")]
    Unsupported(String),
    /// A part's media type cannot be read, or the accepted output excludes text (-32005).
    #[error("content type not supported: {0}")]
    ContentType(String),
    /// The `A2A-Version` asked for is not 1.x (-32009).
    #[error(
        "A2A version {0:?} is not supported; this agent speaks {v} (send the header A2A-Version: {v})",
        v = super::wire::PROTOCOL_VERSION
    )]
    Version(String),
}

impl RpcError {
    /// The JSON-RPC error code.
    pub(crate) fn code(&self) -> i32 {
        match self {
            RpcError::Parse(_) => error_code::PARSE_ERROR,
            RpcError::InvalidRequest(_) => error_code::INVALID_REQUEST,
            RpcError::MethodNotFound(_) => error_code::METHOD_NOT_FOUND,
            RpcError::InvalidParams(_) => error_code::INVALID_PARAMS,
            RpcError::Internal(_) => error_code::INTERNAL_ERROR,
            RpcError::TaskNotFound { .. } => error_code::TASK_NOT_FOUND,
            RpcError::TaskNotCancelable { .. } => error_code::TASK_NOT_CANCELABLE,
            RpcError::PushNotSupported => error_code::PUSH_NOTIFICATION_NOT_SUPPORTED,
            RpcError::Unsupported(_) => error_code::UNSUPPORTED_OPERATION,
            RpcError::ContentType(_) => error_code::CONTENT_TYPE_NOT_SUPPORTED,
            RpcError::Version(_) => error_code::VERSION_NOT_SUPPORTED,
        }
    }

    /// The JSON-RPC error object: code, message, and the typed details.
    pub(crate) fn to_jsonrpc(&self) -> JsonRpcError {
        let mut metadata = HashMap::new();
        match self {
            RpcError::TaskNotFound { task_id } => {
                metadata.insert("taskId".to_owned(), task_id.clone());
            }
            RpcError::TaskNotCancelable { task_id, code, .. } => {
                metadata.insert("taskId".to_owned(), task_id.to_string());
                metadata.insert("chorusCode".to_owned(), (*code).to_owned());
            }
            RpcError::Version(_) => {
                let v = super::wire::PROTOCOL_VERSION.to_owned();
                metadata.insert("supportedVersions".to_owned(), v);
            }
            _ => {}
        }
        let info =
            TypedDetail::error_info(error_reason(self.code()), PROTOCOL_DOMAIN, Some(metadata));
        A2AError::new(self.code(), self.to_string())
            .with_details(vec![info])
            .to_jsonrpc_error()
    }

    /// A bus or store failure.
    pub(crate) fn from_bus(e: BusError) -> Self {
        RpcError::Internal(e.to_string())
    }

    /// From the one way in for answers' refusal: an answer to a task that is not
    /// waiting for one is not supported on it (finished: terminal; working: it takes
    /// a message only while it asks).
    pub(crate) fn from_answer(e: AnswerError) -> Self {
        match e {
            AnswerError::Empty | AnswerError::TooLong { .. } => {
                RpcError::InvalidParams(format!("message.parts: {e}"))
            }
            AnswerError::UnknownTask(task_id) => RpcError::TaskNotFound { task_id },
            AnswerError::Finished(_) => RpcError::Unsupported(format!(
                "{e}; a message to a task in a terminal state is refused \
                 (send it without taskId, in the same contextId, for a follow-up)"
            )),
            AnswerError::Bus(b) => RpcError::from_bus(b),
            other => RpcError::Unsupported(format!(
                "{other}; a task takes a message only while it is TASK_STATE_INPUT_REQUIRED"
            )),
        }
    }

    /// From the one way in for cancellations' refusal.
    pub(crate) fn from_cancel(e: CancelError) -> Self {
        let code = e.code();
        match e {
            CancelError::ReasonTooLong { .. } => {
                RpcError::InvalidParams(format!("metadata.reason: {e}"))
            }
            CancelError::UnknownTask(task_id) => RpcError::TaskNotFound { task_id },
            CancelError::Finished(ref task_id) | CancelError::AlreadyCanceled(ref task_id) => {
                RpcError::TaskNotCancelable {
                    task_id: task_id.clone(),
                    code,
                    why: e.to_string(),
                }
            }
            CancelError::Bus(b) => RpcError::from_bus(b),
        }
    }

    /// From the one way in's refusal of a new task (`ApiState::submit`): a bus failure
    /// is internal; every other refusal (empty or too long a query, an unusable
    /// context such as a contextId with other characters than letters, digits and
    /// `-_.:`) is the params' fault.
    pub(crate) fn from_submit(e: SubmitError) -> Self {
        let message = format!("{e} ({})", e.code());
        match e {
            SubmitError::Bus(_) => RpcError::Internal(message),
            _ => RpcError::InvalidParams(message),
        }
    }
}
