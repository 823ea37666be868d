//! Test harness for Chorus: starts a real `redis-server` on a free port, in its own
//! data directory, and stops it when dropped. It never mocks Redis and never touches a
//! server it did not start (processes are stopped by their PID only).
//!
//! ```no_run
//! let redis = chorus_testkit::RedisServer::start();
//! let out = redis.redis_cli(&["XLEN", "task_available"]);
//! assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0");
//! println!("connect your bus to {}", redis.url());
//! ```
//!
//! The server binary is `$CHORUS_REDIS_SERVER`, else `/usr/bin/redis-server`, else
//! `redis-server` from `PATH`; `redis-cli` likewise (`$CHORUS_REDIS_CLI`).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

pub mod cluster;
pub mod launcher;
pub mod python;
pub mod sentinel;
pub mod signals;
pub mod sse;

pub use cluster::RedisCluster;
pub use sentinel::RedisSentinel;

/// How long to wait for a started server to answer PING.
const START_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a graceful stop may take before the process is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(10);

/// How to run a test Redis server.
#[derive(Debug, Clone, Default)]
pub struct RedisOptions {
    /// Turn on AOF persistence (`appendonly yes`, `appendfsync always`), so a restart
    /// loses nothing.
    pub aof: bool,
    /// Data directory; a fresh temporary one (removed on drop) when `None`.
    pub dir: Option<PathBuf>,
    /// Extra `redis-server` arguments, such as `["--maxmemory", "10mb"]`.
    pub extra_args: Vec<String>,
    /// The user and password `redis-cli` logs in with (a server started with an ACL
    /// file whose default user is off).
    pub cli_user: Option<(String, String)>,
    /// A configuration file given first on the command line (a sentinel's, which it
    /// rewrites, started with `--sentinel` among `extra_args`).
    pub config_file: Option<PathBuf>,
}

impl RedisOptions {
    /// Options with AOF persistence on.
    pub fn with_aof() -> Self {
        RedisOptions {
            aof: true,
            ..Self::default()
        }
    }
}

/// A `redis-server` process owned by a test. Dropping it stops the server.
#[derive(Debug)]
pub struct RedisServer {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
    _tempdir: Option<tempfile::TempDir>,
    options: RedisOptions,
}

/// A TCP port on 127.0.0.1 that is free now and that this process has never handed out
/// before.
///
/// Two things made `bind(":0")`-and-release racy when tests run in parallel: the kernel
/// may return the same port to the next caller once the probe listener is closed (two
/// servers of one cluster then fight over it), and outgoing connections draw their local
/// ports from the same ephemeral range. So ports come from a counter over a range below
/// the kernel's ephemeral range (read from `/proc/sys/net/ipv4/ip_local_port_range`),
/// starting at an offset derived from the process id, and each is handed out once.
pub fn free_port() -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let (low, span) = port_range();
    let offset = std::process::id() % span;
    for _ in 0..span {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let port = low + (offset + n) % span;
        let Ok(port) = u16::try_from(port) else {
            continue;
        };
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free TCP port on 127.0.0.1 in {low}..{}", low + span);
}

/// The range test servers take ports from: `(first, length)`, below the ephemeral range.
fn port_range() -> (u32, u32) {
    const LOW: u32 = 15_000;
    let ephemeral_low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(32_768u32);
    if ephemeral_low >= LOW + 2_000 {
        (LOW, ephemeral_low - LOW)
    } else {
        // An unusual kernel setting: use the ports above the ephemeral range instead.
        (61_000, 4_000)
    }
}

fn binary(env: &str, installed: &str, name: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(env) {
        return PathBuf::from(p);
    }
    let installed = Path::new(installed);
    if installed.exists() {
        installed.to_path_buf()
    } else {
        PathBuf::from(name)
    }
}

/// The `redis-server` binary used.
pub fn redis_server_binary() -> PathBuf {
    binary(
        "CHORUS_REDIS_SERVER",
        "/usr/bin/redis-server",
        "redis-server",
    )
}

/// The `redis-cli` binary used.
pub fn redis_cli_binary() -> PathBuf {
    binary("CHORUS_REDIS_CLI", "/usr/bin/redis-cli", "redis-cli")
}

impl RedisServer {
    /// Starts a server with no persistence on a free port. Panics when it cannot start.
    pub fn start() -> Self {
        Self::start_with(RedisOptions::default())
    }

    /// Starts a server with `options` on a free port. Panics when it cannot start.
    pub fn start_with(options: RedisOptions) -> Self {
        let (tempdir, dir) = match &options.dir {
            Some(d) => (None, d.clone()),
            None => {
                let t = tempfile::tempdir().expect("create a temporary Redis data dir");
                let d = t.path().to_path_buf();
                (Some(t), d)
            }
        };
        let mut server = RedisServer {
            child: None,
            port: 0,
            dir,
            _tempdir: tempdir,
            options,
        };
        let mut last_error = String::new();
        for _ in 0..5 {
            server.port = free_port();
            match server.spawn() {
                Ok(()) => return server,
                Err(e) => last_error = e,
            }
        }
        panic!("redis-server did not start: {last_error}");
    }

