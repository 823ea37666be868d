//! `DELETE /tasks/{id}`: cancels a task through the one way in for cancellations
//! (`chorus_core::door::cancel`). 200 with the task's one report, status `canceled`
//! (what had finished by then); 404 for an unknown task, 409 for a finished or
//! already canceled one, each a JSON error with the door's code. An optional
//! `?reason=…` is shown in the report.

use axum::Json;
use axum::extract::{Path, Query, State};
use chorus_core::door::{CancelSubmission, cancel as cancel_door};

use super::errors::ApiError;
use super::wire::{CancelQuery, TaskStatus};
use crate::api::ApiState;
use crate::phase::Phase;

/// Cancels task `id`: its one report, status `canceled`, is the answer.
pub async fn cancel(
    State(api): State<ApiState>,
    Path(id): Path<String>,
    Query(query): Query<CancelQuery>,
) -> Result<Json<TaskStatus>, ApiError> {
    let submission = CancelSubmission {
        task_id: id,
        reason: query.reason,
        from: api.instance.clone(),
    };
    let canceled = cancel_door(api.bus.as_ref(), &api.state, submission)
        .await
        .map_err(ApiError::from_cancel)?;
    Ok(Json(TaskStatus::new(
        canceled.message.task_id,
        Phase::Done(canceled.report),
    )))
}
