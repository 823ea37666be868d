//! `chorus-floor`: the floor of Chorus's design, measured. `2+4`-sized envelopes cross
//! the same processes and hand-overs a real `2+4` task crosses — client → chief and
//! planner (the request) → router and synthesizer (the plan) → the math pool's agent
//! (the step, and its MCP call to a server) → router and synthesizer (the result) →
//! chief and client (the report) — through relays that do no work but receive, ack and
//! send on:
//!
//! - `--kind bus` (floor (a)): relays on the real bus and runtime loop, writing what the
//!   roles write with the same guarantees (consumer groups, lingering acks, once-keys,
//!   the plan's guard, the task state of the deadline watch): [`relay_bus`];
//! - `--kind raw` (floor (b)): relays on the bare `redis` crate, `XREADGROUP`, `XADD`,
//!   `XACK` per hop and nothing else: [`relay_raw`].
//!
//! Both call an MCP server that does no work ([`mcp`]). The figures are
//! `chorus-bench`'s (its report, with the same client, `INFO commandstats`, `INFO cpu`
//! and every process's CPU time), so a floor run and a `chorus-bench --spawn` run read
//! side by side.

mod envelopes;
mod load_raw;
mod mcp;
mod relay_bus;
mod relay_raw;
mod system;

use std::time::{Duration, Instant};

use chorus_bus::BusSettings;
use chorus_bus_redis::RedisBus;
use chorus_core::settings::Settings;
use clap::{Args, Subcommand, ValueEnum};
use redis::aio::MultiplexedConnection;

use super::load::{self, LoadResult};
use super::redis_info::{self, RedisInfo};
use super::report::BenchReport;
use super::{BenchError, figures, hops, stats};
use system::System;

/// Which relays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// Floor (a): the real bus crate and runtime loop, the roles' guarantees.
    Bus,
    /// Floor (b): the bare `redis` crate, XREADGROUP + XADD + XACK per hop.
    Raw,
}

impl Kind {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bus => "bus",
            Kind::Raw => "raw",
        }
    }
}

/// What `chorus-floor` does.
#[derive(Debug, Subcommand)]
pub enum FloorCommand {
    /// Starts Redis, the MCP floor server and the relays, runs the load, prints the
    /// figures and stops everything.
    Run(RunArgs),
    /// One relay process (started by `run`).
    Relay {
        /// Which relays.
        #[arg(long, value_enum)]
        kind: Kind,
        /// The role it stands for: chief, planner, router, pool, synthesizer.
        #[arg(long)]
        role: String,
        /// The MCP floor server's URL (the pool's relay calls it).
        #[arg(long)]
        mcp: String,
    },
    /// The MCP floor server (started by `run`).
    Mcp {
        /// The loopback port to serve on.
        #[arg(long)]
        port: u16,
    },
}

/// Arguments of `chorus-floor run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Which relays.
    #[arg(long, value_enum)]
    pub kind: Kind,
    /// Tasks to run (after the warm-up).
    #[arg(long, default_value_t = 1000)]
    pub tasks: usize,
    /// Tasks in flight at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Tasks run before measuring (at the same concurrency).
    #[arg(long, default_value_t = 200)]
    pub warmup: usize,
    /// Print one JSON object as the last line.
    #[arg(long)]
    pub json: bool,
    /// Keep the processes' logs (their directory is printed at the end).
    #[arg(long)]
    pub keep_logs: bool,
}

/// Runs one `chorus-floor` command.
pub async fn main(command: FloorCommand) -> Result<(), BenchError> {
    match command {
        FloorCommand::Run(args) => run(args).await,
        FloorCommand::Relay { kind, role, mcp } => match kind {
            Kind::Bus => relay_bus::run(&role, &mcp).await,
            Kind::Raw => {
                let url = std::env::var("CHORUS__BUS__REDIS_URL")
                    .map_err(|_| BenchError::Args("CHORUS__BUS__REDIS_URL is not set".into()))?;
                relay_raw::run(&role, &url, &mcp).await
            }
        },
        FloorCommand::Mcp { port } => mcp::serve(port).await,
    }
}

/// The query whose envelopes the relays carry.
const QUERY: &str = "2+4";

