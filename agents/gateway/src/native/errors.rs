//! The native API's errors as JSON: `{"error": {"code": "…", "message": "…"}}` with a
//! status code. The one way in's refusals carry a code and no status: which HTTP status
//! fits each is decided here (A2A and the OpenAI-compatible endpoint map them in their
//! own error shapes).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// An error answered to an HTTP client.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    /// 400 with a code and message.
    pub fn bad_request(code: &'static str, message: &str) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            code,
            message: message.to_owned(),
        }
    }

    /// 404.
    pub fn not_found(message: &str) -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            code: "not_found",
            message: message.to_owned(),
        }
    }

    /// 503 for a bus failure (Redis unreachable…).
    pub fn from_bus(e: chorus_bus::BusError) -> Self {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            code: "bus_unavailable",
            message: e.to_string(),
        }
    }

    /// From the one way in's refusal, with its code: 409 for a task id taken by another
    /// request, 422 for an unusable context field, 400 for another bad request, 503 when
    /// the bus failed.
    pub fn from_submit(e: chorus_core::door::SubmitError) -> Self {
        use chorus_core::door::SubmitError as E;
        let status = match &e {
            E::Bus(_) => return ApiError::from_bus_ref(&e),
            E::TaskIdTaken { .. } => StatusCode::CONFLICT,
            E::InvalidContext(_) => StatusCode::UNPROCESSABLE_ENTITY,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError {
            status,
            code: e.code(),
            message: e.to_string(),
        }
    }

    /// From the one way in for answers' refusal, with its code: 422 for an empty or too
    /// long answer, 404 for an unknown task, 409 for a task not waiting for this answer
    /// (`task_finished`, `nothing_asked`, `already_answered`, `no_such_question`), 503
    /// when the bus failed.
    pub fn from_answer(e: chorus_core::door::AnswerError) -> Self {
        use chorus_core::door::AnswerError as E;
        let status = match &e {
            E::Empty | E::TooLong { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            E::UnknownTask(_) => StatusCode::NOT_FOUND,
            E::Finished(_)
            | E::NothingAsked(_)
            | E::AlreadyAnswered { .. }
            | E::NoSuchQuestion { .. } => StatusCode::CONFLICT,
            E::Bus(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError {
            status,
            code: e.code(),
            message: e.to_string(),
        }
    }

    /// From the one way in for cancellations' refusal, with its code: 404 for an
    /// unknown task, 409 for a finished or canceled one, 422 for a too long reason, 503
    /// when the bus failed.
    pub fn from_cancel(e: chorus_core::door::CancelError) -> Self {
        use chorus_core::door::CancelError as E;
        let status = match &e {
            E::ReasonTooLong { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            E::UnknownTask(_) => StatusCode::NOT_FOUND,
            E::Finished(_) | E::AlreadyCanceled(_) => StatusCode::CONFLICT,
            E::Bus(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError {
            status,
            code: e.code(),
            message: e.to_string(),
        }
    }

    /// 503 for a refusal that is the bus's fault.
    fn from_bus_ref(e: &chorus_core::door::SubmitError) -> Self {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            code: "bus_unavailable",
            message: e.to_string(),
        }
    }

    /// From a JSON body the extractor refused: 413 when too large, 415 without a JSON
    /// content type, 400 otherwise.
    pub fn from_json(rejection: axum::extract::rejection::JsonRejection) -> Self {
        use axum::extract::rejection::JsonRejection as R;
        let (status, code) = match &rejection {
            R::MissingJsonContentType(_) => (StatusCode::UNSUPPORTED_MEDIA_TYPE, "not_json"),
            R::BytesRejection(_) => (StatusCode::PAYLOAD_TOO_LARGE, "body_too_large"),
            R::JsonDataError(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
            _ => (StatusCode::BAD_REQUEST, "malformed_json"),
        };
        ApiError {
            status,
            code,
            message: rejection.body_text(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"error": {"code": self.code, "message": self.message}});
        (self.status, Json(body)).into_response()
    }
}

/// Any route that does not exist.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such route; see docs/openapi.json")
}

#[cfg(test)]
mod tests {
    use chorus_bus::BusError;
    use chorus_core::door::{AnswerError, CancelError};

    use super::*;

    fn status_and_code(e: ApiError) -> (u16, &'static str) {
        (e.status.as_u16(), e.code)
    }

    #[test]
    fn an_answer_refused_is_422_for_its_text_404_unknown_409_not_waiting_503_bus() {
        let cases = [
            (AnswerError::Empty, (422, "empty_answer")),
            (
                AnswerError::TooLong {
                    chars: 1001,
                    limit: 1000,
                },
                (422, "answer_too_long"),
            ),
            (AnswerError::UnknownTask("t".into()), (404, "unknown_task")),
            (AnswerError::Finished("t".into()), (409, "task_finished")),
            (
                AnswerError::NothingAsked("t".into()),
                (409, "nothing_asked"),
            ),
            (
                AnswerError::AlreadyAnswered {
                    task_id: "t".into(),
                    number: 1,
                    same: true,
                },
                (409, "already_answered"),
            ),
            (
                AnswerError::NoSuchQuestion {
                    task_id: "t".into(),
                    given: 2,
                    open: 1,
                },
                (409, "no_such_question"),
            ),
            (AnswerError::Bus(BusError::Closed), (503, "bus_unavailable")),
        ];
        for (e, expected) in cases {
            assert_eq!(status_and_code(ApiError::from_answer(e)), expected);
        }
    }

    #[test]
    fn a_cancellation_refused_is_422_for_its_reason_404_unknown_409_finished_503_bus() {
        let cases = [
            (
                CancelError::ReasonTooLong {
                    chars: 501,
                    limit: 500,
                },
                (422, "reason_too_long"),
            ),
            (CancelError::UnknownTask("t".into()), (404, "unknown_task")),
            (CancelError::Finished("t".into()), (409, "finished")),
            (
                CancelError::AlreadyCanceled("t".into()),
                (409, "already_canceled"),
            ),
            (CancelError::Bus(BusError::Closed), (503, "bus_unavailable")),
        ];
        for (e, expected) in cases {
            assert_eq!(status_and_code(ApiError::from_cancel(e)), expected);
        }
    }
}
