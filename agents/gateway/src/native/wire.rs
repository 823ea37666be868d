//! The native API's wire types: the bodies of `POST /tasks`, `POST /chat/stream` and
//! `POST /tasks/{id}/answer`, the query of `DELETE /tasks/{id}`, and what they answer.
//! Their JSON Schemas (schemars) make the OpenAPI document.

use std::borrow::Cow;

use chorus_bus::{ClarificationNeeded, FinalReport, TaskContext, TaskId};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::phase::Phase;

/// The body of `POST /tasks` and `POST /chat/stream`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct NewTask {
    /// The request in the user's words.
    pub query: String,
    /// Optional context: reference time, time zone, language.
    #[serde(default)]
    pub context: TaskContext,
    /// Optional task id chosen by the client (letters, digits, `-_.:`).
    #[serde(default)]
    pub task_id: Option<String>,
}

/// The answer to `POST /tasks`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct Accepted {
    /// The task's id.
    pub task_id: TaskId,
}

/// Where a task is, as the native API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskPhase {
    /// Accepted, until the report is out (planned or not).
    Pending,
    /// Waiting for the answer to its question (`POST /tasks/{id}/answer`), its
    /// deadline paused.
    InputRequired,
    /// The report is out.
    Done,
}

impl TaskPhase {
    /// Every value, in the order a task goes through them.
    pub const ALL: [TaskPhase; 3] = [
        TaskPhase::Pending,
        TaskPhase::InputRequired,
        TaskPhase::Done,
    ];

    /// The wire name (`pending`, `input_required`, `done`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskPhase::Pending => "pending",
            TaskPhase::InputRequired => "input_required",
            TaskPhase::Done => "done",
        }
    }
}

impl From<&Phase> for TaskPhase {
    fn from(phase: &Phase) -> Self {
        match phase {
            Phase::Pending | Phase::Working => TaskPhase::Pending,
            Phase::InputRequired(_) => TaskPhase::InputRequired,
            Phase::Done(_) => TaskPhase::Done,
        }
    }
}

impl JsonSchema for TaskPhase {
    fn schema_name() -> Cow<'static, str> {
        "TaskPhase".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let values: Vec<&str> = TaskPhase::ALL.iter().map(|p| p.as_str()).collect();
        json_schema!({
            "type": "string",
            "enum": values,
            "description": "`pending` until the report is out, then `done`; `input_required` \
                meanwhile while the task waits for the answer to its question \
                (`POST /tasks/{id}/answer`), its deadline paused."
        })
    }
}

/// The answer to `GET /tasks/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TaskStatus {
    /// The task's id.
    pub task_id: TaskId,
    /// `pending` until the report is out, then `done`; `input_required` meanwhile while
    /// the task waits for the answer to its question (`POST /tasks/{id}/answer`), its
    /// deadline paused.
    pub state: TaskPhase,
    /// The final report, when done.
    pub report: Option<FinalReport>,
    /// The question the task waits on, in state `input_required` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<ClarificationNeeded>,
}

impl TaskStatus {
    /// Task `task_id` in `phase`.
    pub(crate) fn new(task_id: TaskId, phase: Phase) -> Self {
        let state = TaskPhase::from(&phase);
        let (report, question) = match phase {
            Phase::Done(report) => (Some(report), None),
            Phase::InputRequired(question) => (None, Some(question)),
            Phase::Pending | Phase::Working => (None, None),
        };
        TaskStatus {
            task_id,
            state,
            report,
            question,
        }
    }
}

/// The data of a `question` event: the task's question, with the task's id.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct QuestionEvent {
    /// The task that asks (answer with `POST /tasks/{task_id}/answer`).
    pub task_id: TaskId,
    /// The question, as the Planner published it on `clarification_needed`.
    #[serde(flatten)]
    pub question: ClarificationNeeded,
}

/// The body of `POST /tasks/{id}/answer`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct NewAnswer {
    /// The answer in the user's words (at most 1000 characters). For a question with
    /// options, the option's label, its value or its number (1, 2, …) picks it.
    pub answer: String,
    /// The question it answers (the `number` of the task's `question`); absent: the
    /// open one. Naming a question answered before is `already_answered`, one not
    /// asked (yet) `no_such_question`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<u32>,
}

/// The answer to `POST /tasks/{id}/answer`: the answer settled this question and is on
/// its way to the Planner; the task goes on (follow it with `GET /tasks/{id}`, or the
/// stream that showed the question).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct AnswerAccepted {
    /// The task's id.
    pub task_id: TaskId,
    /// The question the answer settled.
    pub question: u32,
}

/// The query of `DELETE /tasks/{id}`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct CancelQuery {
    /// Why, in the client's words (at most 500 characters; shown in the report).
    #[serde(default)]
    pub reason: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_schema_lists_the_wire_values_each_phase_serializes_to() {
        let serialized: Vec<String> = TaskPhase::ALL
            .iter()
            .map(|p| {
                serde_json::to_value(p)
                    .expect("json")
                    .as_str()
                    .expect("a string")
                    .to_owned()
            })
            .collect();
        assert_eq!(serialized, ["pending", "input_required", "done"]);
        let schema = schemars::schema_for!(TaskPhase).to_value();
        assert_eq!(schema["enum"], serde_json::json!(serialized));
        assert_eq!(schema["type"], "string");
    }
}
