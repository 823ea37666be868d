//! The OpenAI-compatible chat endpoint, so any OpenAI client or chat UI can talk to
//! Chorus (base URL `http://HOST:8080/v1`, any API key; docs/openai.md):
//! `GET /v1/models` (one model, `chorus`), `GET /v1/models/{model}`, and
//! `POST /v1/chat/completions`, non-streaming or streamed (`"stream": true`).
//!
//! The last user message is the request; the messages before it are the conversation,
//! whose session is found from them (OpenAI clients send the whole history and no id),
//! so follow-ups use earlier answers and a question Chorus asked is answered by the next
//! user message. Every request enters through the one way in (`ApiState::submit`, or
//! `door::answer` for an answer) and is followed to its report by the one follower
//! (`crate::follow`), as `POST /chat/stream` is.
//!
//! One job per file: `wire` (the OpenAI types), `error` (OpenAI's error shape),
//! `conversation` (reading a request, the keys of conversations), `sessions` (the
//! conversations in the store), `start` (answer or new task), `completions` (the
//! handlers, the non-streaming completion, from the task's progress), `streaming` (the
//! task's progress as chunks), `openapi` (the path items for the OpenAPI document).

mod completions;
mod conversation;
mod error;
mod openapi;
mod sessions;
mod start;
mod streaming;
mod wire;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{any, get, post};

use crate::api::ApiState;

pub(crate) use openapi::openapi_paths;

/// Largest chat completion body accepted, in bytes: larger than the gateway's other
/// routes, since a chat client sends the whole conversation every time.
pub const MAX_CHAT_BODY_BYTES: usize = 1024 * 1024;

/// The OpenAI-compatible routes.
pub(crate) fn routes() -> Router<ApiState> {
    Router::new()
        .route("/v1/models", get(completions::list_models))
        .route("/v1/models/{model}", get(completions::get_model))
        .route(
            "/v1/chat/completions",
            post(completions::chat_completions).layer(DefaultBodyLimit::max(MAX_CHAT_BODY_BYTES)),
        )
        .route("/v1/{*rest}", any(error::not_found))
}
