//! The methods: `SendMessage` and `SendStreamingMessage` (a user's message either
//! opens a new task or, naming a task in `message.taskId`, answers the question that
//! task asks), `GetTask`, `CancelTask` and `SubscribeToTask`.
//!
//! - A new task goes through the gateway's one way in (`ApiState::submit`): the
//!   message's text parts are the query, its `contextId` the conversation
//!   (`TaskContext.session_id`, one generated when absent, so a follow-up in the same
//!   contextId can use the answer), `metadata.context` the rest of the Chorus context.
//!   The task id is Chorus's (clients do not choose it, as the specification says).
//! - An answer goes through the one way in for answers (`door::answer`), for a task in
//!   `TASK_STATE_INPUT_REQUIRED`; a terminal task refuses it (`UnsupportedOperation`),
//!   as does a working one, and a `contextId` other than the task's is invalid params.
//!   Sending the same answer again is no error: the task is followed as before.
//! - A blocking send (the default; `configuration.returnImmediately` false) returns the
//!   task once it is terminal or asks a question; `returnImmediately` returns it at once
//!   (`TASK_STATE_SUBMITTED` for a new task, `TASK_STATE_WORKING` after an answer).
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

use chorus_bus::TaskId;
use chorus_core::door::{
    AnswerError, AnswerSubmission, CancelSubmission, answer as answer_door, cancel as cancel_door,
};

use super::errors::RpcError;
use super::state::{self, Snapshot};
use super::updates::{Update, Updates};
use super::wire::{
    self, CancelTaskRequest, GetTaskRequest, Input, SendMessageRequest, SubscribeToTaskRequest,
    Task,
};
use crate::api::ApiState;
use crate::follow::{self, Follower, Listening};
use crate::phase::Phase;

/// A message taken: the task as it is now, and its updates.
pub(crate) struct Started {
    /// The task right after the message was taken.
    pub(crate) snapshot: Snapshot,
    /// The task's updates from there.
    pub(crate) follow: Updates,
    /// Whether the report's JSON part goes out.
    pub(crate) with_data: bool,
    /// The history length the client asked for.
    pub(crate) history_length: Option<i32>,
}

/// `SendMessage`: the task when it is terminal or asks (or at once, with
/// `returnImmediately`).
pub(crate) async fn send(api: &ApiState, request: SendMessageRequest) -> Result<Task, RpcError> {
    let immediately = request
        .configuration
        .as_ref()
        .and_then(|c| c.return_immediately)
        .unwrap_or(false);
    let Started {
        mut snapshot,
        mut follow,
        with_data,
        history_length,
    } = start(api, request).await?;
    if !immediately {
        snapshot = wait(api, snapshot, &mut follow).await?;
    }
    let mut task = state::to_task(&snapshot, with_data, wire::now());
    wire::cut_history(&mut task, history_length)?;
    Ok(task)
}

/// Takes `request`'s message: a new task, or the answer to the question of the task it
/// names. Nothing is published when the request is refused.
pub(crate) async fn start(
    api: &ApiState,
    request: SendMessageRequest,
) -> Result<Started, RpcError> {
    let configuration = request.configuration.as_ref();
    if configuration.is_some_and(|c| c.task_push_notification_config.is_some()) {
        return Err(RpcError::PushNotSupported);
    }
    let history_length = configuration.and_then(|c| c.history_length);
    if history_length.is_some_and(|n| n < 0) {
        return Err(RpcError::InvalidParams(
            "configuration.historyLength must not be negative".to_owned(),
        ));
    }
    let input = wire::read_input(&request)?;
    let context = request.message.context_id.clone().filter(|c| !c.is_empty());
    let progress = follow::listen(api).await.map_err(RpcError::from_bus)?;
    let (snapshot, follow) = match request.message.task_id.clone() {
        Some(task) if !task.is_empty() => {
            // An id the client sent: read here (unknown when invalid).
            let task = TaskId::parse(&task).map_err(|_| not_found(&task))?;
            answer(api, task, context, &input, progress).await?
        }
        _ => submit(api, context, &input, progress).await?,
    };
    Ok(Started {
        snapshot,
        follow,
        with_data: input.with_data,
        history_length,
    })
}

