//! `McpClient` against an MCP server nobody here wrote: the reference time server
//! `mcp-server-time` from PyPI (the tests' venv, tests/python/requirements.txt), spawned
//! over stdio as a pool agent spawns it. Its answers have shapes Chorus's servers do
//! not use: structured content without a `result` field, the same JSON as text, errors
//! as `isError` texts, an unknown tool as a JSON-RPC error. The zones used keep no
//! daylight saving time, so the hours hold on any date.

use chorus_mcp_common::{McpClient, McpError};
use serde_json::{Map, Value, json};

async fn time_server() -> McpClient {
    let program = chorus_testkit::python::venv_bin("mcp-server-time");
    McpClient::spawn_stdio(&program, &["--local-timezone".into(), "UTC".into()])
        .await
        .unwrap_or_else(|e| panic!("spawn {}: {e}", program.display()))
}

fn args(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        other => panic!("not an object: {other}"),
    }
}

#[tokio::test]
async fn the_time_servers_tools_answers_and_errors_read_as_chorus_reads_its_own() {
    let client = time_server().await;

    let tools = client.list_tools().await.expect("list tools");
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["convert_time", "get_current_time"]);
    let convert = tools
        .iter()
        .find(|t| t.name == "convert_time")
        .expect("convert_time");
    assert_eq!(convert.description, "Convert time between timezones");
    assert_eq!(
        convert.input_schema["required"],
        json!(["source_timezone", "time", "target_timezone"])
    );

    // Structured content of the server's own shape: the whole of it is the answer.
    let out = client
        .call(
            "convert_time",
            args(json!({"source_timezone": "Asia/Tokyo", "time": "09:15", "target_timezone": "Asia/Kolkata"})),
        )
        .await
        .expect("call");
    assert!(!out.is_error, "{}", out.text);
    assert_eq!(out.structured.as_ref(), Some(&out.value));
    let target = out.value["target"]["datetime"].as_str().expect("datetime");
    assert!(target.ends_with("T05:45:00+05:30"), "{}", out.value);
    assert_eq!(out.value["time_difference"], "-3.5h");
    assert_eq!(out.value["source"]["timezone"], "Asia/Tokyo");

    let out = client
        .call(
            "get_current_time",
            args(json!({"timezone": "Asia/Kathmandu"})),
        )
        .await
        .expect("call");
    assert_eq!(out.value["timezone"], "Asia/Kathmandu");
    assert!(
        out.value["datetime"]
            .as_str()
            .is_some_and(|d| d.ends_with("+05:45")),
        "{}",
        out.value
    );

    // Failures the tool anticipates, and arguments its own validation refuses: isError
    // with a text naming what is wrong.
    let out = client
        .call(
            "convert_time",
            args(json!({"source_timezone": "Mars/Olympus_Mons", "time": "09:15", "target_timezone": "UTC"})),
        )
        .await
        .expect("call");
    assert!(out.is_error);
    assert!(out.text.contains("Mars/Olympus_Mons"), "{}", out.text);
    let out = client
        .call(
            "convert_time",
            args(json!({"source_timezone": "UTC", "time": "9.15pm", "target_timezone": "UTC"})),
        )
        .await
        .expect("call");
    assert!(out.is_error);
    assert!(out.text.contains("HH:MM"), "{}", out.text);
    let out = client
        .call("convert_time", args(json!({"time": "09:15"})))
        .await
        .expect("call");
    assert!(out.is_error);
    assert!(out.text.contains("source_timezone"), "{}", out.text);

    // An unknown tool is a JSON-RPC error from this server: a protocol error, not worth
    // retrying, and the session stays usable.
    match client.call("sunrise", Map::new()).await {
        Err(e @ McpError::Protocol { .. }) => {
            assert!(!e.is_retryable());
            assert!(e.to_string().contains("sunrise"), "{e}");
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }
    let out = client
        .call(
            "convert_time",
            args(
                json!({"source_timezone": "UTC", "time": "23:30", "target_timezone": "Asia/Tokyo"}),
            ),
        )
        .await
        .expect("call after an error");
    let target = out.value["target"]["datetime"].as_str().expect("datetime");
    assert!(target.ends_with("T08:30:00+09:00"), "{}", out.value);
}
