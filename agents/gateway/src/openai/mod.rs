//! The OpenAI-compatible chat endpoint: `/v1/models`, `/v1/chat/completions`. (Being
//! built.)

use axum::Router;

use super::ApiState;

/// The OpenAI-compatible routes.
pub(crate) fn routes() -> Router<ApiState> {
    Router::new()
}
