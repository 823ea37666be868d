//! Bus settings: where Redis is and how streams are read, claimed, capped and
//! dead-lettered. Loaded from an optional TOML file (section `[bus]`) overlaid by
//! environment variables `CHORUS__BUS__<KEY>` (prefix `CHORUS`, separator `__`), and
//! validated once at start so a bad value fails with the key's name, not later.
//!
//! The parts: reading the file and the environment (`load`), the checks (`validate`),
//! and where and as whom the bus connects (`target`).

mod load;
mod target;
mod validate;

pub use target::redact_url;

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::BusError;

/// Environment variable prefix: `CHORUS__BUS__REDIS_URL` sets `bus.redis_url`.
pub const ENV_PREFIX: &str = "CHORUS";
/// Separator between the prefix and the key segments in environment variable names.
pub const ENV_SEPARATOR: &str = "__";
/// The settings' section in the file and the environment.
pub const SECTION: &str = "bus";

/// How the bus reaches Redis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RedisMode {
    /// One Redis server at `redis_url` (or a proxy in front of one).
    #[default]
    Standalone,
    /// A Redis Cluster (or Valkey cluster): `redis_url` and `cluster_nodes` are seed
    /// nodes; the client learns the rest and follows MOVED/ASK.
    Cluster,
    /// A primary and its replicas watched by Redis Sentinel: `sentinels` are asked for
    /// the primary of `sentinel_master`, and asked again after a failover.
    Sentinel,
}

/// Settings of the bus transports (both Redis and in-memory read the stream settings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BusSettings {
    /// Redis URL (`redis://[user:pass@]host:port[/db]`, or `rediss://` for TLS); in
    /// Cluster mode, the first seed node.
    pub redis_url: String,
    /// `standalone` (one server), `cluster` (Redis Cluster) or `sentinel` (a primary
    /// found through Redis Sentinel).
    pub redis_mode: RedisMode,
    /// More Cluster seed nodes besides `redis_url` (URLs; in the environment, one
    /// comma-separated list). Only read in Cluster mode.
    #[serde(deserialize_with = "load::url_list")]
    pub cluster_nodes: Vec<String>,
    /// The name the sentinels monitor the primary under (`sentinel monitor NAME …`).
    /// Only read, and required, in Sentinel mode.
    pub sentinel_master: Option<String>,
    /// The sentinels' URLs (`redis://[user:pass@]host:26379`, or `rediss://` when the
    /// sentinels and the data nodes speak TLS; in the environment, one comma-separated
    /// list). Only read, and required, in Sentinel mode, where `redis_url` is not.
    #[serde(deserialize_with = "load::url_list")]
    pub sentinels: Vec<String>,
    /// Replicas that must have a publish (`WAIT`) before it returns; 0 (the default)
    /// waits for none. See docs/reliability.md.
    pub replica_acks: u32,
    /// Longest a publish waits for `replica_acks` replicas, in ms; a publish not
    /// acknowledged in time fails (and its message is redelivered).
    pub replica_ack_timeout_ms: u64,
    /// Streams each internal topic is spread over (1, the default: one stream per
    /// topic, named as the topic). With N > 1 a task's messages on `plan_ready`, the
    /// pool topics, the tool events, `clarification_needed`, `renavigate_request` and
    /// `verification_done` go to partition `hash(task id) % N`, a stream of its own
    /// (`keys::partition_stream`); the client-facing topics, dead letters and
    /// heartbeats keep one stream. See docs/bus.md.
    pub partitions: u32,
    /// Longest a `next_batch` call waits for new entries (XREADGROUP BLOCK), in ms.
    pub block_ms: u64,
    /// Most entries returned by one `next_batch` (XREADGROUP COUNT).
    pub batch_count: usize,
    /// An entry pending this long without ack is claimed by another consumer, in ms.
    pub claim_idle_ms: u64,
    /// An entry delivered more times than this goes to `dead_letter`.
    pub max_deliveries: u64,
    /// Approximate cap of every stream's length (XADD MAXLEN ~).
    pub stream_maxlen: usize,
    /// Largest accepted encoded message, in bytes; larger ones are refused or dead-lettered.
    pub max_message_bytes: usize,
    /// Default TTL of per-task state, in seconds (used by agents writing to the store).
    pub state_ttl_secs: u64,
    /// How long a finished task's report and idempotency record are kept once its
    /// report is out, in seconds (the rest of its state is deleted then).
    pub finished_ttl_secs: u64,
    /// Window in which identical bare PUBLISH ingress payloads count as one task, in ms.
    pub ingress_dedupe_ms: u64,
    /// A group's consumer idle this long with nothing pending is deleted when a replica
    /// subscribes (dead process identities do not pile up), in ms.
    pub stale_consumer_ms: u64,
    /// Timeout of connecting to Redis, in ms.
    pub connect_timeout_ms: u64,
    /// Timeout of one command on the shared write connection, in ms.
    pub response_timeout_ms: u64,
    /// The Redis ACL user to connect as (`chorus acl` prints one per role); unset, the
    /// user of the URL, or Redis's `default`.
    pub redis_user: Option<String>,
    /// The NAME of the environment variable holding `redis_user`'s password (the
    /// password itself is never in the settings, a log line or an error message).
    pub redis_password_env: Option<String>,
    /// PEM file of the CA certificate(s) that sign the server's certificate (`rediss://`
    /// only); unset, the system's roots.
    pub tls_ca_file: Option<String>,
    /// PEM file of the client certificate, when Redis asks for one (`tls-auth-clients`);
    /// needs `tls_key_file`.
    pub tls_cert_file: Option<String>,
    /// PEM file of the client certificate's private key; needs `tls_cert_file`.
    pub tls_key_file: Option<String>,
}

