//! Helpers for the MCP servers' own tests (feature `testing`): a client over a real
//! binary's stdio, an HTTP server in the test's process on a free port, and calls that
//! fail the test on transport errors. Each server's tests name their binary and server.

use std::path::Path;

use rmcp::ServerHandler;
use serde_json::{Map, Value};

use crate::{HttpServerHandle, HttpSettings, McpClient, ToolOutput, spawn_http};

/// A client talking to `binary` over stdio (`--transport stdio`).
pub async fn stdio_client(binary: &Path) -> McpClient {
    McpClient::spawn_stdio(binary, &["--transport".into(), "stdio".into()])
        .await
        .unwrap_or_else(|e| panic!("spawn {} over stdio: {e}", binary.display()))
}

/// An HTTP server of `factory`'s servers on a free loopback port, in this process.
pub async fn http_server<S, F>(factory: F, name: &str) -> HttpServerHandle
where
    S: ServerHandler,
    F: Fn() -> S + Send + Sync + 'static,
{
    spawn_http(factory, name, &HttpSettings::loopback(0))
        .await
        .unwrap_or_else(|e| panic!("bind {name}: {e}"))
}

/// Turns `json!({...})` into an arguments map.
pub fn args(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("arguments must be an object, got {other}"),
    }
}

/// Calls `tool` and returns the output, failing the test on transport errors.
pub async fn call(client: &McpClient, tool: &str, arguments: Value) -> ToolOutput {
    client
        .call(tool, args(arguments))
        .await
        .unwrap_or_else(|e| panic!("{tool} call failed: {e}"))
}
