//! The system under test, started by the benchmark: a `redis-server` on a free port,
//! both MCP servers and every role as separate processes (the binaries next to the
//! running `chorus`), exactly as `deploy/run-local.sh` runs them. Everything started
//! here is stopped by PID when the cluster is stopped or dropped.

use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

/// A started process.
struct Proc {
    name: String,
    child: Child,
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

/// `N` distinct free TCP ports on the loopback interface: every probe listener is held
/// until all are chosen, so the kernel cannot hand the same port out twice.
pub fn free_ports<const N: usize>() -> Result<[u16; N], BenchError> {
    let error = |e: std::io::Error| BenchError::Spawn {
        what: "a free port".into(),
        reason: e.to_string(),
    };
    let listeners = (0..N)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<Result<Vec<_>, _>>()
        .map_err(error)?;
    let mut ports = [0; N];
    for (port, l) in ports.iter_mut().zip(&listeners) {
        *port = l.local_addr().map_err(error)?.port();
    }
    Ok(ports)
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
            let [port] = free_ports()?;
            let port = port.to_string();
            let redis = std::env::var("CHORUS_REDIS_SERVER")
                .unwrap_or_else(|_| "/usr/bin/redis-server".to_owned());
            let redis = if Path::new(&redis).exists() {
                redis
            } else {
                "redis-server".to_owned()
            };
            let mut cmd = Command::new(redis);
            cmd.args([
                "--port",
                &port,
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .args(["--daemonize", "no", "--dir"])
            .arg(&cluster.dir);
            cluster.spawn("redis-server", cmd)?;
            cluster.redis_url = format!("redis://127.0.0.1:{port}");
            wait_until(Duration::from_secs(10), "redis-server", || {
                redis_answers(&cluster.redis_url, Duration::from_millis(200))
            })
            .await?;
        }
        let [math_port, date_port] = free_ports()?;
        for (name, port) in [
            ("chorus-mcp-math", math_port),
            ("chorus-mcp-date", date_port),
        ] {
            let mut cmd = Command::new(binary(&opts.bin_dir, name)?);
            cmd.args([
                "--transport",
                "http",
                "--bind",
                "127.0.0.1",
                "--port",
                &port.to_string(),
            ]);
            cluster.spawn(name, cmd)?;
        }
        for (name, port) in [
            ("chorus-mcp-math", math_port),
            ("chorus-mcp-date", date_port),
        ] {
            wait_until(Duration::from_secs(10), name, || async move {
                tokio::net::TcpStream::connect(("127.0.0.1", port))
                    .await
                    .is_ok()
            })
            .await?;
        }
        let chorus = binary(&opts.bin_dir, "chorus")?;
        let env = [
            ("CHORUS__BUS__REDIS_URL", cluster.redis_url.clone()),
            (
                "CHORUS__POOLS__MATH__MCP_URL",
                format!("http://127.0.0.1:{math_port}/mcp"),
            ),
            (
                "CHORUS__POOLS__DATE__MCP_URL",
                format!("http://127.0.0.1:{date_port}/mcp"),
            ),
            ("CHORUS_LOG", opts.log_filter.clone()),
        ];
        let mut roles: Vec<(String, Vec<&str>)> = ["chief", "planner", "router", "synthesizer"]
            .iter()
            .map(|r| (r.to_string(), vec!["agent", *r]))
            .collect();
        for i in 0..opts.math_replicas.max(1) {
            roles.push((
                format!("pool-math-{i}"),
                vec!["agent", "pool", "--pool", "math"],
            ));
        }
        roles.push(("pool-date".into(), vec!["agent", "pool", "--pool", "date"]));
        for (name, args) in roles {
            let mut cmd = Command::new(&chorus);
            cmd.args(&args).envs(env.iter().map(|(k, v)| (k, v)));
            cluster.spawn(&name, cmd)?;
        }
        Ok(cluster)
    }

    fn spawn(&mut self, name: &str, mut cmd: Command) -> Result<(), BenchError> {
        // As deploy/run-local.sh and the images do: mimalloc commits arenas on demand.
        if std::env::var_os("MIMALLOC_ARENA_EAGER_COMMIT").is_none() {
            cmd.env("MIMALLOC_ARENA_EAGER_COMMIT", "0");
        }
        let log =
            File::create(self.dir.join(format!("{name}.log"))).map_err(|e| BenchError::Spawn {
                what: name.into(),
                reason: e.to_string(),
            })?;
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| BenchError::Spawn {
                what: name.into(),
                reason: e.to_string(),
            })?;
        self.procs.push(Proc {
            name: name.to_owned(),
            child,
        });
        Ok(())
    }

    /// Every started process's name and a sample of its counters (peak RSS, CPU time).
    pub fn sample(&self) -> Vec<(String, ProcSample)> {
        self.procs
            .iter()
            .filter_map(|p| Some((p.name.clone(), sample(p.child.id())?)))
            .collect()
    }

    /// Names of started processes that have exited, with the end of their log.
    pub fn exited(&mut self) -> Vec<String> {
        let dir = self.dir.clone();
        self.procs
            .iter_mut()
            .filter_map(|p| matches!(p.child.try_wait(), Ok(Some(_))).then_some(&*p))
            .map(|p| {
                let log = std::fs::read_to_string(dir.join(format!("{}.log", p.name)))
                    .unwrap_or_default();
                let tail: Vec<&str> = log.lines().rev().take(5).collect();
                format!(
                    "{} exited: {}",
                    p.name,
                    tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
                )
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
        for p in self.procs.iter().rev() {
            let _ = Command::new("kill")
                .args(["-TERM", &p.child.id().to_string()])
                .stderr(Stdio::null())
                .status();
        }
        let deadline = Instant::now() + Duration::from_secs(2);
        for mut p in self.procs.drain(..).rev() {
            while Instant::now() < deadline && matches!(p.child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(20));
            }
            if matches!(p.child.try_wait(), Ok(None)) {
                let _ = p.child.kill();
            }
            let _ = p.child.wait();
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
