//! `POST /chat/stream`: submits the task and streams its progress ([`crate::follow`]) as
//! Server-Sent Events: `accepted` (task id), `plan`, one `step` per step result, then
//! `report` (the final report), or `error` when no report comes within the deadline and
//! a grace period.
//!
//! When the task asks the user something (`clarification_needed`: a missing number, a
//! date that reads two ways), a `question` event carries the question (its
//! `ClarificationNeeded` and the `task_id`) and the stream stays open: the task waits,
//! its deadline paused, for the answer through any door (`POST /tasks/{id}/answer`, a
//! bare `clarification_answer` on the bus, the CLI), and the stream goes on with the
//! plan, the steps and the report, or another `question` when the answer did not
//! settle it. Meanwhile its time limit is the answer timeout (`agents.answer_timeout_ms`)
//! plus the task's deadline; a question nobody answers ends with the `unanswered`
//! report. The same task sent again while it waits gets its question at once.
//!
//! With a model configured (`[llm]`, `synthesize` on), the report is also shown live:
//! the pieces the Synthesizer writes onto the task's token stream come as `token` events
//! (`{"text": …}`), and a `replace` event (`{"text", "written_by", "reason"}`) tells the
//! client to replace what it showed when the model's answer was refused midway, or the
//! published report says otherwise (reason `superseded`). The `report` event comes
//! last, and its text is what the tokens showed. Without a model: no `token` events.

use std::convert::Infallible;

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::response::sse::{Event, KeepAlive, Sse};
use chorus_bus::TaskId;
use serde_json::json;

use super::errors::ApiError;
use super::wire::{NewTask, QuestionEvent};
use crate::api::ApiState;
use crate::follow::{self, Follower, Progress};
use crate::phase::{self, Phase};

/// Streams one task.
pub async fn chat_stream(
    State(api): State<ApiState>,
    body: Result<Json<NewTask>, JsonRejection>,
) -> Result<Sse<impl futures::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Json(body) = body.map_err(ApiError::from_json)?;
    // Listen before publishing so no progress is missed.
    let progress = follow::listen(&api).await.map_err(ApiError::from_bus)?;
    let accepted = api
        .submit(body.query, body.context, body.task_id)
        .await
        .map_err(ApiError::from_submit)?;
    let task = accepted.message.task_id.clone();
    let mut follower = Follower::new(&api, task.clone(), progress);
    // The same task sent again: when its report is out, it is the whole stream; while
    // it waits for an answer, its question comes first.
    if !accepted.fresh {
        match phase::read(&api.state, &task)
            .await
            .map_err(ApiError::from_bus)?
        {
            Some(Phase::Done(report)) => follower = follower.reported(report),
            Some(Phase::InputRequired(question)) => follower = follower.asking(question, true),
            _ => {}
        }
    }
    let events = futures::stream::unfold(follower, |mut follower| async move {
        let progress = follower.next().await?;
        let event = render(follower.task(), progress);
        Some((Ok(event), follower))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// One progress as its named event.
fn render(task: &TaskId, progress: Progress) -> Event {
    match progress {
        Progress::Accepted => event("accepted", &json!({"task_id": task})),
        Progress::Planned { plan, .. } => event("plan", &plan),
        Progress::Step { result, .. } => event("step", &result),
        Progress::Asked { question, .. } => {
            let data = QuestionEvent {
                task_id: task.clone(),
                question,
            };
            event("question", &data)
        }
        Progress::Token(text) => event("token", &json!({"text": text})),
        Progress::Replaced(r) => event(
            "replace",
            &json!({"text": r.text, "written_by": r.written_by, "reason": r.reason}),
        ),
        Progress::Report { report, .. } => event("report", &report),
        Progress::TimedOut => event(
            "error",
            &json!({"task_id": task, "error": "no report before the deadline"}),
        ),
    }
}

fn event(name: &str, data: &impl serde::Serialize) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|e| Event::default().event("error").data(e.to_string()))
}
