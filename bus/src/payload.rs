//! Payload types, one per topic kind. Every type tolerates unknown fields (so newer
//! publishers do not break older consumers) and reports missing required fields by name.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::plan::{Plan, StepId};

/// What a client may say about the request's context.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TaskContext {
    /// Reference "now" as an RFC 3339 / ISO 8601 date-time, for reproducible dates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<String>,
    /// IANA time zone name, such as `Asia/Ho_Chi_Minh`; UTC when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
    /// The user's language as a BCP 47 tag (`en`, `vi`); detected from the query when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// `task_available`: a user's request. This is also the whole body a client with no
/// SDK may publish (plus an optional `task_id`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TaskRequest {
    /// The user's request in their own words.
    pub query: String,
    /// Optional context: reference time, time zone, language.
    #[serde(default)]
    pub context: TaskContext,
}

/// Which planner produced a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlannerKind {
    /// The rule-based parser.
    Heuristic,
    /// A language model through an OpenAI-compatible API.
    Llm,
}

/// `plan_ready`: the plan for a task, with what the Synthesizer needs to write the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlanReady {
    /// The user's request.
    pub query: String,
    /// The request's context (used by date steps and for the report's language).
    #[serde(default)]
    pub context: TaskContext,
    /// The language the report is written in (`en`, `vi`).
    pub language: String,
    /// The steps; empty when the request could not be planned.
    pub plan: Plan,
    /// Which planner made the plan.
    pub planner: PlannerKind,
    /// When the plan is empty: why, in the user's language, with what Chorus can do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unplanned: Option<String>,
    /// When the planner answered directly with no steps (e.g. "what can you do?"):
    /// the answer, in the user's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// True when the publisher already stored this plan and sent its first wave (every
    /// step that needs no other step's result), as the Planner does: the Router then
    /// only advances the plan on results. A plan published without it (by another
    /// client) is stored and dispatched by the Router.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dispatched: bool,
}

/// `<pool>_task`: one step with its arguments resolved, sent to a pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StepTask {
    /// The step's id within its plan.
    pub step_id: StepId,
    /// The pool that runs it.
    pub pool: String,
    /// The MCP tool to call.
    pub tool: String,
    /// The tool's arguments, references already replaced by values.
    #[serde(default)]
    pub arguments: serde_json::Map<String, serde_json::Value>,
    /// The request's context (date tools take `now` and `timezone` from it).
    #[serde(default)]
    pub context: TaskContext,
}

/// How a step ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum StepOutcome {
    /// The tool answered.
    Ok {
        /// The tool's result value (its structured `result`).
        value: serde_json::Value,
        /// The tool's text rendering of the result.
        text: String,
    },
    /// The tool, the server, a dependency or the deadline failed the step.
    Failed {
        /// What went wrong, in words a user understands.
        error: String,
    },
}

impl StepOutcome {
    /// Whether the step succeeded.
    pub fn is_ok(&self) -> bool {
        matches!(self, StepOutcome::Ok { .. })
    }
}

/// `<pool>_result`: one step's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StepResult {
    /// The step's id within its plan.
    pub step_id: StepId,
    /// The pool that ran it.
    pub pool: String,
    /// The tool that was called.
    pub tool: String,
    /// The arguments the tool was called with.
    #[serde(default)]
    pub arguments: serde_json::Map<String, serde_json::Value>,
    /// The outcome.
    pub outcome: StepOutcome,
    /// Which agent instance produced it.
    #[serde(default)]
    pub agent: String,
    /// How long the tool call took, in microseconds.
    #[serde(default)]
    pub elapsed_us: u64,
}

/// `tool_request`: a pool agent is calling an MCP tool (an event for tracing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolRequest {
    /// The step being run.
    pub step_id: StepId,
    /// The MCP server's name or endpoint.
    pub server: String,
    /// The tool.
    pub tool: String,
    /// The arguments sent.
    #[serde(default)]
    pub arguments: serde_json::Map<String, serde_json::Value>,
}

/// `tool_response`: what the MCP tool answered (an event for tracing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolResponse {
    /// The step being run.
    pub step_id: StepId,
    /// The tool.
    pub tool: String,
    /// The outcome of the call.
    pub outcome: StepOutcome,
    /// How long the call took, in microseconds.
    pub elapsed_us: u64,
}

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
    /// The arguments it ran with (references resolved), when it ran.
    #[serde(default)]
    pub arguments: serde_json::Map<String, serde_json::Value>,
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
    /// The user's request.
    pub query: String,
    /// Overall status.
    pub status: ReportStatus,
    /// The report as markdown, in the user's language.
    pub text: String,
    /// The report's language (`en`, `vi`).
    pub language: String,
    /// Every step of the plan with its outcome.
    #[serde(default)]
    pub steps: Vec<StepReport>,
    /// Who wrote the text: `template` or `llm`.
    #[serde(default)]
    pub written_by: String,
}

/// `clarification_needed`: the planner asks the user for more.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClarificationNeeded {
    /// The question for the user.
    pub question: String,
    /// What Chorus can do, for the user's orientation.
    #[serde(default)]
    pub capabilities: Vec<String>,
}

/// `clarification_answer`: the user's answer to a clarification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClarificationAnswer {
    /// The answer text.
    pub answer: String,
}

/// `renavigate_request`: ask the planner to plan again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RenavigateRequest {
    /// Why a new plan is wanted.
    pub reason: String,
    /// The step that prompted it, if any.
    #[serde(default)]
    pub failed_step: Option<StepId>,
}

/// `verification_done`: a check of a report finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VerificationDone {
    /// Whether the report passed.
    pub ok: bool,
    /// Notes on what was checked.
    #[serde(default)]
    pub notes: String,
}

/// `dead_letter`: a message that could not be handled, with why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeadLetter {
    /// The stream (topic) it was read from.
    pub topic: String,
    /// Its stream entry id.
    pub entry_id: String,
    /// The consumer group (role) that gave up on it.
    pub role: String,
    /// How many times it was delivered.
    pub deliveries: u64,
    /// Why it was dead-lettered.
    pub reason: String,
    /// The original entry's `data` field, as received (truncated when huge).
    pub original: String,
}

/// A tool an agent offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolInfo {
    /// Tool name.
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
    /// Its input JSON Schema.
    #[serde(default)]
    pub input_schema: serde_json::Value,
}

/// `agent_heartbeat`: an agent is alive (and, for pool agents, which tools it offers).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AgentHeartbeat {
    /// The role (`chief`, `planner`, `router`, `pool`, `synthesizer`).
    pub role: String,
    /// Unique per process start.
    pub instance: String,
    /// The pool, for pool agents.
    #[serde(default)]
    pub pool: Option<String>,
    /// The tools offered, for pool agents.
    #[serde(default)]
    pub tools: Vec<ToolInfo>,
    /// How long this heartbeat is valid, in milliseconds.
    pub ttl_ms: u64,
}

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
    /// On `renavigate_request`.
    RenavigateRequest(RenavigateRequest),
    /// On `verification_done`.
    VerificationDone(VerificationDone),
    /// On `dead_letter`.
    DeadLetter(DeadLetter),
    /// On `agent_heartbeat`.
    AgentHeartbeat(AgentHeartbeat),
}
