//! A local Redis Sentinel set-up for tests: one primary, two replicas (`--replicaof`)
//! and three sentinels (`redis-server <sentinel.conf> --sentinel`, each with a generated
//! configuration monitoring the primary with quorum 2), all on free ports. It is ready
//! once every sentinel names the primary and sees both replicas and the two other
//! sentinels. [`RedisSentinel::kill_primary`] crashes the primary (SIGKILL) and
//! [`RedisSentinel::wait_failover`] waits until the sentinels have promoted a replica.
//! Dropping it stops every process by PID; a set shared by the tests of one binary
//! ([`RedisSentinel::shared`]) is stopped by a watchdog once the test process is gone.

use std::process::Child;
use std::sync::OnceLock;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::{RedisOptions, RedisServer};

/// How long the set-up may take to be ready (replicas in sync, sentinels agreed).
const READY_TIMEOUT: Duration = Duration::from_secs(60);
/// The master name the sentinels monitor.
pub const MASTER_NAME: &str = "chorus";
/// A primary unreachable this long is subjectively down for a sentinel.
const DOWN_AFTER_MS: u64 = 1000;
/// Sentinel's failover timeout.
const FAILOVER_TIMEOUT_MS: u64 = 5000;

/// A primary, two replicas and three sentinels.
#[derive(Debug)]
pub struct RedisSentinel {
    /// The data nodes; the first started as the primary.
    data: Vec<RedisServer>,
    sentinels: Vec<RedisServer>,
    watchdog: Option<Child>,
    /// The sentinels' directories (their configuration files), removed last.
    _dirs: Vec<tempfile::TempDir>,
}

impl RedisSentinel {
    /// Starts the primary, its two replicas and three sentinels, and waits until they
    /// agree. Panics when the set-up does not come up.
    pub fn start() -> Self {
        let primary = RedisServer::start();
        let replica_of = || RedisOptions {
            extra_args: vec![
                "--replicaof".into(),
                "127.0.0.1".into(),
                primary.port().to_string(),
            ],
            ..RedisOptions::default()
        };
        let replicas = [
            RedisServer::start_with(replica_of()),
            RedisServer::start_with(replica_of()),
        ];
        let mut data = vec![primary];
        data.extend(replicas);
        wait_until(
            READY_TIMEOUT,
            "the replicas to sync with the primary",
            || {
                let info =
                    String::from_utf8_lossy(&data[0].redis_cli(&["INFO", "replication"]).stdout)
                        .into_owned();
                info.matches("state=online").count() == 2
            },
        );
        let primary_port = data[0].port();
        let mut dirs = Vec::new();
        let mut sentinels = Vec::new();
        for _ in 0..3 {
            let dir = tempfile::tempdir().expect("a sentinel's directory");
            let conf = dir.path().join("sentinel.conf");
            std::fs::write(&conf, sentinel_conf(primary_port)).expect("write sentinel.conf");
            sentinels.push(RedisServer::start_with(RedisOptions {
                dir: Some(dir.path().to_path_buf()),
                config_file: Some(conf),
                extra_args: vec!["--sentinel".into()],
                ..RedisOptions::default()
            }));
            dirs.push(dir);
        }
        let set = RedisSentinel {
            data,
            sentinels,
            watchdog: None,
            _dirs: dirs,
        };
        wait_until(READY_TIMEOUT, "the sentinels to agree", || {
            set.sentinels.iter().all(|s| {
                let m = master_state(s);
                m.get("flags").map(String::as_str) == Some("master")
                    && m.get("port").and_then(|p| p.parse().ok()) == Some(primary_port)
                    && m.get("num-slaves").map(String::as_str) == Some("2")
                    && m.get("num-other-sentinels").map(String::as_str) == Some("2")
            })
        });
        set
    }

