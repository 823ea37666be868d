//! The MCP server's side of trace propagation: a `tools/call` opens a SERVER span whose
//! parent is the caller's context — `params._meta.traceparent` (any transport) or, over
//! Streamable HTTP, the `traceparent` header — so the tool's work shows inside the
//! pool agent's `execute_tool` span of the task's trace. Free when traces are off.

use chorus_telemetry::TelemetrySettings;
use chorus_telemetry::traces::TracesGuard;
use rmcp::RoleServer;
use rmcp::model::{CallToolRequestParams, RequestParamsMeta as _};
use rmcp::service::RequestContext;
use tracing::Span;
use tracing_subscriber::prelude::*;

use crate::cli::ServeArgs;

/// Logs to stderr as [`crate::cli::init_tracing`] does and, when `--otlp-endpoint` or
/// `OTEL_EXPORTER_OTLP_ENDPOINT` is set, exports traces under `service_name`
/// (`chorus-mcp-math`); keep the guard until the server stops, it sends the last spans.
pub fn init_tracing(service_name: &str, args: &ServeArgs) -> TracesGuard {
    let settings = TelemetrySettings {
        otlp_endpoint: args.otlp_endpoint.clone().unwrap_or_default(),
        ..Default::default()
    };
    let (traces, guard) = match chorus_telemetry::traces::init(service_name, &settings) {
        Ok(set_up) => set_up,
        Err(e) => {
            eprintln!("{service_name}: traces off: {e}");
            (None, TracesGuard::default())
        }
    };
    let directives = std::env::var("CHORUS_LOG")
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| "info,rmcp=warn".into());
    let logs = tracing_subscriber::EnvFilter::try_new(&directives)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rmcp=warn"));
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(logs),
        )
        .with(traces)
        .try_init();
    guard
}

/// The caller's `traceparent`: the request's `_meta`, else the HTTP header.
fn caller_traceparent(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<String> {
    if let Some(tp) = context
        .meta
        .get_traceparent()
        .or_else(|| request.traceparent())
    {
        return Some(tp.to_owned());
    }
    context
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.headers.get("traceparent"))
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// The SERVER span `tools/call <tool>` of one call (`Span::none()` when traces are off).
pub fn tool_call_span(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Span {
    if !chorus_telemetry::traces::enabled() {
        return Span::none();
    }
    let caller = caller_traceparent(request, context);
    chorus_telemetry::traces::spans::mcp_tool_call(
        &request.name,
        &context.id.to_string(),
        caller.as_deref(),
    )
}

/// The same span for a call answered without an rmcp session (`crate::http::DirectCall`):
/// the caller's context from `_meta`, else the `traceparent` header.
pub fn direct_call_span(
    request: &CallToolRequestParams,
    id: &rmcp::model::RequestId,
    header: Option<&str>,
) -> Span {
    if !chorus_telemetry::traces::enabled() {
        return Span::none();
    }
    let caller = request.traceparent().or(header);
    chorus_telemetry::traces::spans::mcp_tool_call(&request.name, &id.to_string(), caller)
}

/// Marks a `tools/call` span failed: the tool answered with an error (`isError`).
pub fn tool_failed(span: &Span) {
    chorus_telemetry::traces::spans::failed(span, "tool_error");
}
