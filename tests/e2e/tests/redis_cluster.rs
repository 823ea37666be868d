//! The pipeline on a Redis Cluster (three primaries, three replicas): every role its own
//! process with `bus.redis_mode = "cluster"` and `bus.partitions = 3`, requests through
//! the bus, a bare XADD and a bare PUBLISH as `redis-cli -c` users send them, a question
//! answered by XADD, a follow-up in a session and a cancellation mid-task, the named
//! tasks in all three partitions; and a re-plan: an MCP server frozen past the call
//! timeout and thawed gets the verdict REITERATE, and attempt 2 answers. Every task gets
//! exactly one report, and the internal topics' plain streams stay empty.

use std::time::{Duration, Instant};

use chorus_bus::{Bus, FinalReport, Payload, ReportStatus, TaskContext, Topic, Verdict, keys};
use chorus_core::client::ask;
use chorus_e2e::{Cluster, ClusterOptions, answers, ask_for, of_task, wait_on};
use serde_json::json;

/// How long a test waits for a message.
const WITHIN: Duration = Duration::from_secs(20);

/// `bus.partitions` of every role and of the test's client.
const PARTITIONS: u32 = 3;

async fn ask_ok(bus: &dyn Bus, query: &str, context: TaskContext) -> FinalReport {
    let (_, report) = ask(bus, query, context, WITHIN, |_| {})
        .await
        .unwrap_or_else(|e| panic!("{query}: {e}"));
    report
}

