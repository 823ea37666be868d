//! `POST /tasks` (submit, answer 202 with the task id) and `GET /tasks/{id}` (poll:
//! `pending`, `input_required` with the task's question while it waits for an answer,
//! `done` with the report — the task's phase, [`crate::phase`]).

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chorus_bus::TaskId;

use super::errors::ApiError;
use super::wire::{Accepted, NewTask, TaskStatus};
use crate::api::ApiState;
use crate::phase;

/// Submits a task: 202 with its id; a task id sent again with the same request is the
/// same task: 200 with its state (and report, once done), nothing run twice.
pub async fn create(
    State(api): State<ApiState>,
    body: Result<Json<NewTask>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body.map_err(ApiError::from_json)?;
    let accepted = api
        .submit(body.query, body.context, body.task_id)
        .await
        .map_err(ApiError::from_submit)?;
    let task_id = accepted.message.task_id;
    if accepted.fresh {
        return Ok((StatusCode::ACCEPTED, Json(Accepted { task_id })).into_response());
    }
    let Json(status) = status(State(api), Path(task_id.to_string())).await?;
    Ok((StatusCode::OK, Json(status)).into_response())
}

/// A task's state: its report once done, its question while it waits for an answer.
pub async fn status(
    State(api): State<ApiState>,
    Path(id): Path<String>,
) -> Result<Json<TaskStatus>, ApiError> {
    let task = TaskId::from(id.as_str());
    match phase::read(&api.state, &task)
        .await
        .map_err(ApiError::from_bus)?
    {
        Some(phase) => Ok(Json(TaskStatus::new(task, phase))),
        None => Err(ApiError::not_found(&format!(
            "no task {id:?} (unknown, or expired)"
        ))),
    }
}
