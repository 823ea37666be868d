//! The Synthesizer's fan-in on the in-memory bus: the one result of a one-step plan it
//! saw sends the report at once, without being recorded; a plan of several steps, or a
//! plan it did not see, records every result first; a redelivered result after the
//! report records nothing and sends nothing.

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::*;
use chorus_core::roles::Ctx;
use chorus_core::roles::synthesizer::Synthesizer;
use chorus_core::runtime::Handler;
use chorus_core::state::TaskState;
use serde_json::json;

mod common;
use common::delivery;

const TASK: &str = "fan-in-1";

fn pair() -> Message {
    common::plan(
        TASK,
        json!([
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"},
             "part": "2+4", "output": true},
            {"id": "s2", "pool": "math", "tool": "sum", "arguments": {"a": "1", "b": "1"},
             "part": "1+1", "output": true}
        ]),
    )
}

/// A Synthesizer on a fresh memory bus, and that bus.
fn synthesizer() -> (Synthesizer, MemoryBus) {
    let bus = MemoryBus::new(BusSettings::default());
    let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
    let ctx = Ctx::new(Arc::new(bus.clone()), state, "synthesizer");
    (Synthesizer::new(ctx, vec!["math".into()]), bus)
}

/// The values of the task's published reports.
async fn reports(bus: &MemoryBus) -> Vec<Vec<String>> {
    bus.recent(&Topic::final_report(), 10)
        .await
        .expect("recent")
        .into_iter()
        .map(|m| match m.payload {
            Payload::FinalReport(r) => r.answers(),
            other => panic!("not a report: {other:?}"),
        })
        .collect()
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

#[tokio::test]
async fn the_one_result_of_a_one_step_plan_seen_sends_the_report_without_being_recorded() {
    let (synth, bus) = synthesizer();
    synth
        .handle(&delivery(common::lone(TASK), 1))
        .await
        .expect("plan");
    synth
        .handle(&delivery(common::result(TASK, "s1", "6"), 1))
        .await
        .expect("result");
    assert_eq!(reports(&bus).await, [["6"]]);
    assert!(recorded(&bus).await.is_empty());
    // Redelivered after the report: the long way finds it out, records and sends nothing.
    synth
        .handle(&delivery(common::result(TASK, "s1", "6"), 2))
        .await
        .expect("again");
    assert_eq!(reports(&bus).await.len(), 1);
    assert!(recorded(&bus).await.is_empty());
}

#[tokio::test]
async fn a_result_whose_plan_was_not_seen_here_is_recorded_before_the_report() {
    let (synth, bus) = synthesizer();
    // The plan is stored (as the Planner stores it) but this replica never read it.
    let Payload::PlanReady(ready) = common::lone(TASK).payload else {
        panic!("a plan")
    };
    let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
    state
        .put_plan_once(&TaskId::from(TASK), ready)
        .await
        .expect("store the plan");
    synth
        .handle(&delivery(common::result(TASK, "s1", "6"), 1))
        .await
        .expect("result");
    assert_eq!(reports(&bus).await, [["6"]]);
    assert_eq!(recorded(&bus).await, ["s1"]);
}

#[tokio::test]
async fn every_result_of_a_plan_of_several_steps_is_recorded_and_the_last_sends_the_report() {
    let (synth, bus) = synthesizer();
    let Payload::PlanReady(ready) = pair().payload else {
        panic!("a plan")
    };
    let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
    state
        .put_plan_once(&TaskId::from(TASK), ready)
        .await
        .expect("store the plan");
    synth.handle(&delivery(pair(), 1)).await.expect("plan");
    synth
        .handle(&delivery(common::result(TASK, "s1", "6"), 1))
        .await
        .expect("first");
    assert!(reports(&bus).await.is_empty());
    assert_eq!(recorded(&bus).await, ["s1"]);
    synth
        .handle(&delivery(common::result(TASK, "s2", "2"), 1))
        .await
        .expect("second");
    assert_eq!(reports(&bus).await, [["6", "2"]]);
    assert_eq!(recorded(&bus).await, ["s1", "s2"]);
}
