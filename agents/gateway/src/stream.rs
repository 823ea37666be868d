//! `POST /chat/stream`: submits the task and streams its progress as Server-Sent
//! Events: `accepted` (task id), `plan`, one `step` per step result, then `report` (the
//! final report), or `error` when no report comes within the deadline and a grace period.
//!
//! With a model configured (`[llm]`, `synthesize` on), the report is also written live:
//! once every step of the plan has its result, the model's answer streams as `token`
//! events (`{"text": …}`, each number held back until it is checked against the
//! results), and a `replace` event (`{"text", "written_by", "reason"}`) tells the client
//! to replace what it showed when the model's answer is refused midway. The `report`
//! event comes last, after the tokens. When the report arrives before the steps were
//! seen complete (a deadline report, steps on an unserved pool), the tokens are written
//! from the report's steps; a report without steps, or past its deadline, comes as one
//! `token` with its text. Without a model: no `token` events, exactly as before.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::response::sse::{Event, KeepAlive, Sse};
use chorus_bus::{FinalReport, Message, Payload, PlanReady, ReportStatus, StepId, StepResult};
use chorus_llm::{LlmSynthesizer, SynthEvent, SynthStream, stream_or_template};
use futures::StreamExt;
use serde_json::json;
use tokio::sync::{broadcast, mpsc};
use tokio::time::{Instant, timeout_at};
use tokio_stream::wrappers::ReceiverStream;

use super::{ApiError, ApiState, NewTask};
use chorus_agents::report;

/// Extra time past the deadline before the stream gives up.
const GRACE: Duration = Duration::from_secs(2);

type Tx = mpsc::Sender<Result<Event, Infallible>>;

fn event(name: &str, data: &impl serde::Serialize) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|e| Event::default().event("error").data(e.to_string()))
}

/// Sends one event; false when the client went away.
async fn send(tx: &Tx, name: &str, data: &impl serde::Serialize) -> bool {
    tx.send(Ok(event(name, data))).await.is_ok()
}

/// Streams one task.
pub async fn chat_stream(
    State(api): State<ApiState>,
    body: Result<Json<NewTask>, JsonRejection>,
) -> Result<Sse<impl futures::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Json(body) = body.map_err(ApiError::from_json)?;
    // Subscribe before publishing so no progress is missed.
    let progress = api.hub.subscribe().await.map_err(ApiError::from_bus)?;
    let accepted = api.submit(body).await?;
    let task = accepted.message.task_id.to_string();
    // The same task sent again: when its report is out, it is the whole stream.
    let done = match accepted.fresh {
        true => None,
        false => api.state.report(&task).await.map_err(ApiError::from_bus)?,
    };
    let (tx, rx) = mpsc::channel(64);
    let until = Instant::now() + api.deadline + GRACE;
    let follow = Follow {
        task,
        tx,
        writer: api.writer.clone(),
        plan: None,
        results: HashMap::new(),
        writing: match done {
            Some(_) => Writing::Done,
            None => Writing::NotStarted,
        },
        report: done,
    };
    tokio::spawn(follow.run(progress, until));
    Ok(Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::default()))
}

/// Where the live report is.
enum Writing {
    /// Not yet: the steps are not all final.
    NotStarted,
    /// The model's tokens are coming.
    Streaming(SynthStream),
    /// Written, or nothing to write (no model).
    Done,
}

/// One task followed for one client.
struct Follow {
    task: String,
    tx: Tx,
    writer: Option<LlmSynthesizer>,
    plan: Option<PlanReady>,
    results: HashMap<StepId, StepResult>,
    report: Option<FinalReport>,
    writing: Writing,
}

/// What the follower waits on next.
enum Next {
    Progress(Result<Arc<Message>, broadcast::error::RecvError>),
    Token(Option<SynthEvent>),
    TimedOut,
}

