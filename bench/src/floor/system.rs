//! The processes of a floor run: a `redis-server` on a free port (no persistence, as
//! `chorus-bench --spawn` starts it), the MCP floor server, and one relay process per
//! role a `2+4` task crosses (chief, planner, router, the math pool's agent,
//! synthesizer), each this same binary in its `relay` mode. Everything is stopped by PID
//! when the system is dropped.

use std::process::Command;
use std::time::Duration;

use chorus_testkit::free_port;
use chorus_testkit::launcher;

use super::super::BenchError;
use super::super::procs::Procs;
use super::super::procstat::ProcSample;
use super::Kind;

/// The roles a `2+4` task crosses, by the names `Role::parse` reads.
pub const ROLES: [&str; 5] = ["chief", "planner", "router", "pool", "synthesizer"];

/// The started processes.
pub struct System {
    procs: Procs,
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
        let port = free_port();
        let mut system = System {
            procs: Procs::in_new_dir("chorus-floor", keep_logs)?,
            redis_url: format!("redis://127.0.0.1:{port}"),
        };
        let mut redis = Command::new(chorus_testkit::redis_server_binary());
        redis
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(system.procs.dir());
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
        self.procs.spawn(name, cmd)
    }

    /// Every started process's name and a sample of its counters.
    pub fn sample(&self) -> Vec<(String, ProcSample)> {
        self.procs.sample()
    }

    /// Names of started processes that have exited, with the end of their log.
    pub fn exited(&mut self) -> Vec<String> {
        self.procs.exited()
    }
}
