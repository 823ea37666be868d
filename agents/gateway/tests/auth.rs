//! Bearer tokens and the rate limit on every door: without a token, or with a wrong
//! one, `/tasks`, `/chat/stream`, `/v1/chat/completions` and `/a2a` answer 401 (each in
//! its own error shape, with `WWW-Authenticate: Bearer`); with the right one they work;
//! `/healthz`, the agent card and `/metrics` stay open; over the rate, 429 with
//! `Retry-After` (never on `/healthz` or `/metrics`); and
//! no token ever shows in an answer.

mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use support::System;

const TOKEN: &str = "s3cret-token-for-the-auth-test";
const OTHER: &str = "another-known-token-4711";
const WRONG: &str = "wrong-token-never-configured";

/// A tokens file with a comment, a blank line and two tokens.
fn tokens_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chorus-{name}-{}", std::process::id()));
    std::fs::write(
        &path,
        format!("# the test's tokens\n\n{TOKEN}\n  {OTHER}  \n"),
    )
    .unwrap();
    path
}

fn request(method: &str, uri: &str, token: Option<&str>, body: Option<Value>) -> Request<Body> {
    let mut r = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0");
    if let Some(t) = token {
        r = r.header("authorization", format!("Bearer {t}"));
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    r.body(Body::from(body)).unwrap()
}

/// Every answer's status, headers and body text, kept to check no token leaks.
struct Client {
    system: System,
    bodies: Vec<String>,
}

impl Client {
    async fn send(
        &mut self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, axum::http::HeaderMap, String) {
        let (status, headers, bytes) = self.system.send(request(method, uri, token, body)).await;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        self.bodies.push(text.clone());
        (status, headers, text)
    }

    fn no_token_leaked(&self) {
        for body in &self.bodies {
            for t in [TOKEN, OTHER, WRONG] {
                assert!(!body.contains(t), "a token in an answer: {body}");
            }
        }
    }
}

fn a2a_send(text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
           "params": {"message": support::a2a::message(text)}})
}

fn chat() -> Value {
    support::openai::chat(&[("user", "what is 2 + 3")], false)
}

