//! The cluster: Redis, both MCP servers and every role started as processes, and
//! what a test does to them (signals, kills, registry reads, bare redis-cli writes).

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chorus_testkit::launcher::{self, Output};
use chorus_testkit::{RedisCluster, RedisOptions, RedisSentinel, RedisServer};

use crate::{Proc, bin, free_port, wait_for_port};

/// How to start a cluster.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// Replicas of the math pool.
    pub math_replicas: usize,
    /// Replicas of the date pool.
    pub date_replicas: usize,
    /// Extra environment for every role (e.g. `CHORUS__AGENTS__DEADLINE_MS`); its
    /// `CHORUS__BUS__REDIS_URL`, when set, wins over the test server's plain URL.
    pub env: BTreeMap<String, String>,
    /// Extra environment per role, by consumer group (`chief`, `pool-math`, …): e.g.
    /// each role's Redis user and password.
    pub role_env: BTreeMap<String, BTreeMap<String, String>>,
    /// How to start Redis (an ACL file, a TLS port, …).
    pub redis: RedisOptions,
    /// Extra environment for the MCP servers (e.g. `OTEL_EXPORTER_OTLP_ENDPOINT`).
    pub mcp_env: BTreeMap<String, String>,
    /// Run on a Redis Cluster of three primaries and three replicas (started for this
    /// cluster, with `redis`'s extra arguments and redis-cli user) instead of one
    /// server: every role gets `bus.redis_mode = "cluster"`.
    pub redis_cluster: bool,
    /// Run on a primary with two replicas and three sentinels (started for this
    /// cluster) instead of one server: every role gets `bus.redis_mode = "sentinel"`.
    pub redis_sentinel: bool,
    /// Start pool agents from `chorus-pool` (the binary beside `chorus`) rather than
    /// `chorus agent pool`; by default as the launcher says (`chorus-pool` unless
    /// `CHORUS_POOL_BIN=0`).
    pub pool_binary: bool,
}

impl Default for ClusterOptions {
    fn default() -> Self {
        ClusterOptions {
            math_replicas: 1,
            date_replicas: 1,
            env: BTreeMap::new(),
            role_env: BTreeMap::new(),
            redis: RedisOptions::default(),
            mcp_env: BTreeMap::new(),
            redis_cluster: false,
            redis_sentinel: false,
            pool_binary: launcher::pool_binary_wanted(),
        }
    }
}

/// Redis, both MCP servers and every role, each its own process.
pub struct Cluster {
    /// The processes by name (`math-mcp`, `chief`, `pool-math-0`, …); dropped (killed)
    /// before Redis.
    pub procs: BTreeMap<String, Proc>,
    /// The Redis server.
    pub redis: RedisServer,
    /// The Redis Cluster every role uses instead, when asked for.
    pub redis_cluster: Option<RedisCluster>,
    /// The Sentinel set-up every role uses instead, when asked for.
    pub redis_sentinel: Option<RedisSentinel>,
    env: BTreeMap<String, String>,
    role_env: BTreeMap<String, BTreeMap<String, String>>,
    mcp_env: BTreeMap<String, String>,
    pool_binary: bool,
    /// The math MCP server's port.
    pub math_port: u16,
    /// The date MCP server's port.
    pub date_port: u16,
    /// The Chief's HTTP API port.
    pub http_port: u16,
}

