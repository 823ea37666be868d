//! Which steps of a plan go out next, and as what: the one rule the Planner (the first
//! wave, published with the plan) and the Router (every later wave, released by results)
//! share. A step goes out when every step it references has a result: as a
//! `<pool>_task` with the references replaced by values, or, when a referenced step
//! failed or nobody serves its pool, as a failed result with the reason. Each message
//! comes with the once-key that makes its dispatch happen once whoever sends it.

use std::collections::HashMap;

use chorus_bus::{
    Arg, BusError, Message, Payload, PlanReady, Step, StepId, StepOutcome, StepResult, StepTask,
    TaskId, Topic,
};
use serde_json::{Map, Value};

use crate::report;
use crate::state::{TaskState, once};
use chorus_bus::PoolName;

/// Opens `plan` for dispatch: stores it unless the task has a plan already, and records
/// a failed result for every step on a pool outside `pools`, all before any step goes
/// out. Returns the stored plan (this one, or the one stored first) and those failures.
pub async fn open_plan(
    state: &TaskState,
    task: &TaskId,
    plan: PlanReady,
    pools: &[PoolName],
) -> Result<(PlanReady, HashMap<StepId, StepResult>), BusError> {
    let plan = state.put_plan_once(task, plan).await?;
    let results = record_unserved(state, task, &plan, pools).await?;
    Ok((plan, results))
}

/// Records a failed result for every step of `plan` on a pool outside `pools`, and
/// returns them by step id.
pub async fn record_unserved(
    state: &TaskState,
    task: &TaskId,
    plan: &PlanReady,
    pools: &[PoolName],
) -> Result<HashMap<StepId, StepResult>, BusError> {
    let mut results = HashMap::new();
    for failed in report::unserved(plan, pools) {
        state.put_result(task, &failed).await?;
        results.insert(failed.step_id.clone(), failed);
    }
    Ok(results)
}

/// What to do with a step given the results so far.
enum Readiness {
    /// Every reference has a successful result: dispatch with these arguments.
    Ready(Map<String, Value>),
    /// A referenced step failed: this step fails with the reason (a failure that can
    /// pass when the referenced step's could).
    Blocked(String, bool),
    /// Some referenced step has no result yet.
    Waiting,
}

/// The messages for every step of `plan` that has no result yet and can go out now,
/// each with its once-key, as replies to `msg` sent by `from`. Steps on a pool outside
/// `pools` fail with "no agent serves the … pool".
pub fn next_steps(
    msg: &Message,
    from: &str,
    plan: &PlanReady,
    results: &HashMap<StepId, StepResult>,
    pools: &[PoolName],
) -> Vec<(String, Message)> {
    let mut out = Vec::new();
    for step in &plan.plan.steps {
        if results.contains_key(&step.id) {
            continue;
        }
        let m = match readiness(step, results) {
            Readiness::Waiting => continue,
            Readiness::Ready(_) if !pools.iter().any(|p| *p == step.pool) => failed(
                msg,
                step,
                from,
                plan.iteration,
                StepOutcome::failed(format!("no agent serves the {} pool", step.pool)),
            ),
            Readiness::Ready(arguments) => {
                let task = StepTask {
                    step_id: step.id.clone(),
                    pool: step.pool.clone(),
                    tool: step.tool.clone(),
                    arguments,
                    context: plan.context.clone(),
                    iteration: plan.iteration,
                };
                msg.reply(Topic::pool_task(&step.pool), from, Payload::StepTask(task))
                    .to(step.pool.clone())
            }
            Readiness::Blocked(reason, transient) => {
                let outcome = match transient {
                    true => StepOutcome::failed_transient(reason),
                    false => StepOutcome::failed(reason),
                };
                failed(msg, step, from, plan.iteration, outcome)
            }
        };
        out.push((once::dispatched(&msg.task_id, &step.id, plan.iteration), m));
    }
    out
}

/// A failed result for `step` in attempt `iteration`, published in place of running it.
fn failed(msg: &Message, step: &Step, from: &str, iteration: u32, outcome: StepOutcome) -> Message {
    let result = StepResult {
        step_id: step.id.clone(),
        pool: step.pool.clone(),
        tool: step.tool.clone(),
        arguments: Map::new(),
        outcome,
        agent: from.to_owned(),
        elapsed_us: 0,
        iteration,
    };
    msg.reply(
        Topic::pool_result(&step.pool),
        from,
        Payload::StepResult(result),
    )
}

/// Whether `step` can run, given the results so far.
fn readiness(step: &Step, results: &HashMap<StepId, StepResult>) -> Readiness {
    let mut arguments = Map::new();
    for (name, arg) in &step.arguments {
        let value = match arg {
            Arg::Value(v) => v.clone(),
            Arg::Ref { step: dep } => match results.get(dep).map(|r| &r.outcome) {
                None => return Readiness::Waiting,
                Some(StepOutcome::Ok { value, .. }) => value.clone(),
                Some(StepOutcome::Failed { error, transient }) => {
                    return Readiness::Blocked(format!("step {dep} failed: {error}"), *transient);
                }
            },
        };
        arguments.insert(name.clone(), value);
    }
    Readiness::Ready(arguments)
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
            iteration: 1,
        }
    }

    fn plan(steps: Value) -> PlanReady {
        serde_json::from_value(json!({
            "query": "q", "context": {}, "language": "en", "planner": "heuristic", "plan": {"steps": steps}
        }))
        .expect("plan_ready")
    }

    fn request() -> Message {
        Message::new(
            "t1",
            Topic::task_available(),
            "client",
            Payload::TaskAvailable(chorus_bus::TaskRequest {
                query: "q".into(),
                context: Default::default(),
            }),
        )
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
            result("s1", StepOutcome::failed("division by zero")),
        );
        let Readiness::Blocked(reason, false) =
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

    #[test]
    fn the_first_wave_is_every_step_without_references_and_unserved_pools_fail() {
        let plan = plan(json!([
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"}},
            {"id": "s2", "pool": "date", "tool": "weekday", "arguments": {"date": "2026-12-25"}},
            {"id": "s3", "pool": "math", "tool": "multiply", "arguments": {"a": {"$ref": "s1"}, "b": "3"}},
            {"id": "s4", "pool": "weather", "tool": "forecast", "arguments": {}}
        ]));
        let out = next_steps(
            &request(),
            "planner-1",
            &plan,
            &HashMap::new(),
            &["math".into(), "date".into()],
        );
        let sent: Vec<(String, String)> = out
            .iter()
            .map(|(key, m)| (key.clone(), m.topic.to_string()))
            .collect();
        assert_eq!(
            sent,
            [
                ("chorus:{t1}:once:dispatch:s1".into(), "math_task".into()),
                ("chorus:{t1}:once:dispatch:s2".into(), "date_task".into()),
                (
                    "chorus:{t1}:once:dispatch:s4".into(),
                    "weather_result".into()
                ),
            ]
        );
        let Payload::StepResult(r) = &out[2].1.payload else {
            panic!("a failed result")
        };
        assert_eq!(
            r.outcome,
            StepOutcome::failed("no agent serves the weather pool")
        );
        assert!(
            out.iter()
                .all(|(_, m)| m.task_id == "t1" && m.from_agent == "planner-1")
        );
    }
}
