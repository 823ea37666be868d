//! Plans: a DAG of steps. Each step names a pool and a tool, and its arguments are
//! literal JSON values or references to earlier steps' results, so `(2+4)*3` is a `sum`
//! step and a `multiply` step whose first argument is `{"$ref": "s1"}`.

use std::collections::{BTreeMap, HashSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::ids::StepId;

/// One argument of a step: a literal value, or the result of an earlier step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Arg {
    /// The value of an earlier step's result, filled in by the Router before dispatch.
    Ref {
        /// The id of the step whose result value is used.
        #[serde(rename = "$ref")]
        step: StepId,
    },
    /// A literal JSON value.
    Value(serde_json::Value),
}

/// One step of a plan: call `tool` on `pool` with `arguments`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Step {
    /// Unique id within the plan.
    pub id: StepId,
    /// The pool whose agents run this step (`math`, `date`, …).
    pub pool: String,
    /// The MCP tool to call on the pool's server.
    pub tool: String,
    /// Named arguments of the tool; values may reference earlier steps.
    #[serde(default)]
    pub arguments: BTreeMap<String, Arg>,
    /// The part of the user's query this step answers (for the report).
    #[serde(default)]
    pub part: String,
    /// Whether this step's value is shown in the report (intermediate steps are not).
    #[serde(default = "default_true")]
    pub output: bool,
    /// The arguments whose literal value is an earlier answer in the conversation
    /// ("now multiply that by 3"), so the report can say so. Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recalled: Vec<String>,
}

fn default_true() -> bool {
    true
}

/// Why a plan is not a valid DAG.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// Two steps share an id.
    #[error("step id {0:?} is used twice")]
    DuplicateStep(StepId),
    /// A step references a step that is not earlier in the plan.
    #[error("step {step:?} references {target:?}, which is not an earlier step")]
    BadReference {
        /// The referencing step.
        step: StepId,
        /// The missing or later step.
        target: StepId,
    },
    /// The plan has more steps than allowed.
    #[error("plan has {0} steps, more than the limit of {1}")]
    TooManySteps(usize, usize),
    /// A step id is empty, too long, or holds characters other than ASCII letters,
    /// digits, `-`, `_` and `.`.
    #[error("step id {0:?} is not a valid step id (1 to {MAX_STEP_ID_LEN} of A-Z a-z 0-9 - _ .)")]
    BadStepId(String),
    /// A step names a pool that cannot be a pool's name (so no topic could carry it).
    #[error("step {step:?} names the pool {pool:?}, which is not a valid pool name")]
    BadPool {
        /// The step.
        step: StepId,
        /// The pool it names.
        pool: String,
    },
    /// A step names a tool that cannot be an MCP tool's name.
    #[error("step {step:?} names the tool {tool:?}, which is not a valid tool name")]
    BadTool {
        /// The step.
        step: StepId,
        /// The tool it names.
        tool: String,
    },
}

/// Longest step id a plan may use (ids end up in state keys).
pub const MAX_STEP_ID_LEN: usize = 64;
/// Longest tool name a step may name (the MCP specification's limit).
pub const MAX_TOOL_NAME_LEN: usize = 128;

/// Whether `id` is 1..=[`MAX_STEP_ID_LEN`] of ASCII letters, digits, `-`, `_`, `.`.
fn is_step_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_STEP_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Whether `tool` can be an MCP tool's name: 1..=[`MAX_TOOL_NAME_LEN`] of ASCII letters,
/// digits, `-`, `_`, `.`.
fn is_tool_name(tool: &str) -> bool {
    !tool.is_empty()
        && tool.len() <= MAX_TOOL_NAME_LEN
        && tool
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// A plan: steps in an order where every reference points to an earlier step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Plan {
    /// The steps, each referencing only earlier ones.
    pub steps: Vec<Step>,
}

impl Step {
    /// Ids of the steps this step's arguments reference, in argument order, deduplicated.
    pub fn dependencies(&self) -> Vec<&str> {
        let mut seen = HashSet::new();
        self.arguments
            .values()
            .filter_map(|a| match a {
                Arg::Ref { step } => Some(step.as_str()),
                Arg::Value(_) => None,
            })
            .filter(|s| seen.insert(*s))
            .collect()
    }
}

