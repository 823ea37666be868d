//! The composition root: the one place that knows every concrete part. It connects the
//! Redis transport (waiting for it when a role starts first), gives a pool agent its
//! MCP connector, runs a role, and puts the HTTP gateway beside the Chief.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use chorus_bus_redis::RedisBus;
use chorus_core::door::{Limits, run_publish_ingress};
use chorus_core::roles::pool::Connector;
use chorus_core::runtime::Shutdown;
use chorus_core::settings::{PoolSettings, Settings};
use chorus_core::state::TaskState;
use chorus_core::system::{Infra, RoleError, join_all, run_role};
use chorus_core::topology::Role;
use chorus_mcp_common::client::{McpClient, McpError};
use tokio::task::JoinSet;

/// Whether the user pointed Chorus at a Redis (a settings file or the environment).
pub fn redis_configured(config: Option<&Path>) -> bool {
    config.is_some()
        || std::env::var_os("CHORUS__BUS__REDIS_URL").is_some()
        || std::env::var_os("CHORUS__BUS__REDIS_MODE").is_some()
}

/// Connects to the Redis at `bus.redis_url` (or the primary the sentinels name).
pub async fn connect_redis(settings: &Settings) -> anyhow::Result<(Arc<RedisBus>, Infra)> {
    let bus = RedisBus::connect(settings.bus.clone())
        .await
        .with_context(|| format!("connecting to Redis at {}", settings.bus.redis_target()))?;
    let store = Arc::new(bus.store());
    let bus = Arc::new(bus);
    Ok((bus.clone(), Infra { bus, store }))
}

/// Connects to Redis, waiting (with backoff, up to 2 s between tries) while it is
/// unreachable: a role started before Redis, or during a Redis restart, waits for it.
pub async fn connect_redis_patiently(settings: &Settings) -> (Arc<RedisBus>, Infra) {
    let mut pause = Duration::from_millis(100);
    loop {
        match connect_redis(settings).await {
            Ok(connected) => return connected,
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), retry_in = ?pause, "Redis unreachable; waiting");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
}

/// The connector of a configured pool: a stdio child when `mcp_command` is set (it wins),
/// else Streamable HTTP at `mcp_url`.
pub fn connector_for(settings: &Settings, pool: &str) -> anyhow::Result<Connector> {
    let cfg: PoolSettings = settings
        .pools
        .get(pool)
        .with_context(|| format!("pool {pool} is not configured (set pools.{pool}.mcp_url)"))?
        .clone();
    Ok(Arc::new(move || {
        let cfg = cfg.clone();
        Box::pin(async move {
            match (&cfg.mcp_command, &cfg.mcp_url) {
                (Some(command), _) => {
                    let mut words = command.split_whitespace().map(str::to_owned);
                    let program = words.next().unwrap_or_default();
                    let args: Vec<String> = words.collect();
                    McpClient::spawn_stdio(Path::new(&program), &args).await
                }
                (None, Some(url)) => McpClient::connect_http(url).await,
                (None, None) => Err(McpError::Unreachable {
                    endpoint: "(none)".into(),
                    reason: "no MCP server configured".into(),
                }),
            }
        })
    }))
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

/// The metrics beside `role`: a loop sampling the lengths and the role's pending counts
/// of the streams it reads (on `bus`, which must answer `stream_stats`: the Redis bus,
/// not a decorator), and — for every role but a Chief with an HTTP API, which serves
/// `/metrics` on its HTTP port — `/metrics` on `telemetry.metrics_bind` when set. The
/// address is bound here, so a bad one fails the start.
pub async fn spawn_metrics(
    role: &Role,
    bus: Arc<dyn chorus_bus::Bus>,
    settings: &Settings,
    shutdown: Shutdown,
) -> anyhow::Result<()> {
    use chorus_telemetry::metrics::streams;
    let topics = chorus_core::topology::Topology::new(&settings.pool_names()).reads(role);
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
        .with_context(|| format!("telemetry.metrics_bind {bind}"))?;
    let mut stop = shutdown;
    tokio::spawn(async move {
        let stopped = async move { stop.requested().await };
        if let Err(e) = chorus_telemetry::serve::serve_on(listener, stopped).await {
            tracing::warn!(error = %e, "metrics listener stopped");
        }
    });
    Ok(())
}
