//! What a follower yields: [`Progress`], the one vocabulary every door renders.

use chorus_bus::{ClarificationNeeded, FinalReport, PlanReady, StepResult};

/// What happened to a task, in the order a client shows it. `at_us` is when it was
/// published (µs since the epoch; the time it was found, for what the store told).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Progress {
    /// The task is accepted (always first).
    Accepted,
    /// The task's plan (or a new plan, attempt `iteration`).
    Planned {
        /// The plan.
        plan: PlanReady,
        /// When.
        at_us: u64,
    },
    /// A step's result (from the report, with no agent and no timing, when the
    /// report overtook it).
    Step {
        /// The result.
        result: StepResult,
        /// When.
        at_us: u64,
    },
    /// The task asks the user (a question not shown before); it waits for the answer.
    Asked {
        /// The question.
        question: ClarificationNeeded,
        /// When.
        at_us: u64,
    },
    /// The next piece of the report, as a model writes it.
    Token(String),
    /// What was shown so far is to be replaced by this text.
    Replaced(Replacement),
    /// The task's one report (always last).
    Report {
        /// The report.
        report: FinalReport,
        /// When it was published.
        at_us: u64,
    },
    /// No report within the time limits (always last).
    TimedOut,
}

/// The text that replaces what a client was shown, and why.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Replacement {
    /// The whole text.
    pub(crate) text: String,
    /// Who wrote it (`llm`, `template`).
    pub(crate) written_by: String,
    /// Why (a fallback code such as `ungrounded`, or [`SUPERSEDED`]).
    pub(crate) reason: Option<String>,
}
