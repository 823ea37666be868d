//! `POST /chat/stream`: submits the task and streams its progress as Server-Sent
//! Events: `accepted` (task id), `plan`, one `step` per step result, then `report` (the
//! final report), or `error` when no report comes within the deadline and a grace period.
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
//! once every step of the plan has its result, the pieces the Synthesizer writes onto the
//! task's token stream (`report_tokens:<task_id>`, its one model call) are relayed as
//! `token` events (`{"text": …}`, each number held back by the Synthesizer until it is
//! checked against the results), and a `replace` event (`{"text", "written_by",
//! "reason"}`) tells the client to replace what it showed when the model's answer was
//! refused midway. The `report` event comes last, after the tokens, and its text is what
//! the tokens showed: should the published report say otherwise (a deadline report
//! written while the tokens came), a `replace` with its text (reason `superseded`) comes
//! first. The gateway calls no model. When the report arrives before the steps were seen
//! complete (steps on an unserved pool), the tokens are read from the stream the
//! Synthesizer already wrote; a report without steps, or past its deadline, comes as one
//! `token` with its text. Without a model: no `token` events, exactly as before.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::response::sse::{Event, KeepAlive, Sse};
use chorus_bus::{
    Bus, ClarificationNeeded, FinalReport, Message, Payload, PlanReady, ReportStatus, ReportToken,
    StepId, StepResult, TaskId, TokenReader,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::{broadcast, mpsc};
use tokio::time::{Instant, timeout_at};
use tokio_stream::wrappers::ReceiverStream;

use super::{ApiError, ApiState, NewTask};
use chorus_agents::report;

/// Extra time past the deadline before a follower of a task (the stream, the OpenAI and
/// A2A doors) gives up.
pub(crate) const GRACE: Duration = Duration::from_secs(2);

/// Longest wait for the next tokens before looking for the report again.
const TOKEN_WAIT: Duration = Duration::from_millis(200);

/// The `reason` of a `replace` sent because the report says other than the tokens.
const SUPERSEDED: &str = "superseded";

pub(crate) type Tx = mpsc::Sender<Result<Event, Infallible>>;

/// The data of a `question` event: the task's question, with the task's id.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QuestionEvent {
    /// The task that asks (answer with `POST /tasks/{task_id}/answer`).
    pub task_id: String,
    /// The question, as the Planner published it on `clarification_needed`.
    #[serde(flatten)]
    pub question: ClarificationNeeded,
}

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
    let task = accepted.message.task_id.clone();
    // The same task sent again: when its report is out, it is the whole stream; while
    // it waits for an answer, its question comes first.
    let (done, waiting) = match accepted.fresh {
        true => (None, None),
        false => match api.state.report(&task).await.map_err(ApiError::from_bus)? {
            Some(report) => (Some(report), None),
            None => (None, super::tasks::open_question(&api, &task).await?),
        },
    };
    let (follow, rx) = Follow::new(&api, task, done, 0);
    tokio::spawn(follow.run(progress, waiting));
    Ok(Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::default()))
}

/// Where the live report is.
enum Writing {
    /// Not yet: the steps are not all final.
    NotStarted,
    /// The task's token stream is being relayed.
    Relaying(Box<dyn TokenReader>),
    /// Relayed, or nothing to relay (no model).
    Done,
}

/// One task followed for one client.
pub(crate) struct Follow {
    task: TaskId,
    tx: Tx,
    bus: Arc<dyn Bus>,
    /// Whether a model writes reports (so the client gets `token` events).
    tokens: bool,
    plan: Option<PlanReady>,
    results: HashMap<StepId, StepResult>,
    report: Option<FinalReport>,
    writing: Writing,
    /// The text the client was shown by `token` and `replace` events, if any.
    shown: Option<String>,
    /// When the stream gives up waiting for the report (`error`).
    until: Instant,
    /// How long the stream waits, from a question, for the report: the answer timeout
    /// (the task's deadline is paused meanwhile), then the task's deadline, plus grace.
    waits: Duration,
    /// The number of the last question shown (0: none).
    asked: u32,
}

