//! What every door shares ([`ApiState`]: the bus, the task state, the progress hub,
//! the limits and guards' settings), and the gateway's one way in for a new task
//! ([`ApiState::submit`]), which every door calls: the native API, A2A and the
//! OpenAI-compatible endpoint. Each door turns its refusals into its own error shape.

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::{Bus, TaskContext};
use chorus_core::door::{self, Limits, Submission, SubmitError};
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use chorus_core::system::Infra;
use chorus_core::topology::Topology;
use chorus_telemetry::metrics::tasks::Door;

use crate::auth::Auth;
use crate::hosts::AllowedHosts;
use crate::hub::Hub;
use crate::limit::Limiter;
use crate::{serve, ui};

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
            tokens: chorus_core::llm::writes_reports(&settings.llm),
            topology: Topology::new(&pools),
            auth: Auth::or_broken(&settings.http),
            limiter: Limiter::from_settings(&settings.http),
            hosts: AllowedHosts::from_settings(&settings.http),
            timeouts: serve::timeouts(&settings.http),
        }
    }

    /// Hands a new task to the one way in (validation, limits, id, deadline,
    /// exactly-once acceptance, counted as an HTTP acceptance); it is opened before this
    /// returns, so polling finds it at once. A reused task id with the same request is
    /// that task (`fresh: false`).
    pub(crate) async fn submit(
        &self,
        query: String,
        context: TaskContext,
        task_id: Option<String>,
    ) -> Result<door::Accepted, SubmitError> {
        let limits = Limits {
            deadline: Some(self.deadline),
            max_query_chars: self.max_query_chars,
        };
        let submission = Submission {
            query,
            context,
            task_id,
            from: self.instance.clone(),
            once: None,
            door: Some(Door::Http),
        };
        door::submit(self.bus.as_ref(), Some(&self.state), &limits, submission).await
    }
}
