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
//! `methods` (what each method does), `updates` (the task's progress from the one
//! follower, `crate::follow`, as A2A shows it), `sse` (the event streams); here, the
//! routes and their OpenAPI path items.
//!
//! Not supported: push notifications (`PushNotificationNotSupported`), `ListTasks` and
//! `GetExtendedAgentCard` (`UnsupportedOperation`), the gRPC and HTTP+JSON bindings,
//! protocol 0.3; authentication is left to issue 18.

mod card;
mod errors;
mod methods;
mod rpc;
mod sse;
mod state;
mod updates;
mod wire;

use axum::Router;
use axum::routing::{get, post};
use serde_json::{Value, json};

use crate::api::ApiState;

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

/// The A2A specification, which defines the JSON-RPC bodies (the OpenAPI path items
/// point there rather than copying its schemas).
const SPEC: &str = "https://a2a-protocol.org/latest/specification/";

/// The path items of `GET /.well-known/agent-card.json` and `POST /a2a`, keyed by path.
pub(crate) fn openapi_paths() -> Value {
    let object = json!({"type": "object"});
    let rpc_description = "A2A 1.x JSON-RPC 2.0 (see docs/a2a.md and the A2A specification). \
        Methods: `SendMessage` (blocking by default: the task once it is terminal or asks a \
        question; `configuration.returnImmediately` for at once), `SendStreamingMessage` \
        (Server-Sent Events: the task, status updates, the report artifact, the final status; \
        the stream ends at a question), `GetTask` (with `historyLength`), `CancelTask`, \
        `SubscribeToTask` (a task not yet terminal, through its questions to the report). A \
        message with `taskId` answers the question of that task (TASK_STATE_INPUT_REQUIRED). \
        The `A2A-Version: 1.0` header is required (absent means 0.3: error -32009). Every \
        answer is HTTP 200 with a JSON-RPC result or error: -32700 parse error, -32600 invalid \
        request, -32601 method not found, -32602 invalid params, -32603 internal error, \
        -32001 task not found, -32002 task not cancelable, -32003 push notifications not \
        supported, -32004 unsupported operation (ListTasks, GetExtendedAgentCard, a message to \
        a terminal or working task, subscribing to a terminal task), -32005 content type not \
        supported, -32009 version not supported.";
    json!({
        CARD_PATH: {"get": {
            "summary": "The A2A agent card",
            "description": format!("The A2A 1.x agent card ({SPEC}#8-agent-discovery-the-agent-card): name, description, version, the JSON-RPC interface at {RPC_PATH} (protocol version 1.0), capabilities (streaming), default input and output modes, and one skill per pool (configured or live) with its tools and examples. Cacheable for 10 s (ETag, If-None-Match answered 304)."),
            "responses": {
                "200": {"description": "the agent card", "content": {"application/json": {"schema": object}}},
                "304": {"description": "not modified (If-None-Match matched the ETag)"}
            }
        }},
        RPC_PATH: {"post": {
            "summary": "A2A JSON-RPC endpoint",
            "description": rpc_description,
            "parameters": [{
                "name": "A2A-Version", "in": "header", "required": true,
                "description": "The A2A protocol version the client speaks: 1.0 (or the A2A-Version query parameter)",
                "schema": {"type": "string", "example": "1.0"}
            }],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
                "type": "object",
                "required": ["jsonrpc", "method"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": {"type": ["string", "integer", "null"]},
                    "method": {"enum": ["SendMessage", "SendStreamingMessage", "GetTask", "CancelTask", "SubscribeToTask"]},
                    "params": {"type": "object", "description": format!("The method's request message (SendMessageRequest, GetTaskRequest, CancelTaskRequest, SubscribeToTaskRequest) in ProtoJSON: {SPEC}")}
                }
            }}}},
            "responses": {"200": {
                "description": "A JSON-RPC response (result or error); for SendStreamingMessage and SubscribeToTask a text/event-stream whose every `data` is a JSON-RPC response holding one StreamResponse (`task`, `statusUpdate`, `artifactUpdate`), an `error` event for a failure mid-stream",
                "content": {
                    "application/json": {"schema": {"type": "object", "required": ["jsonrpc", "id"]}},
                    "text/event-stream": {"schema": {"type": "string"}}
                }
            }}
        }}
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_routes_are_described() {
        let paths = openapi_paths();
        assert!(paths[CARD_PATH]["get"]["responses"]["200"].is_object());
        let rpc = &paths[RPC_PATH]["post"];
        assert_eq!(rpc["parameters"][0]["name"], "A2A-Version");
        assert!(
            rpc["description"]
                .as_str()
                .unwrap()
                .contains("-32002 task not cancelable")
        );
    }
}