/// A new task in conversation `context` (a new one when `None`).
async fn submit(
    api: &ApiState,
    context: Option<String>,
    input: &Input,
    progress: Listening,
) -> Result<(Snapshot, Updates), RpcError> {
    let context = context.unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    let mut task_context = input.context.clone();
    task_context.session_id = Some(context.clone());
    let accepted = api
        .submit(input.text.clone(), task_context, None)
        .await
        .map_err(RpcError::from_submit)?;
    let task = accepted.message.task_id;
    let snapshot = Snapshot::submitted(&task, &context, &input.text);
    let follower = Follower::new(api, task, progress);
    Ok((snapshot, Updates::new(follower)))
}

/// The answer to the question task `task` asks.
async fn answer(
    api: &ApiState,
    task: TaskId,
    context: Option<String>,
    input: &Input,
    progress: Listening,
) -> Result<(Snapshot, Updates), RpcError> {
    let before = find(api, &task).await?;
    if let Some(context) = context
        && context != before.context_id
    {
        return Err(RpcError::InvalidParams(format!(
            "message.contextId {context:?} is not the contextId of task {task} ({:?})",
            before.context_id
        )));
    }
    if before.is_done() {
        return Err(RpcError::Unsupported(format!(
            "task {task} is in a terminal state; send a new message without taskId \
             (in the same contextId for a follow-up)"
        )));
    }
    let submission = AnswerSubmission {
        task_id: task.to_string(),
        answer: input.text.clone(),
        question: None,
        from: api.instance.clone(),
    };
    let (task_id, settled) = match answer_door(api.bus.as_ref(), &api.state, submission).await {
        Ok(answered) => (answered.message.task_id, answered.number),
        Err(AnswerError::AlreadyAnswered {
            same: true, number, ..
        }) => (task.clone(), number),
        Err(e) => return Err(RpcError::from_answer(e)),
    };
    let after = find(api, &task).await?;
    let asked = match &after.phase {
        Phase::InputRequired(q) => q.number.max(settled),
        _ => settled,
    };
    let follower = Follower::new(api, task_id, progress).answered(asked);
    Ok((after, Updates::new(follower)))
}

/// The error for an unknown task.
fn not_found(task: &str) -> RpcError {
    RpcError::TaskNotFound {
        task_id: task.to_owned(),
    }
}

/// The task a request names by `id` (a client's text), as the store has it; not found
/// when `id` cannot be a task's id.
async fn find_named(api: &ApiState, id: &str) -> Result<Snapshot, RpcError> {
    let task = TaskId::parse(id).map_err(|_| not_found(id))?;
    find(api, &task).await
}

/// Task `task` as the store has it, or not found.
pub(crate) async fn find(api: &ApiState, task: &TaskId) -> Result<Snapshot, RpcError> {
    state::snapshot(api, task)
        .await
        .map_err(RpcError::from_bus)?
        .ok_or_else(|| not_found(task))
}

/// Follows the task until it is terminal or asks; on time out, as the store has it.
async fn wait(
    api: &ApiState,
    mut snap: Snapshot,
    follow: &mut Updates,
) -> Result<Snapshot, RpcError> {
    loop {
        if matches!(snap.phase, Phase::InputRequired(_) | Phase::Done(_)) {
            return Ok(snap);
        }
        match follow.next().await {
            Update::Working { .. } => snap.phase = Phase::Working,
            Update::Asked { question, .. } => snap.phase = Phase::InputRequired(question),
            Update::Reported { report, .. } => snap.phase = Phase::Done(report),
            Update::TimedOut => return find(api, &snap.task_id).await,
        }
    }
}

/// `GetTask`: the task as it is now.
pub(crate) async fn get(api: &ApiState, request: GetTaskRequest) -> Result<Task, RpcError> {
    if request.history_length.is_some_and(|n| n < 0) {
        return Err(RpcError::InvalidParams(
            "historyLength must not be negative".to_owned(),
        ));
    }
    let snapshot = find_named(api, &request.id).await?;
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
    let task = canceled.message.task_id.clone();
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
    let progress = follow::listen(api).await.map_err(RpcError::from_bus)?;
    let snapshot = find_named(api, &request.id).await?;
    if snapshot.is_done() {
        return Err(RpcError::Unsupported(format!(
            "task {} is in a terminal state; GetTask returns it",
            request.id
        )));
    }
    let task = snapshot.task_id.clone();
    let mut follower = Follower::new(api, task, progress);
    if let Phase::InputRequired(question) = &snapshot.phase {
        // Shown in the task that opens the stream; the wait for its answer counts.
        follower = follower.asking(question.clone(), false);
    }
    let follow = Updates::new(follower);
    Ok(Started {
        snapshot,
        follow,
        with_data: true,
        history_length: None,
    })
}