impl Follow {
    async fn run(mut self, mut progress: broadcast::Receiver<Arc<Message>>, until: Instant) {
        if self.writer.is_none() {
            self.writing = Writing::Done;
        }
        let accepted = json!({"task_id": self.task});
        if !send(&self.tx, "accepted", &accepted).await {
            return;
        }
        loop {
            if matches!(self.writing, Writing::Done)
                && let Some(report) = self.report.take()
            {
                let _ = send(&self.tx, "report", &report).await;
                return;
            }
            let next = match &mut self.writing {
                Writing::Streaming(tokens) => match timeout_at(until, tokens.next()).await {
                    Ok(ev) => Next::Token(ev),
                    Err(_) => Next::TimedOut,
                },
                _ => match timeout_at(until, progress.recv()).await {
                    Ok(m) => Next::Progress(m),
                    Err(_) => Next::TimedOut,
                },
            };
            let open = match next {
                Next::Progress(Ok(m)) => self.on_message(&m).await,
                Next::Progress(Err(broadcast::error::RecvError::Lagged(n))) => {
                    tracing::warn!(task_id = %self.task, skipped = n, "stream lagged");
                    true
                }
                Next::Token(ev) => self.on_token(ev).await,
                Next::Progress(Err(_)) | Next::TimedOut => {
                    if self.report.is_some() {
                        // Out of time for tokens: the report still goes out.
                        self.writing = Writing::Done;
                        continue;
                    }
                    let err =
                        json!({"task_id": self.task, "error": "no report before the deadline"});
                    let _ = send(&self.tx, "error", &err).await;
                    return;
                }
            };
            if !open {
                return; // the client went away
            }
        }
    }

    async fn on_message(&mut self, m: &Message) -> bool {
        if m.task_id != self.task {
            return true;
        }
        match &m.payload {
            Payload::PlanReady(p) => {
                let open = send(&self.tx, "plan", p).await;
                self.plan = Some(p.clone());
                self.start_when_final();
                open
            }
            Payload::StepResult(r) => {
                let open = send(&self.tx, "step", r).await;
                self.results.insert(r.step_id.clone(), r.clone());
                self.start_when_final();
                open
            }
            Payload::FinalReport(r) => {
                self.report = Some(r.clone());
                if matches!(self.writing, Writing::NotStarted) {
                    return self.start_from_report(r).await;
                }
                true
            }
            _ => true,
        }
    }

    /// Starts the model's report once every step of the plan has its result.
    fn start_when_final(&mut self) {
        let (Writing::NotStarted, Some(writer), Some(plan)) =
            (&self.writing, &self.writer, &self.plan)
        else {
            return;
        };
        if plan.plan.steps.is_empty() || !report::complete(plan, &self.results) {
            return;
        }
        let built = report::build(plan, &self.results);
        self.writing = Writing::Streaming(stream_or_template(
            Some(writer.clone()),
            plan.query.clone(),
            plan.language.clone(),
            built.steps,
            built.status,
            plan.unplanned.clone(),
        ));
    }

    /// The report came first: tokens from its steps, or its text as one token when it
    /// has no steps or is a deadline report.
    async fn start_from_report(&mut self, r: &FinalReport) -> bool {
        let finished = r.steps.iter().all(|s| s.outcome.is_some());
        match &self.writer {
            Some(writer)
                if !r.steps.is_empty()
                    && finished
                    && r.status != ReportStatus::DeadlineExceeded =>
            {
                let unplanned = self.plan.as_ref().and_then(|p| p.unplanned.clone());
                self.writing = Writing::Streaming(stream_or_template(
                    Some(writer.clone()),
                    r.query.clone(),
                    r.language.clone(),
                    r.steps.clone(),
                    r.status,
                    unplanned,
                ));
                true
            }
            _ => {
                self.writing = Writing::Done;
                send(&self.tx, "token", &json!({"text": r.text})).await
            }
        }
    }

    async fn on_token(&mut self, ev: Option<SynthEvent>) -> bool {
        match ev {
            Some(SynthEvent::Token(text)) => send(&self.tx, "token", &json!({"text": text})).await,
            Some(SynthEvent::Done {
                text,
                written_by,
                fallback,
                replace,
            }) => {
                self.writing = Writing::Done;
                if let Some(reason) = &fallback {
                    tracing::warn!(task_id = %self.task, code = %reason.code(), reason = %reason,
                        "streamed report not the model's; template sent");
                }
                if !replace {
                    return true;
                }
                let reason = fallback.map(|f| f.code());
                let data = json!({"text": text, "written_by": written_by, "reason": reason});
                send(&self.tx, "replace", &data).await
            }
            None => {
                self.writing = Writing::Done;
                true
            }
        }
    }
}
