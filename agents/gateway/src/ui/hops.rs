//! `GET /tasks/{id}/hops`: a task's messages in the order they were sent, each with the
//! row `chorus trace` prints (time, ms since the previous and the first message, topic,
//! from → to, summary) and its payload, from which the page draws the plan's graph.
//! Reads the last `scan` entries of each topic ([`chorus_core::hops::collect`]).

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use chorus_bus::Message;
use chorus_bus::TaskId;
use chorus_core::hops::{Row, collect};
use serde::{Deserialize, Serialize};

use crate::api::ApiState;
use crate::native::ApiError;

/// Entries of each topic searched when no `scan` is given.
const DEFAULT_SCAN: usize = 1000;

/// Most entries of each topic searched.
const MAX_SCAN: usize = 10_000;

/// The query of `GET /tasks/{id}/hops`: `?scan=N`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct HopsQuery {
    /// How many recent entries of each topic to search (at most 10000).
    pub scan: Option<usize>,
}

/// A message as the web view shows it (also each event of `GET /events`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LiveMessage {
    /// The task it belongs to.
    pub task_id: TaskId,
    /// When it was sent, in microseconds since the Unix epoch.
    pub sent_us: u64,
    /// That time as `HH:MM:SS.mmm` (UTC).
    pub time: String,
    /// The topic it was published on.
    pub topic: String,
    /// Who sent it (a process such as `planner/0001`, or `mcp-math` for a reply).
    pub from: String,
    /// Who receives it (roles such as `router,synthesizer`, or a process).
    pub to: String,
    /// One line saying what it carries.
    pub summary: String,
    /// The message's payload as published (its shape is fixed by the topic).
    pub payload: serde_json::Value,
}

/// One message of a task's timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HopEntry {
    /// The message.
    #[serde(flatten)]
    pub message: LiveMessage,
    /// Milliseconds since the previous message of the task.
    pub since_prev_ms: f64,
    /// Milliseconds since the task's first message.
    pub since_start_ms: f64,
}

/// The answer to `GET /tasks/{id}/hops`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TaskHops {
    /// The task's id.
    pub task_id: TaskId,
    /// Milliseconds from the first message to the last.
    pub span_ms: f64,
    /// The messages in the order they were sent.
    pub hops: Vec<HopEntry>,
}

impl LiveMessage {
    /// `msg` with its timeline `row`.
    pub(crate) fn of(msg: &Message, row: Row) -> LiveMessage {
        LiveMessage {
            task_id: msg.task_id.clone(),
            sent_us: row.sent_us,
            time: row.time,
            topic: row.topic,
            from: row.from,
            to: row.to,
            summary: row.summary,
            payload: serde_json::to_value(&msg.payload).unwrap_or_default(),
        }
    }
}

/// `GET /tasks/{id}/hops?scan=N`: the task's timeline; 404 when none of its messages
/// is in the entries searched.
pub async fn task_hops(
    State(api): State<ApiState>,
    Path(id): Path<String>,
    query: Result<Query<HopsQuery>, QueryRejection>,
) -> Result<Json<TaskHops>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request("invalid_query", &e.body_text()))?;
    let scan = query.scan.unwrap_or(DEFAULT_SCAN).clamp(1, MAX_SCAN);
    let task = TaskId::from(id.as_str());
    let msgs = collect(api.bus.as_ref(), &task, api.topology.pools(), scan)
        .await
        .map_err(ApiError::from_bus)?;
    if msgs.is_empty() {
        return Err(ApiError::not_found(&format!(
            "no message of task {id:?} in the last {scan} entries of each topic"
        )));
    }
    let rows = chorus_core::hops::rows(&msgs);
    let span_ms = rows.last().map(|r| r.since_start_ms).unwrap_or(0.0);
    let hops = msgs
        .iter()
        .zip(rows)
        .map(|(m, row)| HopEntry {
            since_prev_ms: row.since_prev_ms,
            since_start_ms: row.since_start_ms,
            message: LiveMessage::of(m, row),
        })
        .collect();
    Ok(Json(TaskHops {
        task_id: task,
        span_ms,
        hops,
    }))
}
