//! `GET /tasks`: the most recent tasks, newest first, with their state, the report's
//! status and the time from request to report. Read from the tail of `task_available`
//! and `final_report` (at most `limit` entries each, [`super::MAX_LIMIT`] at most), then
//! one state read per task whose report was not among them.

use std::collections::HashMap;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use chorus_bus::{FinalReport, Message, Payload, TaskId, Topic};
use chorus_core::hops::format::{first_line, sent_us, value};
use serde::{Deserialize, Serialize};

use crate::api::ApiState;
use crate::native::{ApiError, TaskPhase};
use crate::phase::{self, Phase};

/// Tasks listed when no `limit` is given.
const DEFAULT_LIMIT: usize = 50;

/// The query of a list route: `?limit=N`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ListQuery {
    /// How many entries to read (at most [`super::MAX_LIMIT`]).
    pub limit: Option<usize>,
}

/// One recent task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TaskSummary {
    /// The task's id.
    pub task_id: TaskId,
    /// The request in the user's words.
    pub query: String,
    /// `pending`, `input_required` (waiting for the answer to its question) or `done`
    /// (the task's phase, as `GET /tasks/{id}` names it).
    pub state: TaskPhase,
    /// The report's status (`completed`, `partial`, `failed`, `canceled`, …), once done.
    pub status: Option<String>,
    /// When the request was sent, in microseconds since the Unix epoch.
    pub submitted_us: u64,
    /// When the report was sent, once done.
    pub finished_us: Option<u64>,
    /// Milliseconds from request to report, once done.
    pub latency_ms: Option<f64>,
    /// The report's first line once done, or the question a waiting task asks.
    pub summary: Option<String>,
}

/// The answer to `GET /tasks`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TaskList {
    /// Recent tasks, newest first.
    pub tasks: Vec<TaskSummary>,
}

/// A report's status as its wire name (`completed`, …).
fn status_name(report: &FinalReport) -> String {
    serde_json::to_value(report.status)
        .map(|v| value(&v))
        .unwrap_or_default()
}

/// The requests of `msgs` once per task (the earliest, as a bare request and the
/// envelope the Chief passes on share a task id), newest first.
fn requests(msgs: Vec<Message>) -> Vec<(TaskId, String, u64)> {
    let mut seen: HashMap<TaskId, (String, u64)> = HashMap::new();
    for m in msgs {
        if let Payload::TaskAvailable(r) = &m.payload {
            let t = sent_us(&m);
            let entry = seen
                .entry(m.task_id.clone())
                .or_insert((r.query.clone(), t));
            entry.1 = entry.1.min(t);
        }
    }
    let mut out: Vec<(TaskId, String, u64)> =
        seen.into_iter().map(|(id, (q, t))| (id, q, t)).collect();
    out.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    out
}

/// `GET /tasks?limit=N`: recent tasks, newest first.
pub async fn recent(
    State(api): State<ApiState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<TaskList>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request("invalid_query", &e.body_text()))?;
    let limit = super::clamp(query.limit, DEFAULT_LIMIT);
    let bus = api.bus.as_ref();
    let asked = bus
        .recent(&Topic::task_available(), limit)
        .await
        .map_err(ApiError::from_bus)?;
    let mut reports: HashMap<TaskId, (FinalReport, u64)> = HashMap::new();
    for m in bus
        .recent(&Topic::final_report(), limit)
        .await
        .map_err(ApiError::from_bus)?
    {
        let t = sent_us(&m);
        if let Payload::FinalReport(r) = m.payload {
            reports.insert(m.task_id, (r, t));
        }
    }
    let mut tasks = Vec::new();
    for (task_id, query, submitted_us) in requests(asked).into_iter().take(limit) {
        let mut summary = TaskSummary {
            task_id,
            query,
            state: TaskPhase::Pending,
            status: None,
            submitted_us,
            finished_us: None,
            latency_ms: None,
            summary: None,
        };
        let (phase, at) = match reports.remove(&summary.task_id) {
            Some((report, at)) => (Some(Phase::Done(report)), Some(at)),
            None => (
                phase::read(&api.state, &summary.task_id)
                    .await
                    .map_err(ApiError::from_bus)?,
                None,
            ),
        };
        if let Some(phase) = phase {
            summary.state = TaskPhase::from(&phase);
            match phase {
                Phase::Done(report) => {
                    summary.status = Some(status_name(&report));
                    summary.summary = Some(first_line(&report.text));
                    summary.finished_us = at;
                    summary.latency_ms = at.map(|t| t.saturating_sub(submitted_us) as f64 / 1000.0);
                }
                Phase::InputRequired(q) => summary.summary = Some(first_line(&q.question)),
                Phase::Pending | Phase::Working => {}
            }
        }
        tasks.push(summary);
    }
    Ok(Json(TaskList { tasks }))
}
