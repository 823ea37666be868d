//! An MCP server, on its own, continues the caller's trace from either carrier: the
//! `traceparent` HTTP header of a Streamable HTTP request, or the request's
//! `params._meta.traceparent` (SEP-414, the one a stdio call has). The real
//! `chorus-mcp-math` binary exports to an OTLP/HTTP receiver in the test.

#[allow(dead_code)]
#[path = "otlp/receiver.rs"]
mod receiver;

use std::time::Duration;

use chorus_e2e::Proc;
use chorus_testkit::launcher::{self, Output};
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use receiver::{Got, receiver};
use serde_json::{Value, json};

/// One JSON-RPC `tools/call` over Streamable HTTP (the servers answer a lone call
/// without a session), with `traceparent` as a header or in `_meta`; returns its result.
async fn call(url: &str, params: Value, header: Option<&str>, meta: Option<&str>) -> Value {
    let mut params = params;
    if let Some(tp) = meta {
        params["_meta"] = json!({ "traceparent": tp });
    }
    let mut request = reqwest::Client::new()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}));
    if let Some(tp) = header {
        request = request.header("traceparent", tp);
    }
    let answer: Value = request
        .send()
        .await
        .expect("call")
        .json()
        .await
        .expect("json");
    answer["result"].clone()
}

/// `tools/call sum 2 4`, which answers 6.
async fn call_sum(url: &str, header: Option<&str>, meta: Option<&str>) {
    let params = json!({"name": "sum", "arguments": {"a": "2", "b": "4"}});
    let result = call(url, params, header, meta).await;
    assert_eq!(result["structuredContent"]["result"], "6", "{result}");
}

/// The server's one span in `trace` (waiting, bounded, for its batch).
async fn server_span(got: &std::sync::Mutex<receiver::Received>, trace: &str) -> Got {
    let spans = receiver::spans_of(got, trace, |s| !s.is_empty()).await;
    assert_eq!(spans.len(), 1, "{spans:?}");
    spans[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tools_call_span_continues_a_traceparent_header_or_meta() {
    let (endpoint, got) = receiver().await;
    let port = chorus_e2e::free_port();
    let mut cmd = launcher::mcp_http(&chorus_e2e::bin("chorus-mcp-math"), port);
    cmd.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    let _server = Proc::spawn("math-mcp", cmd, Output::Inherit).expect("start the server");
    chorus_e2e::wait_for_port(port, Duration::from_secs(10));
    let url = format!("http://127.0.0.1:{port}/mcp");

    let by_header = ("11111111111111111111111111111111", "1111111111111111");
    let by_meta = ("22222222222222222222222222222222", "2222222222222222");
    let tp = |(t, s): (&str, &str)| format!("00-{t}-{s}-01");
    call_sum(&url, Some(&tp(by_header)), None).await;
    call_sum(&url, None, Some(&tp(by_meta))).await;

    for (trace, parent) in [by_header, by_meta] {
        let span = server_span(&got, trace).await;
        assert_eq!(span.parent, parent, "{span:?}");
        assert_eq!(span.name, "tools/call sum");
        assert_eq!(span.kind, SpanKind::Server as i32);
        assert_eq!(span.service, "chorus-mcp-math");
        let attr = |k: &str| span.attrs.get(k).map(String::as_str);
        assert_eq!(attr("mcp.method.name"), Some("tools/call"));
        assert_eq!(attr("gen_ai.tool.name"), Some("sum"));
        assert_eq!(attr("gen_ai.operation.name"), Some("execute_tool"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_error_marks_the_tools_call_span_failed() {
    let (endpoint, got) = receiver().await;
    let port = chorus_e2e::free_port();
    let mut cmd = launcher::mcp_http(&chorus_e2e::bin("chorus-mcp-math"), port);
    cmd.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    let _server = Proc::spawn("math-mcp", cmd, Output::Inherit).expect("start the server");
    chorus_e2e::wait_for_port(port, Duration::from_secs(10));
    let url = format!("http://127.0.0.1:{port}/mcp");

    let trace = "33333333333333333333333333333333";
    let params = json!({"name": "divide", "arguments": {"a": "1", "b": "0"}});
    let tp = format!("00-{trace}-3333333333333333-01");
    let result = call(&url, params, Some(&tp), None).await;
    assert_eq!(result["isError"], true, "{result}");
    let span = server_span(&got, trace).await;
    assert_eq!(span.name, "tools/call divide");
    assert_eq!(
        span.attrs.get("error.type").map(String::as_str),
        Some("tool_error")
    );
    assert_eq!(span.status, 2, "status ERROR: {span:?}");
}
