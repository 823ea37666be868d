//! Browsers kept out of the doors: a `Host` that is not loopback or configured is 403
//! (DNS rebinding), an `Origin` other than the host itself is 403 (a page on another
//! site), a body that is not JSON is 415 at every door that takes one, each in its
//! door's error shape — while the same requests from the allowed places still work.
//! Also: an A2A notification gets no answer body, and a native task's A2A contextId is
//! its task id.

mod support;

use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use support::System;

/// A request with `headers`, `body` (sent as is) and nothing else.
async fn send(
    system: &System,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body.to_owned())).expect("request");
    let (status, _, bytes) = system.send(request).await;
    let json = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{method} {uri}: not JSON ({e}): {bytes:?}"))
    };
    (status, json)
}

const JSON: (&str, &str) = ("content-type", "application/json");

/// A bare gateway (nobody plans) holding task `t-1`.
async fn with_task(settings: chorus_core::settings::Settings) -> System {
    let system = System::bare_with(settings).await;
    let (status, body) = send(
        &system,
        "POST",
        "/tasks",
        &[JSON],
        r#"{"query": "2+4", "task_id": "t-1"}"#,
    )
    .await;
    assert_eq!(status, 202, "{body}");
    system
}

#[tokio::test]
async fn a_foreign_host_is_refused_and_loopback_and_configured_hosts_are_not() {
    let mut settings = support::defaults();
    settings.http.allowed_hosts = vec!["chief".into()];
    let system = with_task(settings).await;
    let (status, body) = send(
        &system,
        "GET",
        "/tasks/t-1",
        &[("host", "evil.example")],
        "",
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"]["code"], "host_not_allowed");
    for host in [
        "localhost:8080",
        "127.0.0.1:18080",
        "[::1]:8080",
        "chief:8080",
        "chief",
    ] {
        let (status, body) = send(&system, "GET", "/tasks/t-1", &[("host", host)], "").await;
        assert_eq!(status, 200, "{host}: {body}");
        assert_eq!(body["task_id"], "t-1");
    }
    let (status, _) = send(&system, "GET", "/healthz", &[("host", "evil.example")], "").await;
    assert_ne!(status, 403, "the health check is open to probes by address");
    let (status, body) = send(
        &system,
        "POST",
        "/v1/chat/completions",
        &[("host", "evil.example"), JSON],
        "{}",
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(
        body["error"]["type"], "permission_error",
        "OpenAI's shape: {body}"
    );
    let (status, body) = send(
        &system,
        "POST",
        "/a2a",
        &[("host", "evil.example"), JSON],
        "{}",
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(
        body["error"]["data"]["code"], "host_not_allowed",
        "JSON-RPC: {body}"
    );
}

#[tokio::test]
async fn loopback_only_by_default() {
    let system = with_task(support::defaults()).await;
    let (status, _) = send(&system, "GET", "/tasks/t-1", &[("host", "chief:8080")], "").await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn a_foreign_origin_is_refused_and_the_same_origin_is_not() {
    let system = with_task(support::defaults()).await;
    let here = ("host", "localhost:8080");
    let task = r#"{"query": "2+4"}"#;
    let (status, body) = send(
        &system,
        "POST",
        "/tasks",
        &[here, ("origin", "http://evil.example"), JSON],
        task,
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"]["code"], "foreign_origin");
    let (status, _) = send(
        &system,
        "GET",
        "/tasks/t-1",
        &[here, ("origin", "null")],
        "",
    )
    .await;
    assert_eq!(status, 403);
    let (status, body) = send(
        &system,
        "POST",
        "/tasks",
        &[here, ("origin", "http://localhost:8080"), JSON],
        task,
    )
    .await;
    assert_eq!(status, 202, "the web view is same-origin: {body}");
    let (status, _) = send(
        &system,
        "GET",
        "/tasks/t-1",
        &[here, ("origin", "http://localhost:8080")],
        "",
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn every_door_that_takes_a_body_takes_json_only() {
    let system = with_task(support::defaults()).await;
    for kind in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let typed = ("content-type", kind);
        let a2a = json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t-1"}});
        let (status, body) = send(
            &system,
            "POST",
            "/a2a",
            &[typed, ("a2a-version", "1.0")],
            &a2a.to_string(),
        )
        .await;
        assert_eq!(status, 415, "{kind}: {body}");
        assert_eq!(body["error"]["code"], -32600, "{body}");
        assert_eq!(body["error"]["data"]["code"], "not_json");
        for (method, uri) in [
            ("POST", "/tasks"),
            ("POST", "/tasks/t-1/answer"),
            ("POST", "/chat/stream"),
            ("DELETE", "/tasks/t-1"),
        ] {
            let (status, body) = send(
                &system,
                method,
                uri,
                &[typed],
                r#"{"query": "2+4", "answer": "4"}"#,
            )
            .await;
            assert_eq!(status, 415, "{method} {uri} {kind}: {body}");
            assert_eq!(body["error"]["code"], "not_json");
        }
        let chat = json!({"model": "chorus", "messages": [{"role": "user", "content": "2+4"}]});
        let (status, body) = send(
            &system,
            "POST",
            "/v1/chat/completions",
            &[typed],
            &chat.to_string(),
        )
        .await;
        assert_eq!(status, 415, "{body}");
        assert_eq!(body["error"]["type"], "invalid_request_error", "{body}");
    }
    let get = json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t-1"}});
    let (status, body) = send(
        &system,
        "POST",
        "/a2a",
        &[JSON, ("a2a-version", "1.0")],
        &get.to_string(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["id"], "t-1");
    let (status, body) = send(&system, "DELETE", "/tasks/t-1", &[], "").await;
    assert_eq!(
        status, 200,
        "a DELETE without a body needs no content type: {body}"
    );
    assert_eq!(body["report"]["status"], "canceled");
}

#[tokio::test]
async fn an_a2a_notification_gets_no_answer_and_is_still_run() {
    let system = with_task(support::defaults()).await;
    let version = ("a2a-version", "1.0");
    let get = json!({"jsonrpc": "2.0", "method": "GetTask", "params": {"id": "t-1"}});
    let (status, body) = send(&system, "POST", "/a2a", &[JSON, version], &get.to_string()).await;
    assert_eq!((status, body), (204, Value::Null));
    let unknown = json!({"jsonrpc": "2.0", "method": "NoSuchMethod"});
    let (status, body) = send(
        &system,
        "POST",
        "/a2a",
        &[JSON, version],
        &unknown.to_string(),
    )
    .await;
    assert_eq!((status, body), (204, Value::Null));
    let cancel = json!({"jsonrpc": "2.0", "method": "CancelTask", "params": {"id": "t-1"}});
    let (status, body) = send(
        &system,
        "POST",
        "/a2a",
        &[JSON, version],
        &cancel.to_string(),
    )
    .await;
    assert_eq!((status, body), (204, Value::Null));
    let (_, task) = send(&system, "GET", "/tasks/t-1", &[], "").await;
    assert_eq!(
        task["report"]["status"], "canceled",
        "the notification was run: {task}"
    );
    // `"id": null` is a request, answered; a body that is no request is answered too.
    let null_id =
        json!({"jsonrpc": "2.0", "id": null, "method": "GetTask", "params": {"id": "t-1"}});
    let (status, body) = send(
        &system,
        "POST",
        "/a2a",
        &[JSON, version],
        &null_id.to_string(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["result"]["id"], "t-1");
    let (status, body) = send(&system, "POST", "/a2a", &[JSON, version], "{\"jsonrpc\":").await;
    assert_eq!(status, 200);
    assert_eq!(body["error"]["code"], -32700);
}

#[tokio::test]
async fn a_native_task_is_its_own_a2a_context_unless_it_has_a_conversation() {
    let system = with_task(support::defaults()).await;
    let (status, _) = send(
        &system,
        "POST",
        "/tasks",
        &[JSON],
        r#"{"query": "2+4", "task_id": "t-2", "context": {"session_id": "conv-9"}}"#,
    )
    .await;
    assert_eq!(status, 202);
    for (task, context) in [("t-1", "t-1"), ("t-2", "conv-9")] {
        let get = json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": task}});
        let (_, body) = send(
            &system,
            "POST",
            "/a2a",
            &[JSON, ("a2a-version", "1.0")],
            &get.to_string(),
        )
        .await;
        assert_eq!(body["result"]["contextId"], context, "{body}");
    }
}

#[test]
fn allowed_hosts_load_as_a_list_or_as_one_comma_separated_string() {
    use chorus_core::settings::Settings;
    let dir = std::env::temp_dir();
    for (name, text) in [
        (
            "list",
            "[http]\nallowed_hosts = [\"chief\", \"api.example:8443\"]\n",
        ),
        (
            "string",
            "[http]\nallowed_hosts = \"chief, api.example:8443\"\n",
        ),
    ] {
        let path = dir.join(format!("chorus-hosts-{name}-{}.toml", std::process::id()));
        std::fs::write(&path, text).expect("write");
        let loaded = Settings::load(Some(&path));
        std::fs::remove_file(&path).ok();
        let settings = loaded.expect(name);
        assert_eq!(
            settings.http.allowed_hosts,
            ["chief", "api.example:8443"],
            "{name}"
        );
        assert_eq!(settings.http.header_timeout_ms, 10_000);
    }
    let path = dir.join(format!("chorus-hosts-zero-{}.toml", std::process::id()));
    std::fs::write(&path, "[http]\nbody_timeout_ms = 0\n").expect("write");
    let refused = Settings::load(Some(&path));
    std::fs::remove_file(&path).ok();
    let err = refused.expect_err("0 is no limit");
    assert!(err.to_string().contains("http.body_timeout_ms"), "{err}");
}