impl Cluster {
    /// Starts everything and waits until the MCP servers listen.
    pub fn start(opts: ClusterOptions) -> Cluster {
        let redis = RedisServer::start_with(opts.redis.clone());
        let math_port = free_port();
        let date_port = free_port();
        let http_port = free_port();
        let mut env = opts.env.clone();
        env.extend(launcher::role_env(&redis.url(), math_port, date_port));
        if let Some(url) = opts.env.get("CHORUS__BUS__REDIS_URL") {
            env.insert("CHORUS__BUS__REDIS_URL".into(), url.clone());
        }
        let redis_cluster = opts
            .redis_cluster
            .then(|| RedisCluster::start_with(&opts.redis));
        if let Some(c) = &redis_cluster {
            let urls = c.urls();
            env.insert("CHORUS__BUS__REDIS_MODE".into(), "cluster".into());
            env.insert("CHORUS__BUS__REDIS_URL".into(), urls[0].clone());
            env.insert("CHORUS__BUS__CLUSTER_NODES".into(), urls[1..].join(","));
        }
        let redis_sentinel = opts.redis_sentinel.then(RedisSentinel::start);
        if let Some(s) = &redis_sentinel {
            env.insert("CHORUS__BUS__REDIS_MODE".into(), "sentinel".into());
            env.insert(
                "CHORUS__BUS__SENTINEL_MASTER".into(),
                s.master_name().to_owned(),
            );
            env.insert("CHORUS__BUS__SENTINELS".into(), s.sentinel_urls().join(","));
        }
        env.insert(
            "CHORUS__AGENTS__HTTP_BIND".into(),
            format!("127.0.0.1:{http_port}"),
        );
        env.entry("CHORUS__BUS__CLAIM_IDLE_MS".into())
            .or_insert_with(|| "1500".into());
        let mut cluster = Cluster {
            redis,
            redis_cluster,
            redis_sentinel,
            procs: BTreeMap::new(),
            env,
            role_env: opts.role_env.clone(),
            mcp_env: opts.mcp_env.clone(),
            pool_binary: opts.pool_binary,
            math_port,
            date_port,
            http_port,
        };
        cluster.start_mcp("math-mcp", "chorus-mcp-math", math_port);
        cluster.start_mcp("date-mcp", "chorus-mcp-date", date_port);
        for role in ["chief", "planner", "router", "synthesizer", "verifier"] {
            cluster.start_role(role, role, None);
        }
        for i in 0..opts.math_replicas {
            cluster.start_role(&format!("pool-math-{i}"), "pool", Some("math"));
        }
        for i in 0..opts.date_replicas {
            cluster.start_role(&format!("pool-date-{i}"), "pool", Some("date"));
        }
        wait_for_port(math_port, Duration::from_secs(10));
        wait_for_port(date_port, Duration::from_secs(10));
        let roles = 5 + opts.math_replicas + opts.date_replicas;
        cluster.wait_ready(roles, Duration::from_secs(20));
        wait_for_port(http_port, Duration::from_secs(10));
        for p in cluster.procs.values_mut() {
            assert!(p.is_running(), "{} exited during start-up", p.name);
        }
        cluster
    }

    /// Runs redis-cli against the Redis the roles use (`-c` on a Cluster, the primary
    /// with Sentinel) and returns its stdout, trimmed.
    pub fn cli(&self, args: &[&str]) -> String {
        match (&self.redis_cluster, &self.redis_sentinel) {
            (Some(c), _) => c.cli(args),
            (None, Some(s)) => s.cli(args),
            (None, None) => self.redis.cli(args),
        }
    }

