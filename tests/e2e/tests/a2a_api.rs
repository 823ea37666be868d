//! The A2A server against the real system, driven by an independent client: every role
//! its own process on a real Redis, real MCP servers, and the official A2A Python SDK
//! (a2a-sdk 1.x, from the tests' venv) running tests/python/a2a_check.py. The script
//! resolves the agent card, then sends, streams, answers a question on its taskId,
//! follows up in a contextId, gets, subscribes to and cancels tasks; it prints one line
//! per check, and this test asserts its exit code and what each line saw.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_e2e::{Cluster, ClusterOptions};

/// The script's checks, in the order it runs them.
const CHECKS: [&str; 10] = [
    "card",
    "send",
    "stream",
    "input-required",
    "follow-up",
    "get-task",
    "subscribe",
    "cancel-waiting",
    "cancel-finished",
    "unknown-task",
];

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../python/a2a_check.py")
}

#[test]
fn the_official_a2a_sdk_drives_chorus_through_every_method() {
    let python = chorus_testkit::python::python();
    let cluster = Cluster::start(ClusterOptions::default());
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    let url = format!("http://127.0.0.1:{}", cluster.http_port);

    let started = Instant::now();
    // `timeout` bounds the run: a hung stream fails the test instead of hanging it.
    let out = Command::new("timeout")
        .arg("120")
        .arg(&python)
        .arg(script())
        .arg("--url")
        .arg(&url)
        .output()
        .expect("run tests/python/a2a_check.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("a2a_check.py took {:?}:\n{stdout}", started.elapsed());
    assert!(
        out.status.success(),
        "a2a_check.py failed ({}):\n{stdout}\n{stderr}",
        out.status
    );

    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), CHECKS.len() + 1, "{stdout}");
    for (line, name) in lines.iter().zip(CHECKS) {
        assert!(
            line.starts_with(&format!("ok {name}: ")),
            "{line:?} is not check {name}"
        );
    }
    assert_eq!(lines[CHECKS.len()], "10 passed, 0 failed");

    let seen = |name: &str| lines[CHECKS.iter().position(|c| *c == name).unwrap()];
    let card = seen("card");
    assert!(card.contains("skills date, math"), "{card}");
    assert!(
        card.contains(&format!("JSONRPC 1.0 at {url}/a2a")),
        "{card}"
    );
    assert!(
        seen("send").ends_with("TASK_STATE_COMPLETED, '2 + 4 = 6'"),
        "{}",
        seen("send")
    );
    let stream = seen("stream");
    assert!(
        stream.starts_with("ok stream: task:TASK_STATE_SUBMITTED status:TASK_STATE_WORKING"),
        "{stream}"
    );
    assert!(
        stream.ends_with("artifact status:TASK_STATE_COMPLETED"),
        "{stream}"
    );
    assert_eq!(
        stream.matches("status:TASK_STATE_WORKING").count(),
        4,
        "plan and 3 steps: {stream}"
    );
    let asked = seen("input-required");
    assert!(asked.contains("which number?"), "{asked}");
    assert!(
        asked.ends_with("TASK_STATE_COMPLETED, '10 ÷ 2 = 5'"),
        "{asked}"
    );
    assert!(
        seen("follow-up").ends_with("'6 (your last answer) × 3 = 18'"),
        "{}",
        seen("follow-up")
    );
    assert!(
        seen("get-task").ends_with("TASK_STATE_COMPLETED, '2026-12-25 is a Friday.', history 1")
    );
    let subscribed = seen("subscribe");
    assert!(
        subscribed.starts_with("ok subscribe: task:TASK_STATE_INPUT_REQUIRED "),
        "{subscribed}"
    );
    assert!(
        subscribed.ends_with("artifact status:TASK_STATE_COMPLETED"),
        "{subscribed}"
    );
    assert!(seen("cancel-waiting").ends_with("TASK_STATE_INPUT_REQUIRED -> TASK_STATE_CANCELED"));
    assert!(
        seen("cancel-finished").contains("-> TaskNotCancelableError ("),
        "{}",
        seen("cancel-finished")
    );
    assert!(seen("unknown-task").contains("TaskNotFoundError (task not found: no-such-task)"));
}
