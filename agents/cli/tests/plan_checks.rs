//! Every plan is checked where it runs (issue 33): random plans, valid and broken,
//! published straight onto `plan_ready` — as a client that bypasses the Planner would,
//! claiming or not that their first wave went out, with or without a deadline — each
//! end in exactly one final report, on the one-process system (every role, the real
//! math and date MCP servers in process). A plan that fails `Plan::validate` (a cycle,
//! a missing or later reference, a repeated id, too many steps, a malformed id, pool or
//! tool) ends `failed` naming the problem, and none of its steps goes out.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use chorus_bus::{Deadline, Message, Payload, PlanReady, ReportStatus, Topic, Watcher};
use chorus_cli::local::LocalSystem;
use chorus_core::settings::Settings;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The task deadline of the system under test, so a plan nobody runs is reported soon.
const DEADLINE: Duration = Duration::from_millis(1_500);
/// How long the test waits for every report.
const WAIT: Duration = Duration::from_secs(20);
/// How long it keeps listening after the last report, for a second one.
const SETTLE: Duration = Duration::from_millis(800);

fn step_id() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (1u8..=6).prop_map(|n| format!("s{n}")),
        1 => Just(String::new()),
        1 => Just("bad id!".to_owned()),
    ]
}

fn argument() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => (0i64..10).prop_map(|n| json!(n.to_string())),
        1 => Just(json!("2026-12-25")),
        2 => step_id().prop_map(|id| json!({"$ref": id})),
    ]
}

fn step() -> impl Strategy<Value = Value> {
    (
        step_id(),
        prop_oneof![
            4 => Just("math"),
            2 => Just("date"),
            1 => Just("weather"),
            1 => Just("Bad Pool"),
        ],
        prop_oneof![
            3 => Just("sum"),
            2 => Just("multiply"),
            1 => Just("divide"),
            2 => Just("weekday"),
            1 => Just("nope"),
            1 => Just(""),
        ],
        btree_map(prop_oneof![Just("a"), Just("b"), Just("date")], argument(), 0..3),
    )
        .prop_map(|(id, pool, tool, arguments)| {
            json!({"id": id, "pool": pool, "tool": tool, "arguments": arguments, "part": "p"})
        })
}

/// A plan as a crafted `plan_ready` would hold it: a few random steps, or (now and
/// then) a long valid chain past the step limit.
fn plan() -> impl Strategy<Value = (Vec<Value>, bool, bool)> {
    let steps = prop_oneof![
        9 => vec(step(), 0..6),
        1 => (33usize..40).prop_map(|n| {
            (1..=n)
                .map(|i| json!({"id": format!("c{i}"), "pool": "math", "tool": "sum",
                                "arguments": {"a": "1", "b": "1"}}))
                .collect()
        }),
    ];
    (steps, any::<bool>(), any::<bool>())
}

/// The `plan_ready` message of one crafted plan.
fn crafted(task: &str, steps: &[Value], dispatched: bool, with_deadline: bool) -> Message {
    let plan: PlanReady = serde_json::from_value(json!({
        "query": "a crafted plan", "context": {}, "language": "en", "planner": "heuristic",
        "plan": {"steps": steps}, "dispatched": dispatched
    }))
    .expect("a plan_ready payload");
    let mut msg = Message::new(
        task,
        Topic::plan_ready(),
        "crafted",
        Payload::PlanReady(plan),
    );
    if with_deadline {
        msg.deadline_ms = Some(Deadline::after(Duration::from_secs(1)));
    }
    msg
}

/// What came back for the crafted tasks: their reports, and the tasks of which some
/// step was dispatched to a pool.
struct Seen {
    reports: HashMap<String, Vec<chorus_bus::FinalReport>>,
    dispatched: HashSet<String>,
}

