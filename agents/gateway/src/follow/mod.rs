//! The one follower of a task: from its id and the Chief's progress hub, a stream of
//! typed [`Progress`] — accepted, planned, each step, a question, the report's tokens as
//! a model writes them, the report, or timed out — that every door renders in its own
//! wire format (`POST /chat/stream` as named Server-Sent Events, A2A as status and
//! artifact updates, the OpenAI-compatible endpoint as chat completion chunks or one
//! completion). No door reads another door's output.
//!
//! The hub is listened to *before* the request or the answer goes out, so nothing the
//! task publishes after is missed. The hub reads each topic on its own, so a step's
//! result can overtake its plan (the plan is then read from the store first) and the
//! report the last step results (the steps it reports that were not seen come before
//! it). Should the hub lag behind, or the time run out, the task's phase in the store
//! ([`crate::phase`]) says what was missed. A report seen here is also stored as the
//! task's report (the Chief stores it too, when it reads it), so a read right after
//! finds it.
//!
//! Time limits are the task's: its deadline plus a grace period ([`GRACE`]), and from a
//! question on, the answer timeout on top (its deadline is paused meanwhile). A question
//! nobody answers ends with the `unanswered` report.
//!
//! With a model writing reports (`[llm]`, `synthesize` on) and tokens asked for, the
//! report is also followed live (`tokens`): the pieces the Synthesizer writes come as
//! [`Progress::Token`]s, a [`Progress::Replaced`] when the model's answer was refused
//! midway or the published report says otherwise, and the report last, its text what
//! the tokens showed. `progress` holds the vocabulary; here, the follower itself.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use chorus_bus::{
    Bus, ClarificationNeeded, FinalReport, Message, Payload, PlanReady, StepId, StepResult, TaskId,
};
use chorus_core::state::TaskState;
use tokio::sync::broadcast::{self, Receiver, error::RecvError};
use tokio::time::{Instant, timeout_at};

use crate::api::ApiState;
use crate::phase::{self, Phase};

mod progress;
mod tokens;

pub(crate) use progress::{Progress, Replacement};
use tokens::Writing;

/// Extra time past the deadline before a follower gives up.
pub(crate) const GRACE: Duration = Duration::from_secs(2);

/// Every task's progress, as the hub broadcasts it.
pub(crate) type Listening = Receiver<Arc<Message>>;

/// One task followed for one client.
pub(crate) struct Follower {
    task: TaskId,
    bus: Arc<dyn Bus>,
    state: TaskState,
    progress: Listening,
    /// Whether the report's tokens are followed.
    tokens: bool,
    /// The last plan seen.
    plan: Option<PlanReady>,
    /// The last attempt whose plan was announced (0: none).
    planned: u32,
    /// The step results announced.
    results: HashMap<StepId, StepResult>,
    /// The report, once seen, and when it was published.
    report: Option<(FinalReport, u64)>,
    writing: Writing,
    /// The text shown by `Token` and `Replaced`, if any.
    shown: Option<String>,
    /// When the follower gives up waiting for the report.
    until: Instant,
    /// How long it waits, from a question, for the report: the answer timeout, then
    /// the task's deadline and the grace period.
    waits: Duration,
    /// The number of the last question shown or answered (0: none).
    asked: u32,
    /// Progress ready to go out, in order.
    queue: VecDeque<Progress>,
    /// The report or the time-out went out: nothing follows.
    ended: bool,
}

/// Starts listening to the progress of every task: call before publishing.
pub(crate) async fn listen(api: &ApiState) -> Result<Listening, chorus_bus::BusError> {
    api.hub.subscribe().await
}

impl Follower {
    /// Follows `task` on `progress` (from [`listen`], taken before the task was
    /// submitted or answered), relaying the report's tokens when a model writes them.
    /// It waits the task's deadline (and the grace period) for the report.
    pub(crate) fn new(api: &ApiState, task: TaskId, progress: Listening) -> Follower {
        Follower {
            task,
            bus: api.bus.clone(),
            state: api.state.clone(),
            progress,
            tokens: api.tokens,
            plan: None,
            planned: 0,
            results: HashMap::new(),
            report: None,
            writing: Writing::NotStarted,
            shown: None,
            until: Instant::now() + api.deadline + GRACE,
            waits: api.answer_timeout + api.deadline + GRACE,
            asked: 0,
            queue: VecDeque::from([Progress::Accepted]),
            ended: false,
        }
    }

    /// The report's tokens are not followed (a door that shows the report whole).
    pub(crate) fn without_tokens(mut self) -> Follower {
        self.tokens = false;
        self
    }

    /// The questions up to number `asked` were answered (or shown) already: they do
    /// not come again.
    pub(crate) fn answered(mut self, asked: u32) -> Follower {
        self.asked = self.asked.max(asked);
        self
    }

    /// The task is paused on `question`: the wait for its answer extends the time
    /// limit; it comes (once) when `show`.
    pub(crate) fn asking(mut self, question: ClarificationNeeded, show: bool) -> Follower {
        match show {
            true => self.ask(question, now_us()),
            false => {
                self.asked = self.asked.max(question.number);
                self.extend();
            }
        }
        self
    }

    /// The task's report is out already: it is all that follows.
    pub(crate) fn reported(mut self, report: FinalReport) -> Follower {
        self.writing = Writing::Done;
        self.report = Some((report, now_us()));
        self
    }

    /// The task's id.
    pub(crate) fn task(&self) -> &TaskId {
        &self.task
    }