    /// Every entry of the registry (`chorus:registry:<group>` for each group in the
    /// index `chorus:registry`), expired or not, as JSON.
    pub fn registry_entries(&self) -> Vec<serde_json::Value> {
        let groups = self.cli(&["ZRANGE", chorus_bus::keys::REGISTRY, "0", "-1"]);
        groups
            .lines()
            .filter(|g| !g.trim().is_empty())
            .flat_map(|group| {
                let out = self.cli(&["HVALS", &chorus_bus::keys::registry(group.trim())]);
                out.lines()
                    .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Live registry entries: pool agents count only once they list tools.
    pub fn live_agents(&self) -> usize {
        self.registry_entries()
            .into_iter()
            .filter(|e| {
                let hb = &e["heartbeat"];
                hb["pool"].is_null() || hb["tools"].as_array().is_some_and(|t| !t.is_empty())
            })
            .count()
    }

    /// Waits until `n` agents are live in the registry.
    pub fn wait_ready(&self, n: usize, within: Duration) {
        let start = Instant::now();
        while start.elapsed() < within {
            if self.live_agents() >= n {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!(
            "only {} of {n} agents announced themselves within {within:?}",
            self.live_agents()
        );
    }

    /// Starts an MCP server binary over Streamable HTTP on `port`.
    pub fn start_mcp(&mut self, name: &str, binary: &str, port: u16) {
        let mut cmd = launcher::mcp_http(&bin(binary), port);
        cmd.envs(&self.mcp_env);
        let proc = Proc::spawn(name, cmd, Output::Inherit)
            .unwrap_or_else(|e| panic!("starting {binary}: {e}"));
        self.procs.insert(name.to_owned(), proc);
    }

    /// Starts `chorus agent ROLE [--pool P]` under `name` (replacing a dead one of that name).
    pub fn start_role(&mut self, name: &str, role: &str, pool: Option<&str>) {
        self.start_role_with(name, role, pool, &[]);
    }

    /// Like [`Cluster::start_role`], with extra environment overriding the cluster's.
    pub fn start_role_with(
        &mut self,
        name: &str,
        role: &str,
        pool: Option<&str>,
        extra: &[(&str, String)],
    ) {
        let log = std::env::var("CHORUS_LOG").unwrap_or_else(|_| "warn".into());
        let mut cmd = launcher::role_from(
            &bin("chorus"),
            role,
            pool,
            &self.env,
            &log,
            self.pool_binary,
        );
        let group = pool.map_or_else(|| role.to_owned(), |p| format!("pool-{p}"));
        if let Some(own) = self.role_env.get(&group) {
            cmd.envs(own);
        }
        cmd.envs(extra.iter().map(|(k, v)| (*k, v.as_str())));
        let proc = Proc::spawn(name, cmd, Output::Inherit)
            .unwrap_or_else(|e| panic!("starting chorus agent {role}: {e}"));
        self.procs.insert(name.to_owned(), proc);
    }

    /// Freezes (SIGSTOP) or thaws (SIGCONT) the named process. A freeze returns once
    /// every thread of the process is stopped: `kill` only queues the stop, and on a
    /// loaded machine a thread still running could otherwise answer a request sent
    /// right after (seen: a "frozen" math server answered 2+4 7 ms after SIGSTOP).
    pub fn signal(&self, name: &str, signal: &str) {
        let pid = self
            .procs
            .get(name)
            .map(|p| p.pid())
            .expect("known process");
        chorus_testkit::signals::send(pid, signal);
    }

    /// Kills the named process (SIGKILL).
    pub fn kill(&mut self, name: &str) {
        if let Some(p) = self.procs.get_mut(name) {
            p.kill();
        }
    }

    /// A client of the cluster's Redis through the bus.
    pub async fn bus(&self) -> chorus_bus_redis::RedisBus {
        chorus_bus_redis::RedisBus::connect(self.bus_settings())
            .await
            .expect("connect to redis")
    }

    /// The bus settings of a client of the Redis the roles use (standalone, Cluster or
    /// Sentinel), the rest default.
    pub fn bus_settings(&self) -> chorus_bus::BusSettings {
        // The roles' `bus.partitions`, when the test set it.
        let partitions = self
            .env
            .get("CHORUS__BUS__PARTITIONS")
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        chorus_bus::BusSettings {
            partitions,
            ..self.bus_settings_of_redis()
        }
    }

    /// [`Self::bus_settings`] but for `bus.partitions`.
    fn bus_settings_of_redis(&self) -> chorus_bus::BusSettings {
        match (&self.redis_cluster, &self.redis_sentinel) {
            (Some(c), _) => {
                let urls = c.urls();
                chorus_bus::BusSettings {
                    redis_url: urls[0].clone(),
                    redis_mode: chorus_bus::RedisMode::Cluster,
                    cluster_nodes: urls[1..].to_vec(),
                    ..chorus_bus::BusSettings::default()
                }
            }
            (None, Some(s)) => chorus_bus::BusSettings {
                redis_mode: chorus_bus::RedisMode::Sentinel,
                sentinel_master: Some(s.master_name().to_owned()),
                sentinels: s.sentinel_urls(),
                ..chorus_bus::BusSettings::default()
            },
            (None, None) => chorus_bus::BusSettings {
                redis_url: self.redis.url(),
                ..chorus_bus::BusSettings::default()
            },
        }
    }

    /// The environment every role gets (Redis URL, MCP endpoints, settings).
    pub fn env(&self) -> &BTreeMap<String, String> {
        &self.env
    }

    /// A `chorus` command with the cluster's environment (Redis URL, pools, settings),
    /// its output captured, ready for arguments such as `ask --redis "2+4"`.
    pub fn chorus(&self) -> Command {
        let mut cmd = Command::new(bin("chorus"));
        cmd.envs(&self.env)
            .env("CHORUS_LOG", "error")
            .stdin(Stdio::null());
        cmd
    }

    /// Whether a live (unexpired) agent of `pool` offers at least one tool in the
    /// registry.
    pub fn pool_live(&self, pool: &str) -> bool {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        self.registry_entries().into_iter().any(|e| {
            let hb = &e["heartbeat"];
            hb["pool"].as_str() == Some(pool)
                && hb["tools"].as_array().is_some_and(|t| !t.is_empty())
                && e["expires_ms"].as_u64().is_some_and(|x| x > now_ms)
        })
    }

    /// Waits until [`Cluster::pool_live`] is `live` for `pool`.
    pub fn wait_pool(&self, pool: &str, live: bool, within: Duration) {
        let start = Instant::now();
        while start.elapsed() < within {
            if self.pool_live(pool) == live {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the {pool} pool did not become live={live} within {within:?}");
    }
}

// ---- Bare client messages and dead letters (the ask-back tests, tests/questions.rs) ----

impl Cluster {
    /// `XADD topic * data JSON` as a client with no SDK does it; returns the entry id.
    pub fn xadd_bare(&self, topic: &str, json: &str) -> String {
        self.cli(&["XADD", topic, "*", "data", json])
    }

    /// `PUBLISH topic JSON` as a client with no SDK does it; panics when nobody listened
    /// (Pub/Sub keeps nothing, so a PUBLISH heard by no Chief would be lost silently).
    pub fn publish_bare(&self, topic: &str, json: &str) {
        let heard = self.cli(&["PUBLISH", topic, json]);
        assert!(
            heard.parse::<u64>().is_ok_and(|n| n > 0),
            "PUBLISH {topic} reached no listener ({heard})"
        );
    }
}