/// The client of a floor run: the bench's own on the bus, or the bare one.
enum Client {
    Bus(Box<RedisBus>, Duration),
    Raw(MultiplexedConnection),
}

impl Client {
    async fn run(
        &mut self,
        tasks: usize,
        concurrency: usize,
        stall: Duration,
    ) -> Result<LoadResult, BenchError> {
        match self {
            Client::Bus(bus, deadline) => {
                let l = load::Load {
                    query: QUERY.to_owned(),
                    tasks,
                    concurrency,
                    deadline: *deadline,
                    stall,
                };
                load::run(bus.as_ref(), &l).await
            }
            Client::Raw(conn) => load_raw::run(conn, QUERY, tasks, concurrency, stall).await,
        }
    }
}

/// Starts the system, warms up, measures, prints, stops.
async fn run(args: RunArgs) -> Result<(), BenchError> {
    if args.tasks == 0 || args.concurrency == 0 {
        return Err(BenchError::Args(
            "--tasks and --concurrency must be above 0".into(),
        ));
    }
    let mut system = System::start(args.kind, args.keep_logs).await?;
    let result = tokio::select! {
        r = measure(&args, &mut system) => r,
        _ = chorus_core::runtime::stop_signal() => Err(BenchError::Interrupted),
    };
    let result = match result {
        Err(BenchError::Stalled {
            done,
            total,
            waited,
            ..
        }) => Err(BenchError::Stalled {
            done,
            total,
            waited,
            exited: system.exited(),
        }),
        other => other,
    };
    drop(system);
    let report = result?;
    print!("{}", report.text());
    if args.json {
        println!("{}", report.json());
    }
    Ok(())
}

/// Warm-up, the measured run, and every figure.
async fn measure(args: &RunArgs, system: &mut System) -> Result<BenchReport, BenchError> {
    let settings = Settings::load(None).map_err(|e| BenchError::Args(e.to_string()))?;
    let bus_settings = BusSettings {
        redis_url: system.redis_url.clone(),
        batch_count: settings.bus.batch_count.max(1024),
        ..settings.bus.clone()
    };
    let mut info = RedisInfo::connect(&bus_settings, Duration::from_secs(2)).await?;
    let mut client = match args.kind {
        Kind::Bus => Client::Bus(
            Box::new(RedisBus::connect(bus_settings.clone()).await?),
            settings.deadline(),
        ),
        Kind::Raw => Client::Raw(relay_raw::connect(&system.redis_url).await?),
    };
    // Ready means a task goes all the way round.
    let ready_by = Instant::now() + Duration::from_secs(30);
    while client.run(1, 1, Duration::from_secs(2)).await.is_err() {
        if Instant::now() > ready_by {
            return Err(BenchError::NotReady(system.exited().join("; ")));
        }
    }
    let stall = Duration::from_secs(10);
    if args.warmup > 0 {
        client.run(args.warmup, args.concurrency, stall).await?;
    }
    let procs_before = samples(system);
    let calls_before = info.command_calls().await?;
    let cpu_before = info.cpu_ms().await?;
    let measured = client.run(args.tasks, args.concurrency, stall).await?;
    let cpu_after = info.cpu_ms().await?;
    let calls_after = info.command_calls().await?;
    let procs_after = samples(system);
    let hops = match &client {
        Client::Bus(bus, _) => {
            let per_topic = (args.tasks + args.warmup + 1).saturating_mul(4);
            hops::measure(
                bus.as_ref(),
                &settings.pool_names(),
                &measured.received_us,
                per_topic,
            )
            .await?
        }
        Client::Raw(_) => Vec::new(),
    };
    let mut latencies = measured.latencies_us;
    let latency = stats::Percentiles::of(&mut latencies).ok_or(BenchError::Stalled {
        done: 0,
        total: args.tasks,
        waited: Duration::ZERO,
        exited: Vec::new(),
    })?;
    Ok(BenchReport {
        query: format!("{QUERY}, floor ({})", args.kind.name()),
        tasks: args.tasks,
        concurrency: args.concurrency,
        redis_url: system.redis_url.clone(),
        spawned: true,
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
fn samples(system: &System) -> Vec<(String, super::procstat::ProcSample)> {
    let mut out = system.sample();
    if let Some(me) = super::procstat::own() {
        out.push(("bench client".to_owned(), me));
    }
    out
}
