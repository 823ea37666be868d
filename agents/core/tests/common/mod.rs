//! Messages the role tests on the in-memory bus hand their roles: a plan, one step's
//! result, and their deliveries.

#![allow(dead_code)]

use chorus_bus::*;
use serde_json::json;

/// `plan_ready` for `task` with `steps` (the plan's JSON steps).
pub fn plan(task: &str, steps: serde_json::Value) -> Message {
    let plan: Plan = serde_json::from_value(json!({ "steps": steps })).expect("plan");
    Message::new(
        task,
        Topic::plan_ready(),
        "planner",
        Payload::PlanReady(PlanReady {
            query: "q".into(),
            context: TaskContext::default(),
            language: chorus_bus::Language::En,
            plan,
            planner: PlannerKind::Heuristic,
            unplanned: None,
            reply: None,
            dispatched: true,
            iteration: 1,
            retried: Vec::new(),
        }),
    )
}

/// A plan of one step, `2+4`, its output.
pub fn lone(task: &str) -> Message {
    plan(
        task,
        json!([
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"},
             "part": "2+4", "output": true}
        ]),
    )
}

/// The math pool's result of `step` for `task`: `value`.
pub fn result(task: &str, step: &str, value: &str) -> Message {
    Message::new(
        task,
        Topic::pool_result("math"),
        "math-1",
        Payload::StepResult(StepResult {
            step_id: step.into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: Default::default(),
            outcome: StepOutcome::Ok {
                value: json!(value),
                text: value.into(),
            },
            agent: "math-1".into(),
            elapsed_us: 10,
            iteration: 1,
        }),
    )
}

/// `message` delivered for the `deliveries`-th time.
pub fn delivery(message: Message, deliveries: u64) -> Delivery {
    Delivery {
        topic: message.topic.clone(),
        entry_id: "1-0".into(),
        partition: 0,
        deliveries,
        message,
        bare: false,
    }
}

/// A step of the math pool for `task` (`sum` of 2 and 4), as the Router sends it.
pub fn math_step(task: &str) -> Message {
    let mut m = Message::new(
        task,
        Topic::pool_task("math"),
        "router",
        Payload::StepTask(StepTask {
            step_id: "s1".into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: serde_json::from_value(json!({"a": "2", "b": "4"})).unwrap(),
            context: TaskContext::default(),
            iteration: 1,
        }),
    );
    m.task_id = task.into();
    m
}
