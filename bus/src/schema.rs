//! JSON Schemas of the wire format, so clients in any language can publish: one per
//! payload type (named for its topic; `pool_task` and `pool_result` cover every
//! `<pool>_task` / `<pool>_result`), the envelope, and the bare request a client with no
//! SDK may send (a request, an answer, a cancellation). `chorus-schemas` writes them to `docs/schemas/`; a test checks the
//! committed files match.

use schemars::{JsonSchema, Schema, schema_for};

use crate::envelope::TraceContext;
use crate::payload::*;

/// The message envelope as it appears on the wire; every topic uses it.
#[allow(dead_code)]
#[derive(JsonSchema)]
#[schemars(title = "Envelope")]
struct Envelope {
    /// Unique message id (UUID v7).
    #[schemars(extend("format" = "uuid"))]
    id: String,
    /// The task this message belongs to (correlation id): 1..=128 of letters, digits,
    /// `-`, `_`, `.`, `:`.
    task_id: String,
    /// The topic (`task_available`, `plan_ready`, `<pool>_task`, …), which fixes the
    /// payload's schema (see `<topic>.json`).
    topic: String,
    /// The sending agent.
    from_agent: String,
    /// The intended receiving role, when there is one.
    to_agent: Option<String>,
    /// Creation time in microseconds since the Unix epoch.
    timestamp_us: u64,
    /// The contract version (currently 1).
    version: u32,
    /// W3C trace context, when tracing is propagated.
    trace: Option<TraceContext>,
    /// The task's deadline in milliseconds since the Unix epoch.
    deadline_ms: Option<u64>,
    /// The payload; its schema is the one named for the topic.
    payload: serde_json::Map<String, serde_json::Value>,
}

/// A bare request: what a client with no SDK may `PUBLISH` or `XADD` on `task_available`.
#[allow(dead_code)]
#[derive(JsonSchema)]
#[schemars(title = "BareRequest")]
struct BareRequest {
    /// The user's request in their own words.
    query: String,
    /// Optional task id chosen by the client (else one is assigned).
    task_id: Option<String>,
    /// Optional context: reference time, time zone, language.
    context: Option<TaskContext>,
}

/// A bare answer: what a client with no SDK may `PUBLISH` or `XADD` on
/// `clarification_answer` to answer a task's question.
#[allow(dead_code)]
#[derive(JsonSchema)]
#[schemars(title = "BareAnswer")]
struct BareAnswer {
    /// The task whose question this answers.
    task_id: String,
    /// The answer (at most 1000 characters): free text, or one of the question's
    /// options by its number, label or value.
    answer: String,
    /// Which question it answers (its `number`); the open one when absent.
    question: Option<u32>,
}

/// A bare cancellation from a client with no SDK (`XADD`/`PUBLISH task_cancel`).
#[allow(dead_code)]
#[derive(JsonSchema)]
#[schemars(title = "BareCancel")]
struct BareCancel {
    /// The task to cancel.
    task_id: String,
    /// Why, in the client's words (at most 500 characters; shown in the report).
    reason: Option<String>,
}

/// Every schema, by file name (without `.json`).
pub fn schemas() -> Vec<(&'static str, Schema)> {
    vec![
        ("envelope", schema_for!(Envelope)),
        ("bare_request", schema_for!(BareRequest)),
        ("bare_answer", schema_for!(BareAnswer)),
        ("bare_cancel", schema_for!(BareCancel)),
        ("task_available", schema_for!(TaskRequest)),
        ("plan_ready", schema_for!(PlanReady)),
        ("pool_task", schema_for!(StepTask)),
        ("pool_result", schema_for!(StepResult)),
        ("tool_request", schema_for!(ToolRequest)),
        ("tool_response", schema_for!(ToolResponse)),
        ("final_report", schema_for!(FinalReport)),
        ("clarification_needed", schema_for!(ClarificationNeeded)),
        ("clarification_answer", schema_for!(ClarificationAnswer)),
        ("task_cancel", schema_for!(TaskCancel)),
        ("renavigate_request", schema_for!(RenavigateRequest)),
        ("verification_done", schema_for!(VerificationDone)),
        ("dead_letter", schema_for!(DeadLetter)),
        ("agent_heartbeat", schema_for!(AgentHeartbeat)),
    ]
}

/// A schema as the committed file's text: pretty JSON with a final newline.
pub fn schema_text(schema: &Schema) -> String {
    let mut text = serde_json::to_string_pretty(schema).unwrap_or_else(|e| format!("{e}"));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_request_schema_requires_a_query() {
        let all = schemas();
        let (_, schema) = all
            .iter()
            .find(|(n, _)| *n == "task_available")
            .expect("task_available");
        let value = schema.as_value();
        let required = value["required"].as_array().expect("required");
        assert!(required.iter().any(|r| r == "query"), "{value}");
    }
}
