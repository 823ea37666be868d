//! The A2A server's JSON-RPC endpoint, in process: every refusal with its code — bad
//! JSON, bad envelopes, unknown methods, bad params, the protocol version, unknown tasks,
//! unsupported operations — each an HTTP 200 JSON-RPC error whose `data` carries a
//! `google.rpc.ErrorInfo` (the agent card: `a2a_card.rs`).

mod support;

use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use support::System;
use support::a2a::{message, post};

/// The error of a raw `POST /a2a` (with `A2A-Version: 1.0`): its id, code and reason.
async fn raw_error(system: &System, body: &str) -> (Value, i64, String) {
    let response = system.post(body).await;
    assert_eq!(response["jsonrpc"], "2.0", "{response}");
    let error = &response["error"];
    let reason = error["data"][0]["reason"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(
        error["data"][0]["@type"],
        "type.googleapis.com/google.rpc.ErrorInfo"
    );
    assert_eq!(error["data"][0]["domain"], "a2a-protocol.org");
    (
        response["id"].clone(),
        error["code"].as_i64().unwrap(),
        reason,
    )
}

#[tokio::test]
async fn a_malformed_call_is_refused_with_the_json_rpc_code_and_never_crashes() {
    let system = System::bare().await;
    let cases: &[(&str, Value, i64, &str)] = &[
        ("{not json", Value::Null, -32700, "PARSE_ERROR"),
        ("", Value::Null, -32700, "PARSE_ERROR"),
        ("[1, 2]", Value::Null, -32600, "INVALID_REQUEST"),
        ("\"SendMessage\"", Value::Null, -32600, "INVALID_REQUEST"),
        (
            r#"{"id": 3, "method": "GetTask"}"#,
            json!(3),
            -32600,
            "INVALID_REQUEST",
        ),
        (
            r#"{"jsonrpc": "1.0", "id": "a", "method": "GetTask"}"#,
            json!("a"),
            -32600,
            "INVALID_REQUEST",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": true, "method": "GetTask"}"#,
            Value::Null,
            -32600,
            "INVALID_REQUEST",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1.5, "method": "GetTask"}"#,
            Value::Null,
            -32600,
            "INVALID_REQUEST",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 4, "method": ""}"#,
            json!(4),
            -32600,
            "INVALID_REQUEST",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 5, "method": "Shout"}"#,
            json!(5),
            -32601,
            "METHOD_NOT_FOUND",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 6, "method": "message/send", "params": {}}"#,
            json!(6),
            -32601,
            "METHOD_NOT_FOUND",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": ["t"]}"#,
            json!(7),
            -32602,
            "INVALID_PARAMS",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 8, "method": "GetTask", "params": {}}"#,
            json!(8),
            -32602,
            "INVALID_PARAMS",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 9, "method": "SendMessage", "params": {"message": {"role": "ROLE_USER"}}}"#,
            json!(9),
            -32602,
            "INVALID_PARAMS",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 10, "method": "SendMessage", "params": {"message": {"messageId": "m", "role": "ROLE_KING", "parts": [{"text": "2+4"}]}}}"#,
            json!(10),
            -32602,
            "INVALID_PARAMS",
        ),
    ];
    for (body, id, code, reason) in cases {
        let got = raw_error(&system, body).await;
        assert_eq!(got, (id.clone(), *code, (*reason).to_owned()), "for {body}");
    }
    let huge = format!(
        r#"{{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {{"id": "{}"}}}}"#,
        "x".repeat(70_000)
    );
    assert_eq!(raw_error(&system, &huge).await.1, -32600);
}

#[tokio::test]
async fn the_caller_must_speak_a2a_1_x() {
    let system = System::bare().await;
    let body = r#"{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "nope"}}"#;
    for version in [None, Some(""), Some("0.3"), Some("2.0"), Some("one")] {
        let (status, _, bytes) = system.send(post(body, version)).await;
        assert_eq!(status, 200);
        let response: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(response["error"]["code"], -32009, "{version:?}: {response}");
        assert_eq!(
            response["error"]["data"][0]["reason"],
            "VERSION_NOT_SUPPORTED"
        );
        assert_eq!(
            response["error"]["data"][0]["metadata"]["supportedVersions"],
            "1.0"
        );
    }
    for version in ["1.0", "1", "1.0.2"] {
        let (_, _, bytes) = system.send(post(body, Some(version))).await;
        let response: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(response["error"]["code"], -32001, "{version}: {response}");
    }
    let request = Request::builder()
        .method("POST")
        .uri("/a2a?A2A-Version=1.0")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let (_, _, bytes) = system.send(request).await;
    let response: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        response["error"]["code"], -32001,
        "the query parameter: {response}"
    );
}