impl Plan {
    /// Checks there are at most `max_steps` steps, every id, pool and tool is well
    /// formed, ids are unique, and references point only to earlier steps (so the plan
    /// is acyclic and every reference exists). Whoever made a plan, this is what makes
    /// it runnable: the Router and the Synthesizer check every plan they are given.
    pub fn validate(&self, max_steps: usize) -> Result<(), PlanError> {
        if self.steps.len() > max_steps {
            return Err(PlanError::TooManySteps(self.steps.len(), max_steps));
        }
        let mut earlier: HashSet<&str> = HashSet::new();
        for step in &self.steps {
            if !is_step_id(step.id.as_str()) {
                return Err(PlanError::BadStepId(
                    step.id.as_str().chars().take(80).collect(),
                ));
            }
            if !crate::topic::is_pool_name(&step.pool) {
                return Err(PlanError::BadPool {
                    step: step.id.clone(),
                    pool: step.pool.chars().take(80).collect(),
                });
            }
            if !is_tool_name(&step.tool) {
                return Err(PlanError::BadTool {
                    step: step.id.clone(),
                    tool: step.tool.chars().take(80).collect(),
                });
            }
            for dep in step.dependencies() {
                if !earlier.contains(dep) {
                    return Err(PlanError::BadReference {
                        step: step.id.clone(),
                        target: dep.into(),
                    });
                }
            }
            if !earlier.insert(step.id.as_str()) {
                return Err(PlanError::DuplicateStep(step.id.clone()));
            }
        }
        Ok(())
    }

    /// The step with this id.
    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(id: &str, args: serde_json::Value) -> Step {
        serde_json::from_value(json!({"id": id, "pool": "math", "tool": "sum", "arguments": args}))
            .expect("step json")
    }

    #[test]
    fn references_to_later_steps_are_refused() {
        let plan = Plan {
            steps: vec![
                step("s1", json!({"a": {"$ref": "s2"}, "b": 1})),
                step("s2", json!({"a": 1, "b": 2})),
            ],
        };
        assert_eq!(
            plan.validate(10),
            Err(PlanError::BadReference {
                step: "s1".into(),
                target: "s2".into()
            })
        );
    }

    fn plan_of(steps: serde_json::Value) -> Plan {
        serde_json::from_value(json!({ "steps": steps })).expect("plan json")
    }

    #[test]
    fn a_cycle_a_missing_reference_and_a_self_reference_are_refused() {
        let cycle = plan_of(json!([
            {"id": "a", "pool": "math", "tool": "sum", "arguments": {"a": {"$ref": "b"}}},
            {"id": "b", "pool": "math", "tool": "sum", "arguments": {"a": {"$ref": "a"}}}
        ]));
        assert_eq!(
            cycle.validate(32),
            Err(PlanError::BadReference {
                step: "a".into(),
                target: "b".into()
            })
        );
        let missing = plan_of(json!([
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": {"$ref": "s9"}}}
        ]));
        assert!(matches!(
            missing.validate(32),
            Err(PlanError::BadReference { .. })
        ));
        let own = plan_of(json!([
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": {"$ref": "s1"}}}
        ]));
        assert!(matches!(
            own.validate(32),
            Err(PlanError::BadReference { .. })
        ));
    }

    #[test]
    fn duplicate_ids_too_many_steps_and_malformed_names_are_refused() {
        let twice = plan_of(json!([
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": 1, "b": 1}},
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": 2, "b": 2}}
        ]));
        assert_eq!(
            twice.validate(32),
            Err(PlanError::DuplicateStep("s1".into()))
        );
        let many = Plan {
            steps: (0..33)
                .map(|i| step(&format!("s{i}"), json!({"a": 1, "b": 2})))
                .collect(),
        };
        assert_eq!(many.validate(32), Err(PlanError::TooManySteps(33, 32)));
        assert_eq!(
            plan_of(json!([{"id": "", "pool": "math", "tool": "sum"}])).validate(32),
            Err(PlanError::BadStepId(String::new()))
        );
        assert!(matches!(
            plan_of(json!([{"id": "s1", "pool": "Math Pool", "tool": "sum"}])).validate(32),
            Err(PlanError::BadPool { .. })
        ));
        assert!(matches!(
            plan_of(json!([{"id": "s1", "pool": "math", "tool": "sum it\u{1b}"}])).validate(32),
            Err(PlanError::BadTool { .. })
        ));
        assert_eq!(
            plan_of(json!([{"id": "s1", "pool": "math", "tool": "sum"}])).validate(32),
            Ok(())
        );
    }

    #[test]
    fn a_reference_argument_parses_as_ref_and_a_number_as_value() {
        let s = step("s2", json!({"a": {"$ref": "s1"}, "b": 3}));
        assert_eq!(s.arguments["a"], Arg::Ref { step: "s1".into() });
        assert_eq!(s.arguments["b"], Arg::Value(json!(3)));
        assert_eq!(s.dependencies(), vec!["s1"]);
        assert!(s.output);
    }
}
