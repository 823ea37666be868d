//! Checking the work and trying again, with every role its own process: a step that
//! failed for a reason that can pass (a frozen MCP server, a pool with no live agent)
//! gets a verdict REITERATE on `verification_done`, the Verifier asks for a re-plan on
//! `renavigate_request`, and the Planner re-runs only what failed; a failure that
//! cannot pass (division by zero) is FINISHED at once; `agents.max_iterations` ends the
//! loop with a report that says so; killed Verifier and Planner processes lose nothing.

use std::collections::BTreeMap;
use std::time::Duration;

use chorus_bus::{FinalReport, Message, Payload, ReportStatus, Topic, Verdict};
use chorus_e2e::{ChannelLog, Cluster, ClusterOptions, answers, ask_for, of_task, wait_on};

fn cluster(math_replicas: usize, env: &[(&str, &str)]) -> Cluster {
    let env: BTreeMap<String, String> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Cluster::start(ClusterOptions {
        math_replicas,
        env,
        ..Default::default()
    })
}

/// The verdicts heard for `task` (REITERATE is also on the stream; FINISHED only on the
/// channel), as (iteration, verdict).
async fn verdicts(log: &ChannelLog, task: &str) -> Vec<(u32, Verdict)> {
    log.verdicts(task)
        .await
        .iter()
        .map(|v| (v.iteration, v.verdict))
        .collect()
}

