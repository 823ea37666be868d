//! `chorus agent ROLE`: runs one role against Redis until Ctrl-C or SIGTERM (what
//! deploy/run-local.sh and docker-compose start), with its doors beside the Chief.

use chorus_core::runtime::Shutdown;
use chorus_core::settings::Settings;
use chorus_core::topology::Role;
use clap::Args;

use crate::compose;

/// Arguments of `chorus agent`.
#[derive(Debug, Clone, Args)]
pub struct AgentArgs {
    /// chief, planner, router, synthesizer, verifier, or pool.
    pub role: String,
    /// For `pool`: which pool (math, date, or any configured under `[pools]`).
    #[arg(long)]
    pub pool: Option<String>,
}

/// The service name this role's traces carry: `chorus-chief`, `chorus-pool-math`…
/// (`None` for a role name that does not parse: the command fails on it anyway).
pub fn service_name(args: &AgentArgs) -> Option<String> {
    let role = Role::parse(&args.role, args.pool.as_deref()).ok()?;
    Some(format!("chorus-{}", role.group()))
}

/// Runs the role until asked to stop.
pub async fn run(args: AgentArgs, settings: &Settings) -> anyhow::Result<()> {
    let role = Role::parse(&args.role, args.pool.as_deref())?;
    let connector = match &role {
        Role::Pool(p) => Some(compose::connector_for(settings, p)?),
        _ => None,
    };
    let (_, mut infra) = compose::connect_redis_patiently(settings).await;
    let sampled = infra.bus.clone(); // the Redis bus itself, for stream stats
    // Traces on: every message published gets its `publish` span and traceparent.
    infra.bus = chorus_telemetry::traces::bus::traced(infra.bus);
    let (trigger, shutdown) = Shutdown::new();
    tokio::spawn(async move {
        chorus_core::runtime::stop_signal().await;
        trigger.trigger();
    });
    compose::spawn_metrics(&role, sampled, settings, shutdown.clone()).await?;
    eprintln!("chorus {} ready", role.group());
    compose::run_with_doors(role, infra, settings, connector, shutdown).await?;
    Ok(())
}
