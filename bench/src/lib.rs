//! `chorus-bench`: runs tasks through the real distributed pipeline and prints latency,
//! throughput, per-hop latency, Redis commands per task and each process's peak RSS.
//!
//! With `--spawn`, or when no Redis answers at `--redis`, it starts the whole system
//! itself (a `redis-server` on a free port, both MCP servers and every role, each its
//! own process, as `deploy/run-local.sh` does) and stops it afterwards; otherwise it
//! loads the system already running on that Redis. It never changes how roles work:
//! what it measures is what a client of a deployed Chorus sees.

mod cluster;
pub mod floor;
mod hops;
mod load;
mod otlp_sink;
mod procs;
mod procstat;
mod redis_info;
mod report;
mod stats;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use chorus_bus::BusError;
use chorus_bus_redis::RedisBus;
use clap::Args;

use chorus_core::settings::Settings;
use cluster::{Cluster, ClusterOptions, redis_answers};
use procstat::ProcSample;
use redis_info::RedisInfo;
use report::{BenchReport, ProcessFigures};

/// Arguments of `chorus-bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Redis URL of a running Chorus; when nothing answers there (or none is given),
    /// the benchmark starts its own system.
    #[arg(long)]
    pub redis: Option<String>,
    /// Tasks to run (after the warm-up).
    #[arg(long, default_value_t = 1000)]
    pub tasks: usize,
    /// Tasks in flight at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The query every task asks.
    #[arg(long, default_value = "2+4")]
    pub query: String,
    /// Print one JSON object as the last line.
    #[arg(long)]
    pub json: bool,
    /// Start redis-server, both MCP servers and every role as processes, whatever
    /// `--redis` says, and stop them afterwards.
    #[arg(long)]
    pub spawn: bool,
    /// Tasks run before measuring (at the same concurrency).
    #[arg(long, default_value_t = 200)]
    pub warmup: usize,
    /// Math pool agents to start (with `--spawn`).
    #[arg(long, default_value_t = 1)]
    pub math_replicas: usize,
    /// `CHORUS_LOG` of the started processes.
    #[arg(long, default_value = "warn")]
    pub agent_log: String,
    /// Keep the started processes' logs (their directory is printed at the end).
    #[arg(long)]
    pub keep_logs: bool,
    /// Implies `--spawn`: Redis with the ACL file of `chorus acl` (random passwords), every
    /// role on its own user, this client on a user `bench` (the `client` user's rights,
    /// plus reading every topic and `INFO`).
    #[arg(long)]
    pub acl: bool,
    /// Implies `--spawn`: Redis over TLS only (`--port 0 --tls-port …`), with a CA and a
    /// server certificate made by `openssl` in the run's directory; every process
    /// connects with `rediss://` and that CA.
    #[arg(long)]
    pub tls: bool,
    /// Implies `--spawn`: traces on — every role and MCP server exports its spans over
    /// OTLP/HTTP (`OTEL_EXPORTER_OTLP_ENDPOINT`) to a sink in this process that accepts
    /// and counts them (requests and bytes are printed), so the cost of tracing is
    /// measured without a collector's.
    #[arg(long)]
    pub traces: bool,
}

/// The benchmark failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The bus failed.
    #[error("bus: {0}")]
    Bus(#[from] BusError),
    /// The benchmark's own Redis connection failed.
    #[error("redis: {0}")]
    Redis(String),
    /// A process or resource could not be started.
    #[error("could not start {what}: {reason}")]
    Spawn {
        /// What.
        what: String,
        /// Why.
        reason: String,
    },
    /// A binary is not next to `chorus`.
    #[error(
        "{0} not found: build the workspace's binaries (cargo build --release --workspace --bins)"
    )]
    MissingBinary(PathBuf),
    /// Reports stopped coming.
    #[error("no report for {waited:?}: {done} of {total} tasks finished{}", exited_text(.exited))]
    Stalled {
        /// Tasks finished.
        done: usize,
        /// Tasks asked for.
        total: usize,
        /// How long nothing came.
        waited: Duration,
        /// Started processes that exited, with the end of their logs.
        exited: Vec<String>,
    },
    /// The system never completed a task.
    #[error("the system is not ready: a task did not complete within 30 s ({0})")]
    NotReady(String),
    /// Ctrl-C or SIGTERM arrived before the run finished.
    #[error("interrupted")]
    Interrupted,
    /// The arguments make no sense.
    #[error("invalid arguments: {0}")]
    Args(String),
}

fn exited_text(exited: &[String]) -> String {
    if exited.is_empty() {
        String::new()
    } else {
        format!("; {}", exited.join("; "))
    }
}

/// Logs to stderr at the level `CHORUS_LOG` sets (`error` when unset), as both
/// benchmark binaries do.
pub fn init_logging() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CHORUS_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error")),
        )
        .with_writer(std::io::stderr)
        .init();
}