impl Follow {
    /// A follower of `task` for one client of `api`, and the receiver of its events:
    /// `report` when the task's report is out already (it is the whole stream), `asked`
    /// the number of the last question already answered (0: none). It waits the task's
    /// deadline for the report, and from a question the answer timeout too.
    pub(crate) fn new(
        api: &ApiState,
        task: TaskId,
        report: Option<FinalReport>,
        asked: u32,
    ) -> (Follow, mpsc::Receiver<Result<Event, Infallible>>) {
        let (tx, rx) = mpsc::channel(64);
        let follow = Follow {
            task,
            tx,
            bus: api.bus.clone(),
            tokens: api.tokens,
            plan: None,
            results: HashMap::new(),
            writing: match report {
                Some(_) => Writing::Done,
                None => Writing::NotStarted,
            },
            report,
            shown: None,
            until: Instant::now() + api.deadline + GRACE,
            waits: api.answer_timeout + api.deadline + GRACE,
            asked,
        };
        (follow, rx)
    }

    /// Sends the task's events until its report (or the time is up, or the client went
    /// away): `accepted`, then the question `waiting` when the task is paused on one,
    /// then what `progress` brings.
    pub(crate) async fn run(
        mut self,
        mut progress: broadcast::Receiver<Arc<Message>>,
        waiting: Option<ClarificationNeeded>,
    ) {
        if !self.tokens {
            self.writing = Writing::Done;
        }
        let accepted = json!({"task_id": self.task});
        if !send(&self.tx, "accepted", &accepted).await {
            return;
        }
        if let Some(question) = waiting
            && !self.ask(question).await
        {
            return;
        }
        loop {
            let until = self.until;
            if matches!(self.writing, Writing::Done)
                && let Some(report) = self.report.take()
            {
                self.finish(report).await;
                return;
            }
            let open = match &mut self.writing {
                Writing::Relaying(reader) => {
                    // With the report in hand every token is written: read what is there.
                    let wait = if self.report.is_some() {
                        Duration::ZERO
                    } else {
                        TOKEN_WAIT
                    };
                    match timeout_at(until, reader.next(wait)).await {
                        Ok(Ok(entries)) => {
                            let drained = wait.is_zero() && entries.is_empty();
                            let open = self.relay(entries).await;
                            if drained {
                                self.writing = Writing::Done;
                            }
                            open && self.notice_progress(&mut progress).await
                        }
                        Ok(Err(e)) => {
                            tracing::warn!(task_id = %self.task, error = %e,
                                "reading the report's tokens failed; the report will say it all");
                            self.writing = Writing::Done;
                            true
                        }
                        Err(_) => self.timed_out().await,
                    }
                }
                _ => match timeout_at(until, progress.recv()).await {
                    Ok(Ok(m)) => self.on_message(&m).await,
                    Ok(Err(broadcast::error::RecvError::Lagged(n))) => {
                        tracing::warn!(task_id = %self.task, skipped = n, "stream lagged");
                        true
                    }
                    Ok(Err(_)) | Err(_) => self.timed_out().await,
                },
            };
            if !open {
                return; // the client went away, or the time is up
            }
        }
    }

    /// Out of time (or no progress to come): the report goes out if it is here, else
    /// an `error`. Returns whether to go on.
    async fn timed_out(&mut self) -> bool {
        if self.report.is_some() {
            // Out of time for tokens: the report still goes out.
            self.writing = Writing::Done;
            return true;
        }
        let err = json!({"task_id": self.task, "error": "no report before the deadline"});
        let _ = send(&self.tx, "error", &err).await;
        false
    }

    /// Takes the progress that came while tokens were relayed (the report, mostly).
    async fn notice_progress(&mut self, progress: &mut broadcast::Receiver<Arc<Message>>) -> bool {
        loop {
            match progress.try_recv() {
                Ok(m) => {
                    if !self.on_message(&m).await {
                        return false;
                    }
                }
                Err(broadcast::error::TryRecvError::Lagged(n)) => {
                    tracing::warn!(task_id = %self.task, skipped = n, "stream lagged");
                }
                Err(_) => return true,
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
                self.start_when_final().await;
                open
            }
            Payload::StepResult(r) => {
                let open = send(&self.tx, "step", r).await;
                self.results.insert(r.step_id.clone(), r.clone());
                self.start_when_final().await;
                open
            }
            Payload::FinalReport(r) => {
                self.report = Some(r.clone());
                if matches!(self.writing, Writing::NotStarted) {
                    self.start_from_report(r).await;
                }
                true
            }
            Payload::ClarificationNeeded(q) => self.ask(q.clone()).await,
            _ => true,
        }
    }

