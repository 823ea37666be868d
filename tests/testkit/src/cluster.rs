//! A local Redis Cluster for tests: six `redis-server --cluster-enabled yes` processes on
//! free ports, joined by `redis-cli --cluster create … --cluster-replicas 1` (three
//! primaries, one replica each), ready once every node reports `cluster_state:ok`.
//! Dropping it stops every node by PID. A cluster shared by the tests of one binary
//! ([`RedisCluster::shared`]) lives as long as the process: a watchdog process stops
//! its nodes, by PID, once the test process is gone.

use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::{RedisOptions, RedisServer, redis_cli_binary};

/// How long the cluster may take to agree on its slots.
const READY_TIMEOUT: Duration = Duration::from_secs(60);

/// A Redis Cluster of three primaries and three replicas.
#[derive(Debug)]
pub struct RedisCluster {
    nodes: Vec<RedisServer>,
    watchdog: Option<std::process::Child>,
    /// The user and password redis-cli logs in with, when the default user is off.
    cli_user: Option<(String, String)>,
}

/// redis-cli's arguments to log in as `user` (none without one).
fn auth_args(user: &Option<(String, String)>) -> Vec<String> {
    user.iter()
        .flat_map(|(user, password)| {
            [
                "--user".to_owned(),
                user.clone(),
                "--pass".to_owned(),
                password.clone(),
                "--no-auth-warning".to_owned(),
            ]
        })
        .collect()
}

impl RedisCluster {
    /// Starts six nodes and joins them. Panics when the cluster does not come up.
    pub fn start() -> Self {
        Self::start_with(&RedisOptions::default())
    }

