//! A Chorus task as an A2A `Task`. The A2A task id is the Chorus task id, its contextId
//! the task's conversation (`TaskContext.session_id`; for a task sent without one
//! through another door, its task id: see [`context_id`]). Where the task is, its
//! phase as every door reads it ([`crate::phase`]):
//!
//! | Chorus | A2A state |
//! |---|---|
//! | accepted, not yet planned | `TASK_STATE_SUBMITTED` |
//! | planned, steps running (or an answer taken, being planned again) | `TASK_STATE_WORKING` |
//! | waiting for the answer to its question | `TASK_STATE_INPUT_REQUIRED`, the question in the status message |
//! | report `completed`, `partial` | `TASK_STATE_COMPLETED` |
//! | report `failed`, `deadline_exceeded`, `unanswered` | `TASK_STATE_FAILED` |
//! | report `unplannable` | `TASK_STATE_REJECTED` |
//! | report `canceled` | `TASK_STATE_CANCELED` |
//!
//! A finished task has one artifact, `report`: the report's text and (unless the client
//! excluded JSON) its `final_report` as a JSON data part; the Chorus status is in the
//! task's metadata (`chorusStatus`), and every state but completed also carries the
//! report's text as its status message. The history is the user's request and, while
//! the task asks, the question.

use std::collections::HashMap;

use chorus_bus::{BusError, ClarificationNeeded, FinalReport, ReportStatus, TaskId, TaskRequest};
use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::wire::{self, Artifact, Message, Task, TaskState};
use crate::api::ApiState;
use crate::phase::{self, Phase};

/// The id of the artifact that carries a task's report.
pub(crate) const REPORT_ARTIFACT: &str = "report";

/// A task as the store has it now.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Snapshot {
    /// The task's id.
    pub(crate) task_id: TaskId,
    /// Its conversation (its task id when it has none).
    pub(crate) context_id: String,
    /// The user's request, as sent.
    pub(crate) query: String,
    /// Where it is (the task's one phase, [`crate::phase`]).
    pub(crate) phase: Phase,
}

impl Snapshot {
    /// A task just accepted.
    pub(crate) fn submitted(task_id: &TaskId, context_id: &str, query: &str) -> Self {
        Snapshot {
            task_id: task_id.clone(),
            context_id: context_id.to_owned(),
            query: query.to_owned(),
            phase: Phase::Pending,
        }
    }

    /// Whether the task is finished (its report is out).
    pub(crate) fn is_done(&self) -> bool {
        self.phase.is_done()
    }
}

/// Task `id` as the store has it; `None` for an unknown (or expired) task. A report
/// published but not yet stored by the Chief reads as working.
pub(crate) async fn snapshot(api: &ApiState, id: &TaskId) -> Result<Option<Snapshot>, BusError> {
    let Some(phase) = phase::read(&api.state, id).await? else {
        return Ok(None);
    };
    let request = request(api, id, &phase).await?;
    Ok(Some(Snapshot {
        task_id: id.clone(),
        context_id: context_id(id, request.context.session_id),
        query: request.query,
        phase,
    }))
}

/// The request of task `id`: as stored while it runs, or as its question record keeps
/// it; a finished task's stored request the Chief deleted with the rest of its running
/// state, so the acceptance record keeps it (the one way in stores the request's JSON
/// there, to know a reused task id); else (a task accepted through the PUBLISH
/// ingress) the report's query, without a conversation.
async fn request(api: &ApiState, id: &TaskId, phase: &Phase) -> Result<TaskRequest, BusError> {
    let state = &api.state;
    if let Some(request) = state.request(id).await? {
        return Ok(request);
    }
    if let Some(waiting) = state.waiting(id).await? {
        return Ok(waiting.request);
    }
    let key = chorus_core::state::once::accepted(id);
    let recorded = state.store().get(&key).await?;
    let query = match phase {
        Phase::Done(report) => report.query.clone(),
        _ => String::new(),
    };
    Ok(recorded
        .and_then(|json| serde_json::from_str::<TaskRequest>(&json).ok())
        .unwrap_or_else(|| TaskRequest {
            query,
            context: Default::default(),
        }))
}

