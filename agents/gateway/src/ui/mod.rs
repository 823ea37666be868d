//! The Chief's live web view and the read-only API routes it draws from. The page
//! (`/ui`, its script modules and style sheet under `/ui/`) is embedded in the binary
//! and holds no data, so it loads without a token; everything it shows comes from
//! documented API routes that ask for the bearer token like every other door: `GET /tasks` (recent
//! tasks), `GET /tasks/{id}/hops` (a task's messages, as `chorus trace` prints them),
//! `GET /agents` (the live registry), `GET /dead-letters` and `GET /events` (a live
//! feed of messages, Server-Sent Events). Every list reads a bounded tail of a stream
//! or the registry's hashes; nothing scans keys.

mod agents;
mod assets;
mod events;
mod hops;
mod openapi;
mod tasks;

use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use chorus_bus::{Bus, PoolName};

use crate::api::ApiState;
use crate::hub::Hub;

use agents::{AgentList, DeadLetterList};
use hops::{LiveMessage, TaskHops};
pub(crate) use openapi::openapi_paths;
use tasks::TaskList;

/// Most entries a list route reads from a stream at once.
pub const MAX_LIMIT: usize = 500;

/// The page and its assets, and the JSON routes it reads.
pub(crate) fn routes() -> Router<ApiState> {
    assets::routes()
        .route("/tasks", get(tasks::recent))
        .route("/tasks/{id}/hops", get(hops::task_hops))
        .route("/agents", get(agents::live))
        .route("/dead-letters", get(agents::dead_letters))
        .route("/events", get(events::events))
}

/// Whether `path` is the page or one of its assets (served without a token: they
/// hold no data).
pub(crate) fn is_asset(path: &str) -> bool {
    assets::is_asset(path)
}

/// The hub of the live feed: every topic a task's messages travel on (as
/// `chorus trace` reads them) for `pools`, watched only while a page listens.
pub(crate) fn feed(bus: Arc<dyn Bus>, pools: &[PoolName]) -> Hub {
    Hub::on(bus, chorus_core::hops::topics(pools))
}

/// A list route's `limit`, at most [`MAX_LIMIT`], `default` when absent.
fn clamp(limit: Option<usize>, default: usize) -> usize {
    limit.unwrap_or(default).clamp(1, MAX_LIMIT)
}
