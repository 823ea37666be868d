//! Following one task to its report, as `POST /chat/stream` does: the Chief's shared
//! progress watcher (the [`Hub`](crate::Hub)) is listened to *before* the request or
//! the answer goes out, so nothing the task publishes after is missed, and the task's
//! plan, step results, questions and report come out as [`Update`]s, always in that
//! order (the watcher reads each topic on its own, so a step's result can overtake its
//! plan, or the report a step's result: the plan is then read from the store, the step
//! from the report). A blocking `SendMessage` waits for the first question or the
//! report; the streams turn every update into A2A events.
//!
//! Time limits are the task's: its deadline plus a grace period, and while it waits
//! for an answer, the answer timeout on top (its deadline is paused meanwhile). Should
//! the watcher lag behind, or the time run out, the task's state in the store says
//! what was missed. A report seen here is also stored as the task's report (the Chief
//! stores it too, when it reads it), so a `GetTask` right after a blocking call finds it.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use chorus_bus::{ClarificationNeeded, FinalReport, Message, Payload, PlanReady, StepOutcome};
use chrono::{DateTime, Utc};
use tokio::sync::broadcast::{Receiver, error::RecvError};
use tokio::time::{Instant, timeout_at};

use super::errors::RpcError;
use super::state::{self, Phase};
use super::wire;
use crate::ApiState;
use crate::stream::GRACE;

/// Every task's progress, as the hub broadcasts it.
pub(crate) type Progress = Receiver<Arc<Message>>;

/// What happened to the task.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Update {
    /// Progress: the plan, or a step's result, in a few words.
    Working {
        /// What happened (`planned 3 step(s)`, `s1 sum = 6`).
        text: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The task asks the user (a question not seen before).
    Asked {
        /// The question.
        question: ClarificationNeeded,
        /// When.
        at: DateTime<Utc>,
    },
    /// The task's one report.
    Reported {
        /// The report.
        report: FinalReport,
        /// When it was published.
        at: DateTime<Utc>,
    },
    /// No report within the time limits.
    TimedOut,
}

/// One task followed for one caller.
pub(crate) struct Follow {
    api: ApiState,
    task: String,
    progress: Progress,
    until: Instant,
    /// The number of the last question seen (0: none).
    asked: u32,
    /// The last attempt whose plan was announced (0: none).
    planned: u32,
    /// The steps whose result was announced.
    seen: HashSet<String>,
    /// Updates ready to go out, in order.
    pending: VecDeque<Update>,
}

/// Starts listening to the progress of every task: call before publishing.
pub(crate) async fn listen(api: &ApiState) -> Result<Progress, RpcError> {
    api.hub.subscribe().await.map_err(RpcError::from_bus)
}

impl Follow {
    /// Follows `task` on `progress` (from [`listen`]); `asked` is the number of the
    /// last question already shown (0: none). A task waiting for an answer is given the
    /// answer timeout on top of its deadline.
    pub(crate) fn new(
        api: &ApiState,
        task: &str,
        progress: Progress,
        asked: u32,
        waiting: bool,
    ) -> Follow {
        let mut follow = Follow {
            api: api.clone(),
            task: task.to_owned(),
            progress,
            until: Instant::now() + api.deadline + GRACE,
            asked,
            planned: 0,
            seen: HashSet::new(),
            pending: VecDeque::new(),
        };
        if waiting {
            follow.extend();
        }
        follow
    }

    /// The next update of the task.
    pub(crate) async fn next(&mut self) -> Update {
        loop {
            if let Some(update) = self.pending.pop_front() {
                return update;
            }
            match timeout_at(self.until, self.progress.recv()).await {
                Ok(Ok(m)) if m.task_id.as_str() == self.task => self.on_message(&m).await,
                Ok(Ok(_)) => {}
                Ok(Err(RecvError::Lagged(n))) => {
                    tracing::warn!(task_id = %self.task, skipped = n, "A2A follower lagged");
                    self.catch_up().await;
                }
                Ok(Err(RecvError::Closed)) | Err(_) => {
                    self.catch_up().await;
                    if self.pending.is_empty() {
                        return Update::TimedOut;
                    }
                }
            }
        }
    }

