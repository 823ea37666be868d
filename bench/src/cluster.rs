//! The system under test, started by the benchmark: a `redis-server` on a free port,
//! both MCP servers and every role as separate processes (the binaries next to the
//! running `chorus`), exactly as `deploy/run-local.sh` runs them. Everything started
//! here is stopped by PID when the cluster is stopped or dropped. Processes are started
//! by the launcher the end-to-end tests use (`chorus_testkit::launcher`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_testkit::free_port;
use chorus_testkit::launcher::{self, Output, Proc};

use super::BenchError;
use super::procstat::{ProcSample, sample};
use super::redis_info::RedisInfo;

/// What to start.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// Start a `redis-server` (else use `redis_url`).
    pub spawn_redis: bool,
    /// The Redis to use when not spawning one.
    pub redis_url: String,
    /// Where `chorus`, `chorus-mcp-math` and `chorus-mcp-date` are.
    pub bin_dir: PathBuf,
    /// `CHORUS_LOG` of the started processes.
    pub log_filter: String,
    /// Keep the processes' logs (the directory is printed) instead of deleting them.
    pub keep_logs: bool,
    /// Math pool replicas.
    pub math_replicas: usize,
}

/// The started processes, stopped (by PID) on [`Cluster::stop`] or drop.
pub struct Cluster {
    procs: Vec<Proc>,
    dir: PathBuf,
    keep_logs: bool,
    stopped: bool,
    /// The Redis URL every process uses.
    pub redis_url: String,
}

/// Whether something answers `PING` at `url` within `timeout`.
pub async fn redis_answers(url: &str, timeout: Duration) -> bool {
    let ping = async { RedisInfo::connect(url, timeout).await?.ping().await };
    matches!(tokio::time::timeout(timeout, ping).await, Ok(Ok(())))
}

impl Cluster {
    /// Starts Redis (when asked), both MCP servers and every role, and waits until Redis
    /// and the MCP servers accept connections. Roles become ready by themselves; the
    /// benchmark's warm-up waits for them.
    pub async fn start(opts: &ClusterOptions) -> Result<Cluster, BenchError> {
        let dir = std::env::temp_dir().join(format!(
            "chorus-bench-{}-{}",
            std::process::id(),
            chorus_bus::now_us()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| BenchError::Spawn {
            what: format!("directory {}", dir.display()),
            reason: e.to_string(),
        })?;
        let mut cluster = Cluster {
            procs: Vec::new(),
            dir,
            keep_logs: opts.keep_logs,
            stopped: false,
            redis_url: opts.redis_url.clone(),
        };
        if opts.spawn_redis {
            let port = free_port();
            let mut cmd = Command::new(chorus_testkit::redis_server_binary());
            cmd.args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
                .arg("--dir")
                .arg(&cluster.dir);
            cluster.spawn("redis-server", cmd)?;
            cluster.redis_url = format!("redis://127.0.0.1:{port}");
            wait_until(Duration::from_secs(10), "redis-server", || {
                redis_answers(&cluster.redis_url, Duration::from_millis(200))
            })
            .await?;
        }
        let (math_port, date_port) = (free_port(), free_port());
        let servers = [
            ("chorus-mcp-math", math_port),
            ("chorus-mcp-date", date_port),
        ];
        for (name, port) in servers {
            let cmd = launcher::mcp_http(&binary(&opts.bin_dir, name)?, port);
            cluster.spawn(name, cmd)?;
        }
        for (name, port) in servers {
            let opened = tokio::task::spawn_blocking(move || {
                launcher::port_opens(port, Duration::from_secs(10))
            });
            if !matches!(opened.await, Ok(true)) {
                return Err(BenchError::Spawn {
                    what: name.into(),
                    reason: "not listening within 10 s".into(),
                });
            }
        }
        let chorus = binary(&opts.bin_dir, "chorus")?;
        let env = launcher::role_env(&cluster.redis_url, math_port, date_port);
        let mut roles: Vec<(String, &str, Option<&str>)> =
            ["chief", "planner", "router", "synthesizer", "verifier"]
                .iter()
                .map(|r| (r.to_string(), *r, None))
                .collect();
        for i in 0..opts.math_replicas.max(1) {
            roles.push((format!("pool-math-{i}"), "pool", Some("math")));
        }
        roles.push(("pool-date".into(), "pool", Some("date")));
        for (name, role, pool) in roles {
            let cmd = launcher::role(&chorus, role, pool, &env, &opts.log_filter);
            cluster.spawn(&name, cmd)?;
        }
        Ok(cluster)
    }

    fn spawn(&mut self, name: &str, cmd: Command) -> Result<(), BenchError> {
        let log = Output::File(self.dir.join(format!("{name}.log")));
        let proc = Proc::spawn(name, cmd, log).map_err(|e| BenchError::Spawn {
            what: name.into(),
            reason: e.to_string(),
        })?;
        self.procs.push(proc);
        Ok(())
    }

    /// Every started process's name and a sample of its counters (peak RSS, CPU time).
    pub fn sample(&self) -> Vec<(String, ProcSample)> {
        self.procs
            .iter()
            .filter_map(|p| Some((p.name.clone(), sample(p.pid())?)))
            .collect()
    }

    /// Names of started processes that have exited, with the end of their log.
    pub fn exited(&mut self) -> Vec<String> {
        self.procs
            .iter_mut()
            .filter_map(|p| {
                let gone = !p.is_running();
                gone.then(|| format!("{} exited: {}", p.name, p.log_tail(5)))
            })
            .collect()
    }

    /// Stops every process: SIGTERM, then SIGKILL after two seconds; roles first, Redis last.
    pub fn stop(mut self) {
        self.stop_all();
    }

    fn stop_all(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let deadline = Instant::now() + Duration::from_secs(2);
        for mut p in self.procs.drain(..).rev() {
            p.terminate_by(deadline);
        }
        if self.keep_logs {
            eprintln!("chorus-bench: logs kept in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop_all();
    }
}

/// The path of binary `name` in `dir`, if it is there.
fn binary(dir: &Path, name: &str) -> Result<PathBuf, BenchError> {
    let path = dir.join(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(BenchError::MissingBinary(path))
    }
}

/// Polls `ready` every 20 ms until it is true, or fails after `limit`.
async fn wait_until<F, Fut>(limit: Duration, what: &str, mut ready: F) -> Result<(), BenchError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while started.elapsed() < limit {
        if ready().await {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Err(BenchError::Spawn {
        what: what.into(),
        reason: format!("not ready within {limit:?}"),
    })
}
