//! `POST /tasks` (submit, answer 202 with the task id) and `GET /tasks/{id}` (poll).

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
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

/// Submits a task.
pub async fn create(
    State(api): State<ApiState>,
    body: Result<Json<NewTask>, JsonRejection>,
) -> Result<(StatusCode, Json<Accepted>), ApiError> {
    let Json(body) = body.map_err(ApiError::from_json)?;
    let msg = api.submit(body).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Accepted {
            task_id: msg.task_id.into(),
        }),
    ))
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
