//! The A2A (Agent2Agent) server, protocol 1.x (docs/a2a.md): the agent card at
//! `GET /.well-known/agent-card.json` and the JSON-RPC binding at `POST /a2a`
//! (`SendMessage`, `SendStreamingMessage`, `GetTask`, `CancelTask`, `SubscribeToTask`).
//! Every door goes through the one way in: a new task through `ApiState::submit`, the
//! answer to a task's question through `door::answer`, a cancellation through
//! `door::cancel`; a task is followed to its report on the Chief's progress hub, as
//! `POST /chat/stream` does. The A2A task id is the Chorus task id, the contextId the
//! Chorus conversation (`TaskContext.session_id`).
//!
//! One job per file: `card` (the agent card), `rpc` (the JSON-RPC envelope, version
//! check and dispatch), `errors` (A2A errors and their codes), `wire` (the 1.x wire
//! types and reading a client's message), `state` (a Chorus task as an A2A task),
//! `send` (`SendMessage`), `tasks` (`GetTask`, `CancelTask`, `SubscribeToTask`),
//! `follow` (a task followed to its report), `sse` (the event streams), `openapi` (the
//! routes' OpenAPI path items).
//!
//! Not supported: push notifications (`PushNotificationNotSupported`), `ListTasks` and
//! `GetExtendedAgentCard` (`UnsupportedOperation`), the gRPC and HTTP+JSON bindings,
//! protocol 0.3; authentication is left to issue 18.

mod card;
mod errors;
mod follow;
mod openapi;
mod rpc;
mod send;
mod sse;
mod state;
mod tasks;
mod wire;

use axum::Router;
use axum::routing::{get, post};

use super::ApiState;

#[allow(unused_imports, reason = "for crate::openapi, whose owner wires it in")]
pub(crate) use openapi::openapi_paths;

/// The path of the agent card (A2A 1.x, section 8.2).
pub(crate) const CARD_PATH: &str = "/.well-known/agent-card.json";

/// The path of the JSON-RPC endpoint (the card's `JSONRPC` interface).
pub(crate) const RPC_PATH: &str = "/a2a";

/// The A2A routes.
pub(crate) fn routes() -> Router<ApiState> {
    Router::new()
        .route(CARD_PATH, get(card::card))
        .route(RPC_PATH, post(rpc::handle))
}
