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

use chorus_core::settings::Settings;
use clap::{CommandFactory, Parser, Subcommand};

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

fn main() {
    let cli = Cli::try_parse().unwrap_or_else(|e| usage_error(e));
    let outcome = Settings::load(cli.config.as_deref())
        .map_err(anyhow::Error::from)
        .and_then(|settings| {
            let runtime = chorus_pool::runtime::build(&settings.agents)?;
            runtime.block_on(start(cli, settings))
        });
    match outcome {
        Ok(()) => {}
        Err(e) if e.is::<commands::preflight::NotReady>() => {
            // One line, not a chain: what is wrong and how to fix it.
            eprintln!("chorus: {}", view::safe::line(&e.to_string()));
            std::process::exit(commands::ask::exit::NOT_READY);
        }
        Err(e) => {
            // As `main` returning the error would print it, escaped.
            eprintln!("Error: {}", view::safe::text(&format!("{e:?}")));
            std::process::exit(1);
        }
    }
}

/// Prints a command-line error the way clap does and exits with clap's code; when what
/// the user typed holds characters a terminal would act on, the message is printed
/// without colours and with them escaped ([`view::safe`]). (clap's own rendering, styled
/// or stripped of styles, would print them raw or silently drop them.)
fn usage_error(e: clap::Error) -> ! {
    if !e.use_stderr() {
        // --help and --version: Chorus's own text.
        e.exit();
    }
    // The same parse without styles: its "ANSI" text is the message with the user's
    // characters as typed, and no escape sequence of clap's own.
    let plain = Cli::command()
        .styles(clap::builder::Styles::plain())
        .try_get_matches_from(std::env::args_os())
        .err()
        .map(|plain| plain.render().ansi().to_string())
        .unwrap_or_else(|| e.render().to_string());
    match view::safe::text(&plain) {
        std::borrow::Cow::Borrowed(_) => e.exit(),
        std::borrow::Cow::Owned(escaped) => {
            eprint!("{escaped}");
            std::process::exit(e.exit_code());
        }
    }
}

/// Sets up logs and traces, and runs the subcommand.
async fn start(cli: Cli, settings: Settings) -> anyhow::Result<()> {
    // Agents log what they do; the other commands keep the terminal for their output.
    let default_filter = match cli.command {
        Command::Agent(_) => "info",
        _ => "error",
    };
    // A role exports traces when an OTLP endpoint is set (docs/tracing.md); the guard
    // sends the last spans when `main` returns (after SIGTERM, too).
    let service = match &cli.command {
        Command::Agent(args) => commands::agent::service_name(args),
        _ => None,
    };
    let _traces_guard =
        chorus_pool::logs::init(service.as_deref(), &settings.telemetry, default_filter)?;
    let configured = compose::redis_configured(cli.config.as_deref());
    run(cli.command, &settings, configured).await
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