/// Every report of `task` once its first arrived (and a moment for a second to show).
async fn reports(bus: &dyn Bus, task: &str) -> Vec<FinalReport> {
    let start = Instant::now();
    loop {
        let got: Vec<FinalReport> = of_task(bus, &Topic::final_report(), task)
            .await
            .into_iter()
            .filter_map(|m| match m.payload {
                Payload::FinalReport(r) => Some(r),
                _ => None,
            })
            .collect();
        if !got.is_empty() || start.elapsed() > WITHIN {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits for `task`'s question (number 1) on `clarification_needed`.
async fn asked(bus: &dyn Bus, task: &str) -> bool {
    let start = Instant::now();
    while start.elapsed() < WITHIN {
        if !of_task(bus, &Topic::clarification_needed(), task)
            .await
            .is_empty()
        {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pipeline_answers_questions_and_follow_ups_on_a_redis_cluster() {
    let cluster = Cluster::start(ClusterOptions {
        redis_cluster: true,
        env: [("CHORUS__BUS__PARTITIONS".to_owned(), PARTITIONS.to_string())].into(),
        ..ClusterOptions::default()
    });
    let bus = cluster.bus().await;
    // The named tasks below cover every partition (FNV-1a of the id, modulo 3).
    let named = [
        "c-xadd",
        "c-publish",
        "c-ask",
        "c-talk-1",
        "c-talk-2",
        "c-cancel-1",
    ];
    let partitions: std::collections::BTreeSet<u32> = named
        .iter()
        .map(|t| keys::partition_of(&(*t).into(), PARTITIONS))
        .collect();
    assert_eq!(partitions.len(), 3, "{partitions:?}");

    // Through the bus: one step, a chain, and a compound request over both pools.
    let r = ask_ok(&bus, "2+4", TaskContext::default()).await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), vec!["6"]);
    let r = ask_ok(&bus, "(2+4)*3 - 1", TaskContext::default()).await;
    assert_eq!(answers(&r), vec!["17"], "{}", r.text);
    let ctx = TaskContext {
        now: Some("2026-11-22T09:00:00Z".into()),
        timezone: Some("UTC".into()),
        ..TaskContext::default()
    };
    let r = ask_ok(
        &bus,
        "compute (2+4)*3 and tell me the weekday of 2026-12-25",
        ctx,
    )
    .await;
    assert_eq!(answers(&r), vec!["18", "Friday"], "{}", r.text);

    // A redis-cli -c user: a bare XADD and a bare PUBLISH.
    cluster.xadd_bare(
        "task_available",
        &json!({"task_id": "c-xadd", "query": "7*6"}).to_string(),
    );
    cluster.publish_bare(
        "task_available",
        &json!({"task_id": "c-publish", "query": "10-3"}).to_string(),
    );

    // A question, answered by XADD.
    cluster.xadd_bare(
        "task_available",
        &json!({"task_id": "c-ask", "query": "divide 10 by"}).to_string(),
    );
    assert!(asked(&bus, "c-ask").await, "c-ask: no question");
    cluster.xadd_bare(
        "clarification_answer",
        &json!({"task_id": "c-ask", "answer": "4"}).to_string(),
    );

    // A follow-up in a session uses the first turn's answer.
    let session = json!({"session_id": "c-talk"});
    cluster.xadd_bare(
        "task_available",
        &json!({"task_id": "c-talk-1", "query": "2+4", "context": session}).to_string(),
    );
    let first = reports(&bus, "c-talk-1").await;
    assert_eq!(first.len(), 1, "c-talk-1: {first:?}");
    cluster.xadd_bare(
        "task_available",
        &json!({"task_id": "c-talk-2", "query": "now multiply that by 3", "context": session})
            .to_string(),
    );

    // A cancellation mid-task: the math pool held, the first step waits on its
    // partition's stream; a bare XADD on `task_cancel` ends the task.
    cluster.signal("pool-math-0", "-STOP");
    cluster.xadd_bare(
        "task_available",
        &json!({"task_id": "c-cancel-1", "query": "(2+4)*3"}).to_string(),
    );
    let sent = wait_on(&bus, &Topic::pool_task("math"), "c-cancel-1", WITHIN).await;
    assert_eq!(sent.len(), 1, "the first step went out: {sent:?}");
    cluster.xadd_bare("task_cancel", &json!({"task_id": "c-cancel-1"}).to_string());
    let canceled = reports(&bus, "c-cancel-1").await;
    cluster.signal("pool-math-0", "-CONT");
    assert_eq!(canceled.len(), 1, "c-cancel-1: {canceled:?}");
    assert_eq!(canceled[0].status, ReportStatus::Canceled, "{canceled:?}");

    for (task, want) in [
        ("c-xadd", vec!["42"]),
        ("c-publish", vec!["7"]),
        ("c-ask", vec!["2.5"]),
        ("c-talk-1", vec!["6"]),
        ("c-talk-2", vec!["18"]),
    ] {
        let got = reports(&bus, task).await;
        assert_eq!(got.len(), 1, "{task}: {} reports", got.len());
        assert_eq!(answers(&got[0]), want, "{task}: {}", got[0].text);
    }
    // A moment later there is still one report each, and a task's state is its own
    // slot's (the Chief shrank it to the finished keys).
    tokio::time::sleep(Duration::from_millis(500)).await;
    for task in named {
        assert_eq!(reports(&bus, task).await.len(), 1, "{task}");
    }
    // The work went through the partitions' streams, each task's to its own.
    for topic in ["plan_ready", "math_task", "math_result", "tool_response"] {
        assert_eq!(cluster.cli(&["EXISTS", topic]), "0", "plain {topic}");
        for task in named {
            let k = keys::partition_of(&task.into(), PARTITIONS);
            let stream = keys::partition_stream(topic, k, PARTITIONS);
            let entries = cluster.cli(&["XRANGE", &stream, "-", "+"]);
            if topic == "plan_ready" {
                assert!(
                    entries.contains(&format!("\"{task}\"")),
                    "{task} on {stream}"
                );
            }
        }
    }
    let plans: usize = keys::partition_streams("plan_ready", PARTITIONS)
        .iter()
        .map(|s| cluster.cli(&["XLEN", s]).parse::<usize>().expect("XLEN"))
        .sum();
    assert!(plans >= named.len() + 3, "{plans} plans");
    assert!(
        !cluster
            .cli(&["GET", &keys::report(&"c-ask".into())])
            .is_empty(),
        "the report of c-ask is stored"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_that_failed_for_a_reason_that_can_pass_is_re_planned_on_a_redis_cluster() {
    let cluster = Cluster::start(ClusterOptions {
        redis_cluster: true,
        env: [
            ("CHORUS__BUS__PARTITIONS", PARTITIONS.to_string()),
            ("CHORUS__AGENTS__DEADLINE_MS", "10000".to_owned()),
            ("CHORUS__AGENTS__MCP_CALL_TIMEOUT_MS", "1000".to_owned()),
        ]
        .map(|(k, v)| (k.to_owned(), v))
        .into(),
        ..ClusterOptions::default()
    });
    let bus = cluster.bus().await;
    // The math server frozen past the call timeout (1 s), then thawed: attempt 1's step
    // times out (a failure that can pass), attempt 2 runs it again.
    cluster.signal("math-mcp", "-STOP");
    let thaw = async {
        tokio::time::sleep(Duration::from_millis(3000)).await;
        cluster.signal("math-mcp", "-CONT");
    };
    let ((task, r), ()) = tokio::join!(ask_for(&bus, "2+4"), thaw);
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["6"], "{}", r.text);
    assert_eq!(r.iterations, 2, "{r:?}");

    // Read from the bus, over every partition: the verdict REITERATE on attempt 1, a
    // re-plan request, and the Planner's plans for attempts 1 and 2.
    let verdicts: Vec<(u32, Verdict)> = of_task(&bus, &Topic::verification_done(), &task)
        .await
        .into_iter()
        .filter_map(|m| match m.payload {
            Payload::VerificationDone(v) => Some((v.iteration, v.verdict)),
            _ => None,
        })
        .collect();
    assert_eq!(verdicts, [(1, Verdict::Reiterate)], "{task}");
    let renavigate = of_task(&bus, &Topic::renavigate_request(), &task).await;
    assert_eq!(renavigate.len(), 1, "{renavigate:?}");
    let plans: Vec<u32> = of_task(&bus, &Topic::plan_ready(), &task)
        .await
        .into_iter()
        .filter_map(|m| match m.payload {
            Payload::PlanReady(p) => Some(p.iteration),
            _ => None,
        })
        .collect();
    assert_eq!(plans, [1, 2], "{task}");
    // Both plans on the task's own partition of `plan_ready`, none on the plain stream.
    let k = keys::partition_of(&task.as_str().into(), PARTITIONS);
    let stream = keys::partition_stream("plan_ready", k, PARTITIONS);
    let entries = cluster.cli(&["XRANGE", &stream, "-", "+"]);
    let quoted = format!("\"{task}\"");
    let lines = entries.lines().filter(|l| l.contains(&quoted)).count();
    assert_eq!(lines, 2, "{stream}: {entries}");
    assert_eq!(cluster.cli(&["EXISTS", "plan_ready"]), "0");

    // Exactly one report, and a moment later still one.
    assert_eq!(reports(&bus, &task).await.len(), 1, "{task}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(reports(&bus, &task).await.len(), 1, "{task}");
}
