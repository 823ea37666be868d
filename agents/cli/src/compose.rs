//! The composition root: the one place that knows every concrete part. It connects the
//! Redis transport, runs a role, and puts the HTTP gateway beside the Chief (starting a
//! role process — Redis, a pool's MCP connector, metrics — is `chorus_pool::start`,
//! shared with the `chorus-pool` binary).

use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use chorus_bus_redis::RedisBus;
use chorus_core::door::{Limits, run_publish_ingress};
use chorus_core::roles::pool::Connector;
use chorus_core::runtime::Shutdown;
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use chorus_core::system::{Infra, RoleError, join_all, run_role};
use chorus_core::topology::Role;
use tokio::task::JoinSet;

/// Whether the user pointed Chorus at a Redis (a settings file or the environment).
pub fn redis_configured(config: Option<&Path>) -> bool {
    config.is_some()
        || std::env::var_os("CHORUS__BUS__REDIS_URL").is_some()
        || std::env::var_os("CHORUS__BUS__REDIS_MODE").is_some()
}

/// Connects to the Redis at `bus.redis_url` (or the primary the sentinels name).
pub async fn connect_redis(settings: &Settings) -> anyhow::Result<(Arc<RedisBus>, Infra)> {
    chorus_pool::redis::connect(settings)
        .await
        .with_context(|| format!("connecting to Redis at {}", settings.bus.redis_target()))
}

/// Runs `role` until shutdown; beside a Chief, its doors: the PUBLISH ingress, and the
/// HTTP gateway on `agents.http_bind` (unless it is empty).
pub async fn run_with_doors(
    role: Role,
    infra: Infra,
    settings: &Settings,
    connector: Option<Connector>,
    shutdown: Shutdown,
) -> Result<(), RoleError> {
    let mut tasks = JoinSet::new();
    if role == Role::Chief {
        // Bare `PUBLISH task_available '{"query": …}'` from any client becomes a task.
        let mut stop = shutdown.clone();
        let (bus, bus_settings) = (infra.bus.clone(), settings.bus.clone());
        let state = TaskState::for_settings(infra.store.clone(), settings);
        tasks.spawn(async move {
            let stopped = async move { stop.requested().await };
            let limits = Limits::default();
            run_publish_ingress(bus.as_ref(), Some(&state), &bus_settings, &limits, stopped).await;
            Ok(())
        });
    }
    if role == Role::Chief && !settings.agents.http_bind.is_empty() {
        let api = chorus_gateway::ApiState::new(
            infra.clone(),
            TaskState::for_settings(infra.store.clone(), settings),
            settings,
        );
        let bind = settings.agents.http_bind.clone();
        let mut s = shutdown.clone();
        tasks.spawn(async move {
            chorus_gateway::serve(&bind, api, async move { s.requested().await })
                .await
                .map_err(|e| RoleError::Http(bind, e))
        });
    }
    let settings = settings.clone();
    tasks.spawn(async move { run_role(role, infra, &settings, connector, shutdown).await });
    join_all(tasks).await
}
