//! The processes of a floor run: a `redis-server` on a free port (no persistence, as
//! `chorus-bench --spawn` starts it), the MCP floor server, and one relay process per
//! role a `2+4` task crosses (chief, planner, router, the math pool's agent,
//! synthesizer), each this same binary in its `relay` mode. Everything is stopped by PID
//! when the system is dropped.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_testkit::free_port;
use chorus_testkit::launcher::{self, Output, Proc};

use super::super::BenchError;
use super::super::procstat::{ProcSample, sample};
use super::Kind;

/// The roles a `2+4` task crosses, by the names `Role::parse` reads.
pub const ROLES: [&str; 5] = ["chief", "planner", "router", "pool", "synthesizer"];

/// The started processes.
pub struct System {
    procs: Vec<Proc>,
    dir: PathBuf,
    keep_logs: bool,
    /// The Redis every process uses.
    pub redis_url: String,
}

impl System {
    /// Starts Redis, the MCP floor server and a relay of `kind` per role.
    pub async fn start(kind: Kind, keep_logs: bool) -> Result<System, BenchError> {
        let me = std::env::current_exe().map_err(|e| BenchError::Spawn {
            what: "this binary".into(),
            reason: e.to_string(),
        })?;
        let dir = std::env::temp_dir().join(format!(
            "chorus-floor-{}-{}",
            std::process::id(),
            chorus_bus::now_us()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| BenchError::Spawn {
            what: format!("directory {}", dir.display()),
            reason: e.to_string(),
        })?;
        let port = free_port();
        let mut system = System {
            procs: Vec::new(),
            dir,
            keep_logs,
            redis_url: format!("redis://127.0.0.1:{port}"),
        };
        let mut redis = Command::new(chorus_testkit::redis_server_binary());
        redis
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(&system.dir);
        system.spawn("redis-server", redis)?;
        let mcp_port = free_port();
        let mut mcp = Command::new(&me);
        mcp.args(["mcp", "--port", &mcp_port.to_string()]);
        system.spawn("mcp-floor", mcp)?;
        for (what, port) in [("redis-server", port), ("mcp-floor", mcp_port)] {
            let opened = tokio::task::spawn_blocking(move || {
                launcher::port_opens(port, Duration::from_secs(10))
            });
            if !matches!(opened.await, Ok(true)) {
                return Err(BenchError::Spawn {
                    what: what.into(),
                    reason: "not listening within 10 s".into(),
                });
            }
        }
        let mcp_url = format!("http://127.0.0.1:{mcp_port}/mcp");
        for role in ROLES {
            let mut cmd = Command::new(&me);
            cmd.args(["relay", "--kind", kind.name(), "--role", role])
                .args(["--mcp", &mcp_url])
                .env("CHORUS__BUS__REDIS_URL", &system.redis_url)
                .env("CHORUS_LOG", "warn");
            let name = if role == "pool" { "pool-math" } else { role };
            system.spawn(name, cmd)?;
        }
        Ok(system)
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

    /// Every started process's name and a sample of its counters.
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
}

impl Drop for System {
    /// SIGTERM, then SIGKILL after two seconds; relays first, Redis last.
    fn drop(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(2);
        for mut p in self.procs.drain(..).rev() {
            p.terminate_by(deadline);
        }
        if self.keep_logs {
            eprintln!("chorus-floor: logs kept in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
