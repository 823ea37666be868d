//! Shared helpers and cases for the date server's integration tests.

#![allow(dead_code)]

use std::path::Path;

pub use chorus_mcp_common::testing::{self, call};
use chorus_mcp_common::{HttpServerHandle, McpClient};
use chorus_mcp_date::DateServer;
use serde_json::{Value, json};

/// The fixed "now" of the cases: Sunday 2026-11-22 09:30 UTC.
pub const NOW: &str = "2026-11-22T09:30:00Z";

/// The built `chorus-mcp-date` binary.
pub fn date_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_chorus-mcp-date"))
}

/// A client talking to the real binary over stdio.
pub async fn stdio_client() -> McpClient {
    testing::stdio_client(date_binary()).await
}

/// An HTTP server on a free loopback port, serving in this process.
pub async fn http_server() -> HttpServerHandle {
    testing::http_server(DateServer::new, "chorus-mcp-date").await
}

/// Successful calls: (tool, arguments, expected structured output).
pub fn success_cases() -> Vec<(&'static str, Value, Value)> {
    vec![
        (
            "today",
            json!({"now": NOW}),
            json!({"result": "2026-11-22", "weekday": "Sunday", "timezone": "UTC"}),
        ),
        (
            "today",
            json!({"now": "2026-11-22T20:00:00Z", "timezone": "Asia/Ho_Chi_Minh"}),
            json!({"result": "2026-11-23", "weekday": "Monday", "timezone": "Asia/Ho_Chi_Minh"}),
        ),
        (
            "now",
            json!({"now": NOW, "timezone": "Asia/Ho_Chi_Minh"}),
            json!({"result": "2026-11-22T16:30:00+07:00", "date": "2026-11-22", "weekday": "Sunday", "timezone": "Asia/Ho_Chi_Minh"}),
        ),
        (
            "now",
            json!({"now": NOW}),
            json!({"result": "2026-11-22T09:30:00+00:00", "date": "2026-11-22", "weekday": "Sunday", "timezone": "UTC"}),
        ),
        (
            "add_duration",
            json!({"amount": 10, "unit": "days", "now": NOW}),
            json!({"result": "2026-12-02", "weekday": "Wednesday", "from": "2026-11-22"}),
        ),
        (
            "add_duration",
            json!({"amount": 2, "unit": "months", "date": "2026-11-22"}),
            json!({"result": "2027-01-22", "weekday": "Friday", "from": "2026-11-22"}),
        ),
        (
            "add_duration",
            json!({"amount": 1, "unit": "months", "date": "2026-01-31"}),
            json!({"result": "2026-02-28", "weekday": "Saturday", "from": "2026-01-31"}),
        ),
        (
            "add_duration",
            json!({"amount": -1, "unit": "years", "date": "2024-02-29"}),
            json!({"result": "2023-02-28", "weekday": "Tuesday", "from": "2024-02-29"}),
        ),
        (
            "add_duration",
            json!({"amount": 3, "unit": "hours", "now": NOW, "timezone": "Asia/Ho_Chi_Minh"}),
            json!({"result": "2026-11-22T19:30:00+07:00", "weekday": "Sunday", "from": "2026-11-22T16:30:00+07:00"}),
        ),
        (
            "add_duration",
            json!({"amount": 90, "unit": "minutes", "date": "2026-11-22T23:00:00+00:00"}),
            json!({"result": "2026-11-23T00:30:00+00:00", "weekday": "Monday", "from": "2026-11-22T23:00:00+00:00"}),
        ),
        (
            "add_duration",
            json!({"amount": 1, "unit": "weeks", "date": "25/12/2026", "day_first": true}),
            json!({"result": "2027-01-01", "weekday": "Friday", "from": "2026-12-25"}),
        ),
        (
            "subtract_duration",
            json!({"amount": 1, "unit": "weeks", "date": "2026-11-22"}),
            json!({"result": "2026-11-15", "weekday": "Sunday", "from": "2026-11-22"}),
        ),
        (
            "subtract_duration",
            json!({"amount": 30, "unit": "minutes", "now": NOW}),
            json!({"result": "2026-11-22T09:00:00+00:00", "weekday": "Sunday", "from": "2026-11-22T09:30:00+00:00"}),
        ),
        (
            "difference",
            json!({"from": "2026-01-01", "to": "2026-12-25"}),
            json!({"result": 358, "years": 0, "months": 11, "days": 24}),
        ),
        (
            "difference",
            json!({"from": "2026-12-25", "to": "2026-01-01"}),
            json!({"result": -358, "years": 0, "months": -11, "days": -24}),
        ),
        (
            "difference",
            json!({"to": "2026-12-25", "now": NOW}),
            json!({"result": 33, "years": 0, "months": 1, "days": 3}),
        ),
        (
            "weekday",
            json!({"date": "2026-12-25"}),
            json!({"result": "Friday", "date": "2026-12-25"}),
        ),
        (
            "weekday",
            json!({"date": "25/12/2026", "day_first": true}),
            json!({"result": "Friday", "date": "2026-12-25"}),
        ),
        (
            "days_until",
            json!({"date": "2026-12-25", "now": NOW}),
            json!({"result": 33, "date": "2026-12-25", "today": "2026-11-22"}),
        ),
        (
            "days_until",
            json!({"date": "2024-02-29", "now": NOW}),
            json!({"result": -997, "date": "2024-02-29", "today": "2026-11-22"}),
        ),
        (
            "days_until",
            json!({"date": "2026-11-22", "now": "2026-11-22T23:59:00-05:00"}),
            json!({"result": -1, "date": "2026-11-22", "today": "2026-11-23"}),
        ),
        (
            "next_date",
            json!({"month": 12, "day": 25, "now": NOW}),
            json!({"result": "2026-12-25", "today": "2026-11-22", "weekday": "Friday"}),
        ),
        (
            "next_date",
            json!({"month": 1, "day": 1, "now": NOW}),
            json!({"result": "2027-01-01", "today": "2026-11-22", "weekday": "Friday"}),
        ),
        (
            "next_date",
            json!({"month": 2, "day": 29, "now": NOW}),
            json!({"result": "2028-02-29", "today": "2026-11-22", "weekday": "Tuesday"}),
        ),
    ]
}

