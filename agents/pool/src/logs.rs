//! Logs on stderr and, for a role, OpenTelemetry traces.

use chorus_telemetry::TelemetrySettings;
use chorus_telemetry::traces::{TracesError, TracesGuard};

/// Sets up the process's logs (stderr, filtered by `CHORUS_LOG`, else `default_filter`)
/// and, for a role's process (`service`: `chorus-chief`, `chorus-pool-math`…), its traces
/// when an OTLP endpoint is set (docs/tracing.md). Keep the guard until the process ends:
/// dropping it sends the last spans.
pub fn init(
    service: Option<&str>,
    telemetry: &TelemetrySettings,
    default_filter: &str,
) -> Result<TracesGuard, TracesError> {
    use tracing_subscriber::prelude::*;
    let (traces, guard) = match service {
        Some(name) => chorus_telemetry::traces::init(name, telemetry)?,
        None => (None, TracesGuard::default()),
    };
    let logs = tracing_subscriber::EnvFilter::try_from_env("CHORUS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter));
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(logs),
        )
        .with(traces)
        .init();
    Ok(guard)
}
