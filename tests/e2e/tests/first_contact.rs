//! A task id is an idempotency key, and the first contact says what is wrong: a reused
//! id with the same request is the same task (HTTP and bus), with another request it is
//! refused (409, or a dead letter on the bus) and the first task's report stays; a bad
//! context field is named at the door; `chorus ask` against a Redis where nothing runs,
//! or no Redis at all, says so at once in one line; `/healthz` is degraded while a role
//! is missing.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chorus_bus::{Bus, DeadLetter, FinalReport, Payload, ReportStatus, Topic};
use chorus_bus_redis::RedisBus;
use chorus_e2e::{Cluster, ClusterOptions, answers, bin};
use chorus_testkit::RedisServer;
use serde_json::{Value, json};

fn base(cluster: &Cluster) -> String {
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    format!("http://127.0.0.1:{}", cluster.http_port)
}

/// The payloads of `task`'s messages on `topic`, oldest first.
async fn payloads_of(bus: &RedisBus, topic: Topic, task: &str) -> Vec<Payload> {
    bus.recent(&topic, 10_000)
        .await
        .expect("recent")
        .into_iter()
        .filter(|m| m.task_id == task)
        .map(|m| m.payload)
        .collect()
}

/// Every final report on the stream for `task`.
async fn reports_of(bus: &RedisBus, task: &str) -> Vec<FinalReport> {
    let all = payloads_of(bus, Topic::final_report(), task).await;
    all.into_iter()
        .filter_map(|p| match p {
            Payload::FinalReport(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// Every dead letter on the stream for `task`.
async fn dead_letters_of(bus: &RedisBus, task: &str) -> Vec<DeadLetter> {
    let all = payloads_of(bus, Topic::dead_letter(), task).await;
    all.into_iter()
        .filter_map(|p| match p {
            Payload::DeadLetter(d) => Some(d),
            _ => None,
        })
        .collect()
}

/// Polls `probe` every 50 ms until it returns `Some`, for at most `within`.
async fn eventually<T, F: std::future::Future<Output = Option<T>>>(
    within: Duration,
    mut probe: impl FnMut() -> F,
) -> Option<T> {
    let start = Instant::now();
    while start.elapsed() < within {
        if let Some(v) = probe().await {
            return Some(v);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reused_task_id_is_one_task_for_the_same_request_and_refused_for_another() {
    let cluster = Cluster::start(ClusterOptions::default());
    let url = base(&cluster);
    let http = reqwest::Client::new();
    let bus = cluster.bus().await;
    let post = |body: Value| {
        let http = http.clone();
        let url = url.clone();
        async move {
            let r = http
                .post(format!("{url}/tasks"))
                .json(&body)
                .send()
                .await
                .expect("post");
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.expect("json"))
        }
    };

    // HTTP: the same id with the same request is that task; with another, 409.
    let (status, body) = post(json!({"query": "2+4", "task_id": "h-1"})).await;
    assert_eq!((status, body["task_id"].as_str()), (202, Some("h-1")));
    let done = eventually(Duration::from_secs(15), || async {
        let r = reports_of(&bus, "h-1").await;
        (!r.is_empty()).then_some(r)
    })
    .await
    .expect("a report for h-1");
    assert_eq!(answers(&done[0]), vec!["6"]);
    let (status, body) = post(json!({"query": "2+4", "task_id": "h-1"})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["state"], "done");
    assert_eq!(body["report"]["steps"][0]["outcome"]["value"], "6");
    let (status, body) = post(json!({"query": "3+3", "task_id": "h-1"})).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "task_id_taken");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("h-1"),
        "{body}"
    );
    let polled: Value = http
        .get(format!("{url}/tasks/h-1"))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    assert_eq!(polled["report"]["steps"][0]["outcome"]["value"], "6");

    // The bus: a second XADD of the same request runs nothing; another request with
    // the same id becomes a dead letter naming the id; the first report stands alone.
    let xadd = |data: &str| {
        cluster
            .redis
            .cli(&["XADD", "task_available", "*", "data", data])
    };
    xadd(r#"{"query":"2*5","task_id":"b-1"}"#);
    eventually(Duration::from_secs(15), || async {
        (!reports_of(&bus, "b-1").await.is_empty()).then_some(())
    })
    .await
    .expect("a report for b-1");
    xadd(r#"{"query":"2*5","task_id":"b-1"}"#);
    xadd(r#"{"query":"7*7","task_id":"b-1"}"#);
    let letters = eventually(Duration::from_secs(15), || async {
        let d = dead_letters_of(&bus, "b-1").await;
        (!d.is_empty()).then_some(d)
    })
    .await
    .expect("a dead letter for the other request");
    assert_eq!(letters.len(), 1, "{letters:?}");
    assert!(letters[0].reason.contains("b-1"), "{}", letters[0].reason);
    assert!(letters[0].reason.contains("taken"), "{}", letters[0].reason);
    assert!(
        letters[0].original.contains("7*7"),
        "{}",
        letters[0].original
    );
    // Give a wrongly run duplicate the time to report.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let reports = reports_of(&bus, "b-1").await;
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(answers(&reports[0]), vec!["10"]);
    let h1 = reports_of(&bus, "h-1").await;
    assert_eq!(h1.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_bad_context_field_is_named_at_the_door() {
    let cluster = Cluster::start(ClusterOptions::default());
    let url = base(&cluster);
    let http = reqwest::Client::new();
    let bus = cluster.bus().await;
    let cases = [
        ("timezone", json!({"timezone": "Mars/Olympus"})),
        ("now", json!({"now": "half past nine"})),
        ("language", json!({"language": "fr"})),
    ];
    for (i, (field, context)) in cases.iter().enumerate() {
        let r = http
            .post(format!("{url}/tasks"))
            .json(&json!({"query": "what day is it", "context": context}))
            .send()
            .await
            .expect("post");
        assert_eq!(r.status().as_u16(), 422, "{field}");
        let body: Value = r.json().await.expect("json");
        assert_eq!(body["error"]["code"], "invalid_context", "{body}");
        let message = body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains(&format!("context.{field}")), "{message}");

        // On the bus: a failed report for that task naming the field.
        let task = format!("ctx-{i}");
        let data = json!({"query": "what day is it", "task_id": task, "context": context});
        cluster
            .redis
            .cli(&["XADD", "task_available", "*", "data", &data.to_string()]);
        let report = eventually(Duration::from_secs(15), || async {
            reports_of(&bus, &task).await.into_iter().next()
        })
        .await
        .unwrap_or_else(|| panic!("no report for {task}"));
        assert_eq!(report.status, ReportStatus::Failed, "{}", report.text);
        assert!(
            report.text.contains(&format!("context.{field}")),
            "{}",
            report.text
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_degraded_while_a_role_is_missing_and_ok_when_it_is_back() {
    let mut cluster = Cluster::start(ClusterOptions {
        env: BTreeMap::from([("CHORUS__AGENTS__HEARTBEAT_MS".to_owned(), "200".to_owned())]),
        ..Default::default()
    });
    let url = base(&cluster);
    let http = reqwest::Client::new();
    let health = || {
        let (http, url) = (http.clone(), url.clone());
        async move {
            let r = http
                .get(format!("{url}/healthz"))
                .send()
                .await
                .expect("health");
            (r.status().as_u16(), r.json::<Value>().await.expect("json"))
        }
    };
    assert_eq!(health().await, (200, json!({"status": "ok"})));
    cluster.kill("router");
    let degraded = eventually(Duration::from_secs(10), || async {
        let (status, body) = health().await;
        (status == 503).then_some(body)
    })
    .await
    .expect("degraded after the router died");
    assert_eq!(
        degraded,
        json!({"status": "degraded", "missing": ["router"]})
    );
    cluster.start_role("router", "router", None);
    let back = eventually(Duration::from_secs(10), || async {
        let (status, body) = health().await;
        (status == 200).then_some(body)
    })
    .await
    .expect("ok once the router is back");
    assert_eq!(back, json!({"status": "ok"}));
}

#[test]
fn ask_says_at_once_when_nothing_runs_or_redis_is_unreachable() {
    // A Redis where no agent runs.
    let redis = RedisServer::start();
    let started = Instant::now();
    let out = std::process::Command::new(bin("chorus"))
        .args(["ask", "--redis", "2+4"])
        .env("CHORUS__BUS__REDIS_URL", redis.url())
        .env("CHORUS_LOG", "error")
        .output()
        .expect("run chorus ask");
    let waited = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{stderr}");
    assert!(waited < Duration::from_secs(2), "took {waited:?}: {stderr}");
    assert!(stderr.contains("planner"), "{stderr}");
    assert!(stderr.contains("deploy/run-local.sh"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");

    // No Redis at all: one line naming the URL and the cause.
    let port = chorus_testkit::free_port();
    let url = format!("redis://127.0.0.1:{port}");
    let out = std::process::Command::new(bin("chorus"))
        .args(["ask", "--redis", "2+4"])
        .env("CHORUS__BUS__REDIS_URL", &url)
        .env("CHORUS_LOG", "error")
        .output()
        .expect("run chorus ask");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&url), "{stderr}");
    assert!(stderr.to_lowercase().contains("refused"), "{stderr}");
}