#[tokio::test]
async fn every_door_but_health_and_the_card_needs_a_known_token() {
    let file = tokens_file("auth-doors");
    let mut settings = support::defaults();
    settings.http.tokens_file = Some(file.display().to_string());
    let mut c = Client {
        system: System::start_with(settings).await,
        bodies: Vec::new(),
    };

    let doors: [(&str, &str, Option<Value>); 5] = [
        ("POST", "/tasks", Some(json!({"query": "what is 2 + 3"}))),
        (
            "POST",
            "/chat/stream",
            Some(json!({"query": "what is 2 + 3"})),
        ),
        ("POST", "/v1/chat/completions", Some(chat())),
        ("GET", "/v1/models", None),
        ("POST", "/a2a", Some(a2a_send("what is 2 + 3"))),
    ];
    for token in [None, Some(WRONG), Some("")] {
        for (method, uri, body) in &doors {
            let (status, headers, text) = c.send(method, uri, token, body.clone()).await;
            assert_eq!(status, 401, "{method} {uri} with {token:?}: {text}");
            assert_eq!(headers["www-authenticate"], "Bearer", "{uri}");
            let json: Value = serde_json::from_str(&text).expect("JSON");
            if uri.starts_with("/v1/") {
                assert_eq!(json["error"]["code"], "invalid_api_key", "{json}");
                assert_eq!(json["error"]["type"], "authentication_error", "{json}");
            } else if *uri == "/a2a" {
                assert_eq!(json["jsonrpc"], "2.0", "{json}");
                assert_eq!(json["error"]["data"]["code"], "unauthorized", "{json}");
            } else {
                assert_eq!(json["error"]["code"], "unauthorized", "{json}");
            }
        }
    }
    // A scheme other than Bearer is no token either.
    let basic = Request::builder()
        .uri("/tasks/x")
        .header("authorization", format!("Basic {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(c.system.send(basic).await.0, 401);

    // Open: the health check and the A2A agent card.
    let (status, _, text) = c.send("GET", "/healthz", None, None).await;
    assert_ne!(status, 401, "{text}");
    let (status, _, text) = c
        .send("GET", "/.well-known/agent-card.json", None, None)
        .await;
    assert_eq!(status, 200, "{text}");
    // Open too: the Prometheus metrics (counts, no task data), in OpenMetrics text.
    let (status, headers, text) = c.send("GET", "/metrics", None, None).await;
    assert_eq!(status, 200, "{text}");
    let content_type = headers["content-type"].to_str().unwrap_or_default();
    assert!(
        content_type.starts_with("application/openmetrics-text"),
        "{content_type}"
    );
    assert!(
        text.starts_with("# HELP chorus_") && text.ends_with("# EOF\n"),
        "{text}"
    );

    // The right tokens (either of the file's) work on every door.
    let (status, _, text) = c
        .send("POST", "/tasks", Some(TOKEN), doors[0].2.clone())
        .await;
    assert_eq!(status, 202, "{text}");
    let task = serde_json::from_str::<Value>(&text).unwrap()["task_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let start = Instant::now();
    loop {
        let (status, _, text) = c
            .send("GET", &format!("/tasks/{task}"), Some(OTHER), None)
            .await;
        assert_eq!(status, 200, "{text}");
        if text.contains("\"report\"") && text.contains('5') {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no report: {text}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (status, headers, text) = c
        .send("POST", "/chat/stream", Some(TOKEN), doors[1].2.clone())
        .await;
    assert_eq!(status, 200, "{text}");
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    assert!(text.contains("event: report"), "{text}");
    let (status, _, text) = c
        .send("POST", "/v1/chat/completions", Some(TOKEN), Some(chat()))
        .await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains('5'), "{text}");
    let (status, _, text) = c.send("GET", "/v1/models", Some(OTHER), None).await;
    assert_eq!(status, 200, "{text}");
    let (status, _, text) = c
        .send("POST", "/a2a", Some(TOKEN), Some(a2a_send("what is 2 + 3")))
        .await;
    assert_eq!(status, 200, "{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert!(json.get("result").is_some(), "{json}");

    c.no_token_leaked();
    std::fs::remove_file(file).ok();
}

#[tokio::test]
async fn over_the_rate_a_token_gets_429_with_retry_after_and_others_are_not_counted() {
    let file = tokens_file("auth-rate");
    let mut settings = support::defaults();
    settings.http.tokens_file = Some(file.display().to_string());
    settings.http.rate_per_sec = 1;
    settings.http.burst = 3;
    let mut c = Client {
        system: System::start_with(settings).await,
        bodies: Vec::new(),
    };
    for _ in 0..3 {
        let (status, _, text) = c.send("GET", "/v1/models", Some(TOKEN), None).await;
        assert_eq!(status, 200, "{text}");
    }
    let (status, headers, text) = c.send("GET", "/v1/models", Some(TOKEN), None).await;
    assert_eq!(status, 429, "{text}");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["error"]["type"], "rate_limit_exceeded", "{json}");
    // The native door's shape, and the A2A door's.
    let (status, _, text) = c.send("GET", "/tasks/nope", Some(TOKEN), None).await;
    assert_eq!(status, 429, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap()["error"]["code"],
        "rate_limited"
    );
    let (status, _, text) = c
        .send("POST", "/a2a", Some(TOKEN), Some(a2a_send("2 + 3")))
        .await;
    assert_eq!(status, 429, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap()["jsonrpc"],
        "2.0"
    );
    // Another token has its own budget; the health check counts against none.
    let (status, _, text) = c.send("GET", "/v1/models", Some(OTHER), None).await;
    assert_eq!(status, 200, "{text}");
    for _ in 0..10 {
        assert_ne!(c.send("GET", "/healthz", None, None).await.0, 429);
        assert_eq!(c.send("GET", "/metrics", None, None).await.0, 200);
    }
    // After Retry-After, the token may go on.
    tokio::time::sleep(Duration::from_secs(retry)).await;
    let (status, _, text) = c.send("GET", "/v1/models", Some(TOKEN), None).await;
    assert_eq!(status, 200, "{text}");
    c.no_token_leaked();
    std::fs::remove_file(file).ok();
}

#[tokio::test]
async fn unreadable_tokens_refuse_everything_but_health() {
    let mut settings = support::defaults();
    settings.http.tokens_file = Some("/nonexistent/chorus-tokens".into());
    let system = System::start_with(settings).await;
    let (status, _, bytes) = system
        .send(request("GET", "/v1/models", Some(TOKEN), None))
        .await;
    assert_eq!(status, 503, "{}", String::from_utf8_lossy(&bytes));
    let (status, _, _) = system.send(request("GET", "/healthz", None, None)).await;
    assert_eq!(status, 200);
    let (status, _, _) = system.send(request("GET", "/metrics", None, None)).await;
    assert_eq!(status, 200);
}
