//! The OpenAI-compatible endpoint against the real system — every role its own process,
//! real Redis, real MCP servers — driven by the OFFICIAL `openai` Python SDK
//! (tests/python/openai_check.py, in the venv of `chorus_testkit::python`): the model
//! list, a completion, a streamed completion that ends with `[DONE]`, a follow-up
//! conversation, a branch diverging from the same beginning, a question answered by the
//! next user message, and errors the SDK raises as its own exceptions. Then, with Redis
//! gone, a request is refused with 503 in OpenAI's shape.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_e2e::{Cluster, ClusterOptions};
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
    let cluster = Cluster::start(ClusterOptions::default());
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
