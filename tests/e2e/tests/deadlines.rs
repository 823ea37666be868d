//! Deadlines, tool-call timeouts, back-pressure and limit settings, with every role as
//! its own process: a tool that never answers (a frozen MCP server) yields one report at
//! the task's deadline with what did finish, and its late result no second report.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::Duration;

use chorus_bus::{FinalReport, Message, Payload, ReportStatus, TaskContext, Topic};
use chorus_core::client::ask;
use chorus_e2e::{Cluster, ClusterOptions, answers, of_task, wait_on};

const COMPOUND: &str = "compute (2+4)*3 and tell me the weekday of 2026-12-25";

fn cluster_with(env: &[(&str, &str)]) -> Cluster {
    let env: BTreeMap<String, String> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Cluster::start(ClusterOptions {
        env,
        ..Default::default()
    })
}

fn report_of(msgs: &[Message]) -> FinalReport {
    match msgs.first().map(|m| &m.payload) {
        Some(Payload::FinalReport(r)) => r.clone(),
        other => panic!("no final report: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_tool_gives_a_partial_report_at_the_deadline_and_its_late_result_no_second() {
    let mut cluster = cluster_with(&[("CHORUS__AGENTS__DEADLINE_MS", "1500")]);
    let bus = cluster.bus().await;
    cluster.signal("date-mcp", "-STOP");
    // A bare client request for the frozen tool, sent alongside.
    cluster.redis.cli(&[
        "XADD",
        "task_available",
        "*",
        "data",
        r#"{"query":"weekday of 2026-12-25","task_id":"bare-frozen"}"#,
    ]);
    let (task, r) = ask(
        &bus,
        COMPOUND,
        TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .expect("a report at the deadline, before the tool answers");
    assert_eq!(r.status, ReportStatus::DeadlineExceeded, "{}", r.text);
    assert_eq!(answers(&r), vec!["18", "unfinished"]);
    assert!(r.text.to_lowercase().contains("deadline"), "{}", r.text);
    let bare = wait_on(
        &bus,
        &Topic::final_report(),
        "bare-frozen",
        Duration::from_secs(20),
    )
    .await;
    let b = report_of(&bare);
    assert_eq!(b.status, ReportStatus::DeadlineExceeded, "{}", b.text);
    assert_eq!(answers(&b), vec!["unfinished"]);

    // Thaw: the late result arrives, and no second report follows it.
    cluster.signal("date-mcp", "-CONT");
    let late = wait_on(
        &bus,
        &Topic::pool_result("date"),
        &task,
        Duration::from_secs(40),
    )
    .await;
    assert_eq!(late.len(), 1, "the late result is published once");
    wait_on(
        &bus,
        &Topic::pool_result("date"),
        "bare-frozen",
        Duration::from_secs(40),
    )
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(of_task(&bus, &Topic::final_report(), &task).await.len(), 1);
    assert_eq!(
        of_task(&bus, &Topic::final_report(), "bare-frozen")
            .await
            .len(),
        1
    );
    for (name, p) in cluster.procs.iter_mut() {
        assert!(p.is_running(), "{name} exited");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_call_over_the_call_timeout_fails_its_step_and_the_rest_completes() {
    let cluster = cluster_with(&[
        ("CHORUS__AGENTS__DEADLINE_MS", "30000"),
        ("CHORUS__AGENTS__MCP_CALL_TIMEOUT_MS", "300"),
        ("CHORUS__AGENTS__MCP_ATTEMPTS", "2"),
        // One attempt: the re-plans after a timeout are tests/e2e/tests/reiterate.rs's.
        ("CHORUS__AGENTS__MAX_ITERATIONS", "1"),
    ]);
    let bus = cluster.bus().await;
    cluster.signal("date-mcp", "-STOP");
    let (_, r) = ask(
        &bus,
        COMPOUND,
        TaskContext::default(),
        Duration::from_secs(40),
        |_| {},
    )
    .await
    .expect("report");
    cluster.signal("date-mcp", "-CONT");
    assert_eq!(r.status, ReportStatus::Partial, "{}", r.text);
    let got = answers(&r);
    assert_eq!(got[0], "18");
    assert!(
        got[1].starts_with("failed:") && got[1].contains("timed out"),
        "{got:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_delivery_in_flight_per_agent_still_answers_every_task() {
    let cluster = cluster_with(&[("CHORUS__AGENTS__MAX_IN_FLIGHT", "1")]);
    let bus = cluster.bus().await;
    let asks = (0..40).map(|i| {
        let bus = &bus;
        async move {
            let q = format!("({i} + 1) * 2");
            let (_, r) = ask(
                bus,
                &q,
                TaskContext::default(),
                Duration::from_secs(60),
                |_| {},
            )
            .await
            .unwrap_or_else(|e| panic!("{q}: {e}"));
            (i, r)
        }
    });
    for (i, r) in futures::future::join_all(asks).await {
        assert_eq!(answers(&r), vec![((i + 1) * 2).to_string()], "{}", r.text);
    }
}

/// Runs `chorus agent router` with one bad setting; returns its exit success and stderr.
fn start_with_setting(key: &str, value: &str) -> (bool, String) {
    let out = Command::new(chorus_e2e::bin("chorus"))
        .args(["agent", "router"])
        .env("CHORUS__BUS__REDIS_URL", "redis://127.0.0.1:1")
        .env(key, value)
        .stdin(Stdio::null())
        .output()
        .expect("run chorus");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_limit_set_out_of_range_stops_the_role_at_start_naming_the_setting() {
    for (key, value, named) in [
        ("CHORUS__AGENTS__MAX_IN_FLIGHT", "0", "max_in_flight"),
        ("CHORUS__AGENTS__DEADLINE_MS", "0", "deadline_ms"),
        ("CHORUS__AGENTS__DEADLINE_MS", "soon", "deadline_ms"),
        ("CHORUS__BUS__MAX_MESSAGE_BYTES", "0", "max_message_bytes"),
        ("CHORUS__BUS__MAX_DELIVERIES", "0", "max_deliveries"),
    ] {
        let (ok, stderr) = start_with_setting(key, value);
        assert!(!ok, "{key}={value} was accepted");
        assert!(stderr.contains(named), "{key}={value}: {stderr}");
    }
}
