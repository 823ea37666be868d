//! `chorus`: ask Chorus a question, or run one of its roles.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use chorus_agents::client::ask;
use chorus_agents::local::LocalSystem;
use chorus_agents::roles::pool::Connector;
use chorus_agents::runtime::Shutdown;
use chorus_agents::settings::Settings;
use chorus_agents::system::{Infra, Role, run_role};
use chorus_bus::redis_bus::RedisBus;
use chorus_bus::{ReportStatus, TaskContext};
use chorus_mcp_common::client::McpClient;
use clap::{Parser, Subcommand};

/// mimalloc: the agents allocate many small JSON strings and maps per message, and glibc
/// malloc/free was 19–46 % of their CPU (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Chorus: a distributed multi-agent system that answers requests by planning steps,
/// running them on pools of specialist agents over Redis, and writing one report.
#[derive(Parser)]
#[command(name = "chorus", version, about, long_about = None)]
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
    Ask {
        /// The request, e.g. "compute (2+4)*3 and tell me the weekday of 2026-12-25".
        query: String,
        /// Run every role and both MCP servers in this process on the in-memory bus
        /// (no Redis needed). This is the default when no Redis URL is configured.
        #[arg(long)]
        local: bool,
        /// Use the Redis at bus.redis_url even if none was configured explicitly.
        #[arg(long, conflicts_with = "local")]
        redis: bool,
        /// Print the final_report payload as JSON.
        #[arg(long)]
        json: bool,
        /// Reference "now" for date questions (RFC 3339).
        #[arg(long)]
        now: Option<String>,
        /// Time zone for date questions (IANA name).
        #[arg(long)]
        timezone: Option<String>,
        /// Seconds to wait for the report.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
    },
    /// Live tail of every topic (time, topic, from → to, task, short payload).
    Watch(chorus_agents::cli::watch::WatchArgs),
    /// A task's messages in order across all topics, with per-hop latency.
    Trace(chorus_agents::cli::trace::TraceArgs),
    /// Exit 0 when an HTTP GET of URL answers 200 (a container healthcheck).
    Probe {
        /// e.g. http://127.0.0.1:8080/healthz
        url: String,
    },
    /// Print the OpenAPI document of the Chief's HTTP API.
    Openapi,
    /// Benchmark the distributed pipeline (see docs/performance.md).
    Bench(chorus_agents::bench::BenchArgs),
    /// Run one role against Redis until Ctrl-C / SIGTERM.
    Agent {
        /// chief, planner, router, synthesizer, or pool.
        role: String,
        /// For `pool`: which pool (math, date, or any configured under [pools]).
        #[arg(long)]
        pool: Option<String>,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // Agents log what they do; `ask` keeps the terminal for the answer.
    let default_filter = match cli.command {
        Command::Agent { .. } => "info",
        _ => "error",
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CHORUS_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter)),
        )
        .with_writer(std::io::stderr)
        .init();
    let settings = Settings::load(cli.config.as_deref())?;
    match cli.command {
        Command::Ask {
            query,
            local,
            redis,
            json,
            now,
            timezone,
            timeout,
        } => {
            let use_local = local || (!redis && !redis_configured(&cli.config));
            let context = TaskContext {
                now,
                timezone,
                language: None,
            };
            let code = run_ask(
                &settings,
                use_local,
                &query,
                context,
                Duration::from_secs(timeout),
                json,
            )
            .await?;
            std::process::exit(code);
        }
        Command::Agent { role, pool } => run_agent(&settings, &role, pool).await,
        Command::Bench(args) => chorus_agents::bench::run(args, &settings).await,
        Command::Watch(args) => {
            let (_, infra) = connect_redis(&settings).await?;
            Ok(chorus_agents::cli::watch::run(args, infra, &settings.pool_names()).await?)
        }
        Command::Trace(args) => {
            let (_, infra) = connect_redis(&settings).await?;
            Ok(chorus_agents::cli::trace::run(args, infra, &settings.pool_names()).await?)
        }
        Command::Probe { url } => {
            let ok = chorus_agents::http::probe(&url, Duration::from_secs(3)).await;
            std::process::exit(if ok { 0 } else { 1 });
        }
        Command::Openapi => {
            println!(
                "{}",
                serde_json::to_string_pretty(&chorus_agents::http::openapi())?
            );
            Ok(())
        }
    }
}

