//! The real `chorus-mcp-math` binary over Streamable HTTP: health endpoint,
//! Host allow-list, and a client surviving a server restart.

mod support;

use std::{
    net::SocketAddr,
    process::{Child, Command, Stdio},
    time::Duration,
};

use chorus_mcp_common::testing::args;
use chorus_mcp_common::{HttpSettings, McpClient, spawn_http};
use chorus_mcp_math::MathServer;
use serde_json::json;
use support::*;

/// A binary child process killed on drop.
struct ServerProcess(Child);

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

use chorus_testkit::free_port;

async fn start_binary(port: u16, extra: &[&str]) -> ServerProcess {
    let child = Command::new(math_binary())
        .args(["--transport", "http", "--port", &port.to_string()])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start math binary");
    let process = ServerProcess(child);
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return process;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("math binary did not listen on {addr}");
}

fn get(path: &str, host: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
}

fn initialize(host: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test]
async fn binary_serves_healthz_and_tools_on_the_given_port() {
    let port = free_port();
    let _server = start_binary(port, &[]).await;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let (status, body) = raw_http(addr, &get("/healthz", "127.0.0.1")).await;
    assert_eq!(status, 200);
    let health: serde_json::Value = serde_json::from_str(&body).expect("json body");
    assert_eq!(health, json!({"status": "ok", "server": "chorus-mcp-math"}));

    let client = McpClient::connect_http(&format!("http://127.0.0.1:{port}/mcp"))
        .await
        .expect("connect");
    assert_eq!(
        call(&client, "sum", json!({"a": 2, "b": 4})).await.value,
        json!("6")
    );
    let zero = call(&client, "divide", json!({"a": 1, "b": 0})).await;
    assert!(zero.is_error);
    assert_eq!(zero.text, "division by zero");
}

#[tokio::test]
async fn default_allow_list_rejects_foreign_host_headers() {
    let server = spawn_http(
        MathServer::new,
        "chorus-mcp-math",
        &HttpSettings::loopback(0),
    )
    .await
    .expect("bind");
    let (status, _) = raw_http(server.local_addr, &initialize("math-mcp:7301")).await;
    assert_eq!(status, 403);
    let (status, _) = raw_http(server.local_addr, &initialize("localhost")).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn allowed_hosts_setting_admits_compose_names_and_star_admits_any() {
    let named = HttpSettings {
        allowed_hosts: vec!["math-mcp".into()],
        ..HttpSettings::loopback(0)
    };
    let server = spawn_http(MathServer::new, "chorus-mcp-math", &named)
        .await
        .expect("bind");
    assert_eq!(
        raw_http(server.local_addr, &initialize("math-mcp:7301"))
            .await
            .0,
        200
    );
    assert_eq!(
        raw_http(server.local_addr, &initialize("other-host"))
            .await
            .0,
        403
    );

    let port = free_port();
    let _any = start_binary(port, &["--allowed-hosts", "*"]).await;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    assert_eq!(
        raw_http(addr, &initialize("anything.example:9")).await.0,
        200
    );
}

#[tokio::test]
async fn client_reports_a_retryable_error_while_the_server_is_down_and_recovers_after_restart() {
    let port = free_port();
    let server = start_binary(port, &[]).await;
    let client = McpClient::connect_http(&format!("http://127.0.0.1:{port}/mcp"))
        .await
        .expect("connect")
        .with_call_timeout(Duration::from_secs(5));
    assert_eq!(
        call(&client, "sum", json!({"a": 1, "b": 1})).await.value,
        json!("2")
    );

    drop(server);
    let error = client
        .call("sum", args(json!({"a": 1, "b": 1})))
        .await
        .expect_err("server is down");
    assert!(error.is_retryable(), "{error:?}");

    let _restarted = start_binary(port, &[]).await;
    let mut answer = None;
    for _ in 0..3 {
        if let Ok(output) = client.call("sum", args(json!({"a": 1, "b": 2}))).await {
            answer = Some(output.value);
            break;
        }
    }
    assert_eq!(answer, Some(json!("3")));
}

#[tokio::test]
async fn connecting_to_a_closed_port_is_a_retryable_unreachable_error() {
    let port = free_port();
    let error = McpClient::connect_http(&format!("http://127.0.0.1:{port}/mcp"))
        .await
        .expect_err("nothing listens");
    assert!(error.is_retryable(), "{error:?}");
}

/// Sends `signal` (`-STOP`, `-CONT`) to the server process.
fn signal(server: &ServerProcess, signal: &str) {
    // (After `-STOP`, until every thread has stopped: a server still running for a
    // moment after the signal had answered the call meant to time out.)
    chorus_testkit::signals::send(server.0.id(), signal);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_of_a_server_frozen_past_the_call_timeout_is_answered_once_it_thaws() {
    // What a pool agent does while its server is frozen (SIGSTOP): the call times
    // out, tool lists (heartbeats, probes) time out and are abandoned; once the
    // server thaws, the same client is answered at once.
    let port = free_port();
    let server = start_binary(port, &[]).await;
    let limit = Duration::from_millis(500);
    let client = McpClient::connect_http(&format!("http://127.0.0.1:{port}/mcp"))
        .await
        .expect("connect")
        .with_call_timeout(limit);
    client.list_tools().await.expect("tools before the freeze");

    signal(&server, "-STOP");
    let frozen = client.call("sum", args(json!({"a": 2, "b": 4}))).await;
    assert!(
        matches!(frozen, Err(chorus_mcp_common::McpError::Timeout { .. })),
        "{frozen:?}"
    );
    for _ in 0..2 {
        assert!(client.list_tools().await.is_err(), "frozen server answered");
    }
    signal(&server, "-CONT");

    let thawed = std::time::Instant::now();
    client.list_tools().await.expect("tools after the thaw");
    let answer = call(&client, "sum", json!({"a": 2, "b": 4})).await;
    assert_eq!(answer.value, json!("6"));
    assert!(thawed.elapsed() < 2 * limit, "{:?}", thawed.elapsed());
}
