//! `chorus`: ask Chorus a question, watch or trace its messages, or run one of its
//! roles. This file only parses the command line and hands over: each subcommand is a
//! file of `commands/`, and `compose.rs` wires roles, the HTTP gateway and a transport.

mod commands;
mod compose;
mod view;

/// The one-process system lives in the library (tests use it too); `crate::local`
/// names it for the subcommands.
use chorus_cli::local;

use std::path::PathBuf;

use chorus_agents::settings::Settings;
use clap::{Parser, Subcommand};

/// mimalloc: the agents allocate many small JSON strings and maps per message, and glibc
/// malloc/free was 19–46 % of their CPU (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Chorus: a distributed multi-agent system that answers requests by planning steps,
/// running them on pools of specialist agents over Redis, and writing one report.
#[derive(Parser)]
#[command(name = "chorus", version)]
struct Cli {
    /// A TOML settings file (environment variables CHORUS__SECTION__KEY override it).
    #[arg(long, global = true, env = "CHORUS_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Ask a question and print the report.
    ///
    /// When the task asks back (a missing number, a date that reads two ways), the
    /// question is answered with the next --answer, or asked on the terminal; with
    /// neither, it is printed with the ways to answer the waiting task.
    ///
    /// Exit codes: 0 the report says completed; 1 another status (partial, failed,
    /// deadline_exceeded, unplannable, unanswered) or an error (refused, timed out);
    /// 2 Redis unreachable or nothing would answer; 3 a question left unanswered.
    Ask(commands::ask::AskArgs),
    /// Cancel a running task: its one report, status canceled, is printed.
    ///
    /// Exit codes: 0 canceled; 1 refused (unknown task, finished or canceled already);
    /// 2 Redis unreachable.
    Cancel(commands::cancel::CancelArgs),
    /// Live tail of every topic (time, topic, from → to, task, short payload).
    Watch(commands::watch::WatchArgs),
    /// A task's messages in order across all topics, with per-hop latency.
    Trace(commands::trace::TraceArgs),
    /// Run one role against Redis until Ctrl-C / SIGTERM.
    ///
    /// With `[telemetry] otlp_endpoint` (CHORUS__TELEMETRY__OTLP_ENDPOINT) or
    /// OTEL_EXPORTER_OTLP_ENDPOINT set, the role exports OpenTelemetry traces over
    /// OTLP/HTTP as service `chorus-<role>` (docs/tracing.md); off by default.
    Agent(commands::agent::AgentArgs),
    /// Exit 0 when an HTTP GET of URL answers 200 (a container healthcheck).
    Probe(commands::probe::ProbeArgs),
    /// Print the OpenAPI document of the Chief's HTTP API.
    Openapi,
    /// Print the Redis ACL file: one user per role and pool, client, watcher (docs/security.md).
    Acl(commands::acl::AclArgs),
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // Agents log what they do; the other commands keep the terminal for their output.
    let default_filter = match cli.command {
        Command::Agent(_) => "info",
        _ => "error",
    };
    let settings = Settings::load(cli.config.as_deref())?;
    // A role exports traces when an OTLP endpoint is set (docs/tracing.md); the guard
    // sends the last spans when `main` returns (after SIGTERM, too).
    let (traces, _traces_guard) = match &cli.command {
        Command::Agent(args) => match commands::agent::service_name(args) {
            Some(name) => chorus_telemetry::traces::init(&name, &settings.telemetry)?,
            None => (None, Default::default()),
        },
        _ => (None, Default::default()),
    };
    use tracing_subscriber::prelude::*;
    let logs = tracing_subscriber::EnvFilter::try_from_env("CHORUS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter));
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(logs),
        )
        .with(traces)
        .init();
    let configured = compose::redis_configured(cli.config.as_deref());
    match run(cli.command, &settings, configured).await {
        Err(e) if e.is::<commands::preflight::NotReady>() => {
            // One line, not a chain: what is wrong and how to fix it.
            eprintln!("chorus: {e}");
            std::process::exit(commands::ask::exit::NOT_READY);
        }
        other => other,
    }
}

async fn run(command: Command, settings: &Settings, configured: bool) -> anyhow::Result<()> {
    let settings = settings.clone();
    match command {
        Command::Ask(args) => {
            let code = commands::ask::run(args, &settings, configured).await?;
            std::process::exit(code);
        }
        Command::Cancel(args) => {
            let code = commands::cancel::run(args, &settings).await?;
            std::process::exit(code);
        }
        Command::Agent(args) => commands::agent::run(args, &settings).await,
        Command::Watch(args) => commands::watch::run_command(args, &settings).await,
        Command::Trace(args) => commands::trace::run_command(args, &settings).await,
        Command::Probe(args) => std::process::exit(commands::probe::run(args).await),
        Command::Acl(args) => commands::acl::run(args, &settings),
        Command::Openapi => {
            println!(
                "{}",
                serde_json::to_string_pretty(&chorus_gateway::openapi())?
            );
            Ok(())
        }
    }
}
