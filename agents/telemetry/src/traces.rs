//! OpenTelemetry traces: one trace per task across every process.
//!
//! W3C trace context travels in the envelope (`Message::trace`, a `traceparent`) and
//! into MCP calls (`params._meta.traceparent`, and the `traceparent` HTTP header over
//! Streamable HTTP). Spans follow OpenTelemetry's messaging conventions — a PRODUCER
//! span `publish <topic>` per message published ([`bus::traced`]), a CONSUMER span
//! `process <topic>` per delivery ([`spans::process`]) whose parent is that publish span
//! and which links to it — and its GenAI and MCP conventions for tool and model calls.
//!
//! [`init`] installs a tracing-opentelemetry layer exporting over OTLP/HTTP (protobuf)
//! only when `[telemetry] otlp_endpoint` or `OTEL_EXPORTER_OTLP_ENDPOINT` (or
//! `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set; the standard `OTEL_*` variables
//! (headers, timeout, `OTEL_BSP_*`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_SDK_DISABLED`)
//! are honoured. Off, nothing is installed, the bus is not wrapped and every helper
//! here returns at once on one relaxed atomic load ([`enabled`]).

pub mod bus;
mod context;
pub mod spans;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider};
use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::registry::LookupSpan;

use crate::TelemetrySettings;

pub use context::{current_traceparent, follow, parse_traceparent, traceparent_of};

/// Whether this process exports traces: set once by [`init`], read on the message path.
static ON: AtomicBool = AtomicBool::new(false);

/// How often spans are sent when `OTEL_BSP_SCHEDULE_DELAY` does not say (the SDK's
/// 5 s default would lose more at a hard stop and makes traces slow to show).
const SCHEDULE_DELAY: Duration = Duration::from_millis(500);

/// How long shutting down waits for the last spans to be sent.
const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(3);

/// The OTLP environment variables that turn traces on.
const ENDPOINT_VARS: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
];

/// Whether traces are on in this process (a relaxed load: free when off).
#[inline]
pub fn enabled() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Why traces could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TracesError {
    /// The OTLP exporter refused its configuration (a malformed endpoint, a bad
    /// `OTEL_EXPORTER_OTLP_*` variable).
    #[error("setting up the OTLP trace exporter: {0}")]
    Exporter(#[from] opentelemetry_otlp::ExporterBuildError),
}

/// The boxed layer [`init`] returns for a subscriber `S`.
pub type TracesLayer<S> = Box<dyn Layer<S> + Send + Sync + 'static>;

/// Keeps the exporter alive; sends what is left when dropped (or at [`TracesGuard::flush`]).
#[derive(Debug, Default)]
pub struct TracesGuard {
    provider: Option<SdkTracerProvider>,
}

impl TracesGuard {
    /// Sends every finished span now (blocks until sent or timed out).
    pub fn flush(&self) {
        if let Some(provider) = &self.provider
            && let Err(e) = provider.force_flush()
        {
            eprintln!("chorus: flushing traces failed: {e}");
        }
    }
}

impl Drop for TracesGuard {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take() {
            ON.store(false, Ordering::Relaxed);
            let _ = provider.force_flush();
            let _ = provider.shutdown_with_timeout(SHUTDOWN_TIMEOUT);
        }
    }
}

/// The OTLP/HTTP traces URL `settings` name (`…/v1/traces` added to a base URL), or
/// `None` to let the exporter read the `OTEL_EXPORTER_OTLP_*` variables.
fn settings_endpoint(settings: &TelemetrySettings) -> Option<String> {
    let base = settings.otlp_endpoint.trim();
    if base.is_empty() {
        return None;
    }
    if base.ends_with("/v1/traces") {
        return Some(base.to_owned());
    }
    Some(format!("{}/v1/traces", base.trim_end_matches('/')))
}

