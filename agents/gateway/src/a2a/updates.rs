//! The task's progress ([`crate::follow`]) as A2A sees it: the plan and each step's
//! result are progress in a few words (`planned 3 step(s)`, `s1 sum = 6`), then a
//! question or the report; the report's tokens are not followed (A2A gets the report
//! whole, as its artifact). A blocking `SendMessage` waits for the first question or
//! the report; the streams turn every update into A2A events.
//!
//! The plan comes before the steps: a step whose plan was not announced (the plan is
//! neither seen nor in the store any more) is held until the report, which then says
//! how many steps were planned.

use std::collections::VecDeque;

use chorus_bus::{ClarificationNeeded, FinalReport, PlanReady, StepOutcome};
use chrono::{DateTime, Utc};

use super::wire;
use crate::follow::{Follower, Progress};

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

/// A task's updates, for one caller.
pub(crate) struct Updates {
    follower: Follower,
    /// Whether a plan was announced.
    planned: bool,
    /// Steps whose plan was not announced yet.
    held: Vec<Update>,
    /// Updates ready to go out, in order.
    ready: VecDeque<Update>,
}

impl Updates {
    /// The updates of the task `follower` follows (its tokens are not followed).
    pub(crate) fn new(follower: Follower) -> Updates {
        Updates {
            follower: follower.without_tokens(),
            planned: false,
            held: Vec::new(),
            ready: VecDeque::new(),
        }
    }

    /// The next update of the task.
    pub(crate) async fn next(&mut self) -> Update {
        loop {
            if let Some(update) = self.ready.pop_front() {
                return update;
            }
            let Some(progress) = self.follower.next().await else {
                return Update::TimedOut;
            };
            self.take(progress);
        }
    }

    /// Queues the updates `progress` brings.
    fn take(&mut self, progress: Progress) {
        match progress {
            Progress::Accepted | Progress::Token(_) | Progress::Replaced(_) => {}
            Progress::Planned { plan, at_us } => self.planned(&plan, at_us),
            Progress::Step { result, at_us } => {
                let text = step_text(result.step_id.as_str(), &result.tool, &result.outcome);
                let update = Update::Working {
                    text,
                    at: wire::at_micros(at_us),
                };
                match self.planned {
                    true => self.ready.push_back(update),
                    false => self.held.push(update),
                }
            }
            Progress::Asked { question, at_us } => {
                self.release();
                self.ready.push_back(Update::Asked {
                    question,
                    at: wire::at_micros(at_us),
                });
            }
            Progress::Report { report, at_us } => {
                let at = wire::at_micros(at_us);
                if !self.planned && !report.steps.is_empty() {
                    let text = format!("planned {} step(s)", report.steps.len());
                    self.ready.push_back(Update::Working { text, at });
                    self.planned = true;
                }
                self.release();
                self.ready.push_back(Update::Reported { report, at });
            }
            Progress::TimedOut => {
                self.release();
                self.ready.push_back(Update::TimedOut);
            }
        }
    }

    /// Queues the plan, in a few words (a plan without steps says nothing).
    fn planned(&mut self, plan: &PlanReady, at_us: u64) {
        if plan.plan.steps.is_empty() {
            return;
        }
        self.planned = true;
        let n = plan.plan.steps.len();
        let text = match plan.iteration {
            1 => format!("planned {n} step(s)"),
            k => format!("planned {n} step(s) again (attempt {k})"),
        };
        let at = wire::at_micros(at_us);
        self.ready.push_back(Update::Working { text, at });
        self.release();
    }

    /// Queues the steps held for their plan.
    fn release(&mut self) {
        self.ready.extend(self.held.drain(..));
    }
}

/// A step's result in a few words: `s1 sum = 6`, `s1 divide failed: division by zero`.
fn step_text(step: &str, tool: &str, outcome: &StepOutcome) -> String {
    match outcome {
        StepOutcome::Ok { text, .. } => format!("{step} {tool} = {text}"),
        StepOutcome::Failed { error, .. } => format!("{step} {tool} failed: {error}"),
    }
}
