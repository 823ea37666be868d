//! Chorus's telemetry, one place for what operators look at: Prometheus metrics
//! (`metrics`: one registry per process with the `chorus_` families, and `serve`, the
//! listener of roles without an HTTP API) and OpenTelemetry traces (`traces`: W3C trace
//! context carried in the envelope and into MCP calls, spans exported over OTLP when an
//! endpoint is set). Off, traces cost nothing; metrics are atomic counters. This crate
//! knows no agent logic: roles and servers call it.

pub mod metrics;
pub mod serve;
mod settings;
pub mod traces;

pub use settings::TelemetrySettings;