    /// The next progress of the task; `None` after the report or the time-out.
    pub(crate) async fn next(&mut self) -> Option<Progress> {
        if !self.tokens && !matches!(self.writing, Writing::Relaying(_)) {
            self.writing = Writing::Done;
        }
        loop {
            if let Some(progress) = self.queue.pop_front() {
                return Some(progress);
            }
            if self.ended {
                return None;
            }
            if matches!(self.writing, Writing::Done)
                && let Some((report, at_us)) = self.report.take()
            {
                self.finish(report, at_us);
                continue;
            }
            let until = self.until;
            if matches!(self.writing, Writing::Relaying(_)) {
                self.read_tokens(until).await;
                continue;
            }
            match timeout_at(until, self.progress.recv()).await {
                Ok(Ok(m)) => self.on_message(&m).await,
                Ok(Err(RecvError::Lagged(n))) => {
                    tracing::warn!(task_id = %self.task, skipped = n, "follower lagged");
                    self.catch_up().await;
                }
                Ok(Err(RecvError::Closed)) | Err(_) => self.timed_out().await,
            }
        }
    }

    /// Out of time (or no progress to come): the report goes out if it is here or in
    /// the store, the follower waits on when the store shows a question not seen yet,
    /// else it has timed out.
    async fn timed_out(&mut self) {
        if self.report.is_none() {
            let asked = self.asked;
            self.catch_up().await;
            if self.report.is_none() && self.asked == asked {
                self.queue.push_back(Progress::TimedOut);
                self.ended = true;
                return;
            }
        }
        // Out of time for tokens: the report still goes out.
        if self.report.is_some() {
            self.writing = Writing::Done;
        }
    }

    /// Takes the progress that came while tokens were relayed (the report, mostly).
    async fn notice_progress(&mut self) {
        loop {
            match self.progress.try_recv() {
                Ok(m) => self.on_message(&m).await,
                Err(broadcast::error::TryRecvError::Lagged(n)) => {
                    tracing::warn!(task_id = %self.task, skipped = n, "follower lagged");
                }
                Err(_) => return,
            }
        }
    }

    /// Queues what `m` brings, when it is this task's.
    async fn on_message(&mut self, m: &Message) {
        if m.task_id != self.task {
            return;
        }
        let at_us = m.timestamp_us;
        match &m.payload {
            Payload::PlanReady(p) => self.planned(p.clone(), at_us).await,
            Payload::StepResult(r) => {
                if r.iteration > self.planned {
                    match self.state.plan(&self.task).await {
                        Ok(Some(plan)) => self.planned(plan, at_us).await,
                        Ok(None) => {}
                        Err(e) => tracing::warn!(task_id = %self.task, error = %e,
                            "reading the plan failed"),
                    }
                }
                self.results.insert(r.step_id.clone(), r.clone());
                self.queue.push_back(Progress::Step {
                    result: r.clone(),
                    at_us,
                });
                self.start_when_final().await;
            }
            Payload::FinalReport(r) if self.report.is_none() => {
                self.on_report(r.clone(), at_us).await;
            }
            Payload::ClarificationNeeded(q) => self.ask(q.clone(), at_us),
            _ => {}
        }
    }

    /// Queues a plan not announced yet.
    async fn planned(&mut self, plan: PlanReady, at_us: u64) {
        if plan.iteration <= self.planned {
            return;
        }
        self.planned = plan.iteration;
        self.plan = Some(plan.clone());
        self.queue.push_back(Progress::Planned { plan, at_us });
        self.start_when_final().await;
    }

    /// Keeps the report (it goes out once its tokens are relayed) and stores it.
    async fn on_report(&mut self, report: FinalReport, at_us: u64) {
        if let Err(e) = self.state.put_report(&self.task, &report).await {
            tracing::warn!(task_id = %self.task, error = %e, "storing the report failed");
        }
        if matches!(self.writing, Writing::NotStarted) {
            self.start_from_report(&report).await;
        }
        self.report = Some((report, at_us));
    }

    /// Queues a question not seen before; the wait for its answer extends the time
    /// limit.
    fn ask(&mut self, question: ClarificationNeeded, at_us: u64) {
        if question.number <= self.asked || self.report.is_some() {
            return;
        }
        self.asked = question.number;
        self.extend();
        self.queue.push_back(Progress::Asked { question, at_us });
    }

    /// Gives the task the answer timeout, then its deadline, from now.
    fn extend(&mut self) {
        self.until = self.until.max(Instant::now() + self.waits);
    }

    /// Queues what the store says was missed: the report, or a question not seen yet.
    async fn catch_up(&mut self) {
        match phase::read(&self.state, &self.task).await {
            Ok(Some(Phase::Done(report))) if self.report.is_none() => {
                self.on_report(report, now_us()).await;
            }
            Ok(Some(Phase::InputRequired(question))) => self.ask(question, now_us()),
            Ok(_) => {}
            Err(e) => tracing::warn!(task_id = %self.task, error = %e, "reading the task failed"),
        }
    }

    /// Queues the report, after making what the client was shown say what it says and
    /// the steps it reports that were not shown.
    fn finish(&mut self, report: FinalReport, at_us: u64) {
        self.settle_shown(&report);
        self.steps_missed(&report, at_us);
        self.queue.push_back(Progress::Report { report, at_us });
        self.ended = true;
    }

    /// Queues a step for each finished step of `report` not shown: the hub reads each
    /// topic on its own, so a report can overtake the last step result it reports. Such
    /// a step is as the report has it (no agent, no timing).
    fn steps_missed(&mut self, report: &FinalReport, at_us: u64) {
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
            self.results.insert(result.step_id.clone(), result.clone());
            self.queue.push_back(Progress::Step { result, at_us });
        }
    }
}

/// Now, in µs since the epoch.
fn now_us() -> u64 {
    chorus_bus::now_ms().saturating_mul(1000)
}

#[cfg(test)]
mod tests;
