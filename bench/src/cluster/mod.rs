//! The system under test, started by the benchmark: a `redis-server` on a free port,
//! both MCP servers and every role as separate processes (the binaries next to the
//! running `chorus`), exactly as `deploy/run-local.sh` runs them. Everything started
//! here is stopped by PID when the cluster is stopped or dropped. Processes are started
//! by the launcher the end-to-end tests use (`chorus_testkit::launcher`).
//!
//! With `acl`, Redis loads the ACL file `chorus acl` builds (`chorus_core::acl::file`,
//! random passwords) and every role connects as its own user; the benchmark's client
//! connects as an extra user, `bench` (see [`bench_user`]). With `tls`, Redis serves
//! TLS only (`--port 0 --tls-port …`) with a CA and a server certificate made by the
//! `openssl` CLI in the cluster's directory, and every process connects with
//! `rediss://` and that CA.
//!
//! [`bench_user`]: secrets::bench_user

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_bus::BusSettings;
use chorus_core::acl;
use chorus_core::topology::Role;
use chorus_testkit::free_port;
use chorus_testkit::launcher;

use super::BenchError;
use super::procs::Procs;
use super::procstat::ProcSample;
use super::redis_info::RedisInfo;
use secrets::{make_certificates, write_acl_file};

mod secrets;

pub use secrets::BENCH_USER;

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
    /// Redis with the ACL file of `chorus acl`: every role on its own user.
    pub acl: bool,
    /// Redis over TLS only, with a CA made here.
    pub tls: bool,
    /// Where every role and MCP server exports traces (OTLP/HTTP); none: traces off.
    pub otlp_endpoint: Option<String>,
}

/// The pools the cluster starts agents for (and the ACL file has users for).
pub(crate) const POOLS: [&str; 2] = ["math", "date"];

/// The started processes, stopped (by PID) on [`Cluster::stop`] or drop.
pub struct Cluster {
    procs: Procs,
    /// The Redis URL every process uses (no credentials: with ACLs on, each role gets
    /// its user and password variable; see [`Cluster::client_settings`] for the client).
    pub redis_url: String,
    /// The URL the benchmark's client uses (with ACLs on, as the `bench` user).
    client_url: String,
    /// The CA file of the TLS Redis (with `tls`).
    pub tls_ca_file: Option<String>,
}

/// Whether something answers `PING` at `settings`' Redis (its URL, user, password and
/// TLS files) within `timeout`.
pub async fn redis_answers(settings: &BusSettings, timeout: Duration) -> bool {
    let ping = async { RedisInfo::connect(settings, timeout).await?.ping().await };
    matches!(tokio::time::timeout(timeout, ping).await, Ok(Ok(())))
}

