//! The native API, laid out like the protocol doors beside it (`a2a`, `openai`, `ui`):
//! `POST /tasks` and `GET /tasks/{id}` (`tasks`), `POST /tasks/{id}/answer`
//! (`answers`), `DELETE /tasks/{id}` (`cancels`), `POST /chat/stream` (`stream`: the
//! task's progress as named Server-Sent Events) and `GET /healthz` (`health`); `wire`
//! holds the bodies and answers, `errors` the JSON error shape and the HTTP status of
//! each refusal, `openapi` the path items. Every new task goes through
//! [`ApiState::submit`], every answer through `door::answer`, every cancellation through
//! `door::cancel`.

mod answers;
mod cancels;
mod errors;
mod health;
mod openapi;
mod stream;
mod tasks;
mod wire;

use axum::Router;
use axum::routing::{get, post};

use crate::api::ApiState;

pub use errors::{ApiError, not_found};
pub(crate) use openapi::openapi_paths;
pub use wire::{Accepted, AnswerAccepted, CancelQuery, NewAnswer, NewTask, TaskPhase};

/// The native routes.
pub(crate) fn routes() -> Router<ApiState> {
    Router::new()
        .route("/healthz", get(health::health))
        .route("/tasks", post(tasks::create))
        .route("/tasks/{id}", get(tasks::status).delete(cancels::cancel))
        .route("/tasks/{id}/answer", post(answers::answer))
        .route("/chat/stream", post(stream::chat_stream))
}