/// Runs the benchmark: starts the system when needed, warms up, measures, prints the
/// report (and its JSON as the last line with `--json`), and stops what it started.
pub async fn run_bench(args: BenchArgs, settings: &Settings) -> Result<(), BenchError> {
    if args.tasks == 0 || args.concurrency == 0 {
        return Err(BenchError::Args(
            "--tasks and --concurrency must be above 0".into(),
        ));
    }
    let url = args.redis.clone();
    let settings_at = |u: &str| {
        let mut s = settings.bus.clone();
        s.redis_url = u.to_owned();
        s
    };
    let spawn_redis = args.spawn
        || args.acl
        || args.tls
        || args.traces
        || match &url {
            None => true,
            Some(u) => !redis_answers(&settings_at(u), Duration::from_millis(500)).await,
        };
    let mut cluster = None;
    let sink = match args.traces {
        true => Some(otlp_sink::OtlpSink::start().await?),
        false => None,
    };
    let client_settings = if spawn_redis {
        let bin_dir = std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(PathBuf::from))
            .ok_or_else(|| BenchError::Args("cannot find the running executable".into()))?;
        let opts = ClusterOptions {
            spawn_redis: true,
            redis_url: String::new(),
            bin_dir,
            log_filter: args.agent_log.clone(),
            keep_logs: args.keep_logs,
            math_replicas: args.math_replicas,
            acl: args.acl,
            tls: args.tls,
            otlp_endpoint: sink.as_ref().map(|s| s.endpoint.clone()),
        };
        let c = Cluster::start(&opts).await?;
        let s = c.client_settings(&settings.bus);
        cluster = Some(c);
        s
    } else {
        settings_at(&url.unwrap_or_default())
    };
    // Ctrl-C or SIGTERM still stops every process this run started.
    let result = tokio::select! {
        r = measure(&args, settings, client_settings, cluster.as_mut()) => r,
        _ = chorus_core::runtime::stop_signal() => Err(BenchError::Interrupted),
    };
    if let Some(c) = cluster {
        c.stop();
    }
    let mut report = result?;
    report.otlp = sink.as_ref().map(otlp_sink::OtlpSink::received);
    print!("{}", report.text());
    if args.json {
        println!("{}", report.json());
    }
    Ok(())
}

/// Warms up, measures, and gathers every figure.
async fn measure(
    args: &BenchArgs,
    settings: &Settings,
    mut bus_settings: chorus_bus::BusSettings,
    mut cluster: Option<&mut Cluster>,
) -> Result<BenchReport, BenchError> {
    // The client reads reports of many tasks per round trip.
    bus_settings.batch_count = bus_settings.batch_count.max(1024);
    let redis_url = bus_settings.redacted_url();
    let mut info = RedisInfo::connect(&bus_settings, Duration::from_secs(2)).await?;
    let bus = RedisBus::connect(bus_settings).await?;
    let mut load = load::Load {
        query: args.query.clone(),
        tasks: 1,
        concurrency: 1,
        deadline: settings.deadline(),
        stall: Duration::from_secs(30),
    };
    // Ready means a task completes: every role is up and the planner sees live pool
    // agents (before their first heartbeat it answers "the pool is down").
    let stalled = |e: BenchError, cluster: &mut Option<&mut Cluster>| match (e, cluster) {
        (
            BenchError::Stalled {
                done,
                total,
                waited,
                ..
            },
            Some(c),
        ) => BenchError::Stalled {
            done,
            total,
            waited,
            exited: c.exited(),
        },
        (e, _) => e,
    };
    let ready_by = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        match load::run(&bus, &load).await {
            Ok(r) if r.not_completed.is_empty() => break,
            Ok(r) if std::time::Instant::now() > ready_by => {
                return Err(BenchError::NotReady(r.first_failure.unwrap_or_default()));
            }
            Ok(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(e) => return Err(stalled(e, &mut cluster)),
        }
    }
    load.stall = Duration::from_secs(10);
    if args.warmup > 0 {
        load.tasks = args.warmup;
        load.concurrency = args.concurrency;
        if let Err(e) = load::run(&bus, &load).await {
            return Err(stalled(e, &mut cluster));
        }
    }
    load.tasks = args.tasks;
    load.concurrency = args.concurrency;
    let procs_before = samples(cluster.as_deref());
    let calls_before = info.command_calls().await?;
    let cpu_before = info.cpu_ms().await?;
    let measured = match load::run(&bus, &load).await {
        Ok(m) => m,
        Err(e) => return Err(stalled(e, &mut cluster)),
    };
    let cpu_after = info.cpu_ms().await?;
    let calls_after = info.command_calls().await?;
    let procs_after = samples(cluster.as_deref());
    let pools = settings.pool_names();
    let per_topic = (args.tasks + args.warmup + 1).saturating_mul(4);
    let hops = hops::measure(&bus, &pools, &measured.received_us, per_topic).await?;
    let mut latencies = measured.latencies_us;
    let latency = stats::Percentiles::of(&mut latencies).ok_or(BenchError::Stalled {
        done: 0,
        total: args.tasks,
        waited: Duration::ZERO,
        exited: Vec::new(),
    })?;
    Ok(BenchReport {
        query: args.query.clone(),
        tasks: args.tasks,
        concurrency: args.concurrency,
        redis_url,
        spawned: cluster.is_some(),
        latency,
        elapsed: measured.elapsed,
        not_completed: measured.not_completed,
        first_failure: measured.first_failure,
        hops,
        commands: redis_info::delta(&calls_before, &calls_after),
        redis_cpu_ms: cpu_after - cpu_before,
        processes: figures(&procs_before, &procs_after),
        otlp: None,
    })
}

/// Samples of the started processes and of this client.
fn samples(cluster: Option<&Cluster>) -> Vec<(String, ProcSample)> {
    let mut out = cluster.map(Cluster::sample).unwrap_or_default();
    if let Some(me) = procstat::own() {
        out.push(("bench client".to_owned(), me));
    }
    out
}

/// Per-process figures from samples before and after the measured run.
fn figures(before: &[(String, ProcSample)], after: &[(String, ProcSample)]) -> Vec<ProcessFigures> {
    let before: HashMap<&str, &ProcSample> = before.iter().map(|(n, s)| (n.as_str(), s)).collect();
    after
        .iter()
        .map(|(name, a)| ProcessFigures {
            name: name.clone(),
            after: *a,
            cpu_ms: a
                .cpu_ms
                .saturating_sub(before.get(name.as_str()).map_or(0, |b| b.cpu_ms)),
        })
        .collect()
}