impl Cluster {
    /// Starts Redis (when asked), both MCP servers and every role, and waits until Redis
    /// and the MCP servers accept connections. Roles become ready by themselves; the
    /// benchmark's warm-up waits for them.
    pub async fn start(opts: &ClusterOptions) -> Result<Cluster, BenchError> {
        let mut cluster = Cluster {
            procs: Procs::in_new_dir("chorus-bench", opts.keep_logs)?,
            redis_url: opts.redis_url.clone(),
            client_url: opts.redis_url.clone(),
            tls_ca_file: None,
        };
        let mut passwords = BTreeMap::new();
        if opts.spawn_redis {
            let port = free_port();
            let mut cmd = Command::new(chorus_testkit::redis_server_binary());
            cmd.args(["--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
                .arg("--dir")
                .arg(cluster.procs.dir());
            let scheme = if opts.tls {
                let (ca, cert, key) = make_certificates(cluster.procs.dir())?;
                cmd.args(["--port", "0", "--tls-port", &port.to_string()])
                    .arg("--tls-cert-file")
                    .arg(&cert)
                    .arg("--tls-key-file")
                    .arg(&key)
                    .arg("--tls-ca-cert-file")
                    .arg(&ca)
                    .args(["--tls-auth-clients", "no"]);
                cluster.tls_ca_file = Some(ca.to_string_lossy().into_owned());
                "rediss"
            } else {
                cmd.args(["--port", &port.to_string()]);
                "redis"
            };
            let mut credentials = String::new();
            if opts.acl {
                let (path, pw) = write_acl_file(cluster.procs.dir())?;
                cmd.arg("--aclfile").arg(&path);
                let bench_pw = pw
                    .get(&acl::password_env(BENCH_USER))
                    .cloned()
                    .unwrap_or_default();
                credentials = format!("{BENCH_USER}:{bench_pw}@");
                passwords = pw;
            }
            cluster.spawn("redis-server", cmd)?;
            cluster.redis_url = format!("{scheme}://127.0.0.1:{port}");
            cluster.client_url = format!("{scheme}://{credentials}127.0.0.1:{port}");
            let check = cluster.client_settings(&BusSettings::default());
            wait_until(Duration::from_secs(10), "redis-server", || {
                redis_answers(&check, Duration::from_millis(500))
            })
            .await?;
        }
        let (math_port, date_port) = (free_port(), free_port());
        let servers = [
            ("chorus-mcp-math", math_port),
            ("chorus-mcp-date", date_port),
        ];
        for (name, port) in servers {
            let mut cmd = launcher::mcp_http(&binary(&opts.bin_dir, name)?, port);
            if let Some(endpoint) = &opts.otlp_endpoint {
                cmd.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
            }
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
        let mut env = launcher::role_env(&cluster.redis_url, math_port, date_port);
        if let Some(ca) = &cluster.tls_ca_file {
            env.insert("CHORUS__BUS__TLS_CA_FILE".into(), ca.clone());
        }
        if let Some(endpoint) = &opts.otlp_endpoint {
            env.insert("OTEL_EXPORTER_OTLP_ENDPOINT".into(), endpoint.clone());
        }
        let mut roles: Vec<(String, &str, Option<&str>)> =
            ["chief", "planner", "router", "synthesizer", "verifier"]
                .iter()
                .map(|r| (r.to_string(), *r, None))
                .collect();
        for i in 0..opts.math_replicas.max(1) {
            roles.push((format!("pool-{}-{i}", POOLS[0]), "pool", Some(POOLS[0])));
        }
        roles.push((format!("pool-{}", POOLS[1]), "pool", Some(POOLS[1])));
        for (name, role, pool) in roles {
            let mut env = env.clone();
            if opts.acl {
                let user = Role::parse(role, pool)
                    .map(|r| acl::user_of(&r))
                    .map_err(|e| BenchError::Spawn {
                        what: name.clone(),
                        reason: e.to_string(),
                    })?;
                let var = acl::password_env(&user);
                let password = passwords.get(&var).cloned().unwrap_or_default();
                env.insert("CHORUS__BUS__REDIS_USER".into(), user);
                env.insert("CHORUS__BUS__REDIS_PASSWORD_ENV".into(), var.clone());
                env.insert(var, password);
            }
            let cmd = launcher::role(&chorus, role, pool, &env, &opts.log_filter);
            cluster.spawn(&name, cmd)?;
        }
        Ok(cluster)
    }

    /// `base` with the Redis the benchmark's client uses: the URL (with ACLs, the
    /// `bench` user and its password in it, and no other user) and the TLS CA file.
    pub fn client_settings(&self, base: &BusSettings) -> BusSettings {
        let mut out = base.clone();
        out.redis_url = self.client_url.clone();
        if self.client_url != self.redis_url {
            out.redis_user = None;
            out.redis_password_env = None;
        }
        if let Some(ca) = &self.tls_ca_file {
            out.tls_ca_file = Some(ca.clone());
        }
        out
    }

    fn spawn(&mut self, name: &str, cmd: Command) -> Result<(), BenchError> {
        self.procs.spawn(name, cmd)
    }

    /// Every started process's name and a sample of its counters (peak RSS, CPU time).
    pub fn sample(&self) -> Vec<(String, ProcSample)> {
        self.procs.sample()
    }

    /// Names of started processes that have exited, with the end of their log.
    pub fn exited(&mut self) -> Vec<String> {
        self.procs.exited()
    }

    /// Stops every process: SIGTERM, then SIGKILL after two seconds; roles first, Redis last.
    pub fn stop(mut self) {
        self.procs.stop();
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
