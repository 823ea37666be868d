//! Slow clients on a real socket: a request whose headers never finish is closed
//! unanswered at the header limit, one whose body never finishes gets 408 and is closed
//! at the body limit, a kept-alive connection is closed at the idle limit (and not at
//! the shorter header limit), and a malformed JSON-RPC body gets a JSON-RPC error.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use chorus_mcp_common::args::Args;
use chorus_mcp_common::timeouts::Timeouts;
use chorus_mcp_common::{HttpServerHandle, HttpSettings, ToolDef, ToolReply, spawn_http};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

type Run = fn(&Args) -> Result<ToolReply, String>;

fn registry() -> &'static [(ToolDef, Run)] {
    &[]
}

chorus_mcp_common::tool_server!(
    /// A server with no tools.
    Empty,
    server_name: "empty",
    instructions: "none",
    registry: registry,
);

/// Header 300 ms, body 600 ms, idle 1.2 s.
async fn server() -> HttpServerHandle {
    let settings = HttpSettings {
        timeouts: Timeouts::from_millis(300, 600, 1_200),
        ..HttpSettings::loopback(0)
    };
    spawn_http(Empty::new, "empty", &settings)
        .await
        .expect("bind")
}

/// Sends `bytes`, then reads until the server closes (or 5 s pass): what it sent back
/// and how long it took to close.
async fn until_closed(addr: SocketAddr, bytes: &str) -> (String, Duration) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let start = Instant::now();
    stream.write_all(bytes.as_bytes()).await.expect("write");
    let mut got = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server kept the connection open for 5 s");
    (String::from_utf8_lossy(&got).into_owned(), start.elapsed())
}

#[tokio::test]
async fn unfinished_headers_are_closed_unanswered_at_the_header_limit() {
    let server = server().await;
    let (got, took) = until_closed(
        server.local_addr,
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Le",
    )
    .await;
    assert_eq!(got, "", "no answer to half a request");
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_millis(1_500),
        "{took:?}"
    );
}

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_at_the_header_limit() {
    let server = server().await;
    let (got, took) = until_closed(server.local_addr, "").await;
    assert_eq!(got, "");
    assert!(took < Duration::from_millis(1_100), "{took:?}");
}

#[tokio::test]
async fn an_unfinished_body_gets_408_and_is_closed_at_the_body_limit() {
    let server = server().await;
    let (got, took) = until_closed(
        server.local_addr,
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{",
    )
    .await;
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(
        got.to_ascii_lowercase().contains("connection: close"),
        "{got}"
    );
    assert!(got.contains("-32600"), "a JSON-RPC error: {got}");
    assert!(
        took >= Duration::from_millis(550) && took < Duration::from_millis(2_000),
        "{took:?}"
    );
}

#[tokio::test]
async fn a_kept_alive_connection_outlives_the_header_limit_and_is_closed_at_the_idle_limit() {
    let server = server().await;
    let mut stream = TcpStream::connect(server.local_addr)
        .await
        .expect("connect");
    let health = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";
    let mut buf = [0u8; 4096];
    for _ in 0..2 {
        stream.write_all(health.as_bytes()).await.expect("write");
        let n = stream.read(&mut buf).await.expect("read");
        let text = String::from_utf8_lossy(&buf[..n]);
        assert!(text.starts_with("HTTP/1.1 200"), "{text}");
        // Idle past the header limit: still open.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let idle_from = Instant::now();
    let closed = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await;
    assert!(
        matches!(closed, Ok(Ok(0)) | Ok(Err(_))),
        "closed: {closed:?}"
    );
    let idle = idle_from.elapsed() + Duration::from_millis(500);
    assert!(
        idle >= Duration::from_millis(1_100) && idle < Duration::from_millis(2_500),
        "{idle:?}"
    );
}

/// POSTs `body` to the MCP endpoint: the status and the JSON answer.
async fn post(addr: SocketAddr, body: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_owned())
        .send()
        .await
        .expect("send");
    let status = response.status().as_u16();
    let text = response.text().await.expect("text");
    let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, json)
}

#[tokio::test]
async fn malformed_json_rpc_gets_a_json_rpc_error_not_415() {
    let server = server().await;
    let (status, answer) = post(server.local_addr, "{\"jsonrpc\": \"2.0\", \"id\": 1,").await;
    assert_eq!(status, 400);
    assert_eq!(answer["jsonrpc"], "2.0");
    assert_eq!(answer["id"], Value::Null);
    assert_eq!(answer["error"]["code"], -32700);

    let (status, answer) = post(server.local_addr, "[1, 2]").await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (400, &Value::from(-32600))
    );
    let (status, answer) = post(server.local_addr, r#"{"id": 5, "method": "tools/list"}"#).await;
    assert_eq!((status, &answer["id"]), (400, &Value::from(5)));
    assert_eq!(answer["error"]["code"], -32600);
}