/// Whether `settings` or the environment ask for traces (and `OTEL_SDK_DISABLED` or
/// `OTEL_TRACES_EXPORTER=none` do not forbid them).
pub fn wanted(settings: &TelemetrySettings) -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("OTEL_SDK_DISABLED").trim().eq_ignore_ascii_case("true")
        || var("OTEL_TRACES_EXPORTER")
            .trim()
            .eq_ignore_ascii_case("none")
    {
        return false;
    }
    !settings.otlp_endpoint.trim().is_empty()
        || ENDPOINT_VARS.iter().any(|v| !var(v).trim().is_empty())
}

/// Sets up traces for the process `service_name` (`chorus-planner`, `chorus-pool-math`,
/// `chorus-mcp-math`): when [`wanted`], a layer to add to the process's subscriber
/// (spans at INFO and above, the HTTP and OTLP clients' own left out) and a guard that
/// sends what is left when dropped; otherwise no layer, and nothing changes.
pub fn init<S>(
    service_name: &str,
    settings: &TelemetrySettings,
) -> Result<(Option<TracesLayer<S>>, TracesGuard), TracesError>
where
    S: Subscriber + for<'a> LookupSpan<'a> + Send + Sync,
{
    if !wanted(settings) {
        return Ok((None, TracesGuard::default()));
    }
    let mut exporter = opentelemetry_otlp::SpanExporter::builder().with_http();
    if let Some(url) = settings_endpoint(settings) {
        exporter = exporter.with_endpoint(url);
    }
    let exporter = exporter.build()?;
    let mut batch = BatchConfigBuilder::default();
    if std::env::var_os("OTEL_BSP_SCHEDULE_DELAY").is_none() {
        batch = batch.with_scheduled_delay(SCHEDULE_DELAY);
    }
    let processor = BatchSpanProcessor::builder(exporter)
        .with_batch_config(batch.build())
        .build();
    let resource = Resource::builder()
        .with_service_name(service_name.to_owned())
        .build();
    let provider = SdkTracerProvider::builder()
        .with_span_processor(processor)
        .with_resource(resource)
        .build();
    let tracer = provider.tracer("chorus");
    let layer = tracing_opentelemetry::layer()
        .with_tracer(tracer)
        .with_location(false)
        .with_threads(false)
        .with_target(false)
        .with_tracked_inactivity(false)
        .with_filter(exported_targets());
    ON.store(true, Ordering::Relaxed);
    Ok((
        Some(Box::new(layer)),
        TracesGuard {
            provider: Some(provider),
        },
    ))
}

/// Which spans are exported: INFO and above, except the HTTP and OTLP clients' own
/// (exporting those would trace the exporter itself).
fn exported_targets() -> Targets {
    Targets::new()
        .with_default(LevelFilter::INFO)
        .with_target("hyper", LevelFilter::OFF)
        .with_target("hyper_util", LevelFilter::OFF)
        .with_target("h2", LevelFilter::OFF)
        .with_target("reqwest", LevelFilter::OFF)
        .with_target("tower", LevelFilter::OFF)
        .with_target("tower_http", LevelFilter::OFF)
        .with_target("opentelemetry", LevelFilter::OFF)
        .with_target("opentelemetry_sdk", LevelFilter::OFF)
        .with_target("opentelemetry_otlp", LevelFilter::OFF)
        .with_target("opentelemetry_http", LevelFilter::OFF)
        .with_target("rmcp", LevelFilter::OFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_url_gets_the_traces_path_once() {
        let at = |url: &str| {
            settings_endpoint(&TelemetrySettings {
                otlp_endpoint: url.into(),
                ..Default::default()
            })
        };
        assert_eq!(at("").as_deref(), None);
        assert_eq!(
            at("http://c:4318").as_deref(),
            Some("http://c:4318/v1/traces")
        );
        assert_eq!(
            at("http://c:4318/").as_deref(),
            Some("http://c:4318/v1/traces")
        );
        assert_eq!(
            at("http://c:4318/v1/traces").as_deref(),
            Some("http://c:4318/v1/traces")
        );
    }
}