fn report_in(msgs: &[Message]) -> FinalReport {
    match msgs.first().map(|m| &m.payload) {
        Some(Payload::FinalReport(r)) => r.clone(),
        other => panic!("no final report: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_frozen_past_the_call_timeout_and_thawed_is_answered_on_the_second_attempt() {
    let cluster = cluster(
        1,
        &[
            ("CHORUS__AGENTS__DEADLINE_MS", "10000"),
            ("CHORUS__AGENTS__MCP_CALL_TIMEOUT_MS", "1000"),
        ],
    );
    let bus = cluster.bus().await;
    let log = ChannelLog::start(&bus, Topic::verification_done()).await;
    cluster.signal("math-mcp", "-STOP");
    let thaw = async {
        // Past the call timeout (1 s), then 2 s more.
        tokio::time::sleep(Duration::from_millis(3000)).await;
        cluster.signal("math-mcp", "-CONT");
    };
    let ((task, r), ()) = tokio::join!(ask_for(&bus, "2+4"), thaw);
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["6"]);
    assert_eq!(r.iterations, 2, "{r:?}");
    assert_eq!(r.retried.len(), 1, "{:?}", r.retried);
    assert!(
        r.retried[0].starts_with("attempt 1: s1 sum: sum timed out after 1000 ms"),
        "{:?}",
        r.retried
    );
    assert!(r.text.contains("answered on attempt 2"), "{}", r.text);
    assert_eq!(
        verdicts(&log, &task).await,
        [(1, Verdict::Reiterate), (2, Verdict::Finished)]
    );
    let renavigate = of_task(&bus, &Topic::renavigate_request(), &task).await;
    assert_eq!(renavigate.len(), 1, "{renavigate:?}");
    let Payload::RenavigateRequest(ask) = &renavigate[0].payload else {
        panic!("not a re-plan request")
    };
    assert_eq!(ask.iteration, 1);
    assert_eq!(ask.failed_steps[0].step_id, "s1");
    assert_eq!(of_task(&bus, &Topic::final_report(), &task).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pool_with_no_live_agent_for_two_seconds_is_waited_for_not_refused() {
    // The Planner waits longer than the harness's claim idle time (1.5 s): the runtime
    // keeps its delivery alive meanwhile (agents/core/tests/runtime_keep_alive.rs), and
    // the task is planned once.
    let mut cluster = cluster(0, &[("CHORUS__AGENTS__DEADLINE_MS", "10000")]);
    let bus = cluster.bus().await;
    let log = ChannelLog::start(&bus, Topic::verification_done()).await;
    let start = async {
        tokio::time::sleep(Duration::from_secs(2)).await;
        cluster.start_role("pool-math-0", "pool", Some("math"));
    };
    let ((task, r), ()) = tokio::join!(ask_for(&bus, "(2+4)*3"), start);
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["18"]);
    assert_eq!(r.iterations, 1);
    let plans = of_task(&bus, &Topic::plan_ready(), &task).await;
    assert_eq!(plans.len(), 1, "{plans:?}");
    assert_eq!(verdicts(&log, &task).await, [(1, Verdict::Finished)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn division_by_zero_is_finished_at_once_and_max_iterations_ends_the_loop() {
    let cluster = cluster(
        1,
        &[
            ("CHORUS__AGENTS__DEADLINE_MS", "6000"),
            ("CHORUS__AGENTS__MCP_CALL_TIMEOUT_MS", "500"),
            ("CHORUS__AGENTS__MAX_ITERATIONS", "2"),
            ("CHORUS__AGENTS__POOL_WAIT_MS", "1000"),
        ],
    );
    let bus = cluster.bus().await;
    let log = ChannelLog::start(&bus, Topic::verification_done()).await;

    // A failure that cannot pass: one verdict, FINISHED, and no re-plan.
    let (task, r) = ask_for(&bus, "10/0").await;
    assert_eq!(r.status, ReportStatus::Failed, "{}", r.text);
    assert!(answers(&r)[0].contains("division by zero"), "{r:?}");
    assert_eq!(r.iterations, 1);
    assert!(r.retried.is_empty(), "{:?}", r.retried);
    assert_eq!(verdicts(&log, &task).await, [(1, Verdict::Finished)]);
    assert!(
        of_task(&bus, &Topic::renavigate_request(), &task)
            .await
            .is_empty()
    );

    // A server that stays frozen: two attempts, then a report that says Chorus stopped.
    cluster.signal("math-mcp", "-STOP");
    let (task, r) = ask_for(&bus, "2+4").await;
    cluster.signal("math-mcp", "-CONT");
    assert_eq!(r.status, ReportStatus::Failed, "{}", r.text);
    assert_eq!(r.iterations, 2, "{r:?}");
    assert_eq!(
        r.retried.last().map(String::as_str),
        Some("stopped after 2 attempt(s): agents.max_iterations is 2"),
        "{:?}",
        r.retried
    );
    assert!(r.text.contains("stopped after 2"), "{}", r.text);
    assert_eq!(
        verdicts(&log, &task).await,
        [(1, Verdict::Reiterate), (2, Verdict::Finished)]
    );
    assert_eq!(
        of_task(&bus, &Topic::renavigate_request(), &task)
            .await
            .len(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_verifier_and_planner_mid_iteration_lose_nothing() {
    let mut cluster = cluster(
        1,
        &[
            ("CHORUS__AGENTS__DEADLINE_MS", "20000"),
            ("CHORUS__AGENTS__MCP_CALL_TIMEOUT_MS", "800"),
        ],
    );
    let bus = cluster.bus().await;
    let log = ChannelLog::start(&bus, Topic::verification_done()).await;
    cluster.signal("math-mcp", "-STOP");
    let id = "reiterate-killed";
    cluster.redis.cli(&[
        "XADD",
        "task_available",
        "*",
        "data",
        &format!(r#"{{"query":"(2+4)*3","task_id":"{id}"}}"#),
    ]);
    // Planned and its first step out: kill the Verifier and the Planner (SIGKILL)
    // before the step's call times out, so the verdict REITERATE and the re-plan
    // request wait in Redis for their restarted successors.
    let plan = wait_on(&bus, &Topic::plan_ready(), id, Duration::from_secs(10)).await;
    assert_eq!(plan.len(), 1, "planned once");
    cluster.kill("verifier");
    cluster.kill("planner");
    let verdict = wait_on(
        &bus,
        &Topic::verification_done(),
        id,
        Duration::from_secs(10),
    )
    .await;
    // The REITERATE is on the stream (for the Verifier), and only it so far.
    assert!(
        matches!(verdict.as_slice(), [m] if matches!(&m.payload,
            Payload::VerificationDone(v) if v.verdict == Verdict::Reiterate && v.iteration == 1)),
        "{verdict:?}"
    );
    cluster.signal("math-mcp", "-CONT");
    cluster.start_role("verifier", "verifier", None);
    let asked = wait_on(
        &bus,
        &Topic::renavigate_request(),
        id,
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(asked.len(), 1, "one re-plan request");
    cluster.start_role("planner", "planner", None);
    let reports = wait_on(&bus, &Topic::final_report(), id, Duration::from_secs(15)).await;
    let r = report_in(&reports);
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["18"]);
    assert_eq!(r.iterations, 2);
    // Nothing more comes: one report, one verdict per attempt.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(of_task(&bus, &Topic::final_report(), id).await.len(), 1);
    assert_eq!(
        verdicts(&log, id).await,
        [(1, Verdict::Reiterate), (2, Verdict::Finished)]
    );
}
