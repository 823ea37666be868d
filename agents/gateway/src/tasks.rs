//! `POST /tasks` (submit, answer 202 with the task id) and `GET /tasks/{id}` (poll).

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chorus_bus::FinalReport;
use serde::{Deserialize, Serialize};

use super::{Accepted, ApiError, ApiState, NewTask};

/// The answer to `GET /tasks/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TaskStatus {
    /// The task's id.
    pub task_id: String,
    /// `pending` until the report is out, then `done`.
    pub state: String,
    /// The final report, when done.
    pub report: Option<FinalReport>,
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

/// A task's state and, once done, its report.
pub async fn status(
    State(api): State<ApiState>,
    Path(id): Path<String>,
) -> Result<Json<TaskStatus>, ApiError> {
    if let Some(report) = api.state.report(&id).await.map_err(ApiError::from_bus)? {
        return Ok(Json(TaskStatus {
            task_id: id,
            state: "done".into(),
            report: Some(report),
        }));
    }
    if api
        .state
        .request(&id)
        .await
        .map_err(ApiError::from_bus)?
        .is_some()
    {
        return Ok(Json(TaskStatus {
            task_id: id,
            state: "pending".into(),
            report: None,
        }));
    }
    Err(ApiError::not_found(&format!(
        "no task {id:?} (unknown, or expired)"
    )))
}
