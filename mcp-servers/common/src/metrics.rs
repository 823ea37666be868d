//! Metrics of a tool server: every `tools/call` counted by tool and outcome and timed
//! (`chorus_mcp_tool_calls_total`, `chorus_mcp_tool_duration_seconds`), served at
//! `/metrics` on `--metrics-bind` when given ([`serve_if_asked`]). A name the server
//! does not have counts as tool `unknown`, so callers cannot grow the label set.

use std::time::Instant;

use rmcp::model::CallToolResult;

use crate::tool::ToolDef;

/// Counts one call of `name` on `server`, answered with `result`, started at `started`.
pub fn served<F>(
    server: &str,
    registry: &[(ToolDef, F)],
    name: &str,
    result: &CallToolResult,
    started: Instant,
) {
    let known = registry
        .iter()
        .find(|(def, _)| def.name == name)
        .map(|(def, _)| def.name);
    let is_error = result.is_error == Some(true);
    chorus_telemetry::metrics::tools::served(server, known, is_error, started.elapsed());
}

/// Serves `/metrics` on `bind` in the background, when one is given: binds first, so
/// a bad address fails the server's start.
pub async fn serve_if_asked(bind: Option<&str>) -> Result<(), crate::http::ServeError> {
    let Some(bind) = bind.filter(|b| !b.is_empty()) else {
        return Ok(());
    };
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|e| crate::http::ServeError::Metrics(format!("{bind}: {e}")))?;
    tokio::spawn(async move {
        let shutdown = crate::cli::shutdown_signal();
        if let Err(e) = chorus_telemetry::serve::serve_on(listener, shutdown).await {
            tracing::warn!(error = %e, "metrics listener stopped");
        }
    });
    Ok(())
}
