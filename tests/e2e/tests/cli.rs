//! The `chorus` binary as a user runs it: `ask` in one process and against Redis with
//! every role running, `--json`, `watch` and `trace` (table and Mermaid).

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use chorus_bus::{Bus, Message, Payload, TaskContext, TaskRequest, Topic};
use chorus_core::client::ask;
use chorus_e2e::{Cluster, ClusterOptions, bin};

/// `chorus ask --local …` with no Redis configured.
fn ask_local(args: &[&str]) -> Output {
    Command::new(bin("chorus"))
        .arg("ask")
        .arg("--local")
        .args(args)
        .env_remove("CHORUS__BUS__REDIS_URL")
        .env_remove("CHORUS_CONFIG")
        .env("CHORUS_LOG", "error")
        .stdin(Stdio::null())
        .output()
        .expect("run chorus ask --local")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn ask_local_prints_the_report_with_the_value_and_exits_zero() {
    let out = ask_local(&["tính 2+4 = ??"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains('6'), "{stdout}");
    assert!(
        text(&out.stderr).contains("Completed"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn ask_local_exits_non_zero_for_an_unplannable_request_and_says_what_it_can_do() {
    let out = ask_local(&["write me a poem about the sea"]);
    let stdout = text(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    // What Chorus can do, in plain words: no tool identifier in text for a person.
    assert!(stdout.contains("adding, subtracting"), "{stdout}");
    assert!(stdout.contains("the weekday of a date"), "{stdout}");
    for id in ["add_duration", "convert_time", "sum,", "days_until"] {
        assert!(!stdout.contains(id), "{id} in {stdout}");
    }
}

#[test]
fn ask_local_json_is_the_final_report() {
    let out = ask_local(&["--json", "(2+4)*3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["status"], "completed");
    let steps = report["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[1]["tool"], "multiply");
    assert_eq!(steps[1]["outcome"]["value"], "18");
}

#[test]
fn ask_against_redis_is_answered_by_the_running_roles() {
    let cluster = Cluster::start(ClusterOptions::default());
    let out = cluster
        .chorus()
        .args(["ask", "--redis", "tính 2+4 = ??"])
        .output()
        .expect("run chorus ask");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains('6'), "{stdout}");

    let out = cluster
        .chorus()
        .args(["ask", "--redis", "--json", "10 - 3"])
        .output()
        .expect("run chorus ask --json");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["status"], "completed");
    assert_eq!(report["steps"][0]["tool"], "subtract");
    assert_eq!(report["steps"][0]["outcome"]["value"], "7");

    let out = cluster
        .chorus()
        .args(["ask", "--redis", "1/0"])
        .output()
        .expect("run chorus ask 1/0");
    assert!(!out.status.success());
    assert!(
        text(&out.stdout)
            .to_lowercase()
            .contains("division by zero"),
        "{}",
        text(&out.stdout)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_shows_a_tasks_topics_in_the_order_they_were_sent() {
    let cluster = Cluster::start(ClusterOptions::default());
    let dir = std::env::temp_dir().join(format!("chorus-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("watch.txt");
    let file = std::fs::File::create(&path).expect("output file");
    // 2+4: task_available, plan_ready, math_task, tool_request, tool_response,
    // math_result, final_report, and the verdict FINISHED announced on its channel.
    let mut child = cluster
        .chorus()
        .args([
            "watch",
            "--task",
            "cli-watch-1",
            "--count",
            "8",
            "--timeout",
            "30",
        ])
        .stdout(Stdio::from(file))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chorus watch");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut ready = String::new();
    stderr.read_line(&mut ready).expect("watch ready line");
    assert!(ready.starts_with("watching"), "{ready}");

    let bus = cluster.bus().await;
    // Another task at the same time, which the filter must leave out.
    let noise = ask(
        &bus,
        "1+1",
        TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    );
    let msg = Message::new(
        "cli-watch-1",
        Topic::task_available(),
        "cli",
        Payload::TaskAvailable(TaskRequest {
            query: "2+4".into(),
            context: TaskContext::default(),
        }),
    );
    bus.publish(&msg).await.expect("publish the task");
    noise.await.expect("the other task's report");

    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .expect("join")
        .expect("wait for chorus watch");
    assert!(status.success());
    let output = std::fs::read_to_string(&path).expect("watch output");
    let _ = std::fs::remove_dir_all(&dir);
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 8, "{output}");
    assert!(lines.iter().all(|l| l.contains("cli-watch-1")), "{output}");
    let topics: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    // The announcement comes on another connection than the streams, so its place
    // among the last lines may vary: it is checked on its own.
    let main: Vec<&str> = topics
        .iter()
        .copied()
        .filter(|t| !t.starts_with("tool_") && *t != "verification_done")
        .collect();
    assert_eq!(
        main,
        vec![
            "task_available",
            "plan_ready",
            "math_task",
            "math_result",
            "final_report"
        ],
        "{output}"
    );
    let line_of = |topic: &str| {
        lines
            .iter()
            .find(|l| l.split_whitespace().nth(1) == Some(topic))
            .copied()
            .unwrap_or_default()
    };
    assert!(line_of("task_available").contains("\"2+4\""), "{output}");
    assert!(line_of("math_task").contains("s1 sum a=2 b=4"), "{output}");
    assert!(line_of("math_result").contains("s1 = 6"), "{output}");
    assert!(line_of("final_report").contains("completed"), "{output}");
    assert!(
        line_of("verification_done").contains("attempt 1 FINISHED"),
        "{output}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trace_draws_every_participant_in_order_and_every_topic() {
    let cluster = Cluster::start(ClusterOptions::default());
    let bus = cluster.bus().await;
    let (task_id, report) = ask(
        &bus,
        "(2+4)*3",
        TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .expect("report");
    assert_eq!(report.steps.len(), 2);

    let out = cluster
        .chorus()
        .args(["trace", &task_id, "--mermaid"])
        .output()
        .expect("run chorus trace --mermaid");
    let diagram = text(&out.stdout);
    assert!(out.status.success(), "{diagram}\n{}", text(&out.stderr));
    assert!(diagram.starts_with("sequenceDiagram\n"), "{diagram}");
    let participants: Vec<&str> = diagram
        .lines()
        .filter_map(|l| l.trim().strip_prefix("participant "))
        .filter_map(|l| l.split(" as ").nth(1))
        .collect();
    assert_eq!(
        participants,
        vec![
            "client",
            "planner",
            "synthesizer",
            "pool-math",
            "mcp-math",
            "router",
            "chief"
        ],
        "{diagram}"
    );
    for arrow in [
        "client->>planner: task_available",
        "planner->>synthesizer: plan_ready 2 steps (also to router)",
        "planner->>pool_math: math_task s1 sum",
        "pool_math->>mcp_math: tool_request s1 sum",
        "mcp_math-->>pool_math: tool_response s1 ok",
        "pool_math->>router: math_result s1 ok (also to synthesizer)",
        "router->>pool_math: math_task s2 multiply",
        "pool_math->>router: math_result s2 ok",
        "synthesizer->>chief: final_report completed",
    ] {
        assert!(diagram.contains(arrow), "{arrow:?} missing:\n{diagram}");
    }
    let arrows = diagram.lines().filter(|l| l.contains(">>")).count();
    // The verdict FINISHED is announced on the channel only: no stream entry, no hop.
    assert!(!diagram.contains("verification_done"), "{diagram}");
    assert_eq!(arrows, 1 + 1 + 2 * 4 + 1, "{diagram}");

    let out = cluster
        .chorus()
        .args(["trace", &task_id])
        .output()
        .expect("run chorus trace");
    let table = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        table.starts_with(&format!("task {task_id}: 11 messages")),
        "{table}"
    );
    assert!(table.contains("s2 multiply a=6 b=3"), "{table}");
    assert!(table.contains("s2 = 18"), "{table}");

    let out = cluster
        .chorus()
        .args(["trace", "no-such-task"])
        .output()
        .expect("run chorus trace for an unknown task");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no messages for task no-such-task"),
        "{}",
        text(&out.stderr)
    );
}
