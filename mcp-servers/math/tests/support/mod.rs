//! Shared helpers for the math server's integration tests.

#![allow(dead_code)]

use std::path::Path;

pub use chorus_mcp_common::testing::{self, call};
use chorus_mcp_common::{HttpServerHandle, McpClient};
use chorus_mcp_math::MathServer;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The built `chorus-mcp-math` binary.
pub fn math_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_chorus-mcp-math"))
}

/// A client talking to the real binary over stdio.
pub async fn stdio_client() -> McpClient {
    testing::stdio_client(math_binary()).await
}

/// An HTTP server on a free loopback port, serving in this process.
pub async fn http_server() -> HttpServerHandle {
    testing::http_server(MathServer::new, "chorus-mcp-math").await
}

/// Successful calls: (tool, arguments, expected decimal string).
pub fn success_cases() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        ("sum", json!({"a": 2, "b": 4}), "6"),
        ("min", json!({"a": 4, "b": "-2.5"}), "-2.5"),
        ("max", json!({"a": "0.3", "b": 0.25}), "0.3"),
        ("sum", json!({"a": "0.1", "b": "0.2"}), "0.3"),
        ("sum", json!({"a": 0.1, "b": 0.2}), "0.3"),
        ("subtract", json!({"a": 10, "b": "4"}), "6"),
        ("subtract", json!({"a": "-3", "b": 2.5}), "-5.5"),
        (
            "multiply",
            json!({"a": "99999999999", "b": "99999999999"}),
            "9999999999800000000001",
        ),
        ("multiply", json!({"a": "2.50", "b": 4}), "10"),
        ("divide", json!({"a": 10, "b": 4}), "2.5"),
        (
            "divide",
            json!({"a": 1, "b": 3}),
            "0.3333333333333333333333333333",
        ),
        (
            "divide",
            json!({"a": 2, "b": 3}),
            "0.6666666666666666666666666667",
        ),
        ("power", json!({"base": 2, "exponent": 10}), "1024"),
        ("power", json!({"base": "1.5", "exponent": 2}), "2.25"),
        ("power", json!({"base": 2, "exponent": -3}), "0.125"),
        (
            "power",
            json!({"base": 3, "exponent": -1}),
            "0.3333333333333333333333333333",
        ),
        ("power", json!({"base": 0, "exponent": 0}), "1"),
        ("sqrt", json!({"x": 16}), "4"),
        ("sqrt", json!({"x": "2.25"}), "1.5"),
        ("sqrt", json!({"x": 2}), "1.414213562373095048801688724"),
        ("modulo", json!({"a": 10, "b": 3}), "1"),
        ("modulo", json!({"a": -7, "b": 3}), "-1"),
        ("modulo", json!({"a": "5.5", "b": 2}), "1.5"),
        ("abs", json!({"x": "-3.50"}), "3.5"),
        ("round", json!({"x": 2.5}), "3"),
        ("round", json!({"x": "-2.5"}), "-3"),
        ("round", json!({"x": "3.14159", "places": 2}), "3.14"),
        ("round", json!({"x": 1234, "places": -2}), "1200"),
        ("round", json!({"x": "7.2", "mode": "up"}), "8"),
        ("round", json!({"x": "-7.2", "mode": "up"}), "-7"),
        ("round", json!({"x": "12", "mode": "up"}), "12"),
        ("round", json!({"x": "7.8", "mode": "down"}), "7"),
        (
            "round",
            json!({"x": "3.141", "places": 2, "mode": "up"}),
            "3.15",
        ),
        ("round", json!({"x": "2.5", "mode": "nearest"}), "3"),
        ("percent", json!({"percent": 15, "of": 200}), "30"),
        ("percent", json!({"percent": "12.5", "of": "80"}), "10"),
    ]
}

/// Failing calls: (tool, arguments, text the error must contain).
pub fn error_cases() -> Vec<(&'static str, Value, &'static str)> {
    let long = "9".repeat(1001);
    vec![
        ("divide", json!({"a": 1, "b": 0}), "division by zero"),
        ("max", json!({"a": 1, "b": "many"}), "b"),
        ("divide", json!({"a": 1, "b": "0.00"}), "division by zero"),
        (
            "power",
            json!({"base": 0, "exponent": -1}),
            "division by zero",
        ),
        (
            "sqrt",
            json!({"x": -4}),
            "square root of a negative number (-4)",
        ),
        ("modulo", json!({"a": 1, "b": 0}), "modulo by zero"),
        ("sum", json!({"a": long, "b": 1}), "at most 1000 digits"),
        ("sum", json!({"a": "1e5000", "b": 1}), "at most 1000 digits"),
        (
            "power",
            json!({"base": 2, "exponent": 100000}),
            "exponent 100000 is too large",
        ),
        (
            "power",
            json!({"base": "123456789", "exponent": 9000}),
            "result would be too large",
        ),
        (
            "power",
            json!({"base": 2, "exponent": "0.5"}),
            "whole-number exponents only",
        ),
        (
            "sum",
            json!({"a": "abc", "b": 1}),
            "argument 'a' must be a number or a decimal string",
        ),
        (
            "sum",
            json!({"a": [1], "b": 1}),
            "argument 'a' must be a number or a decimal string",
        ),
        (
            "multiply",
            json!({"a": true, "b": 1}),
            "got the boolean true",
        ),
        ("sum", json!({"a": 1}), "missing required argument 'b'"),
        ("sum", json!({}), "missing required argument 'a'"),
        (
            "sum",
            json!({"a": 1, "b": 2, "c": 3}),
            "unknown argument 'c'",
        ),
        (
            "round",
            json!({"x": 1, "places": "two"}),
            "argument 'places' must be an integer",
        ),
        (
            "round",
            json!({"x": 1, "places": 5000}),
            "places must be between",
        ),
        (
            "round",
            json!({"x": 1, "mode": "sideways"}),
            "mode must be \"nearest\", \"up\" or \"down\"",
        ),
        ("no_such_tool", json!({}), "unknown tool 'no_such_tool'"),
    ]
}

/// Asserts every success case returns its exact value as result and text.
pub async fn assert_success_cases(client: &McpClient) {
    for (tool, arguments, expected) in success_cases() {
        let output = call(client, tool, arguments.clone()).await;
        assert!(
            !output.is_error,
            "{tool} {arguments} failed: {}",
            output.text
        );
        assert_eq!(output.value, json!(expected), "{tool} {arguments}");
        assert_eq!(output.text, expected, "{tool} {arguments} text");
        assert_eq!(
            output.structured,
            Some(json!({ "result": expected })),
            "{tool} {arguments}"
        );
    }
}

/// Asserts every error case is a tool error (isError) with a readable message.
pub async fn assert_error_cases(client: &McpClient) {
    for output in testing::assert_tool_errors(client, error_cases()).await {
        assert_eq!(output.structured, None, "{}", output.text);
    }
}

/// Sends a raw HTTP/1.1 request and returns (status code, body).
pub async fn raw_http(addr: std::net::SocketAddr, request: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("write request");
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .expect("read response");
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}
