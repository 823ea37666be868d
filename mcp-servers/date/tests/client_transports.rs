//! Every date tool, success and failure, through McpClient over stdio (the real
//! binary), Streamable HTTP and the in-process pipe.

mod support;

use chorus_mcp_common::McpClient;
use chorus_mcp_date::DateServer;
use serde_json::json;
use support::*;

const TOOLS: [&str; 8] = [
    "today",
    "now",
    "add_duration",
    "subtract_duration",
    "difference",
    "weekday",
    "days_until",
    "next_date",
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
