//! Checks a model-made plan before anything runs it: it must parse as a [`Plan`], be a
//! DAG of references to earlier steps within the step limit, and use only live pools and
//! tools with arguments that fit each tool's input schema. The first problem found is
//! the fallback reason. A planning answer may instead be a question for the user
//! ([`ModelAnswer`]), checked for shape and size like any plan.

use chorus_bus::{Plan, Step};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::PlanFallback;
use crate::tools::{PoolTool, check_arguments};

/// Longest question a model may ask, in characters.
pub const MAX_QUESTION_CHARS: usize = 500;
/// Most options a model's question may offer.
pub const MAX_OPTIONS: usize = 8;
/// Longest option, in characters.
pub const MAX_OPTION_CHARS: usize = 200;

/// A question instead of a plan: what only the user can settle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ModelQuestion {
    /// The question, in the user's language.
    pub text: String,
    /// The answers to choose from, when the set is finite.
    #[serde(default)]
    pub options: Vec<String>,
}

/// What the model may answer when asked for a plan: steps, or (when the request is
/// missing something only the user can say, or reads two ways) a question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "ModelPlan")]
pub struct ModelPlan {
    /// The steps (empty when asking).
    #[serde(default)]
    pub steps: Vec<Step>,
    /// A question for the user instead of steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<ModelQuestion>,
}

/// A checked planning answer.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelAnswer {
    /// A plan that passed every check.
    Plan(Plan),
    /// A question for the user.
    Question(ModelQuestion),
}

/// The planning answer in the model's `text`: a plan checked against `tools` and
/// `max_steps`, or a question (non-empty, within [`MAX_QUESTION_CHARS`], at most
/// [`MAX_OPTIONS`] options of [`MAX_OPTION_CHARS`]). Both at once is invalid.
pub fn parse_answer(
    text: &str,
    tools: &[PoolTool],
    max_steps: usize,
) -> Result<ModelAnswer, PlanFallback> {
    let answer: ModelPlan = serde_json::from_str(strip_fences(text))
        .map_err(|e| PlanFallback::InvalidJson(e.to_string()))?;
    match answer.question {
        None => check_plan(
            Plan {
                steps: answer.steps,
            },
            tools,
            max_steps,
        )
        .map(ModelAnswer::Plan),
        Some(_) if !answer.steps.is_empty() => Err(PlanFallback::InvalidJson(
            "a plan with both steps and a question".into(),
        )),
        Some(q) => {
            let chars = q.text.trim().chars().count();
            let fits = chars > 0
                && chars <= MAX_QUESTION_CHARS
                && q.options.len() <= MAX_OPTIONS
                && q.options
                    .iter()
                    .all(|o| !o.trim().is_empty() && o.chars().count() <= MAX_OPTION_CHARS);
            if !fits {
                return Err(PlanFallback::InvalidJson(format!(
                    "a question must have 1..={MAX_QUESTION_CHARS} characters and at most {MAX_OPTIONS} non-empty options of at most {MAX_OPTION_CHARS}"
                )));
            }
            Ok(ModelAnswer::Question(ModelQuestion {
                text: q.text.trim().to_owned(),
                options: q.options.iter().map(|o| o.trim().to_owned()).collect(),
            }))
        }
    }
}

/// The plan in the model's answer `text`, checked against `tools` and `max_steps` (a
/// question is not a plan here: the iteration advisor must plan).
pub fn parse_plan(text: &str, tools: &[PoolTool], max_steps: usize) -> Result<Plan, PlanFallback> {
    let plan: Plan = serde_json::from_str(strip_fences(text))
        .map_err(|e| PlanFallback::InvalidJson(e.to_string()))?;
    check_plan(plan, tools, max_steps)
}

/// Checks `plan`; a plan showing nothing shows its last step.
fn check_plan(mut plan: Plan, tools: &[PoolTool], max_steps: usize) -> Result<Plan, PlanFallback> {
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
    fn a_question_instead_of_a_plan_is_checked_like_a_plan() {
        let asked = r#"{"question": {"text": " Among how many people? ", "options": ["2", "3"]}}"#;
        assert_eq!(
            parse_answer(asked, &tools(), 8),
            Ok(ModelAnswer::Question(ModelQuestion {
                text: "Among how many people?".into(),
                options: vec!["2".into(), "3".into()],
            }))
        );
        let both = r#"{"steps":[{"id":"s1","pool":"math","tool":"sum","arguments":{"a":1,"b":1}}],
                      "question": {"text": "Sure?"}}"#;
        assert!(parse_answer(both, &tools(), 8).is_err());
        let blank = r#"{"question": {"text": "  "}}"#;
        assert_eq!(
            parse_answer(blank, &tools(), 8).map_err(|e| e.code()),
            Err("invalid_json".to_owned())
        );
        let long = format!(r#"{{"question": {{"text": "{}"}}}}"#, "x".repeat(501));
        assert!(parse_answer(&long, &tools(), 8).is_err());
        let plan =
            r#"{"steps":[{"id":"s1","pool":"math","tool":"sum","arguments":{"a":"2","b":"4"}}]}"#;
        assert!(matches!(
            parse_answer(plan, &tools(), 8),
            Ok(ModelAnswer::Plan(_))
        ));
    }

    #[test]
    fn a_tool_name_on_two_pools_is_checked_against_its_own_pools_schema() {
        // The date pool's convert_time and a third-party time server's take other
        // arguments; a step is checked against the schema of the pool it names.
        let tool = |pool: &str, properties: serde_json::Value| {
            let required: Vec<&String> = properties
                .as_object()
                .map(|p| p.keys().collect())
                .unwrap_or_default();
            PoolTool::new(
                pool,
                ToolInfo {
                    name: "convert_time".into(),
                    description: String::new(),
                    input_schema: json!({"type": "object", "properties": properties,
                                         "required": required, "additionalProperties": pool == "date"}),
                },
            )
        };
        let tools = vec![
            tool(
                "date",
                json!({"time": {"type": "string"}, "from": {"type": "string"}, "to": {"type": "string"}}),
            ),
            tool(
                "time",
                json!({"time": {"type": "string"}, "source_timezone": {"type": "string"},
                                "target_timezone": {"type": "string"}}),
            ),
        ];
        let on = |pool: &str| {
            format!(
                r#"{{"steps":[{{"id":"s1","pool":"{pool}","tool":"convert_time",
                   "arguments":{{"source_timezone":"Asia/Kathmandu","time":"12:00","target_timezone":"UTC"}}}}]}}"#
            )
        };
        assert!(parse_plan(&on("time"), &tools, 8).is_ok());
        assert_eq!(
            parse_plan(&on("date"), &tools, 8).map_err(|e| e.code()),
            Err("bad_arguments".to_owned())
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