/// Whether the user pointed Chorus at a Redis (setting file or environment).
fn redis_configured(config: &Option<PathBuf>) -> bool {
    config.is_some() || std::env::var_os("CHORUS__BUS__REDIS_URL").is_some()
}

async fn run_ask(
    settings: &Settings,
    local: bool,
    query: &str,
    context: TaskContext,
    timeout: Duration,
    json: bool,
) -> anyhow::Result<i32> {
    let mut system = None;
    let infra = if local {
        let s = LocalSystem::start(settings.clone()).await;
        let infra = s.infra.clone();
        system = Some(s);
        infra
    } else {
        connect_redis(settings).await?.1
    };
    let mut progress = chorus_agents::cli::progress::Progress::new(!json);
    let (task_id, report) =
        ask(&*infra.bus, query, context, timeout, |m| progress.event(m)).await?;
    progress.finish();
    if let Some(s) = system {
        s.stop().await;
    }
    if json {
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

async fn connect_redis(settings: &Settings) -> anyhow::Result<(Arc<RedisBus>, Infra)> {
    let bus = RedisBus::connect(settings.bus.clone())
        .await
        .with_context(|| format!("connecting to Redis at {}", settings.bus.redis_url))?;
    let store = Arc::new(bus.store());
    let bus = Arc::new(bus);
    Ok((bus.clone(), Infra { bus, store }))
}

/// Connects to Redis, waiting (with backoff, up to 2 s between tries) while it is
/// unreachable: a role started before Redis, or during a Redis restart, waits for it.
async fn connect_redis_patiently(settings: &Settings) -> (Arc<RedisBus>, Infra) {
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

fn connector_for(settings: &Settings, pool: &str) -> anyhow::Result<Connector> {
    let cfg = settings
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
                    McpClient::spawn_stdio(std::path::Path::new(&program), &args)
                        .await
                        .map_err(|e| e.to_string())
                }
                (None, Some(url)) => McpClient::connect_http(url)
                    .await
                    .map_err(|e| e.to_string()),
                (None, None) => Err("no MCP server configured".to_owned()),
            }
        })
    }))
}

async fn run_agent(settings: &Settings, role: &str, pool: Option<String>) -> anyhow::Result<()> {
    let role = match (role, pool) {
        ("chief", _) => Role::Chief,
        ("planner", _) => Role::Planner,
        ("router", _) => Role::Router,
        ("synthesizer", _) => Role::Synthesizer,
        ("pool", Some(p)) => Role::Pool(p),
        ("pool", None) => anyhow::bail!("`chorus agent pool` needs --pool NAME"),
        (other, _) => {
            anyhow::bail!("unknown role {other:?}: use chief, planner, router, synthesizer or pool")
        }
    };
    let (redis, infra) = connect_redis_patiently(settings).await;
    let connector = match &role {
        Role::Pool(p) => Some(connector_for(settings, p)?),
        _ => None,
    };
    let (trigger, shutdown) = Shutdown::new();
    if role == Role::Chief {
        // Bare `PUBLISH task_available '{"query": …}'` from any client becomes a task.
        let mut stop = shutdown.clone();
        tokio::spawn(async move {
            redis
                .run_publish_ingress(async move { stop.requested().await })
                .await
        });
    }
    tokio::spawn(async move {
        chorus_agents::runtime::stop_signal().await;
        trigger.trigger();
    });
    eprintln!("chorus {} ready", role.group());
    run_role(role, infra, settings, connector, shutdown).await?;
    Ok(())
}
