//! Tokens on, end to end: the Chief's doors ask for a bearer token (`http.tokens_env`),
//! the math MCP server asks for its own (`--token-env`), and the math pool sends it
//! (`pools.math.mcp_token_env`). A task through the HTTP API still runs to its report,
//! while a client without the Chief's token gets 401 and a client of the math server
//! without the MCP token gets 401 too; no answer shows a token.

use std::time::Duration;

use chorus_e2e::{Cluster, ClusterOptions, Proc};
use chorus_testkit::launcher::{self, Output};
use serde_json::{Value, json};

const HTTP_TOKEN: &str = "e2e-http-token-5a1b";
const MCP_TOKEN: &str = "e2e-mcp-token-77c3";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_tokens_on_the_pipeline_works_and_clients_without_them_are_refused() {
    let mut opts = ClusterOptions::default();
    for (k, v) in [
        ("CHORUS__HTTP__TOKENS_ENV", "CHORUS_E2E_HTTP_TOKENS"),
        ("CHORUS_E2E_HTTP_TOKENS", HTTP_TOKEN),
        ("CHORUS__POOLS__MATH__MCP_TOKEN_ENV", "CHORUS_E2E_MCP_TOKEN"),
        ("CHORUS_E2E_MCP_TOKEN", MCP_TOKEN),
    ] {
        opts.env.insert(k.into(), v.into());
    }
    let mut cluster = Cluster::start(opts);

    // The math server again, now asking for the token: the pool's next session sends
    // the token its settings name.
    cluster.kill("math-mcp");
    let mut cmd = launcher::mcp_http(&chorus_e2e::bin("chorus-mcp-math"), cluster.math_port);
    cmd.env("CHORUS_MCP_TOKEN_ENV", "MATH_TOKEN")
        .env("MATH_TOKEN", MCP_TOKEN);
    let proc = Proc::spawn("math-mcp-token", cmd, Output::Inherit).expect("math server");
    cluster.procs.insert("math-mcp-token".into(), proc);
    chorus_e2e::wait_for_port(cluster.math_port, Duration::from_secs(10));

    let http = reqwest::Client::new();
    let mut bodies = Vec::new();

    // The math server refuses a client without its token; its health check is open.
    let mcp = format!("http://127.0.0.1:{}/mcp", cluster.math_port);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "0"}}});
    for auth in [None, Some("Bearer not-the-token".to_owned())] {
        let mut request = http
            .post(&mcp)
            .header("accept", "application/json, text/event-stream")
            .json(&initialize);
        if let Some(a) = &auth {
            request = request.header("authorization", a);
        }
        let response = request.send().await.expect("MCP request");
        assert_eq!(response.status(), 401, "{auth:?}");
        assert_eq!(response.headers()["www-authenticate"], "Bearer");
        bodies.push(response.text().await.unwrap_or_default());
    }
    let response = http
        .post(&mcp)
        .header("accept", "application/json, text/event-stream")
        .bearer_auth(MCP_TOKEN)
        .json(&initialize)
        .send()
        .await
        .expect("MCP request");
    assert_eq!(response.status(), 200);
    let health = http
        .get(format!("http://127.0.0.1:{}/healthz", cluster.math_port))
        .send()
        .await
        .expect("health");
    assert_eq!(health.status(), 200);

    // The Chief's doors: 401 without (or with a wrong) token, /healthz open.
    let url = format!("http://127.0.0.1:{}", cluster.http_port);
    let body = json!({"query": "(2+4)*3 - 1"});
    for token in [None, Some("wrong")] {
        for (path, body) in [
            ("/chat/stream", body.clone()),
            ("/tasks", body.clone()),
            (
                "/v1/chat/completions",
                json!({"model": "chorus", "messages": [{"role": "user", "content": "2 + 3"}]}),
            ),
            (
                "/a2a",
                json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}}),
            ),
        ] {
            let mut request = http.post(format!("{url}{path}")).json(&body);
            if let Some(t) = token {
                request = request.bearer_auth(t);
            }
            let response = request.send().await.expect("request");
            assert_eq!(response.status(), 401, "{path} {token:?}");
            assert_eq!(response.headers()["www-authenticate"], "Bearer");
            bodies.push(response.text().await.unwrap_or_default());
        }
    }
    let health = http
        .get(format!("{url}/healthz"))
        .send()
        .await
        .expect("health");
    assert_ne!(health.status(), 401);

    // With the token, a task runs through the whole pipeline, math steps included.
    let response = http
        .post(format!("{url}/chat/stream"))
        .bearer_auth(HTTP_TOKEN)
        .json(&body)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    let events = chorus_e2e::read_events(response).await;
    let (name, report) = events.last().expect("events");
    assert_eq!(name, "report", "{events:?}");
    assert_eq!(report["status"], "completed", "{report}");
    assert_eq!(report["steps"][2]["outcome"]["value"], "17", "{report}");

    let response = http
        .post(format!("{url}/v1/chat/completions"))
        .bearer_auth(HTTP_TOKEN)
        .json(
            &json!({"model": "chorus", "messages": [{"role": "user", "content": "what is 2 + 3"}]}),
        )
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    let completion: Value = response.json().await.expect("JSON");
    let content = completion["choices"][0]["message"]["content"]
        .as_str()
        .unwrap_or_default();
    assert!(content.contains('5'), "{completion}");
    bodies.push(completion.to_string());

    for body in &bodies {
        assert!(
            !body.contains(HTTP_TOKEN) && !body.contains(MCP_TOKEN),
            "{body}"
        );
    }
}