    /// Queues the updates `m` brings, in order (see the module's documentation).
    async fn on_message(&mut self, m: &Message) {
        let at = wire::at_micros(m.timestamp_us);
        match &m.payload {
            Payload::PlanReady(p) => self.planned(p, at),
            Payload::StepResult(r) => {
                if r.iteration > self.planned {
                    match self.api.state.plan(&self.task).await {
                        Ok(Some(plan)) => self.planned(&plan, at),
                        Ok(None) => {}
                        Err(e) => tracing::warn!(task_id = %self.task, error = %e,
                            "reading the plan failed"),
                    }
                }
                self.seen.insert(r.step_id.to_string());
                let text = step_text(r.step_id.as_str(), &r.tool, &r.outcome);
                self.pending.push_back(Update::Working { text, at });
            }
            Payload::ClarificationNeeded(q) => self.asked(q.clone(), at),
            Payload::FinalReport(r) => self.reported(r.clone(), at).await,
            _ => {}
        }
    }

    /// Queues the plan, unless it was announced already.
    fn planned(&mut self, plan: &PlanReady, at: DateTime<Utc>) {
        if plan.plan.steps.is_empty() || plan.iteration <= self.planned {
            return;
        }
        self.planned = plan.iteration;
        let n = plan.plan.steps.len();
        let text = match plan.iteration {
            1 => format!("planned {n} step(s)"),
            k => format!("planned {n} step(s) again (attempt {k})"),
        };
        self.pending.push_back(Update::Working { text, at });
    }

    /// Queues a question not seen before; the wait for its answer extends the time
    /// limit.
    fn asked(&mut self, question: ClarificationNeeded, at: DateTime<Utc>) {
        if question.number <= self.asked {
            return;
        }
        self.asked = question.number;
        self.extend();
        self.pending.push_back(Update::Asked { question, at });
    }

    /// Queues the report, after the plan and the steps not seen yet.
    async fn reported(&mut self, report: FinalReport, at: DateTime<Utc>) {
        if let Err(e) = self.api.state.put_report(&self.task, &report).await {
            tracing::warn!(task_id = %self.task, error = %e, "storing the report failed");
        }
        if self.planned == 0 && !report.steps.is_empty() {
            let text = format!("planned {} step(s)", report.steps.len());
            self.pending.push_back(Update::Working { text, at });
        }
        for step in &report.steps {
            if let Some(outcome) = &step.outcome
                && self.seen.insert(step.step_id.to_string())
            {
                let text = step_text(step.step_id.as_str(), &step.tool, outcome);
                self.pending.push_back(Update::Working { text, at });
            }
        }
        self.planned = u32::MAX;
        self.pending.push_back(Update::Reported { report, at });
    }

    /// Queues what the store says was missed: the report, or a question not seen yet.
    async fn catch_up(&mut self) {
        match state::snapshot(&self.api, &self.task).await {
            Ok(Some(snap)) => match snap.phase {
                Phase::Done(report) => self.reported(report, wire::now()).await,
                Phase::Asking(q) => self.asked(q, wire::now()),
                _ => {}
            },
            Ok(None) => {}
            Err(e) => tracing::warn!(task_id = %self.task, error = %e, "reading the task failed"),
        }
    }

    /// Gives the task the answer timeout, then its deadline, from now.
    fn extend(&mut self) {
        let waits = self.api.answer_timeout + self.api.deadline + GRACE;
        self.until = self.until.max(Instant::now() + waits);
    }
}

/// A step's result in a few words: `s1 sum = 6`, `s1 divide failed: division by zero`.
fn step_text(step: &str, tool: &str, outcome: &StepOutcome) -> String {
    match outcome {
        StepOutcome::Ok { text, .. } => format!("{step} {tool} = {text}"),
        StepOutcome::Failed { error, .. } => format!("{step} {tool} failed: {error}"),
    }
}