/// A task's A2A contextId: its conversation (`TaskContext.session_id`), or — for a task
/// sent without one through another door — its own task id: a stable id, and one a
/// follow-up may name as its contextId (a conversation of that name starts there).
pub(crate) fn context_id(task_id: &TaskId, session_id: Option<String>) -> String {
    session_id
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| task_id.to_string())
}

/// The A2A state of a report's status.
pub(crate) fn state_of(status: ReportStatus) -> TaskState {
    match status {
        ReportStatus::Completed | ReportStatus::Partial => TaskState::Completed,
        ReportStatus::Failed | ReportStatus::DeadlineExceeded | ReportStatus::Unanswered => {
            TaskState::Failed
        }
        ReportStatus::Unplannable => TaskState::Rejected,
        ReportStatus::Canceled => TaskState::Canceled,
    }
}

/// The report's status as Chorus names it (`completed`, `deadline_exceeded`, …).
pub(crate) fn status_name(status: ReportStatus) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The A2A task for `snap` (`with_data`: the report's JSON part goes out), its status
/// stamped `at`.
pub(crate) fn to_task(snap: &Snapshot, with_data: bool, at: DateTime<Utc>) -> Task {
    let (task, context) = (&snap.task_id, &snap.context_id);
    let mut history = vec![wire::user_message(task, context, &snap.query)];
    let mut artifacts = None;
    let mut metadata = None;
    let status = match &snap.phase {
        Phase::Pending => wire::status(TaskState::Submitted, None, at),
        Phase::Working => wire::status(TaskState::Working, None, at),
        Phase::InputRequired(q) => {
            let message = question_message(task, context, q);
            history.push(message.clone());
            wire::status(TaskState::InputRequired, Some(message), at)
        }
        Phase::Done(report) => {
            artifacts = Some(vec![report_artifact(report, with_data)]);
            let name = Value::String(status_name(report.status));
            metadata = Some(HashMap::from([("chorusStatus".to_owned(), name)]));
            report_status(task, context, report, at)
        }
    };
    Task {
        id: task.to_string(),
        context_id: context.clone(),
        status,
        artifacts,
        history: Some(history),
        metadata,
    }
}

/// The agent's message asking `q`: the question (and its options, numbered) as text,
/// and the question itself as JSON (`question`, `options` with `label` and `value`,
/// `number`, `part`, `language`): answer with the text, an option's label, value or
/// number.
pub(crate) fn question_message(task: &TaskId, context: &str, q: &ClarificationNeeded) -> Message {
    let mut text = q.question.clone();
    for (i, option) in q.options.iter().enumerate() {
        text.push_str(&format!("\n{}. {} ({})", i + 1, option.label, option.value));
    }
    let data = json!({
        "question": q.question,
        "options": q.options,
        "number": q.number,
        "part": q.part,
        "language": q.language,
    });
    let id = format!("{task}:question:{}", q.number);
    wire::agent_message(id, task, context, vec![wire::text(&text), wire::data(data)])
}

/// The artifact carrying `report`: its text, and its JSON when `with_data`.
pub(crate) fn report_artifact(report: &FinalReport, with_data: bool) -> Artifact {
    let mut parts = vec![wire::text(&report.text)];
    if with_data && let Ok(value) = serde_json::to_value(report) {
        parts.push(wire::data(value));
    }
    Artifact {
        artifact_id: REPORT_ARTIFACT.to_owned(),
        name: Some("report".to_owned()),
        description: Some(format!(
            "The answer to \"{}\" ({})",
            report.query,
            status_name(report.status)
        )),
        parts,
        metadata: None,
        extensions: None,
    }
}

/// The final status for `report`; short of completed, it says why in its message.
pub(crate) fn report_status(
    task: &TaskId,
    context: &str,
    report: &FinalReport,
    at: DateTime<Utc>,
) -> wire::TaskStatus {
    let state = state_of(report.status);
    let message = (state != TaskState::Completed).then(|| {
        let id = format!("{task}:status:{}", status_name(report.status));
        wire::agent_message(id, task, context, vec![wire::text(&report.text)])
    });
    wire::status(state, message, at)
}
