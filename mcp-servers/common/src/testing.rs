//! Helpers for the MCP servers' own tests (feature `testing`): a client over a real
//! binary's stdio, an HTTP server in the test's process on a free port, and calls that
//! fail the test on transport errors. Each server's tests name their binary and server.

use std::path::Path;

use rmcp::ServerHandler;
use serde_json::{Map, Value};

use crate::{HttpServerHandle, HttpSettings, McpClient, ToolOutput, ToolSpec, spawn_http};

/// A client talking to `binary` over stdio (`--transport stdio`).
pub async fn stdio_client(binary: &Path) -> McpClient {
    McpClient::spawn_stdio(binary, &["--transport".into(), "stdio".into()])
        .await
        .unwrap_or_else(|e| panic!("spawn {} over stdio: {e}", binary.display()))
}

/// An HTTP server of `factory`'s servers on a free loopback port, in this process.
pub async fn http_server<S, F>(factory: F, name: &str) -> HttpServerHandle
where
    S: ServerHandler + crate::http::DirectCall,
    F: Fn() -> S + Send + Sync + 'static,
{
    spawn_http(factory, name, &HttpSettings::loopback(0))
        .await
        .unwrap_or_else(|e| panic!("bind {name}: {e}"))
}

/// Runs `check` with a client over each transport in turn: `binary`'s stdio, HTTP to a
/// server of `factory` (named `name`) in this process, and the in-process pipe.
pub async fn on_every_transport<S, F, C, Fut>(binary: &Path, factory: F, name: &str, check: C)
where
    S: ServerHandler + crate::http::DirectCall,
    F: Fn() -> S + Clone + Send + Sync + 'static,
    C: Fn(McpClient) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    check(stdio_client(binary).await).await;
    let server = http_server(factory.clone(), name).await;
    let over_http = McpClient::connect_http(&server.url)
        .await
        .unwrap_or_else(|e| panic!("connect to {name} over HTTP: {e}"));
    check(over_http).await;
    server.stop().await.expect("stop the HTTP server");
    let in_process = McpClient::in_process(factory())
        .await
        .unwrap_or_else(|e| panic!("{name} in process: {e}"));
    check(in_process).await;
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

/// Checks that `client` lists exactly the tools `names`, each with a description and
/// an object input schema, and returns them for the server's own checks.
pub async fn assert_lists(client: &McpClient, names: &[&str]) -> Vec<ToolSpec> {
    let tools = client.list_tools().await.expect("list tools");
    let listed: std::collections::BTreeSet<_> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(listed, names.iter().copied().collect());
    for tool in &tools {
        assert!(
            tool.description.len() > 20,
            "{} needs a description",
            tool.name
        );
        assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
    }
    tools
}

/// Calls each `(tool, arguments, expected)` and checks it is a tool error whose text
/// contains `expected`; returns the outputs for the server's own checks.
pub async fn assert_tool_errors(
    client: &McpClient,
    cases: Vec<(&'static str, Value, &'static str)>,
) -> Vec<ToolOutput> {
    let mut outputs = Vec::with_capacity(cases.len());
    for (tool, arguments, expected) in cases {
        let output = call(client, tool, arguments.clone()).await;
        assert!(
            output.is_error,
            "{tool} {arguments} should fail, got {}",
            output.text
        );
        assert!(
            output.text.contains(expected),
            "{tool} {arguments}: '{}' lacks '{expected}'",
            output.text
        );
        outputs.push(output);
    }
    outputs
}
