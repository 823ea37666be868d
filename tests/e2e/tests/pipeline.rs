//! End to end through every process: real redis-server, both MCP servers over
//! Streamable HTTP, and each role as its own `chorus agent` process.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use chorus_bus_redis::RedisBus;
use chorus_core::client::ask;

use chorus_bus::{Bus, FinalReport, Payload, ReportStatus, TaskContext, Topic};
use chorus_e2e::{Cluster, ClusterOptions, answers};

async fn ask_ok(bus: &RedisBus, query: &str, context: TaskContext) -> FinalReport {
    let (_, report) = ask(bus, query, context, Duration::from_secs(20), |_| {})
        .await
        .unwrap_or_else(|e| panic!("{query}: {e}"));
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queries_get_correct_reports_through_every_process() {
    let cluster = Cluster::start(ClusterOptions::default());
    let bus = cluster.bus().await;

    let r = ask_ok(&bus, "tính 2+4 = ??", TaskContext::default()).await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), vec!["6"]);
    assert_eq!(r.language, "vi");
    assert!(r.text.contains('6'), "{}", r.text);

    let r = ask_ok(&bus, "(2+4)*3 - 1", TaskContext::default()).await;
    assert_eq!(answers(&r), vec!["17"]);
    let tools: Vec<&str> = r.steps.iter().map(|s| s.tool.as_str()).collect();
    assert_eq!(tools, vec!["sum", "multiply", "subtract"]);

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
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), vec!["18", "Friday"]);

    // Named days and sequences, as people write them (the date server's next_date).
    let at = |now: &str| TaskContext {
        now: Some(now.into()),
        timezone: Some("UTC".into()),
        ..TaskContext::default()
    };
    let r = ask_ok(
        &bus,
        "what weekday is christmas",
        at("2026-11-22T09:00:00Z"),
    )
    .await;
    assert_eq!(answers(&r), vec!["2026-12-25", "Friday"], "{}", r.text);
    let r = ask_ok(
        &bus,
        "how many days until new year's day",
        at("2026-12-30T09:00:00Z"),
    )
    .await;
    // (The count answers; the date found is a step the report's text still names.)
    assert_eq!(answers(&r), vec!["2"], "{}", r.text);
    assert!(r.text.contains("2027-01-01"), "{}", r.text);
    let r = ask_ok(
        &bus,
        "take 100, halve it, then add 7; also the mean of 3, 5 and 10",
        TaskContext::default(),
    )
    .await;
    assert_eq!(answers(&r), vec!["57", "6"], "{}", r.text);

    let r = ask_ok(&bus, "1/0", TaskContext::default()).await;
    assert_eq!(r.status, ReportStatus::Failed);
    assert!(
        r.text.to_lowercase().contains("division by zero"),
        "{}",
        r.text
    );

    let r = ask_ok(
        &bus,
        "write me a poem about the sea",
        TaskContext::default(),
    )
    .await;
    assert_eq!(r.status, ReportStatus::Unplannable);
    assert!(r.steps.is_empty());
    assert!(
        r.text.contains("sum") || r.text.to_lowercase().contains("math"),
        "{}",
        r.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn independent_steps_are_dispatched_before_the_first_result() {
    let cluster = Cluster::start(ClusterOptions::default());
    let bus = cluster.bus().await;
    let (task_id, r) = ask(
        &bus,
        "2*3 + 4*5",
        TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .expect("report");
    assert_eq!(answers(&r), vec!["26"]);
    // Both multiply steps were sent out before either result came back.
    let msgs = bus
        .recent(&Topic::pool_task("math"), 1000)
        .await
        .expect("history");
    let results = bus
        .recent(&Topic::pool_result("math"), 1000)
        .await
        .expect("history");
    let task_times: Vec<u64> = msgs
        .iter()
        .filter(|m| m.task_id == task_id)
        .map(|m| m.timestamp_us)
        .collect();
    let first_result = results
        .iter()
        .filter(|m| m.task_id == task_id)
        .map(|m| m.timestamp_us)
        .min()
        .expect("a result");
    assert_eq!(task_times.len(), 3, "three steps dispatched");
    assert_eq!(
        task_times.iter().filter(|t| **t < first_result).count(),
        2,
        "two steps in parallel"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_publish_and_xadd_clients_get_reports() {
    let cluster = Cluster::start(ClusterOptions::default());
    let bus = cluster.bus().await;
    let mut watcher = bus.watch(&[Topic::final_report()]).await.expect("watch");
    let out = cluster.redis.redis_cli(&[
        "PUBLISH",
        "task_available",
        r#"{"query":"2+4","task_id":"raw-publish-1"}"#,
    ]);
    assert!(out.status.success());
    let out = cluster.redis.redis_cli(&[
        "XADD",
        "task_available",
        "*",
        "data",
        r#"{"query":"10 - 3","task_id":"raw-xadd-1"}"#,
    ]);
    assert!(out.status.success());
    let mut reports: HashMap<String, FinalReport> = HashMap::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while reports.len() < 2 && std::time::Instant::now() < deadline {
        for m in watcher.next_batch().await.expect("batch") {
            if let Payload::FinalReport(r) = m.payload {
                assert!(
                    reports.insert(m.task_id.to_string(), r).is_none(),
                    "second report for {}",
                    m.task_id
                );
            }
        }
    }
    assert_eq!(answers(&reports["raw-publish-1"]), vec!["6"]);
    assert_eq!(answers(&reports["raw-xadd-1"]), vec!["7"]);
}

/// Sends `n` tasks `i + 1000` at once and returns reports by task id.
async fn burst(bus: &RedisBus, n: usize) -> HashMap<chorus_bus::TaskId, (usize, FinalReport)> {
    let asks = (0..n).map(|i| async move {
        let (id, r) = ask(
            bus,
            &format!("{i} + 1000"),
            TaskContext::default(),
            Duration::from_secs(30),
            |_| {},
        )
        .await
        .unwrap_or_else(|e| panic!("task {i}: {e}"));
        (id, (i, r))
    });
    futures::future::join_all(asks).await.into_iter().collect()
}

fn check_burst(reports: &HashMap<chorus_bus::TaskId, (usize, FinalReport)>, n: usize) {
    assert_eq!(reports.len(), n);
    for (i, r) in reports.values() {
        assert_eq!(
            answers(r),
            vec![(i + 1000).to_string()],
            "task {i}: {}",
            r.text
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_math_replicas_share_200_tasks_each_answered_once() {
    let cluster = Cluster::start(ClusterOptions {
        math_replicas: 2,
        ..Default::default()
    });
    let bus = cluster.bus().await;
    let reports = burst(&bus, 200).await;
    check_burst(&reports, 200);
    let finals = bus
        .recent(&Topic::final_report(), 10_000)
        .await
        .expect("history");
    let mut seen = HashSet::new();
    for m in &finals {
        assert!(
            seen.insert(m.task_id.clone()),
            "two reports for {}",
            m.task_id
        );
    }
    let results = bus
        .recent(&Topic::pool_result("math"), 10_000)
        .await
        .expect("history");
    let agents: HashSet<&str> = results.iter().map(|m| m.from_agent.as_str()).collect();
    assert_eq!(agents.len(), 2, "both replicas answered: {agents:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pool_agent_killed_mid_task_leaves_its_tasks_to_the_other_replica() {
    let mut cluster = Cluster::start(ClusterOptions {
        math_replicas: 1,
        ..Default::default()
    });
    // A second replica whose MCP server is frozen: every step it takes stays in flight.
    let frozen_port = chorus_e2e::free_port();
    cluster.start_mcp("frozen-math-mcp", "chorus-mcp-math", frozen_port);
    chorus_e2e::wait_for_port(frozen_port, Duration::from_secs(10));
    cluster.signal("frozen-math-mcp", "-STOP");
    let url = format!("http://127.0.0.1:{frozen_port}/mcp");
    cluster.start_role_with(
        "pool-math-stuck",
        "pool",
        Some("math"),
        &[("CHORUS__POOLS__MATH__MCP_URL", url)],
    );
    // Both replicas must be reading before the burst, or the stuck one gets nothing.
    let start = std::time::Instant::now();
    while math_consumers(&cluster) < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the stuck replica never subscribed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let bus = cluster.bus().await;
    let run = burst(&bus, 60);
    let kill = async {
        // Wait until the stuck replica holds unacked steps, then kill it.
        let mut stuck = 0;
        for _ in 0..200 {
            tokio::time::sleep(Duration::from_millis(25)).await;
            stuck = pending_of_stuck_replica(&cluster);
            if stuck > 0 {
                break;
            }
        }
        cluster.kill("pool-math-stuck");
        stuck
    };
    let (reports, stuck) = tokio::join!(run, kill);
    assert!(stuck > 0, "the stuck replica never held a step");
    check_burst(&reports, 60);
    cluster.signal("frozen-math-mcp", "-CONT");
}

/// Math pool agents in the registry, with tools or not (a replica announces itself
/// after it has subscribed).
fn math_consumers(cluster: &Cluster) -> usize {
    cluster
        .registry_entries()
        .iter()
        .filter(|e| e["heartbeat"]["pool"] == "math")
        .count()
}

/// Steps pending (delivered, unacked) for longer than 300 ms in the math pool's group:
/// only a replica whose tool calls hang keeps steps that long.
fn pending_of_stuck_replica(cluster: &Cluster) -> usize {
    let out = cluster.redis.cli(&[
        "XPENDING",
        "math_task",
        "pool-math",
        "IDLE",
        "300",
        "-",
        "+",
        "100",
    ]);
    out.lines()
        .filter(|l| l.contains('-') && l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pool_agent_can_run_its_mcp_server_as_a_stdio_child() {
    let mut cluster = Cluster::start(ClusterOptions {
        math_replicas: 0,
        ..Default::default()
    });
    // Nothing serves the math pool over HTTP: its only agent spawns the server itself.
    cluster.kill("math-mcp");
    let command = format!(
        "{} --transport stdio",
        chorus_e2e::bin("chorus-mcp-math").display()
    );
    cluster.start_role_with(
        "pool-math-stdio",
        "pool",
        Some("math"),
        &[("CHORUS__POOLS__MATH__MCP_COMMAND", command)],
    );
    cluster.wait_pool("math", true, Duration::from_secs(20));
    let bus = cluster.bus().await;
    let r = ask_ok(&bus, "(2+4)*3 - 1", TaskContext::default()).await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), vec!["17"]);
}

/// The pool agents started from `chorus-pool` (docs/performance.md, "A smaller binary
/// for the pool agent"; the default since "Memory per process, the heap and the
/// runtime") answer as `chorus agent pool` does: a math and a date question through every
/// process, the pool processes running that binary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pool_agents_from_chorus_pool_answer_through_every_process() {
    pool_agents_answer_through_every_process(true, "chorus-pool").await;
}

/// The same through `chorus agent pool` (`CHORUS_POOL_BIN=0`), which deploy/'s images
/// still start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pool_agents_from_chorus_agent_pool_answer_through_every_process() {
    pool_agents_answer_through_every_process(false, "chorus").await;
}

async fn pool_agents_answer_through_every_process(pool_binary: bool, program_name: &str) {
    let cluster = Cluster::start(ClusterOptions {
        pool_binary,
        ..ClusterOptions::default()
    });
    for name in ["pool-math-0", "pool-date-0"] {
        let pid = cluster.procs[name].pid();
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let program =
            String::from_utf8_lossy(cmdline.split(|b| *b == 0).next().unwrap_or(&[])).into_owned();
        assert!(
            program.ends_with(&format!("/{program_name}")),
            "{name} runs {program:?}"
        );
    }
    let bus = cluster.bus().await;
    let r = ask_ok(&bus, "(2+4)*3 - 1", TaskContext::default()).await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), vec!["17"]);
    let ctx = TaskContext {
        now: Some("2026-11-22T09:00:00Z".into()),
        timezone: Some("UTC".into()),
        ..TaskContext::default()
    };
    let r = ask_ok(&bus, "what weekday is 2026-12-25", ctx).await;
    assert_eq!(answers(&r), vec!["Friday"], "{}", r.text);
}
