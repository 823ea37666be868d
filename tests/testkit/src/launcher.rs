//! The one launcher for clusters of Chorus processes, shared by the end-to-end tests and
//! the benchmark: how an MCP server and a role are started (arguments, environment),
//! where their output goes, and how they are stopped — always by PID, never by name.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// Where a started process's stderr goes.
#[derive(Debug, Clone)]
pub enum Output {
    /// The launching process's stderr (tests: shown when a test fails).
    Inherit,
    /// A log file (created or truncated).
    File(PathBuf),
}

/// A started child process, killed (SIGKILL) when dropped.
#[derive(Debug)]
pub struct Proc {
    /// The name it was started under (`math-mcp`, `chief`, `pool-math-0`, …).
    pub name: String,
    child: Child,
    log: Option<PathBuf>,
}

impl Proc {
    /// Starts `cmd` as `name`, stdin and stdout closed, stderr to `output`. mimalloc
    /// commits its arenas on demand and hands freed pages back at once
    /// (`MIMALLOC_PURGE_DELAY=0`), as deploy/run-local.sh and the images have it.
    pub fn spawn(name: &str, mut cmd: Command, output: Output) -> io::Result<Proc> {
        for (key, value) in [
            ("MIMALLOC_ARENA_EAGER_COMMIT", "0"),
            ("MIMALLOC_PURGE_DELAY", "0"),
        ] {
            if std::env::var_os(key).is_none() {
                cmd.env(key, value);
            }
        }
        let (stderr, log) = match output {
            Output::Inherit => (Stdio::inherit(), None),
            Output::File(path) => (Stdio::from(File::create(&path)?), Some(path)),
        };
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()?;
        Ok(Proc {
            name: name.to_owned(),
            child,
            log,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills it now (SIGKILL), as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks it to stop (SIGTERM) and kills it when it has not stopped by `deadline`.
    pub fn terminate_by(&mut self, deadline: Instant) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .stderr(Stdio::null())
            .status();
        while Instant::now() < deadline && self.is_running() {
            sleep(Duration::from_millis(20));
        }
        self.kill();
    }

    /// Whether it is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The last `lines` lines of its log file (empty when its stderr was inherited).
    pub fn log_tail(&self, lines: usize) -> String {
        let Some(log) = &self.log else {
            return String::new();
        };
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(lines).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An MCP server binary serving Streamable HTTP on 127.0.0.1:`port`.
pub fn mcp_http(binary: &Path, port: u16) -> Command {
    let mut cmd = Command::new(binary);
    cmd.args(["--transport", "http", "--bind", "127.0.0.1", "--port"])
        .arg(port.to_string());
    cmd
}

/// Pool agents are started as `chorus-pool --pool POOL` (the file beside `chorus`); set to
/// `0`, as `chorus agent pool --pool POOL` (docs/performance.md, "A smaller binary for the
/// pool agent" and "Memory per process, the heap and the runtime").
pub const POOL_BINARY_ENV: &str = "CHORUS_POOL_BIN";

/// Whether pool agents start from `chorus-pool`: unless [`POOL_BINARY_ENV`] is `0`.
pub fn pool_binary_wanted() -> bool {
    std::env::var(POOL_BINARY_ENV).map_or(true, |v| v != "0")
}

/// `chorus agent ROLE` with `env` (settings) and `CHORUS_LOG=log`; a pool agent as
/// `chorus-pool --pool POOL`, or `chorus agent pool --pool POOL` when
/// [`pool_binary_wanted`] says not.
pub fn role(
    chorus: &Path,
    role: &str,
    pool: Option<&str>,
    env: &BTreeMap<String, String>,
    log: &str,
) -> Command {
    role_from(chorus, role, pool, env, log, pool_binary_wanted())
}

/// [`role`], with `chorus-pool` for a pool agent when `pool_binary` is true.
pub fn role_from(
    chorus: &Path,
    role: &str,
    pool: Option<&str>,
    env: &BTreeMap<String, String>,
    log: &str,
    pool_binary: bool,
) -> Command {
    let mut cmd = match (role, pool) {
        ("pool", Some(_)) if pool_binary => Command::new(chorus.with_file_name("chorus-pool")),
        _ => {
            let mut cmd = Command::new(chorus);
            cmd.args(["agent", role]);
            cmd
        }
    };
    if let Some(p) = pool {
        cmd.args(["--pool", p]);
    }
    cmd.envs(env).env("CHORUS_LOG", log);
    cmd
}

/// The settings every role of a cluster shares: its Redis and the two pools' MCP
/// servers on 127.0.0.1.
pub fn role_env(redis_url: &str, math_port: u16, date_port: u16) -> BTreeMap<String, String> {
    BTreeMap::from([
        ("CHORUS__BUS__REDIS_URL".to_owned(), redis_url.to_owned()),
        (
            "CHORUS__POOLS__MATH__MCP_URL".to_owned(),
            format!("http://127.0.0.1:{math_port}/mcp"),
        ),
        (
            "CHORUS__POOLS__DATE__MCP_URL".to_owned(),
            format!("http://127.0.0.1:{date_port}/mcp"),
        ),
    ])
}

/// Whether something listens on 127.0.0.1:`port`, trying until `within` passes.
pub fn port_opens(port: u16, within: Duration) -> bool {
    let start = Instant::now();
    loop {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        if start.elapsed() >= within {
            return false;
        }
        sleep(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_logged_stopped_by_pid_and_reports_its_log() {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("sh.log");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo started >&2; exec sleep 30"]);
        let mut p = Proc::spawn("sh", cmd, Output::File(log)).expect("spawn");
        assert!(p.is_running());
        let start = Instant::now();
        while p.log_tail(1).is_empty() && start.elapsed() < Duration::from_secs(5) {
            sleep(Duration::from_millis(20));
        }
        assert_eq!(p.log_tail(1), "started");
        p.terminate_by(Instant::now() + Duration::from_secs(2));
        assert!(!p.is_running());
    }

    #[test]
    fn a_role_command_carries_its_settings() {
        let env = role_env("redis://127.0.0.1:1", 2, 3);
        let cmd = role_from(
            Path::new("chorus"),
            "pool",
            Some("math"),
            &env,
            "warn",
            false,
        );
        let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
        assert_eq!(args, ["agent", "pool", "--pool", "math"]);
        let math = cmd
            .get_envs()
            .find(|(k, _)| *k == "CHORUS__POOLS__MATH__MCP_URL")
            .and_then(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()));
        assert_eq!(math.as_deref(), Some("http://127.0.0.1:2/mcp"));
    }

    #[test]
    fn a_pool_agent_can_start_from_chorus_pool() {
        let env = role_env("redis://127.0.0.1:1", 2, 3);
        let dir = Path::new("/opt/chorus/chorus");
        let cmd = role_from(dir, "pool", Some("math"), &env, "warn", true);
        assert_eq!(cmd.get_program(), "/opt/chorus/chorus-pool");
        let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
        assert_eq!(args, ["--pool", "math"]);
        let chief = role_from(dir, "chief", None, &env, "warn", true);
        assert_eq!(chief.get_program(), "/opt/chorus/chorus");
    }
}
