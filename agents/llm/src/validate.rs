//! Checks a model-made plan before anything runs it: it must parse as a [`Plan`], be a
//! DAG of references to earlier steps within the step limit, and use only live pools and
//! tools with arguments that fit each tool's input schema. The first problem found is
//! the fallback reason.

use chorus_bus::Plan;

use crate::error::PlanFallback;
use crate::tools::{PoolTool, check_arguments};

/// The plan in the model's answer `text`, checked against `tools` and `max_steps`.
pub fn parse_plan(text: &str, tools: &[PoolTool], max_steps: usize) -> Result<Plan, PlanFallback> {
    let mut plan: Plan = serde_json::from_str(strip_fences(text))
        .map_err(|e| PlanFallback::InvalidJson(e.to_string()))?;
    validate_plan(&plan, tools, max_steps)?;
    if !plan.steps.iter().any(|s| s.output) {
        // A plan showing nothing would make an empty report: show its last step.
        if let Some(last) = plan.steps.last_mut() {
            last.output = true;
        }
    }
    Ok(plan)
}

/// Checks `plan` against `tools` and `max_steps`.
pub fn validate_plan(
    plan: &Plan,
    tools: &[PoolTool],
    max_steps: usize,
) -> Result<(), PlanFallback> {
    if plan.steps.is_empty() {
        return Err(PlanFallback::Empty);
    }
    plan.validate(max_steps).map_err(PlanFallback::Invalid)?;
    for step in &plan.steps {
        if !tools.iter().any(|t| t.pool == step.pool) {
            return Err(PlanFallback::UnknownPool {
                step: step.id.clone(),
                pool: step.pool.clone(),
            });
        }
        let tool = tools
            .iter()
            .find(|t| t.pool == step.pool && t.name == step.tool)
            .ok_or_else(|| PlanFallback::UnknownTool {
                step: step.id.clone(),
                pool: step.pool.clone(),
                tool: step.tool.clone(),
            })?;
        check_arguments(&tool.input_schema, &step.arguments).map_err(|reason| {
            PlanFallback::BadArguments {
                step: step.id.clone(),
                tool: step.tool.clone(),
                reason,
            }
        })?;
    }
    Ok(())
}

/// `text` without a surrounding markdown code fence (```json … ```), which some models
/// add even when asked for JSON only.
fn strip_fences(text: &str) -> &str {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("```") else {
        return t;
    };
    let body = rest.split_once('\n').map_or("", |(_, b)| b);
    body.trim_end().strip_suffix("```").unwrap_or(body).trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::{PlanError, ToolInfo};
    use serde_json::json;

    fn tools() -> Vec<PoolTool> {
        let schema = json!({"type":"object","properties":{"a":{"type":["number","string"]},"b":{"type":["number","string"]}},
                            "required":["a","b"],"additionalProperties":false});
        ["sum", "multiply"]
            .iter()
            .map(|n| {
                PoolTool::new(
                    "math",
                    ToolInfo {
                        name: (*n).into(),
                        description: String::new(),
                        input_schema: schema.clone(),
                    },
                )
            })
            .collect()
    }

    #[test]
    fn a_fenced_plan_parses_and_keeps_its_steps() {
        let text = "```json\n{\"steps\":[{\"id\":\"s1\",\"pool\":\"math\",\"tool\":\"sum\",\"arguments\":{\"a\":\"2\",\"b\":\"4\"},\"output\":false}]}\n```";
        let plan = parse_plan(text, &tools(), 8).expect("plan");
        assert_eq!(plan.steps.len(), 1);
        assert_eq!(plan.steps[0].tool, "sum");
        assert!(
            plan.steps[0].output,
            "a plan showing nothing shows its last step"
        );
    }

    #[test]
    fn a_self_reference_and_too_many_steps_are_refused() {
        let cyc = r#"{"steps":[{"id":"s1","pool":"math","tool":"sum","arguments":{"a":{"$ref":"s1"},"b":1}}]}"#;
        assert_eq!(
            parse_plan(cyc, &tools(), 8),
            Err(PlanFallback::Invalid(PlanError::BadReference {
                step: "s1".into(),
                target: "s1".into()
            }))
        );
        let two = r#"{"steps":[{"id":"s1","pool":"math","tool":"sum","arguments":{"a":1,"b":1}},
                               {"id":"s2","pool":"math","tool":"sum","arguments":{"a":1,"b":1}}]}"#;
        assert_eq!(
            parse_plan(two, &tools(), 1),
            Err(PlanFallback::Invalid(PlanError::TooManySteps(2, 1)))
        );
    }

    #[test]
    fn an_unknown_pool_and_bad_arguments_are_named() {
        let pool = r#"{"steps":[{"id":"s1","pool":"weather","tool":"forecast","arguments":{}}]}"#;
        assert_eq!(
            parse_plan(pool, &tools(), 8),
            Err(PlanFallback::UnknownPool {
                step: "s1".into(),
                pool: "weather".into()
            })
        );
        let args = r#"{"steps":[{"id":"s1","pool":"math","tool":"sum","arguments":{"a":1}}]}"#;
        assert_eq!(
            parse_plan(args, &tools(), 8).map_err(|e| e.code()),
            Err("bad_arguments".to_owned())
        );
        assert_eq!(
            parse_plan(r#"{"steps":[]}"#, &tools(), 8),
            Err(PlanFallback::Empty)
        );
    }
}