/// Failing calls: (tool, arguments, text the error must contain).
pub fn error_cases() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "weekday",
            json!({"date": "2026-02-30"}),
            "2026-02-30 is not a valid date",
        ),
        (
            "days_until",
            json!({"date": "2026-02-30", "now": NOW}),
            "February 2026 has 28 days",
        ),
        (
            "add_duration",
            json!({"amount": 1, "unit": "days", "date": "2026-02-30T10:00:00Z"}),
            "2026-02-30 is not a valid date",
        ),
        (
            "today",
            json!({"timezone": "Mars/Olympus"}),
            "unknown time zone 'Mars/Olympus'",
        ),
        (
            "now",
            json!({"timezone": "Not/AZone", "now": NOW}),
            "unknown time zone 'Not/AZone'",
        ),
        (
            "add_duration",
            json!({"amount": "ten", "unit": "days"}),
            "argument 'amount' must be an integer",
        ),
        (
            "add_duration",
            json!({"amount": 1.5, "unit": "days"}),
            "argument 'amount' must be an integer",
        ),
        (
            "add_duration",
            json!({"amount": 1, "unit": "fortnights"}),
            "unit must be one of days, weeks",
        ),
        (
            "add_duration",
            json!({"unit": "days"}),
            "missing required argument 'amount'",
        ),
        (
            "add_duration",
            json!({"amount": 1}),
            "missing required argument 'unit'",
        ),
        (
            "add_duration",
            json!({"amount": 99_999_999, "unit": "years", "date": "2026-01-01"}),
            "outside the supported range",
        ),
        (
            "subtract_duration",
            json!({"amount": 20000, "unit": "years", "date": "2026-01-01"}),
            "outside the supported range",
        ),
        (
            "weekday",
            json!({"date": 20261225}),
            "argument 'date' must be a string",
        ),
        (
            "weekday",
            json!({"date": "25/12/2026"}),
            "is not a date in YYYY-MM-DD format",
        ),
        (
            "weekday",
            json!({"date": "2026-12-25", "day_first": "yes"}),
            "argument 'day_first' must be a boolean",
        ),
        (
            "weekday",
            json!({"date": "2026-12-25", "extra": 1}),
            "unknown argument 'extra'",
        ),
        (
            "difference",
            json!({"from": "2026-01-01"}),
            "missing required argument 'to'",
        ),
        (
            "now",
            json!({"now": "yesterday"}),
            "'yesterday' is not a date",
        ),
        ("days_until", json!({}), "missing required argument 'date'"),
        (
            "next_date",
            json!({"month": 4, "day": 31, "now": NOW}),
            "no year has this day",
        ),
        (
            "next_date",
            json!({"month": 13, "day": 1}),
            "the month must be 1-12",
        ),
        ("no_such_tool", json!({}), "unknown tool 'no_such_tool'"),
    ]
}

/// Asserts every success case's structured output, and that the text is a line.
pub async fn assert_success_cases(client: &McpClient) {
    for (tool, arguments, expected) in success_cases() {
        let output = call(client, tool, arguments.clone()).await;
        assert!(
            !output.is_error,
            "{tool} {arguments} failed: {}",
            output.text
        );
        assert_eq!(
            output.structured.as_ref(),
            Some(&expected),
            "{tool} {arguments}"
        );
        assert_eq!(output.value, expected["result"], "{tool} {arguments}");
        assert!(
            !output.text.is_empty() && !output.text.contains('\n'),
            "{tool}: {}",
            output.text
        );
    }
}

/// Asserts every error case is a tool error with a readable message.
pub async fn assert_error_cases(client: &McpClient) {
    testing::assert_tool_errors(client, error_cases()).await;
}
