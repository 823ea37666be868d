//! The streams of `SendStreamingMessage` and `SubscribeToTask`: Server-Sent Events whose
//! `data` is each a JSON-RPC response (the call's id) holding one `StreamResponse`:
//!
//! 1. `task`: the task as it is (a new task `TASK_STATE_SUBMITTED`, with the user's
//!    request in its history);
//! 2. `statusUpdate` `TASK_STATE_WORKING` for the plan and for each step's result, its
//!    status message saying what happened (`planned 3 step(s)`, `s1 sum = 6`);
//! 3. on a question, `statusUpdate` `TASK_STATE_INPUT_REQUIRED` with the question as its
//!    message; a `SendStreamingMessage` stream ends there (the answer is the next
//!    message, on the same taskId), a subscription goes on;
//! 4. on the report, `artifactUpdate` with the `report` artifact (`lastChunk`), then the
//!    final `statusUpdate`, and the stream ends.
//!
//! No report within the task's time limits ends the stream with an `error` event
//! holding a JSON-RPC internal error. An error found before the stream starts is a
//! plain JSON-RPC error response, not a stream.

use std::collections::VecDeque;
use std::convert::Infallible;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;

use super::errors::RpcError;
use super::methods::Started;
use super::state::{self, Snapshot};
use super::updates::{Update, Updates};
use super::wire::{
    self, JsonRpcId, JsonRpcResponse, StreamResponse, Success, TaskArtifactUpdateEvent, TaskState,
    TaskStatus, TaskStatusUpdateEvent,
};
use crate::phase::Phase;

/// When a stream ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Until {
    /// At a question or the report (`SendStreamingMessage`).
    Interrupted,
    /// At the report (`SubscribeToTask`).
    Terminal,
}

/// The stream of a task taken by `started`, answering call `id`.
pub(crate) fn stream(
    id: JsonRpcId,
    started: Started,
    until: Until,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let Started {
        snapshot,
        follow,
        with_data,
        history_length,
    } = started;
    let mut task = state::to_task(&snapshot, with_data, wire::now());
    let mut queue = VecDeque::new();
    match wire::cut_history(&mut task, history_length) {
        Ok(()) => queue.push_back(event(&id, StreamResponse::Task(task))),
        Err(e) => queue.push_back(error_event(&id, &e)),
    }
    let ended = match &snapshot.phase {
        Phase::Done(_) => true,
        Phase::InputRequired(_) => until == Until::Interrupted,
        _ => false,
    };
    let state = Streaming {
        id,
        snapshot,
        follow,
        with_data,
        until,
        queue,
        ended,
        progress: 0,
    };
    let events = futures::stream::unfold(state, |mut s| async move {
        let next = s.next_event().await?;
        Some((Ok(next), s))
    });
    Sse::new(events).keep_alive(KeepAlive::default())
}

/// One stream's state.
struct Streaming {
    id: JsonRpcId,
    snapshot: Snapshot,
    follow: Updates,
    with_data: bool,
    until: Until,
    /// Events ready to go out.
    queue: VecDeque<Event>,
    /// No more updates to wait for (the queue still goes out).
    ended: bool,
    /// How many progress messages went out (their ids).
    progress: u32,
}

impl Streaming {
    async fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.queue.pop_front() {
                return Some(event);
            }
            if self.ended {
                return None;
            }
            let update = self.follow.next().await;
            self.take(update);
        }
    }

    /// Queues the events of `update`.
    fn take(&mut self, update: Update) {
        let (task, context) = (&self.snapshot.task_id, &self.snapshot.context_id);
        match update {
            Update::Working { text, at } => {
                self.progress += 1;
                let id = format!("{task}:progress:{}", self.progress);
                let message = wire::agent_message(id, task, context, vec![wire::text(&text)]);
                let status = wire::status(TaskState::Working, Some(message), at);
                self.status(status);
            }
            Update::Asked { question, at } => {
                let message = state::question_message(task, context, &question);
                let status = wire::status(TaskState::InputRequired, Some(message), at);
                self.status(status);
                self.ended = self.until == Until::Interrupted;
            }
            Update::Reported { report, at } => {
                let artifact = TaskArtifactUpdateEvent {
                    task_id: task.to_string(),
                    context_id: context.clone(),
                    artifact: state::report_artifact(&report, self.with_data),
                    append: Some(false),
                    last_chunk: Some(true),
                    metadata: None,
                };
                let response = StreamResponse::ArtifactUpdate(artifact);
                self.queue.push_back(event(&self.id, response));
                let status = state::report_status(task, context, &report, at);
                self.status(status);
                self.ended = true;
            }
            Update::TimedOut => {
                let e = RpcError::Internal(format!(
                    "no report for task {task} within its deadline; GetTask tells its state"
                ));
                self.queue.push_back(error_event(&self.id, &e));
                self.ended = true;
            }
        }
    }

    fn status(&mut self, status: TaskStatus) {
        let update = TaskStatusUpdateEvent {
            task_id: self.snapshot.task_id.to_string(),
            context_id: self.snapshot.context_id.clone(),
            status,
            metadata: None,
        };
        let response = StreamResponse::StatusUpdate(update);
        self.queue.push_back(event(&self.id, response));
    }
}

/// One stream event: a JSON-RPC success response holding `response`.
fn event(id: &JsonRpcId, response: StreamResponse) -> Event {
    let body = Success::new(id, response);
    Event::default().data(serde_json::to_string(&body).unwrap_or_default())
}

/// An `error` event: a JSON-RPC error response.
fn error_event(id: &JsonRpcId, e: &RpcError) -> Event {
    let body = JsonRpcResponse::error(id.clone(), e.to_jsonrpc());
    Event::default()
        .event("error")
        .data(serde_json::to_string(&body).unwrap_or_default())
}
