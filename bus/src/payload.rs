//! Payload types, one per topic kind. Every type tolerates unknown fields (so newer
//! publishers do not break older consumers) and reports missing required fields by name.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ids::PoolName;
use crate::language::Language;
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
    /// The conversation this request belongs to (letters, digits, `-_.:`, at most 128):
    /// a follow-up such as "now multiply that by 3" may use the session's earlier
    /// answers, which live in Redis for `agents.session_ttl_secs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// How numeric dates such as `03/04/2026` read: `true` day first (3 April), `false`
    /// month first (March 4). When absent, the language settles it (`vi`, `en-GB`: day
    /// first; `en-US`: month first) or, for plain `en`, Chorus asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day_first: Option<bool>,
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
    /// The user's request, with the answers to any questions Chorus asked filled in
    /// ("divide 10 by" answered "4" is planned as "divide 10 by 4").
    pub query: String,
    /// The request's context (used by date steps and for the report's language).
    #[serde(default)]
    pub context: TaskContext,
    /// The language the report is written in (`en`, `vi`).
    pub language: Language,
    /// The steps; empty when the request could not be planned.
    pub plan: Plan,
    /// Which planner made the plan.
    pub planner: PlannerKind,
    /// What could not be planned and why, in the user's language, with what Chorus can
    /// do: the whole request when the plan is empty; with steps, the parts of a
    /// compound request that were not understood (the others run, and the report's
    /// status is `partial`).
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
    /// Which attempt at the task this plan is: 1 for the first plan, n + 1 for the plan
    /// the Planner makes after the verdict REITERATE on attempt n (it re-runs only the
    /// steps that failed for a reason that can pass, and what depends on them).
    #[serde(
        default = "first_iteration",
        skip_serializing_if = "is_first_iteration"
    )]
    pub iteration: u32,
    /// Why earlier attempts were not final, one line per failed step and attempt
    /// (`attempt 1: s1 sum: sum timed out after 1000 ms`); empty on the first attempt.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retried: Vec<String>,
}

/// The first attempt at a task (the default of every `iteration` field).
pub fn first_iteration() -> u32 {
    1
}

fn is_first_iteration(n: &u32) -> bool {
    *n == 1
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
    /// The attempt (plan iteration) this step belongs to; its once-keys and its result
    /// are that attempt's own, so a late result of an earlier attempt is ignored.
    #[serde(
        default = "first_iteration",
        skip_serializing_if = "is_first_iteration"
    )]
    pub iteration: u32,
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
        /// True when the failure can pass (the tool server was unreachable, the call
        /// timed out, no live agent served the pool, the server restarted mid-call): a
        /// later attempt may succeed, so the verdict is REITERATE. False (and absent on
        /// the wire) for failures that cannot pass: a tool error such as a division by
        /// zero, an invalid argument, an unknown tool.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        transient: bool,
    },
}

impl StepOutcome {
    /// Whether the step succeeded.
    pub fn is_ok(&self) -> bool {
        matches!(self, StepOutcome::Ok { .. })
    }

    /// A failure that cannot pass (a tool error, an invalid argument).
    pub fn failed(error: impl Into<String>) -> StepOutcome {
        StepOutcome::Failed {
            error: error.into(),
            transient: false,
        }
    }

    /// A failure that can pass (unreachable server, timeout, no live agent).
    pub fn failed_transient(error: impl Into<String>) -> StepOutcome {
        StepOutcome::Failed {
            error: error.into(),
            transient: true,
        }
    }

    /// Whether this is a failure that can pass.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StepOutcome::Failed {
                transient: true,
                ..
            }
        )
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
    /// The attempt (plan iteration) the step ran in.
    #[serde(
        default = "first_iteration",
        skip_serializing_if = "is_first_iteration"
    )]
    pub iteration: u32,
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

/// A step that failed for a reason that can pass, as a verdict and a re-plan name it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FailedStep {
    /// The step's id.
    pub step_id: StepId,
    /// Its pool.
    pub pool: String,
    /// Its tool.
    pub tool: String,
    /// Why it failed.
    pub reason: String,
}

impl FailedStep {
    /// The step as one line of a report (`s1 sum: sum timed out after 1000 ms`).
    pub fn line(&self) -> String {
        format!("{} {}: {}", self.step_id, self.tool, self.reason)
    }
}

/// `renavigate_request`: the Verifier asks the Planner to re-plan a task whose attempt
/// `iteration` ended with failures that can pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RenavigateRequest {
    /// The attempt that failed (the new plan is attempt `iteration + 1`).
    pub iteration: u32,
    /// The steps that failed for a reason that can pass; they and what depends on them
    /// run again, every other result is kept.
    pub failed_steps: Vec<FailedStep>,
    /// Why a new plan is wanted, in one line.
    #[serde(default)]
    pub reason: String,
    /// A whole new plan an iteration advisor (the model) suggested, already checked
    /// against the live tools: when given, attempt `iteration + 1` runs it instead of
    /// re-running failed steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<Plan>,
}

/// The verdict on an attempt at a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    /// The attempt's results are final: every step succeeded, or failed for a reason
    /// that cannot pass, or Chorus stopped trying (attempts or time ran out). The
    /// report goes out with this verdict.
    Finished,
    /// Some step failed for a reason that can pass, and there is time and an attempt
    /// left: the Planner re-plans what failed.
    Reiterate,
}

impl Verdict {
    /// The verdict as it is written on the wire (`FINISHED`, `REITERATE`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Finished => "FINISHED",
            Verdict::Reiterate => "REITERATE",
        }
    }
}

/// `verification_done`: the verdict on attempt `iteration` of a task, reached when every
/// step of its plan was final.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VerificationDone {
    /// The attempt (plan iteration) judged.
    pub iteration: u32,
    /// FINISHED or REITERATE.
    pub verdict: Verdict,
    /// Why, one line each: the failures that can pass (REITERATE), or why Chorus stopped
    /// trying although some could (FINISHED); empty when every step is final for good.
    #[serde(default)]
    pub reasons: Vec<String>,
    /// The steps that failed for a reason that can pass.
    #[serde(default)]
    pub failed_steps: Vec<FailedStep>,
    /// With a model checking reports (`llm.verify`): the plan its iteration advisor
    /// suggested when it judged the report does not answer the request (REITERATE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<Plan>,
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
    pub pool: Option<PoolName>,
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
