//! The A2A (Agent2Agent) server: the agent card and the JSON-RPC methods. (Being built.)

use axum::Router;

use super::ApiState;

/// The A2A routes.
pub(crate) fn routes() -> Router<ApiState> {
    Router::new()
}
