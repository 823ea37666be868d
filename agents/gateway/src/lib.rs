//! The Chief's HTTP doors (axum): `POST /chat/stream` answers with Server-Sent Events
//! (accepted, plan, each step, the report); `POST /tasks` and `GET /tasks/{id}` for
//! clients that poll; `GET /healthz`. Errors are JSON with a status code. [`app`] builds
//! the router, so tests can serve it on any listener.

mod errors;
pub mod hub;
mod openapi;
mod probe;
mod stream;
mod tasks;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use chorus_bus::{Bus, Deadline, Message, Payload, TaskContext, TaskRequest, Topic};
use serde::{Deserialize, Serialize};

pub use errors::ApiError;
pub use hub::Hub;
pub use openapi::openapi;
pub use probe::probe;

use chorus_agents::settings::Settings;
use chorus_agents::state::TaskState;
use chorus_agents::system::Infra;

/// Largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// What the handlers share.
#[derive(Clone)]
pub struct ApiState {
    /// The bus tasks are published on.
    pub bus: Arc<dyn Bus>,
    /// Task state (requests, reports).
    pub state: TaskState,
    /// Progress messages for streaming clients.
    pub hub: Hub,
    /// The deadline given to each task.
    pub deadline: Duration,
    /// Longest accepted query, in characters.
    pub max_query_chars: usize,
    /// The name this Chief publishes under.
    pub instance: String,
    /// Whether a model writes reports (`[llm]` configured, `synthesize` on), so
    /// `POST /chat/stream` relays each report's token stream as `token` events. The
    /// gateway itself calls no model.
    pub tokens: bool,
}

/// The body of `POST /tasks` and `POST /chat/stream`.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
pub struct NewTask {
    /// The request in the user's words.
    pub query: String,
    /// Optional context: reference time, time zone, language.
    #[serde(default)]
    pub context: TaskContext,
    /// Optional task id chosen by the client (letters, digits, `-_.:`).
    #[serde(default)]
    pub task_id: Option<String>,
}

/// The answer to `POST /tasks`.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
pub struct Accepted {
    /// The task's id.
    pub task_id: String,
}

impl ApiState {
    /// The API's state for a Chief on `infra`, with `settings`' deadline, and tokens
    /// when they configure a model to write reports.
    pub fn new(infra: Infra, state: TaskState, settings: &Settings) -> Self {
        let pools = settings.pool_names();
        ApiState {
            hub: Hub::new(infra.bus.clone(), &pools),
            bus: infra.bus,
            state,
            deadline: settings.deadline(),
            max_query_chars: chorus_heuristic::MAX_QUERY_CHARS,
            instance: format!("chief-{}", uuid::Uuid::now_v7().simple()),
            tokens: chorus_agents::llm::writes_reports(&settings.llm),
        }
    }
}

/// Builds the API's router.
pub fn app(state: ApiState) -> Router {
    Router::new()
        .route("/healthz", get(health))
        .route("/tasks", post(tasks::create))
        .route("/tasks/{id}", get(tasks::status))
        .route("/chat/stream", post(stream::chat_stream))
        .fallback(errors::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// Serves the API on `bind` until `shutdown` resolves.
pub async fn serve(
    bind: &str,
    state: ApiState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(bind).await?;
    tracing::info!(addr = %listener.local_addr()?, "HTTP API listening");
    axum::serve(listener, app(state))
        .with_graceful_shutdown(shutdown)
        .await
}

async fn health() -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({"status": "ok"}))
}

impl ApiState {
    /// Validates a new task, records it (so polling finds it at once) and publishes it.
    async fn submit(&self, body: NewTask) -> Result<Message, ApiError> {
        let chars = body.query.chars().count();
        if body.query.trim().is_empty() {
            return Err(ApiError::bad_request("empty_query", "the query is empty"));
        }
        if chars > self.max_query_chars {
            return Err(ApiError::bad_request(
                "query_too_long",
                &format!(
                    "the query has {chars} characters, over the limit of {}",
                    self.max_query_chars
                ),
            ));
        }
        let task_id = match body.task_id {
            Some(id) => {
                chorus_bus::envelope::validate_task_id(&id)
                    .map_err(|e| ApiError::bad_request("invalid_task_id", &e.to_string()))?;
                id
            }
            None => uuid::Uuid::now_v7().to_string(),
        };
        let request = TaskRequest {
            query: body.query,
            context: body.context,
        };
        let deadline = Deadline::after(self.deadline);
        self.state
            .open(&task_id, &request, deadline)
            .await
            .map_err(ApiError::from_bus)?;
        let mut msg = Message::new(
            task_id,
            Topic::task_available(),
            self.instance.clone(),
            Payload::TaskAvailable(request),
        );
        msg.deadline_ms = Some(deadline);
        self.bus.publish(&msg).await.map_err(ApiError::from_bus)?;
        Ok(msg)
    }
}