impl Default for BusSettings {
    fn default() -> Self {
        BusSettings {
            redis_url: "redis://127.0.0.1:6379".to_owned(),
            redis_mode: RedisMode::Standalone,
            cluster_nodes: Vec::new(),
            sentinel_master: None,
            sentinels: Vec::new(),
            replica_acks: 0,
            replica_ack_timeout_ms: 1000,
            partitions: 1,
            block_ms: 1000,
            batch_count: 64,
            claim_idle_ms: 5000,
            max_deliveries: 5,
            stream_maxlen: 100_000,
            max_message_bytes: 1024 * 1024,
            state_ttl_secs: 86_400,
            finished_ttl_secs: 3_600,
            ingress_dedupe_ms: 10_000,
            stale_consumer_ms: 3_600_000,
            connect_timeout_ms: 2000,
            response_timeout_ms: 5000,
            redis_user: None,
            redis_password_env: None,
            tls_ca_file: None,
            tls_cert_file: None,
            tls_key_file: None,
        }
    }
}

impl BusSettings {
    /// [`BusSettings::block_ms`] as a duration.
    pub fn block(&self) -> Duration {
        Duration::from_millis(self.block_ms)
    }

    /// [`BusSettings::claim_idle_ms`] as a duration.
    pub fn claim_idle(&self) -> Duration {
        Duration::from_millis(self.claim_idle_ms)
    }

    /// [`BusSettings::connect_timeout_ms`] as a duration.
    pub fn connect_timeout(&self) -> Duration {
        Duration::from_millis(self.connect_timeout_ms)
    }

    /// [`BusSettings::response_timeout_ms`] as a duration.
    pub fn response_timeout(&self) -> Duration {
        Duration::from_millis(self.response_timeout_ms)
    }

    /// [`BusSettings::state_ttl_secs`] as a duration.
    pub fn state_ttl(&self) -> Duration {
        Duration::from_secs(self.state_ttl_secs)
    }

    /// [`BusSettings::finished_ttl_secs`] as a duration.
    pub fn finished_ttl(&self) -> Duration {
        Duration::from_secs(self.finished_ttl_secs)
    }

    /// The response timeout of the dedicated blocking-read connection: above the block time.
    pub fn read_timeout(&self) -> Duration {
        Duration::from_millis(self.block_ms + self.response_timeout_ms.max(1000))
    }
}

/// A configuration error naming `bus.<key>`.
fn bad(key: &str, reason: impl Into<String>) -> BusError {
    BusError::Config {
        key: format!("{SECTION}.{key}"),
        reason: reason.into(),
    }
}

/// An environment for [`BusSettings::load_with_env`] in tests.
#[cfg(test)]
fn test_env(pairs: &[(&str, &str)]) -> Option<std::collections::HashMap<String, String>> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
}
