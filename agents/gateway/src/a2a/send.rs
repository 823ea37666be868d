//! `SendMessage` and `SendStreamingMessage`: a user's message either opens a new task
//! or, naming a task (`message.taskId`), answers the question that task asks.
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
//!
//! A blocking call (the default; `configuration.returnImmediately` false) returns the
//! task once it is terminal or asks a question; `returnImmediately` returns it at once
//! (`TASK_STATE_SUBMITTED` for a new task, `TASK_STATE_WORKING` after an answer).

use chorus_agents::door::{AnswerError, AnswerSubmission, answer as answer_door};

use super::errors::RpcError;
use super::follow::{self, Follow, Progress, Update};
use super::state::{self, Phase, Snapshot};
use super::wire::{self, Input, SendMessageRequest, Task};
use crate::{ApiState, NewTask};

/// A message taken: the task as it is now, and its follower.
pub(crate) struct Started {
    /// The task right after the message was taken.
    pub(crate) snapshot: Snapshot,
    /// Follows the task from there.
    pub(crate) follow: Follow,
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
    let progress = follow::listen(api).await?;
    let (snapshot, follow) = match request.message.task_id.clone() {
        Some(task) if !task.is_empty() => answer(api, task, context, &input, progress).await?,
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
    progress: Progress,
) -> Result<(Snapshot, Follow), RpcError> {
    let context = context.unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    let mut task_context = input.context.clone();
    task_context.session_id = Some(context.clone());
    let body = NewTask {
        query: input.text.clone(),
        context: task_context,
        task_id: None,
    };
    let accepted = match api.submit(body).await {
        Ok(accepted) => accepted,
        Err(e) => return Err(RpcError::from_api(e).await),
    };
    let task = accepted.message.task_id.to_string();
    let snapshot = Snapshot::submitted(&task, &context, &input.text);
    Ok((snapshot, Follow::new(api, &task, progress, 0, false)))
}

/// The answer to the question task `task` asks.
async fn answer(
    api: &ApiState,
    task: String,
    context: Option<String>,
    input: &Input,
    progress: Progress,
) -> Result<(Snapshot, Follow), RpcError> {
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
        task_id: task.clone(),
        answer: input.text.clone(),
        question: None,
        from: api.instance.clone(),
    };
    let settled = match answer_door(api.bus.as_ref(), &api.state, submission).await {
        Ok(answered) => answered.number,
        Err(AnswerError::AlreadyAnswered {
            same: true, number, ..
        }) => number,
        Err(e) => return Err(RpcError::from_answer(e)),
    };
    let after = find(api, &task).await?;
    let asked = match &after.phase {
        Phase::Asking(q) => q.number.max(settled),
        _ => settled,
    };
    Ok((after, Follow::new(api, &task, progress, asked, false)))
}

/// Task `task` as the store has it, or not found.
pub(crate) async fn find(api: &ApiState, task: &str) -> Result<Snapshot, RpcError> {
    let not_found = || RpcError::TaskNotFound {
        task_id: task.to_owned(),
    };
    chorus_bus::TaskId::parse(task).map_err(|_| not_found())?;
    state::snapshot(api, task)
        .await
        .map_err(RpcError::from_bus)?
        .ok_or_else(not_found)
}

/// Follows the task until it is terminal or asks; on time out, as the store has it.
async fn wait(
    api: &ApiState,
    mut snap: Snapshot,
    follow: &mut Follow,
) -> Result<Snapshot, RpcError> {
    loop {
        if matches!(snap.phase, Phase::Asking(_) | Phase::Done(_)) {
            return Ok(snap);
        }
        match follow.next().await {
            Update::Working { .. } => snap.phase = Phase::Working,
            Update::Asked { question, .. } => snap.phase = Phase::Asking(question),
            Update::Reported { report, .. } => snap.phase = Phase::Done(report),
            Update::TimedOut => return find(api, &snap.task_id).await,
        }
    }
}