async fn listen(watcher: &mut Box<dyn Watcher>, tasks: &HashSet<String>) -> Seen {
    let mut seen = Seen {
        reports: HashMap::new(),
        dispatched: HashSet::new(),
    };
    let started = Instant::now();
    let mut all_in: Option<Instant> = None;
    loop {
        if all_in.is_some_and(|t| t.elapsed() >= SETTLE) || started.elapsed() >= WAIT {
            return seen;
        }
        let batch = tokio::time::timeout(Duration::from_millis(100), watcher.next_batch()).await;
        let Ok(Ok(batch)) = batch else { continue };
        for msg in batch {
            let task = msg.task_id.to_string();
            if !tasks.contains(&task) {
                continue;
            }
            match msg.payload {
                Payload::FinalReport(report) => seen.reports.entry(task).or_default().push(report),
                Payload::StepTask(_) => {
                    seen.dispatched.insert(task);
                }
                _ => {}
            }
        }
        if all_in.is_none() && tasks.iter().all(|t| seen.reports.contains_key(t)) {
            all_in = Some(Instant::now());
        }
    }
}

async fn run(plans: Vec<(Vec<Value>, bool, bool)>) -> Result<(), TestCaseError> {
    let mut settings = Settings::default();
    settings.agents.deadline_ms = DEADLINE.as_millis() as u64;
    settings.agents.deadline_tick_ms = 50;
    let max_steps = settings.llm.max_steps;
    let system = LocalSystem::start(settings).await;
    let bus = system.infra.bus.clone();
    let mut watcher = bus
        .watch(&[
            Topic::final_report(),
            Topic::pool_task("math"),
            Topic::pool_task("date"),
        ])
        .await
        .expect("a watcher");
    let mut tasks = HashSet::new();
    let mut invalid = HashMap::new();
    for (steps, dispatched, with_deadline) in &plans {
        let task = chorus_bus::TaskId::generate().to_string();
        let msg = crafted(&task, steps, *dispatched, *with_deadline);
        if let Payload::PlanReady(p) = &msg.payload
            && let Err(problem) = p.plan.validate(max_steps)
        {
            invalid.insert(task.clone(), problem.to_string());
        }
        bus.publish(&msg).await.expect("published");
        tasks.insert(task);
    }
    let seen = listen(&mut watcher, &tasks).await;
    system.stop().await;
    for task in &tasks {
        let reports = seen
            .reports
            .get(task)
            .map(Vec::as_slice)
            .unwrap_or_default();
        prop_assert_eq!(
            reports.len(),
            1,
            "task {} got {} reports (invalid: {:?})",
            task,
            reports.len(),
            invalid.get(task)
        );
        if let Some(problem) = invalid.get(task) {
            prop_assert_eq!(reports[0].status, ReportStatus::Failed);
            prop_assert!(
                reports[0].text.contains("cannot run")
                    && reports[0].text.contains(problem.as_str()),
                "the report names the problem {:?}: {}",
                problem,
                reports[0].text
            );
            prop_assert!(
                !seen.dispatched.contains(task),
                "a step of an invalid plan went out ({problem})"
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3,
        max_shrink_iters: 4,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_crafted_plan_ends_in_exactly_one_report(plans in vec(plan(), 24)) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(run(plans))?;
    }
}

/// The examples of the issue, each on its own: a reference to a missing step, two steps
/// referring to each other, the same id twice ("1+1 and 2+2" answered "1 + 1 = 2"
/// twice before), and a plan past the step limit.
#[test]
fn the_issues_crafted_plans_end_failed_naming_the_problem() {
    let same_id = vec![
        json!({"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "1", "b": "1"}}),
        json!({"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "2"}}),
    ];
    let cycle = vec![
        json!({"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": {"$ref": "s2"}, "b": "1"}}),
        json!({"id": "s2", "pool": "math", "tool": "sum", "arguments": {"a": {"$ref": "s1"}, "b": "1"}}),
    ];
    let missing = vec![
        json!({"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "1", "b": "1"}}),
        json!({"id": "s2", "pool": "math", "tool": "sum", "arguments": {"a": {"$ref": "s9"}, "b": "1"}}),
    ];
    let long: Vec<Value> = (1..=2000)
        .map(|i| json!({"id": format!("s{i}"), "pool": "math", "tool": "sum", "arguments": {"a": "1", "b": "1"}}))
        .collect();
    let plans = vec![
        (same_id, false, false),
        (cycle, false, true),
        (missing, true, false),
        (long, false, false),
    ];
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime
        .block_on(run(plans))
        .expect("each ends failed, once");
}