    /// Starts six nodes with `options`' extra arguments (an ACL file, …) and joins them;
    /// with `options.cli_user`, redis-cli logs in as that user and replicas replicate as
    /// it (`masteruser`/`masterauth`), so the `default` user may be off. Other options
    /// (AOF, a data directory) are not used. Panics when the cluster does not come up.
    pub fn start_with(options: &RedisOptions) -> Self {
        let cli_user = options.cli_user.clone();
        let nodes: Vec<RedisServer> = (0..6)
            .map(|_| {
                let mut extra_args: Vec<String> = [
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-node-timeout",
                    "2000",
                ]
                .map(str::to_owned)
                .to_vec();
                if let Some((user, password)) = &cli_user {
                    extra_args.extend([
                        "--masteruser".to_owned(),
                        user.clone(),
                        "--masterauth".to_owned(),
                        password.clone(),
                    ]);
                }
                extra_args.extend(options.extra_args.iter().cloned());
                RedisServer::start_with(RedisOptions {
                    extra_args,
                    cli_user: cli_user.clone(),
                    ..RedisOptions::default()
                })
            })
            .collect();
        let addrs: Vec<String> = nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port()))
            .collect();
        let out = Command::new(redis_cli_binary())
            .args(auth_args(&cli_user))
            .arg("--cluster")
            .arg("create")
            .args(&addrs)
            .args(["--cluster-replicas", "1", "--cluster-yes"])
            .stdin(Stdio::null())
            .output()
            .expect("run redis-cli --cluster create");
        assert!(
            out.status.success(),
            "redis-cli --cluster create failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let cluster = RedisCluster {
            nodes,
            watchdog: None,
            cli_user,
        };
        cluster.wait_ready();
        cluster
    }

    /// One cluster for every test of this process that asks for it, started on first
    /// use and stopped (by a watchdog) when the process ends.
    pub fn shared() -> &'static RedisCluster {
        static SHARED: OnceLock<RedisCluster> = OnceLock::new();
        SHARED.get_or_init(|| {
            let mut cluster = RedisCluster::start();
            cluster.watch_parent();
            cluster
        })
    }

    /// Waits until every node reports `cluster_state:ok` and knows all 16384 slots, and
    /// every replica is in sync with its primary.
    fn wait_ready(&self) {
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            let ready = self.nodes.iter().all(|n| {
                let info =
                    String::from_utf8_lossy(&n.redis_cli(&["CLUSTER", "INFO"]).stdout).into_owned();
                let replication =
                    String::from_utf8_lossy(&n.redis_cli(&["INFO", "replication"]).stdout)
                        .into_owned();
                // Every primary's replica is online (in sync), every replica's link up.
                let in_sync = if replication.contains("role:master") {
                    replication.contains("state=online")
                } else {
                    replication.contains("master_link_status:up")
                };
                info.contains("cluster_state:ok")
                    && info.contains("cluster_slots_ok:16384")
                    && in_sync
            });
            if ready {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the Redis Cluster did not reach cluster_state:ok within {READY_TIMEOUT:?}"
            );
            sleep(Duration::from_millis(100));
        }
    }

    /// Starts a process that kills this cluster's nodes (by PID) once this process has
    /// exited: a shared cluster is never dropped.
    fn watch_parent(&mut self) {
        let pids: Vec<u32> = self.nodes.iter().filter_map(RedisServer::pid).collect();
        self.watchdog = Some(crate::watchdog(&pids));
    }

    /// The seed URLs (`redis://127.0.0.1:<port>`), every node's.
    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(RedisServer::url).collect()
    }

    /// The nodes.
    pub fn nodes(&self) -> &[RedisServer] {
        &self.nodes
    }

    /// Runs `redis-cli -c` (following redirections) against the first node that answers
    /// (a killed primary is passed over) and returns its stdout, trimmed; panics when
    /// redis-cli fails on every node.
    pub fn cli(&self, args: &[&str]) -> String {
        let mut errors = Vec::new();
        for node in &self.nodes {
            let port = node.port().to_string();
            let out = Command::new(redis_cli_binary())
                .args(auth_args(&self.cli_user))
                .args(["-c", "-h", "127.0.0.1", "-p", &port])
                .args(args)
                .stdin(Stdio::null())
                .output()
                .expect("run redis-cli");
            let stdout = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            // redis-cli says "Could not connect" on stdout or stderr, by version.
            let unreachable = stdout.starts_with("Could not connect")
                || String::from_utf8_lossy(&out.stderr).contains("Could not connect");
            if out.status.success() && !unreachable {
                return stdout;
            }
            errors.push(format!(
                "{port}: {}{}",
                stdout,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        panic!("redis-cli -c {args:?} failed on every node: {errors:?}");
    }

    /// The port of the primary serving `key`'s slot, as the first node that answers
    /// sees it (`None` while no live primary serves it).
    pub fn primary_port_of(&self, key: &str) -> Option<u16> {
        let slot: u16 = self.cli(&["CLUSTER", "KEYSLOT", key]).parse().ok()?;
        primary_serving(&self.cli(&["CLUSTER", "NODES"]), slot)
    }

    /// The port of the primary serving `key`'s slot as the node on `via` sees it (`None`
    /// while it knows no live primary serving it). Asks that node only: a frozen node,
    /// which would hold redis-cli forever, is never asked.
    pub fn primary_port_seen_by(&self, via: u16, key: &str) -> Option<u16> {
        let node = self.node(via);
        let slot: u16 = node.cli(&["CLUSTER", "KEYSLOT", key]).parse().ok()?;
        primary_serving(&node.cli(&["CLUSTER", "NODES"]), slot)
    }

    /// The port of a replica of the primary on `primary`, as the node on `via` sees it.
    pub fn replica_port_of(&self, via: u16, primary: u16) -> Option<u16> {
        let nodes = self.node(via).cli(&["CLUSTER", "NODES"]);
        let suffix = format!(":{primary}@");
        let id = nodes.lines().find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            fields
                .get(1)?
                .contains(&suffix)
                .then(|| fields[0].to_owned())
        })?;
        nodes.lines().find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.get(3) != Some(&id.as_str()) {
                return None;
            }
            port_of(fields.get(1)?)
        })
    }

    /// The node listening on `port`; panics when none does.
    pub fn node(&self, port: u16) -> &RedisServer {
        self.nodes
            .iter()
            .find(|n| n.port() == port)
            .unwrap_or_else(|| panic!("no node of this cluster listens on {port}"))
    }

    /// Kills (SIGKILL) the primary serving `key`'s slot, as a crash would, and returns
    /// its port; the cluster promotes its replica ([`RedisCluster::wait_promoted`]).
    pub fn kill_primary_of(&self, key: &str) -> u16 {
        let port = self
            .primary_port_of(key)
            .unwrap_or_else(|| panic!("no primary serves {key:?}"));
        let node = self
            .nodes
            .iter()
            .find(|n| n.port() == port)
            .expect("the primary is a node of this cluster");
        crate::kill_pid(node.pid().expect("the primary is running"));
        port
    }

    /// Waits until a primary other than the one on `old_port` serves `key`'s slot and
    /// every other node reports `cluster_state:ok`; returns how long that took. Panics
    /// after `within`.
    pub fn wait_promoted(&self, key: &str, old_port: u16, within: Duration) -> Duration {
        let start = Instant::now();
        loop {
            let promoted = self.primary_port_of(key).is_some_and(|p| p != old_port);
            let ok = promoted
                && self.nodes.iter().filter(|n| n.port() != old_port).all(|n| {
                    String::from_utf8_lossy(&n.redis_cli(&["CLUSTER", "INFO"]).stdout)
                        .contains("cluster_state:ok")
                });
            if ok {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < within,
                "no replica of the primary on port {old_port} was promoted within {within:?}"
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// Starts the node on `port` again (after [`RedisCluster::kill_primary_of`]), with
    /// its data directory, as a supervisor would: it rejoins as a replica of the primary
    /// promoted in its place. Waits until every primary has a replica in sync again.
    pub fn restart_node(&mut self, port: u16) {
        let node = self
            .nodes
            .iter_mut()
            .find(|n| n.port() == port)
            .expect("a node of this cluster");
        node.restart();
        self.wait_ready();
    }

    /// The ports of the nodes that are primaries now.
    pub fn primary_ports(&self) -> Vec<u16> {
        self.nodes
            .iter()
            .filter(|n| {
                String::from_utf8_lossy(&n.redis_cli(&["ROLE"]).stdout).starts_with("master")
            })
            .map(RedisServer::port)
            .collect()
    }

    /// How many slots the node on `port` serves, as the first node that answers sees it.
    pub fn slots_of(&self, port: u16) -> usize {
        let nodes = self.cli(&["CLUSTER", "NODES"]);
        let suffix = format!(":{port}@");
        nodes
            .lines()
            .find(|line| {
                line.split_whitespace()
                    .nth(1)
                    .is_some_and(|a| a.contains(&suffix))
            })
            .map(|line| {
                line.split_whitespace()
                    .skip(8)
                    .filter(|r| !r.starts_with('['))
                    .map(|range| match range.split_once('-') {
                        Some((lo, hi)) => match (lo.parse::<usize>(), hi.parse::<usize>()) {
                            (Ok(lo), Ok(hi)) => hi + 1 - lo,
                            _ => 0,
                        },
                        None => 1,
                    })
                    .sum()
            })
            .unwrap_or(0)
    }

    /// Moves `slots` slots from the primary on port `from` to the primary on port `to`
    /// with `redis-cli --cluster reshard` (each slot: IMPORTING on `to`, MIGRATING on
    /// `from`, its keys moved by MIGRATE, then given to `to`), as an operator would while
    /// the cluster serves traffic; returns how long it took. Panics when redis-cli fails.
    pub fn reshard(&self, from: u16, to: u16, slots: usize) -> Duration {
        let id = |port: u16| {
            let node = self
                .nodes
                .iter()
                .find(|n| n.port() == port)
                .expect("a node of this cluster");
            node.cli(&["CLUSTER", "MYID"])
        };
        let (from_id, to_id) = (id(from), id(to));
        let start = Instant::now();
        let out = Command::new(redis_cli_binary())
            .args(auth_args(&self.cli_user))
            .args(["--cluster", "reshard", &format!("127.0.0.1:{from}")])
            .args(["--cluster-from", &from_id, "--cluster-to", &to_id])
            .args(["--cluster-slots", &slots.to_string(), "--cluster-yes"])
            .stdin(Stdio::null())
            .output()
            .expect("run redis-cli --cluster reshard");
        let took = start.elapsed();
        assert!(
            out.status.success(),
            "redis-cli --cluster reshard failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        took
    }

    /// Clears every node's statistics (`CONFIG RESETSTAT`), [`RedisCluster::errors`]
    /// among them.
    pub fn reset_stats(&self) {
        for node in &self.nodes {
            node.cli(&["CONFIG", "RESETSTAT"]);
        }
    }

    /// The error replies every node sent since the last [`RedisCluster::reset_stats`],
    /// by kind (`MOVED`, `ASK`, `TRYAGAIN`, …), summed over the nodes (`INFO errorstats`).
    pub fn errors(&self) -> std::collections::BTreeMap<String, u64> {
        let mut out = std::collections::BTreeMap::new();
        for node in &self.nodes {
            let info = node.cli(&["INFO", "errorstats"]);
            for line in info.lines() {
                // errorstat_MOVED:count=12
                let Some((kind, count)) = line
                    .strip_prefix("errorstat_")
                    .and_then(|l| l.split_once(":count="))
                else {
                    continue;
                };
                if let Ok(n) = count.trim().parse::<u64>() {
                    *out.entry(kind.to_owned()).or_insert(0) += n;
                }
            }
        }
        out
    }

    /// Deletes every key and script on every primary (replicas follow), so the next
    /// test starts from an empty cluster.
    pub fn flush(&self) {
        for node in &self.nodes {
            let role = String::from_utf8_lossy(&node.redis_cli(&["ROLE"]).stdout).into_owned();
            if role.starts_with("master") {
                node.cli(&["FLUSHALL"]);
                node.cli(&["SCRIPT", "FLUSH"]);
            }
        }
    }
}

/// The port of the live primary that serves `slot` in `nodes` (`CLUSTER NODES`' text).
fn primary_serving(nodes: &str, slot: u16) -> Option<u16> {
    nodes.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let flags = *fields.get(2)?;
        if !flags.contains("master") || flags.contains("fail") {
            return None;
        }
        let serves = fields.iter().skip(8).any(|range| {
            let (lo, hi) = range.split_once('-').unwrap_or((range, range));
            matches!((lo.parse::<u16>(), hi.parse::<u16>()), (Ok(lo), Ok(hi)) if (lo..=hi).contains(&slot))
        });
        if !serves {
            return None;
        }
        port_of(fields.get(1)?)
    })
}

/// The port of a `CLUSTER NODES` address (`127.0.0.1:7001@17001`).
fn port_of(addr: &str) -> Option<u16> {
    let addr = addr.split(['@', ',']).next()?;
    addr.rsplit_once(':')?.1.parse().ok()
}

impl Drop for RedisCluster {
    fn drop(&mut self) {
        if let Some(mut watchdog) = self.watchdog.take() {
            let _ = watchdog.kill();
            let _ = watchdog.wait();
        }
        // The nodes stop by PID as each RedisServer drops.
    }
}

#[cfg(test)]
mod tests;
