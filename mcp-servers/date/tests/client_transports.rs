//! Every date tool, success and failure, through McpClient over stdio (the real
//! binary), Streamable HTTP and the in-process pipe.

mod support;

use chorus_mcp_common::McpClient;
use chorus_mcp_date::DateServer;
use serde_json::json;
use support::*;

const TOOLS: [&str; 16] = [
    "today",
    "now",
    "add_duration",
    "subtract_duration",
    "difference",
    "weekday",
    "days_until",
    "next_date",
    "find_weekday",
    "end_of_month",
    "age",
    "day_of_year",
    "iso_week",
    "time_in",
    "convert_time",
    "time_difference",
];

async fn assert_lists_every_tool(client: &McpClient) {
    for tool in testing::assert_lists(client, &TOOLS).await {
        let properties = &tool.input_schema["properties"];
        assert!(
            properties["now"].is_object() && properties["timezone"].is_object(),
            "{}",
            tool.name
        );
    }
}

/// Every tool listed, every success and every error case, through `client`.
async fn every_case(client: McpClient) {
    assert_lists_every_tool(&client).await;
    assert_success_cases(&client).await;
    assert_error_cases(&client).await;
    assert_place_time_round_trips(&client).await;
}

/// Place-time tools end to end: structured output and a readable error.
async fn assert_place_time_round_trips(client: &McpClient) {
    let cases = [
        (
            "time_in",
            json!({"place": "Tokyo", "now": "2026-11-23T12:00:00Z"}),
            json!({"result": "21:00", "zone": "Asia/Tokyo", "date": "2026-11-23", "offset": "+09:00", "datetime": "2026-11-23T21:00:00+09:00[Asia/Tokyo]"}),
        ),
        (
            "convert_time",
            json!({"time": "23:30", "from": "New York", "to": "Tokyo", "date": "2026-11-23"}),
            json!({"result": "13:30", "date": "2026-11-24", "day_shift": 1, "from_zone": "America/New_York", "to_zone": "Asia/Tokyo"}),
        ),
        (
            "find_weekday",
            json!({"weekday": "monday", "direction": "next", "now": "2026-11-23"}),
            json!({"result": "2026-11-30", "today": "2026-11-23", "weekday": "Monday"}),
        ),
    ];
    for (tool, arguments, expected) in cases {
        let output = call(client, tool, arguments.clone()).await;
        assert!(!output.is_error, "{tool} {arguments}: {}", output.text);
        assert_eq!(output.structured, Some(expected), "{tool} {arguments}");
    }
    let output = call(client, "time_in", json!({"place": "Atlantis"})).await;
    assert!(output.is_error, "{}", output.text);
    assert!(
        output.text.contains("unknown place 'Atlantis'"),
        "{}",
        output.text
    );
}

#[tokio::test]
async fn stdio_http_and_in_process_clients_list_every_tool_and_answer_every_case() {
    let binary = date_binary();
    testing::on_every_transport(binary, DateServer::new, "chorus-mcp-date", every_case).await;
}

#[tokio::test]
async fn without_now_today_uses_the_system_clock() {
    let client = McpClient::in_process(DateServer::new())
        .await
        .expect("in-process");
    let before = jiff::Zoned::now()
        .with_time_zone(jiff::tz::TimeZone::UTC)
        .date();
    let output = call(&client, "today", json!({})).await;
    let after = jiff::Zoned::now()
        .with_time_zone(jiff::tz::TimeZone::UTC)
        .date();
    let answer = output.value.as_str().expect("date string").to_owned();
    assert!(
        answer == before.to_string() || answer == after.to_string(),
        "{answer}"
    );
}
