//! Payloads to and from the user: the final report, a question asked and its answer,
//! a cancel.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::step::StepOutcome;
use super::task::first_iteration;
use crate::language::Language;
use crate::plan::StepId;

/// The overall status of a task's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    /// Every step succeeded.
    Completed,
    /// Some steps succeeded, some failed.
    Partial,
    /// Every step failed.
    Failed,
    /// The deadline passed before every step was final.
    DeadlineExceeded,
    /// The request could not be planned.
    Unplannable,
    /// Chorus asked the user a question and no answer came within
    /// `agents.answer_timeout_ms`; the report repeats the question.
    Unanswered,
    /// A client canceled the task before its report; the report shows what had
    /// finished by then.
    Canceled,
}

/// One step as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StepReport {
    /// The step's id.
    pub step_id: StepId,
    /// The part of the query it answers.
    #[serde(default)]
    pub part: String,
    /// The pool that ran it.
    pub pool: String,
    /// The tool.
    pub tool: String,
    /// The arguments it ran with (references resolved), when it ran; when it did not
    /// run, the plan's literal arguments (references left out).
    #[serde(default)]
    pub arguments: serde_json::Map<String, serde_json::Value>,
    /// The arguments that took another step's result, by argument name: how the report
    /// writes `(2 + 4) × 3` rather than `6 × 3`. Absent when none did.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub inputs: std::collections::BTreeMap<String, StepId>,
    /// The arguments whose value is an earlier answer in the conversation (the plan
    /// step's `recalled`), so the report says where it came from. Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recalled: Vec<String>,
    /// The outcome; `None` when the step never finished (deadline).
    #[serde(default)]
    pub outcome: Option<StepOutcome>,
    /// Whether the step's value is an answer shown to the user.
    #[serde(default = "default_true")]
    pub output: bool,
}

fn default_true() -> bool {
    true
}

/// `final_report`: the one report of a task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FinalReport {
    /// The user's request as it was carried out: after a question, with the answer
    /// filled in (the words the user typed are on the task's `task_available`).
    pub query: String,
    /// Overall status.
    pub status: ReportStatus,
    /// The report as markdown, in the user's language.
    pub text: String,
    /// The report's language (`en`, `vi`).
    pub language: Language,
    /// Every step of the plan with its outcome.
    #[serde(default)]
    pub steps: Vec<StepReport>,
    /// Who wrote the text: `template` or `llm`.
    #[serde(default)]
    pub written_by: String,
    /// How many attempts the task took (1 when the first plan's steps were final).
    #[serde(default = "first_iteration")]
    pub iterations: u32,
    /// Why the earlier attempts were not final (one line per failed step and attempt),
    /// and, when the last attempt still had failures that could pass, why Chorus
    /// stopped trying (`agents.max_iterations` reached, or the deadline).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retried: Vec<String>,
}

impl FinalReport {
    /// The values of the output steps in plan order, as a person reads them: the value
    /// (strings unquoted, numbers as JSON text), `failed: <error>` for a failed step,
    /// `unfinished` for one the deadline cut off.
    pub fn answers(&self) -> Vec<String> {
        self.steps
            .iter()
            .filter(|s| s.output)
            .map(|s| match &s.outcome {
                Some(StepOutcome::Ok { value, .. }) => value
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| value.to_string()),
                Some(StepOutcome::Failed { error, .. }) => format!("failed: {error}"),
                None => "unfinished".to_owned(),
            })
            .collect()
    }
}

/// One answer the user may pick, when a question has a finite set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AnswerOption {
    /// How the option is shown to the user (`3 April 2026`).
    pub label: String,
    /// What it stands for in the request (`2026-04-03`); answering with the label, the
    /// value or the option's number (1, 2, …) picks it.
    pub value: String,
}

/// `clarification_needed`: the Planner asks the user for what a request is missing or
/// for which of two readings is meant; the task waits in state `input_required`, its
/// deadline paused, until an answer comes (`clarification_answer`) or
/// `agents.answer_timeout_ms` passes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClarificationNeeded {
    /// The question for the user, in their language.
    pub question: String,
    /// The answers to choose from, when the set is finite; empty for a free answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<AnswerOption>,
    /// The part of the request the question is about, as the user wrote it.
    #[serde(default)]
    pub part: String,
    /// The question's language (`en`, `vi`); English when absent.
    #[serde(default)]
    pub language: Language,
    /// Which question of the task this is: 1 for the first, n + 1 after an answer that
    /// still did not settle it (at most `agents.max_questions`).
    #[serde(default = "first_iteration")]
    pub number: u32,
    /// The request as the Planner reads it so far (earlier answers filled in).
    #[serde(default)]
    pub query: String,
    /// The conversation the task belongs to, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
}

/// `clarification_answer`: the user's answer to the question a task asked. A client
/// with no SDK publishes it bare — `{"task_id": "…", "answer": "…"}` by `XADD` or
/// `PUBLISH` — and the Chief checks it at the one way in for answers and passes it on
/// to the Planner as a full envelope (with `question` and the resumed deadline).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClarificationAnswer {
    /// The answer text (at most 1000 characters).
    pub answer: String,
    /// Which question it answers (the `number` of its `clarification_needed`); absent
    /// from a client's bare answer, which answers the task's open question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<u32>,
}

/// `task_cancel`: a client asks to cancel a task. A client with no SDK publishes it
/// bare — `{"task_id": "…"}` (and an optional `reason`) by `XADD` or `PUBLISH` — and the
/// Chief hands it to the one way in for cancellations, which ends the task with one
/// report, status `canceled`; a refused one (unknown or finished task) becomes a dead
/// letter with the reason.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TaskCancel {
    /// Why, in the client's words (at most 500 characters; shown in the report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
