//! The OpenAI-compatible endpoint against the real system — every role its own process,
//! real Redis, real MCP servers — driven by the OFFICIAL `openai` Python SDK
//! (tests/python/openai_check.py, in the venv of `chorus_testkit::python`): the model
//! list, a completion, a streamed completion that ends with `[DONE]`, a follow-up
//! conversation, a branch diverging from the same beginning, a question answered by the
//! next user message, and errors the SDK raises as its own exceptions. With a (fake)
//! model writing reports, a streamed completion relays its pieces live, and a model's
//! answer refused midway is followed by the report that replaces it. With Redis gone, a
//! request is refused with 503 in OpenAI's shape.

#[allow(dead_code)]
#[path = "llm/fake_model.rs"]
mod fake_model;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_e2e::{Cluster, ClusterOptions};
use fake_model::{FakeModel, Reply, Script};
use serde_json::{Value, json};

/// Every check the script prints, in order.
const CHECKS: [&str; 7] = [
    "models",
    "completion",
    "stream",
    "follow_up",
    "branch",
    "question",
    "errors",
];

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../python/openai_check.py")
}

/// Every role, both MCP servers and Redis; its HTTP API listening and every agent live.
fn cluster() -> Cluster {
    cluster_with(BTreeMap::new())
}

/// [`cluster`] with extra environment for every role.
fn cluster_with(env: BTreeMap<String, String>) -> Cluster {
    let cluster = Cluster::start(ClusterOptions {
        env,
        ..ClusterOptions::default()
    });
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    // chief, planner, router, synthesizer, verifier, a math and a date agent.
    cluster.wait_ready(7, Duration::from_secs(20));
    cluster
}

#[test]
fn the_official_openai_sdk_talks_to_chorus() {
    let python = chorus_testkit::python::python();
    let cluster = cluster();
    let base_url = format!("http://127.0.0.1:{}/v1", cluster.http_port);
    let started = Instant::now();
    let out = Command::new(&python)
        .arg(script())
        .args(["--base-url", &base_url])
        .output()
        .expect("run tests/python/openai_check.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("openai_check.py ({:?}):\n{stdout}", started.elapsed());
    assert!(
        out.status.success(),
        "openai_check.py failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let lines: Vec<&str> = stdout.lines().collect();
    for (line, check) in lines.iter().zip(CHECKS) {
        assert!(
            line.starts_with(&format!("ok {check}: ")),
            "expected check {check:?} to pass, got {line:?}\n{stdout}"
        );
    }
    assert_eq!(lines.len(), CHECKS.len() + 1, "{stdout}");
    assert_eq!(lines[CHECKS.len()], "7/7 checks passed");
    // What the script saw, as values: the follow-up and the branch.
    assert!(lines[3].contains("18"), "{}", lines[3]);
    assert!(lines[4].contains("= 7"), "{}", lines[4]);
    assert!(lines[5].contains("= 5"), "{}", lines[5]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_redis_a_completion_is_refused_with_503_in_openais_shape() {
    let mut cluster = cluster();
    let url = format!("http://127.0.0.1:{}/v1/chat/completions", cluster.http_port);
    let http = reqwest::Client::new();
    let body = json!({"model": "chorus", "messages": [{"role": "user", "content": "2+4"}]});
    let ok = http.post(&url).json(&body).send().await.expect("post");
    assert_eq!(ok.status(), 200);
    let completion: Value = ok.json().await.expect("json");
    assert_eq!(
        completion["choices"][0]["message"]["content"],
        "2 + 4 = 6\n"
    );

    cluster.redis.kill();
    let refused = tokio::time::timeout(Duration::from_secs(30), http.post(&url).json(&body).send())
        .await
        .expect("an answer without Redis, not a hang")
        .expect("post");
    assert_eq!(refused.status(), 503);
    let error: Value = refused.json().await.expect("json");
    assert_eq!(error["error"]["type"], "server_error", "{error}");
    assert_eq!(error["error"]["code"], "bus_unavailable", "{error}");
    assert!(error["error"]["param"].is_null(), "{error}");
}

/// The content pieces of a streamed completion of `query`, which must end with
/// `data: [DONE]`.
async fn streamed(http: &reqwest::Client, url: &str, query: &str) -> Vec<String> {
    let body = json!({"model": "chorus", "stream": true,
        "messages": [{"role": "user", "content": query}]});
    let response = http.post(url).json(&body).send().await.expect("post");
    assert_eq!(response.status(), 200);
    let text = response.text().await.expect("body");
    let events = chorus_testkit::sse::parse_all(&text);
    let data: Vec<&str> = events.iter().map(|e| e.data.as_str()).collect();
    assert_eq!(data.last(), Some(&"[DONE]"), "{text}");
    data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str::<Value>(d).expect("a chunk"))
        .filter_map(|c| {
            c["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_owned)
        })
        .filter(|piece| !piece.is_empty())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_model_writing_reports_the_stream_relays_its_pieces_and_a_refusal_is_followed() {
    let answer = "2+4 is 6, times 3 is 18, and 18 - 1 is 17.";
    let model = FakeModel::start(Script {
        plan: Reply::Status(500),
        report: Reply::Text(answer.into()),
    })
    .await;
    let cluster = cluster_with(model.env());
    let url = format!("http://127.0.0.1:{}/v1/chat/completions", cluster.http_port);
    let http = reqwest::Client::new();

    let pieces = streamed(&http, &url, "(2+4)*3 - 1").await;
    assert!(pieces.len() >= 2, "the answer comes in pieces: {pieces:?}");
    assert_eq!(pieces.concat(), answer);

    // A number the tools never produced, midway: what was shown stays, and the report
    // that replaces it (the template) follows a rule.
    model.set(Script {
        plan: Reply::Status(500),
        report: Reply::Text("(2+4)*3 - 1 is 17, or maybe 99.".into()),
    });
    let text = streamed(&http, &url, "(2+4)*3 - 1").await.concat();
    let (shown, replaced) = text.split_once("\n\n---\n\n").expect("a rule");
    assert!(shown.contains("17") && !shown.contains("99"), "{text:?}");
    assert!(replaced.starts_with("(2 + 4) × 3 − 1 = 17\n"), "{text:?}");
    assert!(!replaced.contains("99"), "{text:?}");
}
