//! The `[telemetry]` settings every Chorus process reads.

use serde::Deserialize;

/// Where telemetry goes (`[telemetry]`; environment `CHORUS__TELEMETRY__…`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetrySettings {
    /// OTLP/HTTP endpoint traces are exported to (e.g. `http://collector:4318`); empty
    /// leaves traces off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
    pub otlp_endpoint: String,
    /// Where a process without an HTTP API (every role but the Chief) serves
    /// `/metrics`, e.g. `0.0.0.0:9464`; empty serves none. The Chief serves `/metrics`
    /// on its HTTP port.
    pub metrics_bind: String,
}
