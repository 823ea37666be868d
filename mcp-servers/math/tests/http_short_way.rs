//! The short way for `tools/call` over stateless Streamable HTTP (server and client):
//! the same answers and the same refusals as rmcp's session path, and a client that
//! still calls a server keeping sessions.

mod support;

use chorus_mcp_common::{HttpSettings, McpClient, spawn_http};
use chorus_mcp_math::MathServer;
use serde_json::{Value, json};
use support::*;

fn tool_call(host: &str, version: Option<&str>, extra: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"sum","arguments":{"a":2,"b":4}}}"#;
    let version = version.map_or(String::new(), |v| format!("MCP-Protocol-Version: {v}\r\n"));
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{version}{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn answer(body: &str) -> Value {
    // A JSON body, or the data of an SSE event.
    let json = body
        .lines()
        .find_map(|line| line.strip_prefix("data:"))
        .unwrap_or(body)
        .trim();
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[tokio::test]
async fn a_bare_tool_call_is_answered_and_a_foreign_host_still_refused() {
    let server = spawn_http(
        MathServer::new,
        "chorus-mcp-math",
        &HttpSettings::loopback(0),
    )
    .await
    .expect("bind");
    for version in [None, Some("2025-06-18"), Some("2025-11-25")] {
        let (status, body) =
            raw_http(server.local_addr, &tool_call("127.0.0.1", version, "")).await;
        assert_eq!(status, 200, "{version:?}: {body}");
        let reply = answer(&body);
        assert_eq!(reply["id"], 41);
        assert_eq!(reply["result"]["structuredContent"]["result"], "6");
        assert!(reply["result"].get("resultType").is_none(), "{reply}");
    }
    let (status, _) = raw_http(server.local_addr, &tool_call("evil.example", None, "")).await;
    assert_eq!(status, 403, "the Host allow-list holds for tool calls");
    let (status, _) = raw_http(
        server.local_addr,
        &tool_call("127.0.0.1", Some("1999-01-01"), ""),
    )
    .await;
    assert_eq!(status, 400, "an unknown protocol version is refused");
    let (status, _) = raw_http(
        server.local_addr,
        &tool_call("127.0.0.1", None, "Origin: http://evil.example\r\n"),
    )
    .await;
    assert_eq!(
        status, 200,
        "rmcp judges an Origin (no origin list: allowed)"
    );
}

#[tokio::test]
async fn the_client_calls_a_server_that_keeps_sessions() {
    let settings = HttpSettings {
        stateful_sessions: true,
        ..HttpSettings::loopback(0)
    };
    let server = spawn_http(MathServer::new, "chorus-mcp-math", &settings)
        .await
        .expect("bind");
    let client = McpClient::connect_http(&server.url).await.expect("connect");
    for _ in 0..3 {
        let out = call(&client, "sum", json!({"a": 2, "b": 4})).await;
        assert_eq!(out.value, json!("6"));
    }
    let zero = call(&client, "divide", json!({"a": 1, "b": 0})).await;
    assert!(zero.is_error);
    assert_eq!(zero.text, "division by zero");
}

#[tokio::test]
async fn the_client_gets_answers_and_tool_errors_on_the_short_way() {
    let server = http_server().await;
    let client = McpClient::connect_http(&server.url).await.expect("connect");
    assert_success_cases(&client).await;
    assert_error_cases(&client).await;
}
