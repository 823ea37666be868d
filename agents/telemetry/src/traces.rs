//! OpenTelemetry traces (to be built).