    /// Shows the task's question (once: a question is published once, but the one a
    /// resent task found waiting may also come by the hub) and waits for its answer
    /// longer than the task's deadline would allow.
    async fn ask(&mut self, question: ClarificationNeeded) -> bool {
        if question.number <= self.asked || self.report.is_some() {
            return true;
        }
        self.asked = question.number;
        self.until = self.until.max(Instant::now() + self.waits);
        let data = QuestionEvent {
            task_id: self.task.to_string(),
            question,
        };
        send(&self.tx, "question", &data).await
    }

    /// Starts relaying the report's tokens once every step of the plan has its result.
    async fn start_when_final(&mut self) {
        let (Writing::NotStarted, Some(plan)) = (&self.writing, &self.plan) else {
            return;
        };
        if plan.plan.steps.is_empty() || !report::complete(plan, &self.results) {
            return;
        }
        self.relay_tokens().await;
    }

    /// The report came first: its tokens are all on the stream already, unless it has no
    /// steps or is a deadline report (then its text comes as one token).
    async fn start_from_report(&mut self, r: &FinalReport) {
        let finished = r.steps.iter().all(|s| s.outcome.is_some());
        if !r.steps.is_empty() && finished && r.status != ReportStatus::DeadlineExceeded {
            self.relay_tokens().await;
        } else {
            self.writing = Writing::Done;
        }
    }

    /// Starts reading the task's token stream from its first entry.
    async fn relay_tokens(&mut self) {
        self.writing = match self.bus.read_tokens(&self.task).await {
            Ok(reader) => Writing::Relaying(reader),
            Err(e) => {
                tracing::warn!(task_id = %self.task, error = %e,
                    "cannot read the report's tokens; the report will say it all");
                Writing::Done
            }
        };
    }

    /// Sends token stream entries as `token` and `replace` events; the last entry ends
    /// the relaying.
    async fn relay(&mut self, entries: Vec<ReportToken>) -> bool {
        for entry in entries {
            match entry {
                ReportToken::Text(text) => {
                    self.shown.get_or_insert_default().push_str(&text);
                    if !send(&self.tx, "token", &json!({"text": text})).await {
                        return false;
                    }
                }
                ReportToken::Done(done) => {
                    self.writing = Writing::Done;
                    if !done.replace {
                        return true;
                    }
                    let data = json!({"text": done.text, "written_by": done.written_by,
                        "reason": done.reason});
                    self.shown = Some(done.text);
                    return send(&self.tx, "replace", &data).await;
                }
            }
        }
        true
    }

    /// Sends the report, after making what the client was shown say what it says.
    async fn finish(&mut self, report: FinalReport) {
        if self.tokens {
            let sent = match &self.shown {
                None => send(&self.tx, "token", &json!({"text": report.text})).await,
                Some(shown) if *shown != report.text => {
                    tracing::warn!(task_id = %self.task, written_by = %report.written_by,
                        "the report differs from the tokens shown; replaced");
                    let data = json!({"text": report.text, "written_by": report.written_by,
                        "reason": SUPERSEDED});
                    send(&self.tx, "replace", &data).await
                }
                Some(_) => true,
            };
            if !sent {
                return;
            }
        }
        if !self.steps_missed(&report).await {
            return;
        }
        let _ = send(&self.tx, "report", &report).await;
    }

    /// Sends a `step` event for each finished step of `report` the client was not
    /// shown: the hub reads each topic on its own, so a report can overtake the last
    /// step result it reports. Such a step is sent as the report has it (no agent, no
    /// timing). Returns whether the client is still there.
    async fn steps_missed(&mut self, report: &FinalReport) -> bool {
        for step in &report.steps {
            let Some(outcome) = &step.outcome else {
                continue;
            };
            if self.results.contains_key(&step.step_id) {
                continue;
            }
            let result = StepResult {
                step_id: step.step_id.clone(),
                pool: step.pool.clone(),
                tool: step.tool.clone(),
                arguments: step.arguments.clone(),
                outcome: outcome.clone(),
                agent: String::new(),
                elapsed_us: 0,
                iteration: report.iterations,
            };
            if !send(&self.tx, "step", &result).await {
                return false;
            }
            self.results.insert(result.step_id.clone(), result);
        }
        true
    }
}
