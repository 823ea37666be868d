//! Payloads of one step: the step sent to a pool, its outcome, the tool calls traced.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::task::{TaskContext, first_iteration, is_first_iteration};
use crate::plan::StepId;

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
