//! Cancellation against the real system: every role its own process, real Redis, real
//! MCP servers. Each door — `DELETE /tasks/{id}`, `chorus cancel ID`, a bare
//! `XADD task_cancel` and a bare `PUBLISH task_cancel` — ends a running task with
//! exactly one report, status `canceled`; a finished task is refused (409), an unknown
//! one too (404), and on the bus each refusal is one dead letter with its code. A task
//! canceled while its first step is held up gets no further step, even with the
//! Router killed (-9) during the cancellation and started again.

use std::time::{Duration, Instant};

use chorus_bus::{Bus, FinalReport, Payload, ReportStatus, Topic};
use chorus_e2e::{Cluster, ClusterOptions, dead_letters, of_task, wait_on};
use serde_json::{Value, json};

fn base(cluster: &Cluster) -> String {
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    format!("http://127.0.0.1:{}", cluster.http_port)
}

/// Submits `query` as task `id` over HTTP and waits until it is in `state`.
async fn submit_until(http: &reqwest::Client, url: &str, id: &str, query: &str, state: &str) {
    let r = http
        .post(format!("{url}/tasks"))
        .json(&json!({"query": query, "task_id": id}))
        .send()
        .await
        .expect("POST /tasks");
    assert_eq!(r.status(), 202, "{id}");
    let start = Instant::now();
    loop {
        let got: Value = http
            .get(format!("{url}/tasks/{id}"))
            .send()
            .await
            .expect("GET")
            .json()
            .await
            .expect("json");
        if got["state"] == state {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(15), "{id}: {got}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The task's reports on the `final_report` stream (waiting up to 10 s for one).
async fn reports(bus: &dyn Bus, task: &str) -> Vec<FinalReport> {
    wait_on(bus, &Topic::final_report(), task, Duration::from_secs(10))
        .await
        .into_iter()
        .filter_map(|m| match m.payload {
            Payload::FinalReport(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// Exactly one report for `task`, status canceled.
async fn canceled_once(bus: &dyn Bus, task: &str) -> FinalReport {
    let got = reports(bus, task).await;
    assert_eq!(got.len(), 1, "{task}: {got:?}");
    assert_eq!(got[0].status, ReportStatus::Canceled, "{task}: {got:?}");
    got[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_door_cancels_a_running_task_once_and_refuses_finished_and_unknown_ones() {
    let cluster = Cluster::start(ClusterOptions::default());
    let bus = cluster.bus().await;
    let http = reqwest::Client::new();
    let url = base(&cluster);

    // DELETE /tasks/{id}: 200 with the canceled report; GET says done; an answer to
    // its question and a second DELETE are refused.
    submit_until(&http, &url, "c-http", "divide 10 by", "input_required").await;
    let r = http
        .delete(format!("{url}/tasks/c-http?reason=wrong%20numbers"))
        .send()
        .await
        .expect("DELETE");
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.expect("json");
    assert_eq!(body["state"], "done", "{body}");
    assert_eq!(body["report"]["status"], "canceled", "{body}");
    assert!(
        body["report"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("wrong numbers")),
        "{body}"
    );
    let again = http
        .delete(format!("{url}/tasks/c-http"))
        .send()
        .await
        .expect("DELETE again");
    assert_eq!(again.status(), 409);
    let err: Value = again.json().await.expect("json");
    assert_eq!(err["error"]["code"], "already_canceled", "{err}");
    let answer = http
        .post(format!("{url}/tasks/c-http/answer"))
        .json(&json!({"answer": "2"}))
        .send()
        .await
        .expect("answer");
    assert_eq!(answer.status(), 409);
    canceled_once(&bus, "c-http").await;

    // A finished task → 409 finished; an unknown one → 404 unknown_task.
    let (done, report) = chorus_e2e::ask_for(&bus, "2+4").await;
    assert_eq!(report.status, ReportStatus::Completed);
    let finished = http
        .delete(format!("{url}/tasks/{done}"))
        .send()
        .await
        .expect("DELETE finished");
    assert_eq!(finished.status(), 409);
    let err: Value = finished.json().await.expect("json");
    assert_eq!(err["error"]["code"], "finished", "{err}");
    let unknown = http
        .delete(format!("{url}/tasks/no-such-task"))
        .send()
        .await
        .expect("DELETE unknown");
    assert_eq!(unknown.status(), 404);
    let err: Value = unknown.json().await.expect("json");
    assert_eq!(err["error"]["code"], "unknown_task", "{err}");

    // chorus cancel ID: exit 0 and the report's text; again: exit 1 with the code.
    submit_until(&http, &url, "c-cli", "tính 10 chia", "input_required").await;
    let out = cluster
        .chorus()
        .args(["cancel", "c-cli"])
        .output()
        .expect("chorus cancel");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("đã hủy"), "{stdout}");
    let out = cluster
        .chorus()
        .args(["cancel", "c-cli"])
        .output()
        .expect("chorus cancel again");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already_canceled"));
    canceled_once(&bus, "c-cli").await;

    // A bare XADD and a bare PUBLISH on task_cancel, as redis-cli sends them.
    submit_until(&http, &url, "c-xadd", "divide 10 by", "input_required").await;
    cluster.xadd_bare("task_cancel", r#"{"task_id":"c-xadd"}"#);
    canceled_once(&bus, "c-xadd").await;
    submit_until(&http, &url, "c-pub", "divide 10 by", "input_required").await;
    cluster.publish_bare(
        "task_cancel",
        r#"{"task_id":"c-pub","reason":"by redis-cli"}"#,
    );
    let report = canceled_once(&bus, "c-pub").await;
    assert!(report.text.contains("by redis-cli"), "{}", report.text);

    // Refused on the bus: one dead letter each, with the code.
    cluster.xadd_bare("task_cancel", r#"{"task_id":"ghost"}"#);
    cluster.publish_bare("task_cancel", &format!(r#"{{"task_id":"{done}"}}"#));
    cluster.xadd_bare("task_cancel", r#"{"task":"c-typo"}"#);
    let start = Instant::now();
    let letters = loop {
        let letters: Vec<_> = dead_letters(&bus)
            .await
            .into_iter()
            .filter(|d| d.topic == "task_cancel")
            .collect();
        if letters.len() >= 3 || start.elapsed() > Duration::from_secs(10) {
            break letters;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let reasons: Vec<&str> = letters.iter().map(|d| d.reason.as_str()).collect();
    assert_eq!(letters.len(), 3, "{reasons:?}");
    assert!(
        reasons.iter().any(|r| r.contains("(unknown_task)")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("(finished)")),
        "{reasons:?}"
    );
    assert!(reasons.iter().any(|r| r.contains("task_id")), "{reasons:?}");
    assert_eq!(
        reports(&bus, &done).await.len(),
        1,
        "the finished task kept its one report"
    );
}

/// `(name, value)` pairs of `XINFO GROUPS topic` for `group`.
fn group_info(cluster: &Cluster, topic: &str, group: &str) -> Vec<(String, String)> {
    let out = cluster.redis.cli(&["XINFO", "GROUPS", topic]);
    let lines: Vec<&str> = out.lines().collect();
    let mut groups: Vec<Vec<(String, String)>> = Vec::new();
    for pair in lines.chunks(2) {
        if let [k, v] = pair {
            if *k == "name" {
                groups.push(Vec::new());
            }
            if let Some(g) = groups.last_mut() {
                g.push(((*k).to_owned(), (*v).to_owned()));
            }
        }
    }
    groups
        .into_iter()
        .find(|g| g.iter().any(|(k, v)| k == "name" && v == group))
        .unwrap_or_default()
}

/// Waits until `group` has read and acked everything on `topic`.
fn wait_drained(cluster: &Cluster, topic: &str, group: &str) {
    let start = Instant::now();
    loop {
        let info = group_info(cluster, topic, group);
        let get = |name: &str| info.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        if get("pending").as_deref() == Some("0") && get("lag").as_deref() == Some("0") {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{group} did not drain {topic}: {info:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_canceled_mid_flight_gets_no_further_step_even_with_the_router_killed() {
    let mut cluster = Cluster::start(ClusterOptions::default());
    let bus = cluster.bus().await;
    let http = reqwest::Client::new();
    let url = base(&cluster);

    // Hold the math pool so the first step waits on its stream, unread.
    cluster.signal("pool-math-0", "-STOP");
    cluster.xadd_bare("task_available", r#"{"task_id":"c-mid","query":"(2+4)*3"}"#);
    let sent = wait_on(
        &bus,
        &Topic::pool_task("math"),
        "c-mid",
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(
        sent.len(),
        1,
        "only the first step goes out before its input"
    );

    // The Router dies (-9) while the task is canceled, and comes back.
    cluster.kill("router");
    let r = http
        .delete(format!("{url}/tasks/c-mid"))
        .send()
        .await
        .expect("DELETE");
    assert_eq!(r.status(), 200);
    cluster.start_role("router", "router", None);
    cluster.signal("pool-math-0", "-CONT");

    // The step in flight finishes; its result is ignored: no second step, one report.
    let results = wait_on(
        &bus,
        &Topic::pool_result("math"),
        "c-mid",
        Duration::from_secs(15),
    )
    .await;
    assert_eq!(results.len(), 1, "{results:?}");
    wait_drained(&cluster, "math_result", "router");
    wait_drained(&cluster, "math_result", "synthesizer");
    let tasks = of_task(&bus, &Topic::pool_task("math"), "c-mid").await;
    let tools: Vec<String> = tasks
        .iter()
        .filter_map(|m| match &m.payload {
            Payload::StepTask(t) => Some(t.tool.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(tools, ["sum"], "the multiply step never went out");
    let report = canceled_once(&bus, "c-mid").await;
    let outcomes: Vec<bool> = report.steps.iter().map(|s| s.outcome.is_some()).collect();
    assert_eq!(
        outcomes,
        [false, false],
        "nothing had finished at the cancellation"
    );

    // The system goes on: a new task is answered.
    let (_, after) = chorus_e2e::ask_for(&bus, "2+4").await;
    assert_eq!(after.status, ReportStatus::Completed);
}
