//! The Router: dispatches every step whose inputs are ready, as soon as they are ready.
//! Steps without references go out together when the plan arrives; each result
//! releases the steps waiting on it, with references replaced by values. A failed step
//! fails its dependents with the reason, and the other branches run on.

use std::collections::HashMap;

use async_trait::async_trait;
use chorus_bus::{
    Arg, Delivery, Message, Payload, PlanReady, Step, StepOutcome, StepResult, StepTask, Topic,
};
use serde_json::{Map, Value};
use tracing::debug;

use super::Ctx;
use crate::runtime::{HandleError, Handler};
use crate::state::once;

/// The Router's handler for `plan_ready` and every pool's results.
pub struct Router {
    ctx: Ctx,
    pools: Vec<String>,
}

/// What to do with a step given the results so far.
enum Readiness {
    /// Every reference has a successful result: dispatch with these arguments.
    Ready(Map<String, Value>),
    /// A referenced step failed: this step fails with the reason.
    Blocked(String),
    /// Some referenced step has no result yet.
    Waiting,
}

impl Router {
    /// A router for the given pools.
    pub fn new(ctx: Ctx, pools: Vec<String>) -> Self {
        Router { ctx, pools }
    }

    /// The topics the Router consumes: `plan_ready` and `<pool>_result` for each pool.
    pub fn topics(pools: &[String]) -> Vec<Topic> {
        let mut t = vec![Topic::plan_ready()];
        t.extend(pools.iter().map(|p| Topic::pool_result(p)));
        t
    }

    /// Dispatches (once) every step of `plan` that is ready and has no result yet, all
    /// in one round trip, so independent steps leave together.
    async fn advance(
        &self,
        msg: &Message,
        plan: &PlanReady,
        results: &HashMap<String, StepResult>,
    ) -> Result<(), HandleError> {
        let task = &msg.task_id;
        let me = &self.ctx.instance;
        let mut out = Vec::new();
        for step in &plan.plan.steps {
            if results.contains_key(&step.id) {
                continue;
            }
            let m = match readiness(step, results) {
                Readiness::Waiting => continue,
                Readiness::Ready(_) if !self.pools.contains(&step.pool) => failed(
                    msg,
                    step,
                    me,
                    format!("no agent serves the {} pool", step.pool),
                ),
                Readiness::Ready(arguments) => {
                    let task_msg = StepTask {
                        step_id: step.id.clone(),
                        pool: step.pool.clone(),
                        tool: step.tool.clone(),
                        arguments,
                        context: plan.context.clone(),
                    };
                    msg.reply(
                        Topic::pool_task(&step.pool),
                        me,
                        Payload::StepTask(task_msg),
                    )
                    .to(step.pool.clone())
                }
                Readiness::Blocked(reason) => failed(msg, step, me, reason),
            };
            out.push((once::dispatched(task, &step.id), m));
        }
        if out.is_empty() {
            return Ok(());
        }
        let sent = self
            .ctx
            .bus
            .publish_once_many(&out, self.ctx.state.ttl())
            .await?;
        for ((_, m), sent) in out.iter().zip(sent) {
            if sent {
                debug!(topic = %m.topic, "dispatched");
            }
        }
        Ok(())
    }
}

/// A failed result for `step`, published in place of running it.
fn failed(msg: &Message, step: &Step, from: &str, error: String) -> Message {
    let result = StepResult {
        step_id: step.id.clone(),
        pool: step.pool.clone(),
        tool: step.tool.clone(),
        arguments: Map::new(),
        outcome: StepOutcome::Failed { error },
        agent: from.to_owned(),
        elapsed_us: 0,
    };
    msg.reply(
        Topic::pool_result(&step.pool),
        from,
        Payload::StepResult(result),
    )
}

/// Whether `step` can run, given the results so far.
fn readiness(step: &Step, results: &HashMap<String, StepResult>) -> Readiness {
    let mut arguments = Map::new();
    for (name, arg) in &step.arguments {
        let value = match arg {
            Arg::Value(v) => v.clone(),
            Arg::Ref { step: dep } => match results.get(dep).map(|r| &r.outcome) {
                None => return Readiness::Waiting,
                Some(StepOutcome::Ok { value, .. }) => value.clone(),
                Some(StepOutcome::Failed { error }) => {
                    return Readiness::Blocked(format!("step {dep} failed: {error}"));
                }
            },
        };
        arguments.insert(name.clone(), value);
    }
    Readiness::Ready(arguments)
}

#[async_trait]
impl Handler for Router {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let msg = &delivery.message;
        let task = &msg.task_id;
        let state = &self.ctx.state;
        match &msg.payload {
            Payload::PlanReady(plan) => {
                // A fresh plan has no results yet; on a redelivery, steps already
                // dispatched are refused by their once-keys, and dependents are released
                // by the results as they arrive.
                state.put_plan(task, plan).await?;
                let mut results = HashMap::new();
                for failed in crate::report::unserved(plan, &self.pools) {
                    state.put_result(task, &failed).await?;
                    results.insert(failed.step_id.clone(), failed);
                }
                self.advance(msg, plan, &results).await
            }
            // Store first, read second (one round trip): whichever replica stores the
            // last input of a step sees all of them.
            Payload::StepResult(result) => match state.record_result(task, result).await? {
                (Some(plan), results) => self.advance(msg, &plan, &results).await,
                // The plan is stored before any step is dispatched; a result without
                // one belongs to an expired or foreign task.
                (None, _) => Ok(()),
            },
            _ => Err(HandleError::Permanent(format!(
                "the router does not handle {}",
                delivery.topic
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(args: Value) -> Step {
        serde_json::from_value(
            json!({"id": "s2", "pool": "math", "tool": "multiply", "arguments": args}),
        )
        .expect("step")
    }

    fn result(id: &str, outcome: StepOutcome) -> StepResult {
        StepResult {
            step_id: id.into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: Map::new(),
            outcome,
            agent: String::new(),
            elapsed_us: 0,
        }
    }

    #[test]
    fn a_reference_is_filled_with_the_result_value() {
        let mut results = HashMap::new();
        results.insert(
            "s1".into(),
            result(
                "s1",
                StepOutcome::Ok {
                    value: json!("6"),
                    text: "6".into(),
                },
            ),
        );
        let Readiness::Ready(args) =
            readiness(&step(json!({"a": {"$ref": "s1"}, "b": "3"})), &results)
        else {
            panic!("should be ready")
        };
        assert_eq!(args["a"], json!("6"));
        assert_eq!(args["b"], json!("3"));
    }

    #[test]
    fn a_failed_dependency_blocks_with_its_reason() {
        let mut results = HashMap::new();
        results.insert(
            "s1".into(),
            result(
                "s1",
                StepOutcome::Failed {
                    error: "division by zero".into(),
                },
            ),
        );
        let Readiness::Blocked(reason) =
            readiness(&step(json!({"a": {"$ref": "s1"}, "b": "3"})), &results)
        else {
            panic!("should be blocked")
        };
        assert_eq!(reason, "step s1 failed: division by zero");
    }

    #[test]
    fn a_missing_dependency_waits() {
        assert!(matches!(
            readiness(&step(json!({"a": {"$ref": "s1"}})), &HashMap::new()),
            Readiness::Waiting
        ));
    }
}
