//! Payload types, one per topic kind. Every type tolerates unknown fields (so newer
//! publishers do not break older consumers) and reports missing required fields by name.

use serde::Serialize;

mod agent;
mod report;
mod step;
mod task;
mod verdict;

pub use agent::{AgentHeartbeat, DeadLetter, ToolInfo};
pub use report::{
    AnswerOption, ClarificationAnswer, ClarificationNeeded, FinalReport, ReportStatus, StepReport,
    TaskCancel,
};
pub use step::{StepOutcome, StepResult, StepTask, ToolRequest, ToolResponse};
pub use task::{PlanReady, PlannerKind, TaskContext, TaskRequest, first_iteration};
pub use verdict::{FailedStep, RenavigateRequest, Verdict, VerificationDone};

/// The payload of a message; its variant is fixed by the message's topic.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Payload {
    /// On `task_available`.
    TaskAvailable(TaskRequest),
    /// On `plan_ready`.
    PlanReady(PlanReady),
    /// On `<pool>_task`.
    StepTask(StepTask),
    /// On `<pool>_result`.
    StepResult(StepResult),
    /// On `tool_request`.
    ToolRequest(ToolRequest),
    /// On `tool_response`.
    ToolResponse(ToolResponse),
    /// On `final_report`.
    FinalReport(FinalReport),
    /// On `clarification_needed`.
    ClarificationNeeded(ClarificationNeeded),
    /// On `clarification_answer`.
    ClarificationAnswer(ClarificationAnswer),
    /// On `task_cancel`.
    TaskCancel(TaskCancel),
    /// On `renavigate_request`.
    RenavigateRequest(RenavigateRequest),
    /// On `verification_done`.
    VerificationDone(VerificationDone),
    /// On `dead_letter`.
    DeadLetter(DeadLetter),
    /// On `agent_heartbeat`.
    AgentHeartbeat(AgentHeartbeat),
}
