//! Payloads of a task and its plan: the request, the client context, the plan ready.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::language::Language;
use crate::plan::Plan;

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

pub(super) fn is_first_iteration(n: &u32) -> bool {
    *n == 1
}
