//! `GetTask`, `CancelTask` and `SubscribeToTask`.
//!
//! - `GetTask` reads the task's state from the store (see `state`), with the
//!   specification's history length semantics (absent: all; 0: none; n: the last n).
//! - `CancelTask` goes through the one way in for cancellations (`door::cancel`): the
//!   cancellation is the task's one report, status `canceled`, so the answer is the
//!   task in `TASK_STATE_CANCELED` with that report as its artifact. An unknown task is
//!   `TaskNotFound` (-32001); a finished or already canceled one `TaskNotCancelable`
//!   (-32002), its `ErrorInfo` metadata carrying Chorus's code (`finished`,
//!   `already_canceled`). `metadata.reason` (a string) is shown in the report.
//! - `SubscribeToTask` streams a task that is not terminal: first the task as it is,
//!   then its updates, through its questions, to the report. A terminal task is
//!   refused (`UnsupportedOperation`), as the specification says.

use chorus_agents::door::{CancelSubmission, cancel as cancel_door};

use super::errors::RpcError;
use super::follow::{self, Follow};
use super::send::{Started, find};
use super::state::{self, Phase, Snapshot};
use super::wire::{self, CancelTaskRequest, GetTaskRequest, SubscribeToTaskRequest, Task};
use crate::ApiState;

/// `GetTask`: the task as it is now.
pub(crate) async fn get(api: &ApiState, request: GetTaskRequest) -> Result<Task, RpcError> {
    if request.history_length.is_some_and(|n| n < 0) {
        return Err(RpcError::InvalidParams(
            "historyLength must not be negative".to_owned(),
        ));
    }
    let snapshot = find(api, &request.id).await?;
    let mut task = state::to_task(&snapshot, true, wire::now());
    wire::cut_history(&mut task, request.history_length)?;
    Ok(task)
}

/// `CancelTask`: the task, canceled.
pub(crate) async fn cancel(api: &ApiState, request: CancelTaskRequest) -> Result<Task, RpcError> {
    let reason = request
        .metadata
        .as_ref()
        .and_then(|m| m.get("reason"))
        .and_then(|r| r.as_str())
        .map(str::to_owned);
    let submission = CancelSubmission {
        task_id: request.id.clone(),
        reason,
        from: api.instance.clone(),
    };
    let canceled = cancel_door(api.bus.as_ref(), &api.state, submission)
        .await
        .map_err(RpcError::from_cancel)?;
    let task = canceled.message.task_id.to_string();
    // Stored now (the Chief stores it too, once it reads it), so a GetTask right after
    // finds the task canceled.
    if let Err(e) = api.state.put_report(&task, &canceled.report).await {
        tracing::warn!(task_id = %task, error = %e, "storing the canceled report failed");
    }
    let mut snapshot = match state::snapshot(api, &task).await {
        Ok(Some(snapshot)) => snapshot,
        _ => Snapshot::submitted(&task, "", &canceled.report.query),
    };
    snapshot.phase = Phase::Done(canceled.report);
    let at = wire::at_micros(canceled.message.timestamp_us);
    Ok(state::to_task(&snapshot, true, at))
}

/// `SubscribeToTask`: the task as it is, and its follower.
pub(crate) async fn subscribe(
    api: &ApiState,
    request: SubscribeToTaskRequest,
) -> Result<Started, RpcError> {
    // Listening first: whatever the task publishes after the read below is seen.
    let progress = follow::listen(api).await?;
    let snapshot = find(api, &request.id).await?;
    if snapshot.is_done() {
        return Err(RpcError::Unsupported(format!(
            "task {} is in a terminal state; GetTask returns it",
            request.id
        )));
    }
    let (asked, waiting) = match &snapshot.phase {
        Phase::Asking(q) => (q.number, true),
        _ => (0, false),
    };
    let follow = Follow::new(api, &snapshot.task_id, progress, asked, waiting);
    Ok(Started {
        snapshot,
        follow,
        with_data: true,
        history_length: None,
    })
}
