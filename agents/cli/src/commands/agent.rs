//! `chorus agent ROLE`: runs one role against Redis until Ctrl-C or SIGTERM (what
//! deploy/run-local.sh and docker-compose start), with its doors beside the Chief. A
//! pool agent can also run from its own smaller binary, `chorus-pool` (agents/pool).

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
    let started = chorus_pool::start::prepare(&role, settings).await?;
    compose::run_with_doors(
        role,
        started.infra,
        settings,
        started.connector,
        started.shutdown,
    )
    .await?;
    Ok(())
}