    /// The URL to connect to (`redis://127.0.0.1:<port>`).
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Its data directory (AOF files and `redis.log` live here).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The server's process id, while running.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Stops the server gracefully (SIGTERM, so AOF is flushed) and starts it again on the
    /// same port with the same data directory. Panics when it cannot come back.
    pub fn restart(&mut self) {
        self.stop();
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            match self.spawn() {
                Ok(()) => return,
                Err(e) if Instant::now() > deadline => {
                    panic!("redis-server did not restart on port {}: {e}", self.port)
                }
                Err(_) => sleep(Duration::from_millis(100)),
            }
        }
    }

    /// Stops the server gracefully; a no-op when already stopped.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let deadline = Instant::now() + STOP_TIMEOUT;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Kills the server at once (SIGKILL), like a crash; [`RedisServer::restart`] brings it back.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Runs `redis-cli -p <port> <args…>` against this server and returns its output.
    pub fn redis_cli(&self, args: &[&str]) -> Output {
        Command::new(redis_cli_binary())
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
            .args(self.options.cli_user.iter().flat_map(|(user, password)| {
                ["--user", user, "--pass", password, "--no-auth-warning"]
            }))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run redis-cli")
    }

    /// Runs redis-cli and returns its stdout, trimmed; panics when redis-cli fails.
    pub fn cli(&self, args: &[&str]) -> String {
        let out = self.redis_cli(args);
        assert!(
            out.status.success(),
            "redis-cli {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn spawn(&mut self) -> Result<(), String> {
        let port = self.port.to_string();
        let dir = self.dir.to_string_lossy().into_owned();
        let log = self.dir.join("redis.log").to_string_lossy().into_owned();
        let mut cmd = Command::new(redis_server_binary());
        if let Some(file) = &self.options.config_file {
            cmd.arg(file);
        }
        cmd.args(["--port", &port, "--bind", "127.0.0.1", "--dir", &dir])
            .args(["--logfile", &log, "--save", "", "--daemonize", "no"]);
        if self.options.aof {
            cmd.args(["--appendonly", "yes", "--appendfsync", "always"]);
        } else {
            cmd.args(["--appendonly", "no"]);
        }
        cmd.args(&self.options.extra_args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().map_err(|e| format!("spawn: {e}"))?;
        let deadline = Instant::now() + START_TIMEOUT;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("exited with {status}; see {log}"));
            }
            if ping(self.port) {
                self.child = Some(child);
                return Ok(());
            }
            sleep(Duration::from_millis(10));
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(format!("no PONG within {START_TIMEOUT:?}"))
    }
}

/// Whether a server on `port` answers PING with PONG, or NOAUTH (not LOADING).
fn ping(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    if stream.write_all(b"PING\r\n").is_err() {
        return false;
    }
    let mut buf = [0u8; 64];
    // A server whose default user is off (an ACL file) answers NOAUTH: it is up.
    matches!(stream.read(&mut buf), Ok(n) if buf[..n].starts_with(b"+PONG") || buf[..n].starts_with(b"-NOAUTH"))
}

/// Starts a process that kills `pids` (SIGKILL) once this process has exited: the
/// servers of a set shared by a test binary's tests (never dropped) stop with it.
pub(crate) fn watchdog(pids: &[u32]) -> Child {
    let pids: Vec<String> = pids.iter().map(u32::to_string).collect();
    let script = format!(
        "while kill -0 {parent} 2>/dev/null; do sleep 0.5; done; kill -9 {pids} 2>/dev/null",
        parent = std::process::id(),
        pids = pids.join(" ")
    );
    Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the watchdog")
}

/// Kills the process `pid` at once (SIGKILL), like a crash; the owner of its `Child`
/// reaps it later.
pub(crate) fn kill_pid(pid: u32) {
    let ok = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "kill -KILL {pid} failed");
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restarted_aof_server_keeps_its_data_on_the_same_port() {
        let mut redis = RedisServer::start_with(RedisOptions::with_aof());
        let port = redis.port();
        assert_eq!(redis.cli(&["SET", "k", "v"]), "OK");
        redis.restart();
        assert_eq!(redis.port(), port);
        assert_eq!(redis.cli(&["GET", "k"]), "v");
    }

    #[test]
    fn a_plain_server_answers_and_stops_on_drop() {
        let redis = RedisServer::start();
        let port = redis.port();
        assert_eq!(redis.cli(&["PING"]), "PONG");
        drop(redis);
        assert!(!ping(port));
    }
}