#[tokio::test]
async fn unknown_tasks_and_unsupported_operations_have_their_a2a_codes() {
    let system = System::bare().await;
    for method in ["GetTask", "CancelTask", "SubscribeToTask"] {
        let error = system.error(method, json!({"id": "no-such-task"})).await;
        assert_eq!(error["code"], -32001, "{method}: {error}");
        assert_eq!(error["data"][0]["reason"], "TASK_NOT_FOUND");
        assert_eq!(error["data"][0]["metadata"]["taskId"], "no-such-task");
    }
    let error = system
        .error("GetTask", json!({"id": "bad id with spaces"}))
        .await;
    assert_eq!(error["code"], -32001);
    let reply = |to: &str| json!({"message": {"messageId": "m", "role": "ROLE_USER", "taskId": to, "parts": [{"text": "4"}]}});
    assert_eq!(
        system.error("SendMessage", reply("no-such-task")).await["code"],
        -32001
    );

    assert_eq!(system.error("ListTasks", json!({})).await["code"], -32004);
    assert_eq!(
        system.error("GetExtendedAgentCard", json!({})).await["code"],
        -32004
    );
    for method in [
        "CreateTaskPushNotificationConfig",
        "GetTaskPushNotificationConfig",
        "ListTaskPushNotificationConfigs",
        "DeleteTaskPushNotificationConfig",
    ] {
        let error = system
            .error(method, json!({"taskId": "t", "id": "c"}))
            .await;
        assert_eq!(error["code"], -32003, "{method}");
        assert_eq!(
            error["data"][0]["reason"],
            "PUSH_NOTIFICATION_NOT_SUPPORTED"
        );
    }
    let with_push = json!({"message": message("2+4"), "configuration": {"taskPushNotificationConfig": {"url": "http://127.0.0.1:9/hook"}}});
    assert_eq!(system.error("SendMessage", with_push).await["code"], -32003);
}

#[tokio::test]
async fn a_message_chorus_cannot_read_is_refused_before_any_task_is_opened() {
    let system = System::bare().await;
    let send = |message: Value| json!({"message": message});
    let cases = [
        (
            send(json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"data": {"q": "2+4"}}]})),
            -32005,
        ),
        (
            send(
                json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"url": "http://x/y.png", "mediaType": "image/png"}]}),
            ),
            -32005,
        ),
        (
            send(
                json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "2+4", "mediaType": "application/pdf"}]}),
            ),
            -32005,
        ),
        (
            send(json!({"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "2+4"}]})),
            -32602,
        ),
        (
            send(json!({"messageId": "m", "role": "ROLE_USER", "parts": []})),
            -32602,
        ),
        (
            send(json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "   "}]})),
            -32602,
        ),
        (
            send(
                json!({"messageId": "m", "role": "ROLE_USER", "contextId": "no spaces allowed", "parts": [{"text": "2+4"}]}),
            ),
            -32602,
        ),
        (
            json!({"message": message("2+4"), "metadata": {"context": {"timezone": "Mars/Olympus"}}}),
            -32602,
        ),
        (
            json!({"message": message("2+4"), "metadata": {"context": {"session_id": "s"}}}),
            -32602,
        ),
        (
            json!({"message": message("2+4"), "configuration": {"acceptedOutputModes": ["image/png"]}}),
            -32005,
        ),
        (
            json!({"message": message("2+4"), "configuration": {"historyLength": -1}}),
            -32602,
        ),
    ];
    for (params, code) in cases {
        let error = system.error("SendMessage", params.clone()).await;
        assert_eq!(error["code"], code, "{params}: {error}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let empty = system
        .error(
            "SendMessage",
            send(json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"text": " "}]})),
        )
        .await;
    assert!(
        empty["message"].as_str().unwrap().contains("empty_query"),
        "{empty}"
    );
}

/// `value` with the node at each path replaced by each of a few values of other types,
/// one variant per (path, value).
fn mutations(value: &Value) -> Vec<Value> {
    let kinds = [
        json!(null),
        json!(1),
        json!("x"),
        json!([]),
        json!({}),
        json!(true),
    ];
    let mut out = Vec::new();
    let mut paths = Vec::new();
    collect_paths(value, &mut Vec::new(), &mut paths);
    for path in paths {
        for kind in &kinds {
            let mut v = value.clone();
            let mut node = &mut v;
            for key in &path {
                node = match key.parse::<usize>() {
                    Ok(i) if node.is_array() => &mut node[i],
                    _ => &mut node[key.as_str()],
                };
            }
            *node = kind.clone();
            out.push(v);
        }
    }
    out
}

fn collect_paths(value: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let children: Vec<(String, &Value)> = match value {
        Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v))
            .collect(),
        _ => Vec::new(),
    };
    for (key, child) in children {
        at.push(key);
        out.push(at.clone());
        collect_paths(child, at, out);
        at.pop();
    }
}

#[tokio::test]
async fn every_truncated_or_retyped_call_is_answered_with_a_json_rpc_response() {
    let system = System::bare().await;
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {
        "message": {"messageId": "m", "role": "ROLE_USER", "contextId": "c-1",
            "parts": [{"text": "2+4", "mediaType": "text/plain"}], "metadata": {"k": "v"}},
        "metadata": {"context": {"timezone": "UTC"}}}});
    let text = call.to_string();
    let mut bodies: Vec<String> = (0..text.len())
        .filter(|&i| text.is_char_boundary(i))
        .map(|i| text[..i].to_owned())
        .collect();
    bodies.extend(mutations(&call).iter().map(|m| {
        // A call that reads as valid must not wait for a task nobody plans.
        let mut m = m.clone();
        if m["params"].is_object() {
            m["params"]["configuration"] = json!({"returnImmediately": true});
        }
        m.to_string()
    }));
    let codes = [-32700, -32600, -32601, -32602, -32001, -32004, -32005];
    let (mut errors, mut results) = (0, 0);
    for body in &bodies {
        let response = system.post(body).await;
        assert_eq!(response["jsonrpc"], "2.0", "{body}: {response}");
        if let Some(code) = response["error"]["code"].as_i64() {
            assert!(codes.contains(&code), "{body}: {response}");
            errors += 1;
        } else {
            let state = &response["result"]["task"]["status"]["state"];
            assert_eq!(state, "TASK_STATE_SUBMITTED", "{body}: {response}");
            results += 1;
        }
    }
    assert_eq!(errors + results, bodies.len());
    assert!(
        results > 0 && errors > text.len() / 2,
        "{results} results, {errors} errors"
    );
}
