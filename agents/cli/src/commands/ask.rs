//! `chorus ask QUERY`: submits a request and prints its report, on the Redis at
//! `bus.redis_url` or, with `--local` (the default when no Redis is configured), with
//! every role and both MCP servers in this process on the in-memory bus.

use std::time::Duration;

use chorus_agents::client::ask;
use chorus_agents::settings::Settings;
use chorus_bus::{ReportStatus, TaskContext};
use clap::Args;

use super::preflight;
use crate::local::LocalSystem;
use crate::view::progress::Progress;

/// Arguments of `chorus ask`.
#[derive(Debug, Clone, Args)]
pub struct AskArgs {
    /// The request, e.g. "compute (2+4)*3 and tell me the weekday of 2026-12-25".
    pub query: String,
    /// Run every role and both MCP servers in this process on the in-memory bus
    /// (no Redis needed). This is the default when no Redis URL is configured.
    #[arg(long)]
    pub local: bool,
    /// Use the Redis at bus.redis_url even if none was configured explicitly.
    #[arg(long, conflicts_with = "local")]
    pub redis: bool,
    /// Print the final_report payload as JSON.
    #[arg(long)]
    pub json: bool,
    /// Reference "now" for date questions (RFC 3339).
    #[arg(long)]
    pub now: Option<String>,
    /// Time zone for date questions (IANA name).
    #[arg(long)]
    pub timezone: Option<String>,
    /// Seconds to wait for the report.
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
}

/// Asks, prints the report, and returns the exit code: 0 when the task completed.
pub async fn run(
    args: AskArgs,
    settings: &Settings,
    redis_configured: bool,
) -> anyhow::Result<i32> {
    let local = args.local || (!args.redis && !redis_configured);
    let context = TaskContext {
        now: args.now,
        timezone: args.timezone,
        ..TaskContext::default()
    };
    let mut system = None;
    let infra = if local {
        let s = LocalSystem::start(settings.clone()).await;
        let infra = s.infra.clone();
        system = Some(s);
        infra
    } else {
        let infra = preflight::connect(settings).await?;
        preflight::require_live(&infra, settings).await?;
        infra
    };
    let mut progress = Progress::new(!args.json);
    let timeout = Duration::from_secs(args.timeout);
    let (task_id, report) = ask(&*infra.bus, &args.query, context, timeout, |m| {
        progress.event(m)
    })
    .await?;
    progress.finish();
    if let Some(s) = system {
        s.stop().await;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{}", report.text);
        eprintln!("(task {task_id}, {:?})", report.status);
    }
    Ok(match report.status {
        ReportStatus::Completed => 0,
        _ => 1,
    })
}
