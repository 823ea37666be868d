//! The Chief's HTTP API against the real system: every role its own process, real Redis,
//! real MCP servers, and a real HTTP client.

use std::time::Duration;

use chorus_e2e::{Cluster, ClusterOptions};
use serde_json::{Value, json};

fn base(cluster: &Cluster) -> String {
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    format!("http://127.0.0.1:{}", cluster.http_port)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_stream_sends_accepted_plan_steps_and_the_report() {
    let cluster = Cluster::start(ClusterOptions::default());
    let url = base(&cluster);
    let http = reqwest::Client::new();
    let response = http
        .post(format!("{url}/chat/stream"))
        .json(&json!({"query": "(2+4)*3 - 1"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap_or("")
            .starts_with("text/event-stream")
    );
    let events = chorus_e2e::read_events(response).await;
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        vec!["accepted", "plan", "step", "step", "step", "report"],
        "{events:?}"
    );
    let task_id = events[0].1["task_id"].as_str().expect("task id");
    assert!(!task_id.is_empty());
    assert_eq!(
        events[1].1["plan"]["steps"].as_array().map(Vec::len),
        Some(3)
    );
    let report = &events[5].1;
    assert_eq!(report["status"], "completed");
    assert_eq!(report["steps"][2]["outcome"]["value"], "17");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn polling_clients_get_pending_then_done_and_errors_are_json() {
    let cluster = Cluster::start(ClusterOptions::default());
    let url = base(&cluster);
    let http = reqwest::Client::new();

    let health = http
        .get(format!("{url}/healthz"))
        .send()
        .await
        .expect("health");
    assert_eq!(health.status(), 200);
    assert_eq!(health.json::<Value>().await.expect("json")["status"], "ok");

    let accepted = http
        .post(format!("{url}/tasks"))
        .json(&json!({"query": "tính 10 chia 4", "task_id": "poll-1"}))
        .send()
        .await
        .expect("post");
    assert_eq!(accepted.status(), 202);
    assert_eq!(
        accepted.json::<Value>().await.expect("json")["task_id"],
        "poll-1"
    );
    let mut last = Value::Null;
    for _ in 0..200 {
        last = http
            .get(format!("{url}/tasks/poll-1"))
            .send()
            .await
            .expect("get")
            .json()
            .await
            .expect("json");
        if last["state"] == "done" {
            break;
        }
        assert_eq!(last["state"], "pending");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(last["state"], "done", "{last}");
    assert_eq!(last["report"]["steps"][0]["outcome"]["value"], "2.5");
    assert_eq!(last["report"]["language"], "vi");

    // Bad bodies: a clear JSON error with a 4xx status, nothing published.
    let cases: [(&str, &str, u16, &str); 5] = [
        ("{not json", "application/json", 400, "malformed_json"),
        (
            r#"{"context": {}}"#,
            "application/json",
            422,
            "invalid_body",
        ),
        (
            r#"{"query": "   "}"#,
            "application/json",
            400,
            "empty_query",
        ),
        (r#"{"query": "2+4"}"#, "text/plain", 415, "not_json"),
        (
            r#"{"query": "2+4", "task_id": "has spaces"}"#,
            "application/json",
            400,
            "invalid_task_id",
        ),
    ];
    for (body, content_type, status, code) in cases {
        let r = http
            .post(format!("{url}/tasks"))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .expect("post");
        assert_eq!(r.status().as_u16(), status, "{body}");
        let err: Value = r.json().await.expect("json error");
        assert_eq!(err["error"]["code"], code, "{body}: {err}");
        assert!(
            err["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
    let huge = json!({"query": "1+".repeat(40_000)}).to_string();
    let r = http
        .post(format!("{url}/tasks"))
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status().as_u16(), 413);
    let r = http
        .get(format!("{url}/tasks/no-such-task"))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 404);
    assert_eq!(
        r.json::<Value>().await.expect("json")["error"]["code"],
        "not_found"
    );
}

#[test]
fn the_committed_openapi_document_is_current() {
    let out = std::process::Command::new(chorus_e2e::bin("chorus"))
        .arg("openapi")
        .output()
        .expect("chorus openapi");
    assert!(out.status.success());
    let generated: Value = serde_json::from_slice(&out.stdout).expect("json");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    let committed: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("docs/openapi.json"))
            .expect("committed json");
    assert!(
        generated == committed,
        "docs/openapi.json is stale: run `cargo run --bin chorus -- openapi > docs/openapi.json`"
    );
    for route in ["/healthz", "/tasks", "/tasks/{id}", "/chat/stream"] {
        assert!(generated["paths"].get(route).is_some(), "{route} missing");
    }
}
