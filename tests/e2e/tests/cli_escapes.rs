//! `chorus watch` and `chorus trace` against every role running, for a task whose query
//! holds terminal escape sequences (clear the screen, turn red, a C1 CSI, a right-to-left
//! override): the `plan_ready` and `final_report` lines show them escaped (`\u{1b}`),
//! never raw, and so do `chorus cancel`'s report of such a reason and an error naming
//! such a task id.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use chorus_bus::{Bus, Message, Payload, TaskContext, TaskRequest, Topic};
use chorus_core::client::ask;
use chorus_e2e::{Cluster, ClusterOptions, poll_task};

/// Clears the screen and turns red (ESC), the same by a C1 CSI, and a bidi override.
const HOSTILE: &str = "\u{1b}[2J\u{1b}[31m \u{9b}1m \u{202e}gnp";
/// [`HOSTILE`] as `chorus` prints it.
const ESCAPED: &str = r"\u{1b}[2J\u{1b}[31m \u{9b}1m \u{202e}gnp";

/// Fails when `bytes` hold something a terminal would act on: ESC, a C1 CSI, the bidi
/// override, a carriage return.
fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    assert!(!bytes.contains(&0x1b), "{what} holds a raw ESC: {text:?}");
    for c in ['\u{9b}', '\u{202e}', '\r'] {
        assert!(!text.contains(c), "{what} holds a raw {c:?}: {text:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_shows_a_hostile_query_escaped() {
    let cluster = Cluster::start(ClusterOptions::default());
    let task = "cli-escapes-1";
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("watch.txt");
    let file = std::fs::File::create(&path).expect("output file");
    let mut child = cluster
        .chorus()
        .args(["watch", "--task", task, "--topic", "plan_ready"])
        .args(["--topic", "final_report", "--count", "2", "--timeout", "30"])
        .stdout(Stdio::from(file))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chorus watch");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut ready = String::new();
    stderr.read_line(&mut ready).expect("watch ready line");
    assert!(ready.starts_with("watching"), "{ready}");

    // Refused with a report that quotes the query: "… so "write a poem …" cannot be
    // answered."
    let bus = cluster.bus().await;
    let msg = Message::new(
        task,
        Topic::task_available(),
        "cli",
        Payload::TaskAvailable(TaskRequest {
            query: format!("write a poem {HOSTILE}"),
            context: TaskContext::default(),
        }),
    );
    bus.publish(&msg).await.expect("publish the task");
    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .expect("join")
        .expect("wait for chorus watch");
    assert!(status.success());
    let output = std::fs::read(&path).expect("watch output");
    assert_terminal_safe("watch", &output);
    let output = String::from_utf8_lossy(&output);
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 2, "{output}");
    for (line, topic) in lines.iter().zip(["plan_ready", "final_report"]) {
        assert_eq!(line.split_whitespace().nth(1), Some(topic), "{output}");
        assert!(line.contains(ESCAPED), "{topic} line: {line}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trace_shows_a_hostile_query_escaped() {
    let cluster = Cluster::start(ClusterOptions::default());
    let bus = cluster.bus().await;
    let (task, report) = ask(
        &bus,
        &format!("write a poem {HOSTILE}"),
        TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .expect("report");
    assert!(report.text.contains(HOSTILE), "{}", report.text);

    let out = cluster
        .chorus()
        .args(["trace", &task])
        .output()
        .expect("run chorus trace");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_terminal_safe("trace", &out.stdout);
    let table = String::from_utf8_lossy(&out.stdout);
    for topic in ["task_available", "plan_ready", "final_report"] {
        let row = table
            .lines()
            .find(|l| l.split_whitespace().nth(3) == Some(topic))
            .unwrap_or_else(|| panic!("no {topic} row in {table}"));
        assert!(row.contains(ESCAPED), "{topic} row: {row}");
    }

    let out = cluster
        .chorus()
        .args(["trace", "--mermaid", &task])
        .output()
        .expect("run chorus trace --mermaid");
    assert!(out.status.success());
    assert_terminal_safe("trace --mermaid", &out.stdout);
}

#[test]
fn an_error_naming_a_hostile_task_id_shows_it_escaped() {
    let cluster = Cluster::start(ClusterOptions::default());
    let out = cluster
        .chorus()
        .args(["trace", &format!("no-such-task{HOSTILE}")])
        .output()
        .expect("run chorus trace for an unknown task");
    assert!(!out.status.success());
    assert_terminal_safe("stderr", &out.stderr);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("no messages for task no-such-task{ESCAPED}")),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_prints_a_hostile_reason_escaped() {
    let cluster = Cluster::start(ClusterOptions::default());
    let url = format!("http://127.0.0.1:{}", cluster.http_port);
    let http = reqwest::Client::new();
    let task = "cli-escapes-cancel";
    let r = http
        .post(format!("{url}/tasks"))
        .json(&serde_json::json!({"query": "divide 10 by", "task_id": task}))
        .send()
        .await
        .expect("POST /tasks");
    assert_eq!(r.status(), 202);
    // It asks "divide 10 by what?" and waits for the answer.
    let state = poll_task(&http, &url, task, |s| s["state"] == "input_required").await;
    assert_eq!(state["state"], "input_required", "{state}");

    let out = cluster
        .chorus()
        .args(["cancel", task, "--reason", &format!("because {HOSTILE}")])
        .output()
        .expect("run chorus cancel");
    assert_terminal_safe("stdout", &out.stdout);
    assert_terminal_safe("stderr", &out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(&format!("because {ESCAPED}")), "{stdout}");
}