    /// One set-up for every test of this process that asks for it, started on first use
    /// and stopped (by a watchdog) when the process ends.
    pub fn shared() -> &'static RedisSentinel {
        static SHARED: OnceLock<RedisSentinel> = OnceLock::new();
        SHARED.get_or_init(|| {
            let mut set = RedisSentinel::start();
            let pids: Vec<u32> = set
                .data
                .iter()
                .chain(&set.sentinels)
                .filter_map(RedisServer::pid)
                .collect();
            set.watchdog = Some(crate::watchdog(&pids));
            set
        })
    }

    /// The master name the sentinels monitor.
    pub fn master_name(&self) -> &'static str {
        MASTER_NAME
    }

    /// The sentinels' URLs (`redis://127.0.0.1:<port>`).
    pub fn sentinel_urls(&self) -> Vec<String> {
        self.sentinels.iter().map(RedisServer::url).collect()
    }

    /// The data nodes (the primary and its replicas, in start order).
    pub fn data_nodes(&self) -> &[RedisServer] {
        &self.data
    }

    /// The port of the primary as the first sentinel that answers names it.
    pub fn primary_port(&self) -> Option<u16> {
        self.sentinels.iter().find_map(|s| {
            let out = s.redis_cli(&["SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME]);
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            text.lines().nth(1)?.trim().parse().ok()
        })
    }

    /// The data node the sentinels name primary.
    pub fn primary(&self) -> &RedisServer {
        let port = self.primary_port().expect("a sentinel names the primary");
        self.data
            .iter()
            .find(|n| n.port() == port)
            .expect("the primary is a node of this set-up")
    }

    /// Runs redis-cli against the primary and returns its stdout, trimmed; panics when
    /// redis-cli fails.
    pub fn cli(&self, args: &[&str]) -> String {
        self.primary().cli(args)
    }

    /// Deletes every key and script on the primary (the replicas follow), so the next
    /// test starts from an empty Redis.
    pub fn flush(&self) {
        let primary = self.primary();
        primary.cli(&["FLUSHALL"]);
        primary.cli(&["SCRIPT", "FLUSH"]);
    }

    /// Kills the primary (SIGKILL), as a crash would, and returns its port.
    pub fn kill_primary(&self) -> u16 {
        let primary = self.primary();
        crate::kill_pid(primary.pid().expect("the primary is running"));
        primary.port()
    }

    /// Asks the sentinels for a failover with the primary alive (`SENTINEL FAILOVER`): a
    /// replica is promoted and the old primary becomes its replica. Returns the old
    /// primary's port; [`RedisSentinel::wait_failover`] waits for the switch.
    pub fn fail_over(&self) -> u16 {
        let old = self.primary().port();
        let reply = self.sentinels[0].cli(&["SENTINEL", "FAILOVER", MASTER_NAME]);
        assert_eq!(reply, "OK", "SENTINEL FAILOVER refused");
        old
    }

    /// Waits until every sentinel names a primary other than the one on `old_port`, and
    /// that node answers as a primary; returns how long that took. Panics after `within`.
    pub fn wait_failover(&self, old_port: u16, within: Duration) -> Duration {
        let start = Instant::now();
        wait_until(within, "the sentinels to promote a replica", || {
            let ports: Vec<Option<u16>> = self
                .sentinels
                .iter()
                .map(|s| master_state(s).get("port").and_then(|p| p.parse().ok()))
                .collect();
            let Some(Some(new)) = ports.first().copied() else {
                return false;
            };
            new != old_port
                && ports.iter().all(|p| *p == Some(new))
                && self.data.iter().any(|n| {
                    n.port() == new
                        && String::from_utf8_lossy(&n.redis_cli(&["ROLE"]).stdout)
                            .starts_with("master")
                })
        });
        start.elapsed()
    }
}

impl Drop for RedisSentinel {
    fn drop(&mut self) {
        if let Some(mut watchdog) = self.watchdog.take() {
            let _ = watchdog.kill();
            let _ = watchdog.wait();
        }
        // The sentinels and the data nodes stop by PID as each RedisServer drops.
    }
}

/// A sentinel's configuration: monitor the primary on `port` with quorum 2, down after
/// [`DOWN_AFTER_MS`].
fn sentinel_conf(port: u16) -> String {
    format!(
        "sentinel monitor {MASTER_NAME} 127.0.0.1 {port} 2\n\
         sentinel down-after-milliseconds {MASTER_NAME} {DOWN_AFTER_MS}\n\
         sentinel failover-timeout {MASTER_NAME} {FAILOVER_TIMEOUT_MS}\n\
         sentinel parallel-syncs {MASTER_NAME} 1\n"
    )
}

/// `SENTINEL MASTER <name>` as seen by `sentinel`, as field → value (empty when it does
/// not answer).
fn master_state(sentinel: &RedisServer) -> std::collections::HashMap<String, String> {
    let out = sentinel.redis_cli(&["SENTINEL", "MASTER", MASTER_NAME]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .chunks(2)
        .filter_map(|pair| match pair {
            [k, v] => Some(((*k).to_owned(), (*v).to_owned())),
            _ => None,
        })
        .collect()
}

/// Polls `ready` every 100 ms until it holds; panics naming `what` after `within`.
fn wait_until(within: Duration, what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !ready() {
        assert!(
            Instant::now() < deadline,
            "timed out after {within:?} waiting for {what}"
        );
        sleep(Duration::from_millis(100));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentinels_promote_a_replica_when_the_primary_is_killed() {
        let set = RedisSentinel::start();
        assert_eq!(set.cli(&["SET", "k", "v"]), "OK");
        assert_eq!(set.cli(&["WAIT", "2", "5000"]), "2");
        let old = set.kill_primary();
        let took = set.wait_failover(old, Duration::from_secs(30));
        assert_ne!(set.primary_port(), Some(old));
        assert_eq!(set.cli(&["GET", "k"]), "v", "promoted after {took:?}");
    }
}
