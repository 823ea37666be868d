//! `POST /tasks` (submit, answer 202 with the task id) and `GET /tasks/{id}` (poll:
//! `pending`, `input_required` with the task's question while it waits for an answer,
//! `done` with the report).

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chorus_bus::{ClarificationNeeded, FinalReport};
use serde::{Deserialize, Serialize};

use super::{Accepted, ApiError, ApiState, NewTask};

/// The answer to `GET /tasks/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TaskStatus {
    /// The task's id.
    pub task_id: String,
    /// `pending` until the report is out, then `done`; `input_required` meanwhile while
    /// the task waits for the answer to its question (`POST /tasks/{id}/answer`), its
    /// deadline paused.
    pub state: String,
    /// The final report, when done.
    pub report: Option<FinalReport>,
    /// The question the task waits on, in state `input_required` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<ClarificationNeeded>,
}

impl TaskStatus {
    /// A finished task with its report.
    pub(crate) fn done(task_id: String, report: FinalReport) -> Self {
        TaskStatus {
            report: Some(report),
            ..TaskStatus::new(task_id, "done")
        }
    }

    fn new(task_id: String, state: &str) -> Self {
        TaskStatus {
            task_id,
            state: state.to_owned(),
            report: None,
            question: None,
        }
    }
}

/// Submits a task: 202 with its id; a task id sent again with the same request is the
/// same task: 200 with its state (and report, once done), nothing run twice.
pub async fn create(
    State(api): State<ApiState>,
    body: Result<Json<NewTask>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body.map_err(ApiError::from_json)?;
    let accepted = api.submit(body).await?;
    let task_id = accepted.message.task_id.to_string();
    if accepted.fresh {
        return Ok((StatusCode::ACCEPTED, Json(Accepted { task_id })).into_response());
    }
    let Json(status) = status(State(api), Path(task_id)).await?;
    Ok((StatusCode::OK, Json(status)).into_response())
}

/// A task's state: its report once done, its question while it waits for an answer.
pub async fn status(
    State(api): State<ApiState>,
    Path(id): Path<String>,
) -> Result<Json<TaskStatus>, ApiError> {
    if let Some(report) = api.state.report(&id).await.map_err(ApiError::from_bus)? {
        return Ok(Json(TaskStatus::done(id, report)));
    }
    if let Some(question) = open_question(&api, &id).await? {
        return Ok(Json(TaskStatus {
            question: Some(question),
            ..TaskStatus::new(id, "input_required")
        }));
    }
    if api
        .state
        .request(&id)
        .await
        .map_err(ApiError::from_bus)?
        .is_some()
    {
        return Ok(Json(TaskStatus::new(id, "pending")));
    }
    Err(ApiError::not_found(&format!(
        "no task {id:?} (unknown, or expired)"
    )))
}

/// The question task `id` is paused on ([`chorus_agents::state::TaskState::open_question`]).
pub(crate) async fn open_question(
    api: &ApiState,
    id: &str,
) -> Result<Option<ClarificationNeeded>, ApiError> {
    api.state
        .open_question(id)
        .await
        .map_err(ApiError::from_bus)
}
