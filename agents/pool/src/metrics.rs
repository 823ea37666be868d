//! The metrics beside a role: stream sampling and `/metrics`.

use std::sync::Arc;

use chorus_core::runtime::Shutdown;
use chorus_core::settings::Settings;
use chorus_core::topology::{Role, Topology};

/// `telemetry.metrics_bind` could not be bound.
#[derive(Debug, thiserror::Error)]
#[error("telemetry.metrics_bind {bind}: {source}")]
pub struct BindError {
    /// The address asked for.
    pub bind: String,
    /// Why binding it failed.
    #[source]
    pub source: std::io::Error,
}

/// The metrics beside `role`: a loop sampling the lengths and the role's pending counts
/// of the streams it reads (on `bus`, which must answer `stream_stats`: the Redis bus,
/// not a decorator), and — for every role but a Chief with an HTTP API, which serves
/// `/metrics` on its HTTP port — `/metrics` on `telemetry.metrics_bind` when set. The
/// address is bound here, so a bad one fails the start.
pub async fn spawn(
    role: &Role,
    bus: Arc<dyn chorus_bus::Bus>,
    settings: &Settings,
    shutdown: Shutdown,
) -> Result<(), BindError> {
    use chorus_telemetry::metrics::streams;
    let topics = Topology::new(&settings.pool_names()).reads(role);
    let mut stop = shutdown.clone();
    let sampling = streams::sample(bus, role.group(), topics, streams::SAMPLE_EVERY);
    tokio::spawn(async move {
        tokio::select! {
            _ = sampling => {}
            _ = stop.requested() => {}
        }
    });
    let bind = settings.telemetry.metrics_bind.trim();
    let has_http = *role == Role::Chief && !settings.agents.http_bind.is_empty();
    if bind.is_empty() || has_http {
        return Ok(());
    }
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|source| BindError {
            bind: bind.to_owned(),
            source,
        })?;
    let mut stop = shutdown;
    tokio::spawn(async move {
        let stopped = async move { stop.requested().await };
        if let Err(e) = chorus_telemetry::serve::serve_on(listener, stopped).await {
            tracing::warn!(error = %e, "metrics listener stopped");
        }
    });
    Ok(())
}
