//! Errors of the OpenAI-compatible endpoint, in OpenAI's shape:
//! `{"error": {"message", "type", "param", "code"}}` with the status that fits, so the
//! official SDKs raise their usual exceptions (`BadRequestError`, `NotFoundError`, …).

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use chorus_bus::{BusError, TaskId};
use chorus_core::door::{AnswerError, SubmitError};
use serde_json::json;

/// Why a request to the OpenAI-compatible endpoint was not answered.
#[derive(Debug, thiserror::Error)]
pub enum OpenAiError {
    /// The body is not JSON, or not a chat completion request.
    #[error("invalid request body: {0}")]
    InvalidBody(String),
    /// The body is larger than the route accepts.
    #[error("the request body is too large: {0}")]
    TooLarge(String),
    /// A model other than `chorus`.
    #[error("the model `{0}` does not exist; the only model is `chorus`")]
    UnknownModel(String),
    /// No `user` message: nothing to answer.
    #[error("messages has no user message; the last user message is the request")]
    NoUserMessage,
    /// A message Chorus cannot read (an unknown role, a request that is not text).
    #[error("{0}")]
    InvalidMessages(String),
    /// The one way in refused the request (empty, too long, …).
    #[error(transparent)]
    Refused(#[from] SubmitError),
    /// The one way in for answers refused the answer (empty, too long).
    #[error(transparent)]
    AnswerRefused(#[from] AnswerError),
    /// The bus or the state store failed; nothing was answered, the request may be sent
    /// again.
    #[error("the bus is unavailable: {0}")]
    Bus(#[from] BusError),
    /// No report came within the task's deadline and a grace period.
    #[error("no report for task {0} before its deadline")]
    NoReport(TaskId),
}

impl OpenAiError {
    /// From a body the JSON extractor refused: 413 when too large, 400 otherwise.
    pub fn from_json(rejection: JsonRejection) -> Self {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => OpenAiError::TooLarge(rejection.body_text()),
            _ => OpenAiError::InvalidBody(rejection.body_text()),
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            OpenAiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            OpenAiError::UnknownModel(_) => StatusCode::NOT_FOUND,
            OpenAiError::Refused(SubmitError::Bus(_))
            | OpenAiError::AnswerRefused(AnswerError::Bus(_))
            | OpenAiError::Bus(_) => StatusCode::SERVICE_UNAVAILABLE,
            OpenAiError::Refused(SubmitError::TaskIdTaken { .. }) => StatusCode::CONFLICT,
            OpenAiError::NoReport(_) => StatusCode::GATEWAY_TIMEOUT,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// OpenAI's error `type`: `invalid_request_error` for the client's mistakes,
    /// `server_error` otherwise.
    pub fn kind(&self) -> &'static str {
        match self.status().is_client_error() {
            true => "invalid_request_error",
            false => "server_error",
        }
    }

    /// The request field at fault, if one is (none when the server is).
    pub fn param(&self) -> Option<&'static str> {
        if !self.status().is_client_error() {
            return None;
        }
        match self {
            OpenAiError::UnknownModel(_) => Some("model"),
            OpenAiError::NoUserMessage
            | OpenAiError::InvalidMessages(_)
            | OpenAiError::Refused(_)
            | OpenAiError::AnswerRefused(_) => Some("messages"),
            _ => None,
        }
    }

    /// A stable code (OpenAI's `model_not_found`; Chorus's door codes otherwise).
    pub fn code(&self) -> &'static str {
        match self {
            OpenAiError::InvalidBody(_) => "invalid_body",
            OpenAiError::TooLarge(_) => "body_too_large",
            OpenAiError::UnknownModel(_) => "model_not_found",
            OpenAiError::NoUserMessage => "no_user_message",
            OpenAiError::InvalidMessages(_) => "invalid_messages",
            OpenAiError::Refused(e) => e.code(),
            OpenAiError::AnswerRefused(e) => e.code(),
            OpenAiError::Bus(_) => "bus_unavailable",
            OpenAiError::NoReport(_) => "no_report",
        }
    }

    /// The error as OpenAI's JSON body.
    pub fn body(&self) -> serde_json::Value {
        json!({"error": {
            "message": self.to_string(),
            "type": self.kind(),
            "param": self.param(),
            "code": self.code(),
        }})
    }
}

impl IntoResponse for OpenAiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), Json(self.body())).into_response();
        if matches!(self, OpenAiError::NoReport(_)) {
            // The task was accepted and may still finish: a client retrying would run
            // it again. The official SDKs honour this header.
            response
                .headers_mut()
                .insert("x-should-retry", HeaderValue::from_static("false"));
        }
        response
    }
}

/// Any `/v1/…` route that does not exist, in OpenAI's error shape.
pub async fn not_found() -> Response {
    let body = json!({"error": {
        "message": "no such route; the OpenAI-compatible routes are GET /v1/models and POST /v1/chat/completions",
        "type": "invalid_request_error", "param": null, "code": "not_found"}});
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_has_its_status_type_param_and_code() {
        let cases = [
            (
                OpenAiError::NoUserMessage,
                400,
                "invalid_request_error",
                "no_user_message",
            ),
            (
                OpenAiError::UnknownModel("gpt-4o".into()),
                404,
                "invalid_request_error",
                "model_not_found",
            ),
            (
                OpenAiError::TooLarge("big".into()),
                413,
                "invalid_request_error",
                "body_too_large",
            ),
            (
                OpenAiError::Refused(SubmitError::EmptyQuery),
                400,
                "invalid_request_error",
                "empty_query",
            ),
            (
                OpenAiError::AnswerRefused(AnswerError::Empty),
                400,
                "invalid_request_error",
                "empty_answer",
            ),
            (
                OpenAiError::Bus(BusError::Closed),
                503,
                "server_error",
                "bus_unavailable",
            ),
            (
                OpenAiError::NoReport(TaskId::generate()),
                504,
                "server_error",
                "no_report",
            ),
        ];
        for (error, status, kind, code) in cases {
            let body = error.body();
            assert_eq!(error.status().as_u16(), status, "{body}");
            assert_eq!(body["error"]["type"], kind, "{body}");
            assert_eq!(body["error"]["code"], code, "{body}");
            assert!(
                body["error"]["message"]
                    .as_str()
                    .is_some_and(|m| !m.is_empty())
            );
        }
        let body = OpenAiError::UnknownModel("gpt-4o".into()).body();
        assert_eq!(body["error"]["param"], "model");
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("gpt-4o"))
        );
        assert!(OpenAiError::Bus(BusError::Closed).body()["error"]["param"].is_null());
        let refused = OpenAiError::Refused(SubmitError::Bus(BusError::Closed)).body();
        assert!(refused["error"]["param"].is_null(), "{refused}");
        let empty = OpenAiError::Refused(SubmitError::EmptyQuery).body();
        assert_eq!(empty["error"]["param"], "messages");
    }
}
