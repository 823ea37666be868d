//! The follower on the in-memory bus: the order it promises whatever order the hub
//! brings messages in, and its time limit.

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::memory::MemoryBus;
use chorus_bus::{FinalReport, Message, Payload, PlanReady, StepResult, TaskId, Topic};
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use chorus_core::system::Infra;
use serde_json::json;

use super::{Follower, Progress, listen};
use crate::api::ApiState;

/// A gateway's state on a fresh in-memory bus, tasks given `deadline_ms`.
fn api(deadline_ms: u64) -> ApiState {
    let mut settings = Settings::default();
    settings.agents.deadline_ms = deadline_ms;
    let bus = MemoryBus::new(settings.bus.clone());
    let store = Arc::new(bus.store());
    let infra = Infra {
        bus: Arc::new(bus),
        store,
    };
    let state = TaskState::for_settings(infra.store.clone(), &settings);
    ApiState::new(infra, state, &settings)
}

fn plan() -> PlanReady {
    serde_json::from_value(json!({
        "query": "2+4", "language": "en", "planner": "heuristic",
        "plan": {"steps": [{"id": "s1", "pool": "math", "tool": "sum"}]}
    }))
    .expect("a plan")
}

fn sum_done() -> serde_json::Value {
    json!({"status": "ok", "value": 6, "text": "6"})
}

fn report() -> FinalReport {
    serde_json::from_value(json!({
        "query": "2+4", "status": "completed", "text": "2 + 4 = 6", "language": "en",
        "written_by": "template", "iterations": 1,
        "steps": [{"step_id": "s1", "pool": "math", "tool": "sum", "outcome": sum_done()}]
    }))
    .expect("a report")
}

async fn publish(api: &ApiState, task: &TaskId, topic: Topic, payload: Payload) {
    let msg = Message::new(task.clone(), topic, "test", payload);
    api.bus.publish(&msg).await.expect("published");
}

/// What the follower yields until it ends (or 5 s pass).
async fn all(mut follower: Follower) -> Vec<Progress> {
    let mut seen = Vec::new();
    let within = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(progress) = follower.next().await {
            seen.push(progress);
        }
    });
    within.await.expect("the follower ends");
    seen
}

fn names(seen: &[Progress]) -> Vec<&'static str> {
    seen.iter()
        .map(|p| match p {
            Progress::Accepted => "accepted",
            Progress::Planned { .. } => "planned",
            Progress::Step { .. } => "step",
            Progress::Asked { .. } => "asked",
            Progress::Token(_) => "token",
            Progress::Replaced(_) => "replaced",
            Progress::Report { .. } => "report",
            Progress::TimedOut => "timed out",
        })
        .collect()
}

#[tokio::test]
async fn a_step_that_overtakes_its_plan_comes_after_the_plan_read_from_the_store() {
    let api = api(10_000);
    let task = TaskId::generate();
    let follower = Follower::new(&api, task.clone(), listen(&api).await.expect("listen"));
    api.state
        .put_plan_once(&task, plan())
        .await
        .expect("stored");
    let result: StepResult = serde_json::from_value(json!({
        "step_id": "s1", "pool": "math", "tool": "sum", "outcome": sum_done(), "agent": "math-1"
    }))
    .expect("a result");
    publish(
        &api,
        &task,
        Topic::pool_result("math"),
        Payload::StepResult(result),
    )
    .await;
    // The plan's own message, late: announced already.
    publish(&api, &task, Topic::plan_ready(), Payload::PlanReady(plan())).await;
    publish(
        &api,
        &task,
        Topic::final_report(),
        Payload::FinalReport(report()),
    )
    .await;
    let seen = all(follower).await;
    assert_eq!(names(&seen), ["accepted", "planned", "step", "report"]);
    let Progress::Step { result, .. } = &seen[2] else {
        unreachable!()
    };
    assert_eq!(result.agent, "math-1", "the step as its pool published it");
}

#[tokio::test]
async fn a_report_that_overtakes_its_steps_brings_them_first_and_is_stored() {
    let api = api(10_000);
    let task = TaskId::generate();
    let follower = Follower::new(&api, task.clone(), listen(&api).await.expect("listen"));
    publish(
        &api,
        &task,
        Topic::final_report(),
        Payload::FinalReport(report()),
    )
    .await;
    let seen = all(follower).await;
    assert_eq!(names(&seen), ["accepted", "step", "report"]);
    let Progress::Step { result, .. } = &seen[1] else {
        unreachable!()
    };
    assert_eq!((result.step_id.as_str(), result.agent.as_str()), ("s1", ""));
    let stored = api.state.report(&task).await.expect("read");
    assert_eq!(
        stored,
        Some(report()),
        "a read right after finds the report"
    );
}

#[tokio::test]
async fn no_report_by_the_deadline_and_the_grace_period_is_timed_out() {
    let api = api(100);
    let task = TaskId::generate();
    let follower = Follower::new(&api, task.clone(), listen(&api).await.expect("listen"));
    let other = TaskId::generate();
    publish(
        &api,
        &other,
        Topic::final_report(),
        Payload::FinalReport(report()),
    )
    .await;
    let seen = all(follower).await;
    assert_eq!(names(&seen), ["accepted", "timed out"]);
}
