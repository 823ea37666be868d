//! The Router on the in-memory bus: a result no step of its plan (seen here) takes as
//! an input is neither recorded nor read; one that a step waits for is recorded and
//! releases that step.

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::*;
use chorus_core::roles::Ctx;
use chorus_core::roles::router::Router;
use chorus_core::runtime::Handler;
use chorus_core::state::TaskState;
use serde_json::json;

mod common;
use common::delivery;

const TASK: &str = "router-1";

fn chain() -> Message {
    common::plan(
        TASK,
        json!([
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"},
             "part": "2+4"},
            {"id": "s2", "pool": "math", "tool": "multiply",
             "arguments": {"a": {"$ref": "s1"}, "b": "3"}, "part": "(2+4)*3", "output": true}
        ]),
    )
}

/// A Router on a fresh memory bus, and that bus.
fn router() -> (Router, MemoryBus) {
    let bus = MemoryBus::new(BusSettings::default());
    let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
    let ctx = Ctx::new(Arc::new(bus.clone()), state.clone(), "router");
    (Router::new(ctx, vec!["math".into()]), bus)
}

/// The step ids recorded in the task's first attempt's results.
async fn recorded(bus: &MemoryBus) -> Vec<String> {
    let mut steps: Vec<String> = bus
        .store()
        .hgetall(&keys::results(&TaskId::from(TASK), 1))
        .await
        .expect("hgetall")
        .into_iter()
        .map(|(step, _)| step)
        .collect();
    steps.sort();
    steps
}

/// The step ids dispatched on `math_task`.
async fn dispatched(bus: &MemoryBus) -> Vec<String> {
    bus.recent(&Topic::pool_task("math"), 10)
        .await
        .expect("recent")
        .into_iter()
        .map(|m| match m.payload {
            Payload::StepTask(t) => t.step_id.to_string(),
            other => panic!("not a step: {other:?}"),
        })
        .collect()
}

/// Stores `msg`'s plan as the Planner does before publishing it.
async fn store(bus: &MemoryBus, msg: &Message) {
    let Payload::PlanReady(ready) = msg.payload.clone() else {
        panic!("a plan")
    };
    TaskState::new(Arc::new(bus.store()), Duration::from_secs(60))
        .put_plan_once(&TaskId::from(TASK), ready)
        .await
        .expect("store the plan");
}

#[tokio::test]
async fn a_result_no_step_waits_for_is_neither_recorded_nor_released() {
    let (router, bus) = router();
    store(&bus, &chain()).await;
    router.handle(&delivery(chain(), 1)).await.expect("plan");
    router
        .handle(&delivery(common::result(TASK, "s2", "18"), 1))
        .await
        .expect("result");
    assert!(recorded(&bus).await.is_empty());
    assert!(dispatched(&bus).await.is_empty());
}

#[tokio::test]
async fn a_result_a_step_waits_for_is_recorded_and_releases_it() {
    let (router, bus) = router();
    store(&bus, &chain()).await;
    router.handle(&delivery(chain(), 1)).await.expect("plan");
    router
        .handle(&delivery(common::result(TASK, "s1", "6"), 1))
        .await
        .expect("result");
    assert_eq!(recorded(&bus).await, ["s1"]);
    assert_eq!(dispatched(&bus).await, ["s2"]);
}

#[tokio::test]
async fn a_result_whose_plan_was_not_seen_here_is_recorded() {
    let (router, bus) = router();
    store(&bus, &common::lone(TASK)).await;
    router
        .handle(&delivery(common::result(TASK, "s1", "6"), 1))
        .await
        .expect("result");
    assert_eq!(recorded(&bus).await, ["s1"]);
}
