//! The spans Chorus exports, named and attributed after OpenTelemetry's semantic
//! conventions: messaging (`publish <topic>` PRODUCER, `process <topic>` CONSUMER),
//! GenAI (`execute_tool <tool>`, `chat <model>` CLIENT), MCP (`tools/call <tool>`
//! SERVER) and HTTP (`<method> <route>` SERVER). Each returns [`Span::none`] when traces
//! are off, so instrumenting with it costs nothing then (the consumer span is `None`:
//! the runtime keeps its own log span).

use chorus_bus::{Delivery, Message, Payload, StepId, TaskId};
use tracing::{Span, field::Empty, info_span};

use super::{enabled, follow};

/// `messaging.system` of every message span: the bus is Redis Streams.
pub const MESSAGING_SYSTEM: &str = "redis";

/// The step a payload is about, when it is about one.
pub fn step_id(payload: &Payload) -> Option<&str> {
    match payload {
        Payload::StepTask(s) => Some(s.step_id.as_str()),
        Payload::StepResult(s) => Some(s.step_id.as_str()),
        Payload::ToolRequest(s) => Some(s.step_id.as_str()),
        Payload::ToolResponse(s) => Some(s.step_id.as_str()),
        _ => None,
    }
}

/// Whether a message is traced at all: heartbeats are not (they belong to no task
/// and would each start a trace).
pub fn traced(msg: &Message) -> bool {
    enabled() && !matches!(msg.payload, Payload::AgentHeartbeat(_))
}

/// The CONSUMER span `process <topic>` of one delivery to `role` (consumer group),
/// child of the producer's `publish` span named in the envelope, and linked to it.
/// Keeps the runtime's log fields (`role`, `task_id`, `topic`, `entry`, `n`). `None`
/// when traces are off or the message is not traced: the runtime keeps its own span.
pub fn process(role: &str, delivery: &Delivery) -> Option<Span> {
    let msg = &delivery.message;
    if !traced(msg) {
        return None;
    }
    let span = info_span!("handle",
        otel.name = %format_args!("process {}", delivery.topic),
        otel.kind = "consumer",
        %role, task_id = %msg.task_id, topic = %delivery.topic,
        entry = %delivery.entry_id, n = delivery.deliveries,
        messaging.system = MESSAGING_SYSTEM,
        messaging.operation.type = "process",
        messaging.operation.name = "process",
        messaging.destination.name = %delivery.topic,
        messaging.message.id = %msg.id,
        messaging.consumer.group.name = %role,
        messaging.message.delivery_count = delivery.deliveries,
        chorus.task_id = %msg.task_id,
        chorus.step_id = step_id(&msg.payload),
        chorus.from_agent = %msg.from_agent,
        error.type = Empty,
        otel.status_code = Empty,
    );
    follow(
        &span,
        msg.trace.as_ref().map(|t| t.traceparent.as_str()),
        true,
    );
    Some(span)
}

/// Marks `span` failed: `error.type` (a short class such as `tool_error`, `timeout`, an
/// HTTP status) and the ERROR status. Does nothing when traces are off.
pub fn failed(span: &Span, error_type: &str) {
    if enabled() && !span.is_none() {
        span.record("error.type", error_type);
        span.record("otel.status_code", "error");
    }
}

/// The PRODUCER span `publish <topic>` of one message, child of the current span.
pub fn publish(msg: &Message) -> Span {
    if !traced(msg) {
        return Span::none();
    }
    info_span!("publish",
        otel.name = %format_args!("publish {}", msg.topic),
        otel.kind = "producer",
        messaging.system = MESSAGING_SYSTEM,
        messaging.operation.type = "send",
        messaging.operation.name = "publish",
        messaging.destination.name = %msg.topic,
        messaging.message.id = %msg.id,
        chorus.task_id = %msg.task_id,
        chorus.step_id = step_id(&msg.payload),
        chorus.from_agent = %msg.from_agent,
    )
}

/// The span `execute_tool <tool>` of a pool agent's tool call (GenAI conventions),
/// the parent of the MCP server's `tools/call` span. Record `error.type` on failure.
pub fn execute_tool(tool: &str, server: &str, task_id: &TaskId, step_id: &StepId) -> Span {
    if !enabled() {
        return Span::none();
    }
    info_span!("execute_tool",
        otel.name = %format_args!("execute_tool {tool}"),
        otel.kind = "internal",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = %tool,
        gen_ai.tool.type = "function",
        gen_ai.tool.call.id = %step_id,
        mcp.server = %server,
        chorus.task_id = %task_id,
        chorus.step_id = %step_id,
        error.type = Empty,
        otel.status_code = Empty,
    )
}

/// The SERVER span `tools/call <tool>` of an MCP server answering a call (MCP
/// conventions), child of the caller's context (`_meta.traceparent` or the HTTP
/// `traceparent` header).
pub fn mcp_tool_call(tool: &str, request_id: &str, traceparent: Option<&str>) -> Span {
    if !enabled() {
        return Span::none();
    }
    let span = info_span!("tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "server",
        mcp.method.name = "tools/call",
        jsonrpc.request.id = %request_id,
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = %tool,
        error.type = Empty,
        otel.status_code = Empty,
    );
    follow(&span, traceparent, false);
    span
}

/// The CLIENT span `chat <model>` of a model call (GenAI conventions); record
/// `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens` and
/// `gen_ai.response.model` when the answer comes, `error.type` when it fails.
pub fn chat(provider: &str, model: &str, server_address: &str) -> Span {
    if !enabled() {
        return Span::none();
    }
    info_span!("chat",
        otel.name = %format_args!("chat {model}"),
        otel.kind = "client",
        gen_ai.operation.name = "chat",
        gen_ai.provider.name = %provider,
        gen_ai.request.model = %model,
        server.address = %server_address,
        gen_ai.response.model = Empty,
        gen_ai.usage.input_tokens = Empty,
        gen_ai.usage.output_tokens = Empty,
        error.type = Empty,
        otel.status_code = Empty,
    )
}

/// The SERVER span `<method> <route>` of an HTTP request, child of its `traceparent`
/// header when it has one (the caller's trace goes on through the task).
pub fn http_server(method: &str, route: &str, traceparent: Option<&str>) -> Span {
    if !enabled() {
        return Span::none();
    }
    let span = info_span!("http",
        otel.name = %format_args!("{method} {route}"),
        otel.kind = "server",
        http.request.method = %method,
        http.route = %route,
        http.response.status_code = Empty,
        error.type = Empty,
        otel.status_code = Empty,
    );
    follow(&span, traceparent, false);
    span
}
