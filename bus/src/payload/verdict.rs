//! Payloads of the verdict on an attempt: a failed step, a re-plan asked, the verdict.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::plan::{Plan, StepId};

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
