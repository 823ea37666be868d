//! The Chief's HTTP doors (axum): `POST /chat/stream` answers with Server-Sent Events
//! (accepted, a question when the task asks one, plan, each step, the report);
//! `POST /tasks` and `GET /tasks/{id}` for clients that poll; `POST /tasks/{id}/answer`
//! for the answer to a task's question; `DELETE /tasks/{id}` to cancel a task; the A2A
//! server (`a2a`) and the OpenAI-compatible chat endpoint (`openai`); `GET /healthz`.
//! Errors are JSON with a status code. [`app`] builds the router, so tests can serve it
//! on any listener. With `[http]` tokens set, every route but `/healthz` and the A2A
//! agent card needs `Authorization: Bearer <token>` (`auth`), and `[http] rate_per_sec`
//! limits each token's requests (`limit`). Browsers are kept out: the `Host` must be
//! loopback or `[http] allowed_hosts`, an `Origin` the host itself (`hosts`), a body
//! JSON (`json_only`); slow clients are cut off at the header, body and idle limits
//! (`serve`).

mod a2a;
mod answers;
mod auth;
mod cancels;
mod errors;
mod health;
mod hosts;
pub mod hub;
mod json_only;
mod limit;
mod openai;
mod openapi;
mod probe;
mod serve;
mod stream;
mod tasks;
mod traceparent;
mod ui;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use chorus_agents::door::{Limits, Submission, submit};
use chorus_bus::{Bus, TaskContext};
use serde::{Deserialize, Serialize};

pub use answers::{AnswerAccepted, NewAnswer};
pub use auth::{Auth, AuthError};
pub use cancels::CancelQuery;
pub use errors::ApiError;
pub use hosts::AllowedHosts;
pub use hub::Hub;
pub use limit::Limiter;
pub use openapi::openapi;
pub use probe::probe;
pub use serve::{serve, serve_on};

use chorus_agents::settings::Settings;
use chorus_agents::state::TaskState;
use chorus_agents::system::Infra;
use chorus_agents::topology::Topology;

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
    /// How long a task's question waits for its answer (`agents.answer_timeout_ms`):
    /// a stream showing a question stays open that long (and the task's deadline after
    /// it), since the task's deadline is paused meanwhile.
    pub answer_timeout: Duration,
    /// Longest accepted query, in characters.
    pub max_query_chars: usize,
    /// The name this Chief publishes under.
    pub instance: String,
    /// Whether a model writes reports (`[llm]` configured, `synthesize` on), so
    /// `POST /chat/stream` relays each report's token stream as `token` events. The
    /// gateway itself calls no model.
    pub tokens: bool,
    /// The roles a healthy system runs (for `/healthz`).
    pub topology: Topology,
    /// The bearer tokens the doors ask for (`[http]`; off by default).
    pub auth: Auth,
    /// The per-token rate limit (`[http] rate_per_sec`; off by default).
    pub limiter: Limiter,
    /// The web view's live feed (`GET /events`): every topic a task's messages use.
    pub feed: Hub,
    /// The hosts the doors answer to (loopback and `[http] allowed_hosts`).
    pub hosts: AllowedHosts,
    /// The limits slow clients get (`[http] header_timeout_ms`, `body_timeout_ms`,
    /// `idle_timeout_ms`).
    pub timeouts: chorus_mcp_common::timeouts::Timeouts,
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
            feed: ui::feed(infra.bus.clone(), &pools),
            bus: infra.bus,
            state,
            deadline: settings.deadline(),
            answer_timeout: settings.answer_timeout(),
            max_query_chars: chorus_heuristic::MAX_QUERY_CHARS,
            instance: format!("chief-{}", uuid::Uuid::now_v7().simple()),
            tokens: chorus_agents::llm::writes_reports(&settings.llm),
            topology: Topology::new(&pools),
            auth: Auth::or_broken(&settings.http),
            limiter: Limiter::from_settings(&settings.http),
            hosts: AllowedHosts::from_settings(&settings.http),
            timeouts: serve::timeouts(&settings.http),
        }
    }
}

/// Builds the API's router.
pub fn app(state: ApiState) -> Router {
    let (auth, limiter) = (state.auth.clone(), state.limiter.clone());
    let (hosts, body_within) = (state.hosts.clone(), state.timeouts.body);
    Router::new()
        .route("/healthz", get(health::health))
        .route("/tasks", post(tasks::create))
        .route("/tasks/{id}", get(tasks::status).delete(cancels::cancel))
        .route("/tasks/{id}/answer", post(answers::answer))
        .route("/chat/stream", post(stream::chat_stream))
        .merge(a2a::routes())
        .merge(openai::routes())
        .merge(ui::routes())
        .route_layer(axum::middleware::from_fn(json_only::require))
        .fallback(errors::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            body_within,
            serve::read_body,
        ))
        .layer(axum::middleware::from_fn_with_state(limiter, limit::limit))
        .layer(axum::middleware::from_fn_with_state(auth, auth::require))
        .layer(axum::middleware::from_fn(traceparent::continue_trace))
        .layer(axum::middleware::from_fn_with_state(hosts, hosts::check))
        // Added after the host, token and rate-limit layers, so open like /healthz: it
        // holds no task data (docs/security.md).
        .route("/metrics", get(chorus_telemetry::serve::metrics))
        .with_state(state)
}

impl ApiState {
    /// Hands a new task to the one way in (validation, limits, id, deadline, exactly-once
    /// acceptance, counted as an HTTP acceptance); it is opened before this returns, so polling finds it at once. A
    /// reused task id with the same request is that task (`fresh: false`).
    async fn submit(&self, body: NewTask) -> Result<chorus_agents::door::Accepted, ApiError> {
        let limits = Limits {
            deadline: Some(self.deadline),
            max_query_chars: self.max_query_chars,
        };
        let submission = Submission {
            query: body.query,
            context: body.context,
            task_id: body.task_id,
            from: self.instance.clone(),
            once: None,
            door: Some(chorus_telemetry::metrics::tasks::Door::Http),
        };
        submit(self.bus.as_ref(), Some(&self.state), &limits, submission)
            .await
            .map_err(ApiError::from_submit)
    }
}
