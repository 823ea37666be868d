//! Starting a role process against Redis, up to the point where the role itself runs.

use chorus_core::roles::pool::Connector;
use chorus_core::runtime::Shutdown;
use chorus_core::settings::Settings;
use chorus_core::system::Infra;
use chorus_core::topology::Role;

use crate::connector::{self, NotConfigured};
use crate::metrics::{self, BindError};

/// A role connected and ready to run.
pub struct Started {
    /// The bus (traced: every message published gets its `publish` span) and the store.
    pub infra: Infra,
    /// For a pool agent, the way to its MCP server.
    pub connector: Option<Connector>,
    /// Triggered by Ctrl-C or SIGTERM.
    pub shutdown: Shutdown,
}

/// Why a role could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The pool is not configured.
    #[error(transparent)]
    Pool(#[from] NotConfigured),
    /// `/metrics` could not be served.
    #[error(transparent)]
    Metrics(#[from] BindError),
}

/// Prepares `role`: its MCP connector (a pool), Redis (waiting for it), the stop signal
/// and the metrics beside it; then prints `chorus ROLE ready` on stderr.
pub async fn prepare(role: &Role, settings: &Settings) -> Result<Started, StartError> {
    let connector = match role {
        Role::Pool(p) => Some(connector::for_pool(settings, p)?),
        _ => None,
    };
    let (_, mut infra) = crate::redis::connect_patiently(settings).await;
    let sampled = infra.bus.clone(); // the Redis bus itself, for stream stats
    // Traces on: every message published gets its `publish` span and traceparent.
    infra.bus = chorus_telemetry::traces::bus::traced(infra.bus);
    let (trigger, shutdown) = Shutdown::new();
    tokio::spawn(async move {
        chorus_core::runtime::stop_signal().await;
        trigger.trigger();
    });
    metrics::spawn(role, sampled, settings, shutdown.clone()).await?;
    eprintln!("chorus {} ready", role.group());
    Ok(Started {
        infra,
        connector,
        shutdown,
    })
}
