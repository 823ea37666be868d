//! Bus settings: where Redis is and how streams are read, claimed, capped and
//! dead-lettered. Loaded from an optional TOML file (section `[bus]`) overlaid by
//! environment variables `CHORUS__BUS__<KEY>` (prefix `CHORUS`, separator `__`), and
//! validated once at start so a bad value fails with the key's name, not later.

use std::collections::HashMap;
use std::path::Path;
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
    #[serde(deserialize_with = "url_list")]
    pub cluster_nodes: Vec<String>,
    /// The name the sentinels monitor the primary under (`sentinel monitor NAME …`).
    /// Only read, and required, in Sentinel mode.
    pub sentinel_master: Option<String>,
    /// The sentinels' URLs (`redis://[user:pass@]host:26379`, or `rediss://` when the
    /// sentinels and the data nodes speak TLS; in the environment, one comma-separated
    /// list). Only read, and required, in Sentinel mode, where `redis_url` is not.
    #[serde(deserialize_with = "url_list")]
    pub sentinels: Vec<String>,
    /// Replicas that must have a publish (`WAIT`) before it returns; 0 (the default)
    /// waits for none. See docs/reliability.md.
    pub replica_acks: u32,
    /// Longest a publish waits for `replica_acks` replicas, in ms; a publish not
    /// acknowledged in time fails (and its message is redelivered).
    pub replica_ack_timeout_ms: u64,
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
    /// Loads `[bus]` from `file` (when given; it must exist) and the `CHORUS__BUS__*`
    /// environment variables, which win over the file, then validates.
    pub fn load(file: Option<&Path>) -> Result<Self, BusError> {
        Self::load_with_env(file, None)
    }

    /// Like [`BusSettings::load`] with an explicit environment (for tests); `None` reads
    /// the process environment.
    pub fn load_with_env(
        file: Option<&Path>,
        env: Option<HashMap<String, String>>,
    ) -> Result<Self, BusError> {
        let mut builder = config::Config::builder();
        if let Some(path) = file {
            builder = builder.add_source(
                config::File::from(path)
                    .format(config::FileFormat::Toml)
                    .required(true),
            );
        }
        builder = builder.add_source(
            config::Environment::with_prefix(ENV_PREFIX)
                .separator(ENV_SEPARATOR)
                .source(env),
        );
        let cfg = builder.build().map_err(config_error)?;
        let table = match cfg.get::<config::Map<String, config::Value>>(SECTION) {
            Ok(t) => t,
            Err(config::ConfigError::NotFound(_)) => config::Map::new(),
            Err(e) => return Err(config_error(e)),
        };
        let settings = from_table(table)?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks every value is usable; the error names the first bad key.
    pub fn validate(&self) -> Result<(), BusError> {
        // The scheme is checked here; the transport parses the rest when it connects.
        let usable = self
            .redis_url
            .split_once("://")
            .is_some_and(|(scheme, rest)| {
                matches!(scheme, "redis" | "rediss" | "unix" | "redis+unix") && !rest.is_empty()
            });
        if !usable {
            return Err(bad("redis_url", "must be a redis:// or rediss:// URL"));
        }
        if !self.cluster_nodes.is_empty() && self.redis_mode != RedisMode::Cluster {
            return Err(bad(
                "cluster_nodes",
                "is only used with redis_mode = \"cluster\"",
            ));
        }
        let scheme = |url: &str| url.split_once("://").map(|(s, _)| s.to_owned());
        for node in &self.cluster_nodes {
            if scheme(node) != scheme(&self.redis_url) {
                return Err(bad(
                    "cluster_nodes",
                    "every seed must be a URL with redis_url's scheme (redis:// or rediss://)",
                ));
            }
        }
        if self.redis_mode == RedisMode::Cluster && self.redis_url.contains("unix") {
            return Err(bad(
                "redis_mode",
                "cluster needs redis:// or rediss:// nodes",
            ));
        }
        self.validate_sentinel()?;
        check_range("block_ms", self.block_ms, 1, 60_000)?;
        check_range("replica_acks", self.replica_acks.into(), 0, 16)?;
        check_range(
            "replica_ack_timeout_ms",
            self.replica_ack_timeout_ms,
            1,
            60_000,
        )?;
        check_range("batch_count", self.batch_count as u64, 1, 10_000)?;
        check_range("claim_idle_ms", self.claim_idle_ms, 10, 86_400_000)?;
        check_range("max_deliveries", self.max_deliveries, 1, 1000)?;
        check_range(
            "stream_maxlen",
            self.stream_maxlen as u64,
            100,
            u32::MAX.into(),
        )?;
        check_range(
            "max_message_bytes",
            self.max_message_bytes as u64,
            1024,
            512 * 1024 * 1024,
        )?;
        check_range("state_ttl_secs", self.state_ttl_secs, 1, 365 * 86_400)?;
        check_range("finished_ttl_secs", self.finished_ttl_secs, 1, 365 * 86_400)?;
        check_range("ingress_dedupe_ms", self.ingress_dedupe_ms, 1, 86_400_000)?;
        check_range("stale_consumer_ms", self.stale_consumer_ms, 1000, u64::MAX)?;
        check_range("connect_timeout_ms", self.connect_timeout_ms, 1, 600_000)?;
        check_range("response_timeout_ms", self.response_timeout_ms, 1, 600_000)?;
        if self.redis_user.as_deref().is_some_and(|u| !is_acl_name(u)) {
            return Err(bad(
                "redis_user",
                "must be a user name (letters, digits, '-', '_', '.')",
            ));
        }
        if let Some(var) = &self.redis_password_env
            && (var.is_empty() || var.contains('='))
        {
            return Err(bad(
                "redis_password_env",
                "must be the name of an environment variable",
            ));
        }
        let tls = self.uses_tls();
        for (key, file) in [
            ("tls_ca_file", &self.tls_ca_file),
            ("tls_cert_file", &self.tls_cert_file),
            ("tls_key_file", &self.tls_key_file),
        ] {
            if file.is_some() && !tls {
                return Err(bad(
                    key,
                    "is only used with a rediss:// redis_url (in Sentinel mode, rediss:// sentinels)",
                ));
            }
        }
        match (&self.tls_cert_file, &self.tls_key_file) {
            (Some(_), None) => return Err(bad("tls_key_file", "is needed with tls_cert_file")),
            (None, Some(_)) => return Err(bad("tls_cert_file", "is needed with tls_key_file")),
            _ => {}
        }
        Ok(())
    }

    /// Checks the Sentinel settings: with `redis_mode = "sentinel"`, a master name and at
    /// least one sentinel URL, all of one scheme; in any other mode, neither.
    fn validate_sentinel(&self) -> Result<(), BusError> {
        if self.redis_mode != RedisMode::Sentinel {
            if self.sentinel_master.is_some() {
                return Err(bad(
                    "sentinel_master",
                    "is only used with redis_mode = \"sentinel\"",
                ));
            }
            if !self.sentinels.is_empty() {
                return Err(bad(
                    "sentinels",
                    "is only used with redis_mode = \"sentinel\"",
                ));
            }
            return Ok(());
        }
        match self.sentinel_master.as_deref() {
            None | Some("") => {
                return Err(bad(
                    "sentinel_master",
                    "is needed with redis_mode = \"sentinel\": the name the sentinels monitor the primary under",
                ));
            }
            Some(name) if !name.chars().all(|c| c.is_ascii_graphic()) => {
                return Err(bad(
                    "sentinel_master",
                    "must be a name without spaces or control characters",
                ));
            }
            Some(_) => {}
        }
        let Some(first) = self.sentinels.first() else {
            return Err(bad(
                "sentinels",
                "is needed with redis_mode = \"sentinel\": one or more sentinel URLs (redis://host:26379)",
            ));
        };
        let scheme = |url: &str| {
            url.split_once("://")
                .map(|(s, rest)| (s.to_owned(), rest.is_empty()))
        };
        for url in &self.sentinels {
            match scheme(url) {
                Some((s, false)) if s == "redis" || s == "rediss" => {}
                _ => {
                    return Err(bad(
                        "sentinels",
                        format!("{} is not a redis:// or rediss:// URL", redact_url(url)),
                    ));
                }
            }
            if scheme(url).map(|(s, _)| s) != scheme(first).map(|(s, _)| s) {
                return Err(bad(
                    "sentinels",
                    "every sentinel must use the same scheme (all redis:// or all rediss://)",
                ));
            }
        }
        Ok(())
    }

    /// Whether the bus talks TLS to Redis: a `rediss://` `redis_url`, or in Sentinel
    /// mode `rediss://` sentinels (the data nodes then speak TLS too).
    pub fn uses_tls(&self) -> bool {
        match self.redis_mode {
            RedisMode::Sentinel => self
                .sentinels
                .first()
                .is_some_and(|s| s.starts_with("rediss://")),
            _ => self.redis_url.starts_with("rediss://"),
        }
    }

    /// Where the bus connects, for messages (passwords masked): `redis_url`, or in
    /// Sentinel mode the master's name and the sentinels.
    pub fn redis_target(&self) -> String {
        match self.redis_mode {
            RedisMode::Sentinel => format!(
                "the primary of {:?} named by the sentinels [{}]",
                self.sentinel_master.as_deref().unwrap_or_default(),
                self.sentinels
                    .iter()
                    .map(|s| redact_url(s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => self.redacted_url(),
        }
    }

    /// The password of `redis_user`, read from the environment variable named by
    /// `redis_password_env` (`None` when no variable is named). The error names the
    /// variable, never a value.
    pub fn redis_password(&self) -> Result<Option<String>, BusError> {
        let Some(var) = &self.redis_password_env else {
            return Ok(None);
        };
        match std::env::var(var) {
            Ok(p) => Ok(Some(p)),
            Err(_) => Err(bad(
                "redis_password_env",
                format!("the environment variable {var} is not set (or not UTF-8)"),
            )),
        }
    }

    /// The Cluster seed nodes: `redis_url`, then `cluster_nodes`.
    pub fn cluster_seeds(&self) -> Vec<String> {
        std::iter::once(self.redis_url.clone())
            .chain(self.cluster_nodes.iter().cloned())
            .collect()
    }

    /// `redis_url` with any password in it replaced by `***`, for messages.
    pub fn redacted_url(&self) -> String {
        redact_url(&self.redis_url)
    }

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

/// A list of URLs, from a TOML array or one comma-separated string (the environment).
fn url_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum List {
        One(String),
        Many(Vec<String>),
    }
    Ok(match List::deserialize(d)? {
        List::One(s) => s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        List::Many(v) => v,
    })
}

/// Whether `s` is usable as a Redis ACL user name here.
fn is_acl_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// `url` with the password of its user-info part (if any) replaced by `***`.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            let masked = if userinfo.contains(':') {
                format!("{user}:***")
            } else {
                user.to_owned()
            };
            format!("{scheme}://{masked}@{host}{path}")
        }
        None => url.to_owned(),
    }
}

fn bad(key: &str, reason: impl Into<String>) -> BusError {
    BusError::Config {
        key: format!("{SECTION}.{key}"),
        reason: reason.into(),
    }
}

fn check_range(key: &str, value: u64, min: u64, max: u64) -> Result<(), BusError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(bad(
            key,
            format!("{value} is outside the accepted range {min}..={max}"),
        ))
    }
}

/// Deserializes the `[bus]` table; on failure, finds the key at fault by trying each
/// key alone (`config` reports only the section for nested tables).
fn from_table(table: config::Map<String, config::Value>) -> Result<BusSettings, BusError> {
    let whole = config::Value::new(None, config::ValueKind::Table(table.clone()));
    let err = match whole.try_deserialize::<BusSettings>() {
        Ok(s) => return Ok(s),
        Err(e) => e,
    };
    for (key, value) in table {
        let single = config::Map::from([(key.clone(), value)]);
        let probe = config::Value::new(None, config::ValueKind::Table(single));
        if let Err(e) = probe.try_deserialize::<BusSettings>() {
            return Err(bad(&key, e.to_string()));
        }
    }
    Err(config_error(err))
}

/// Turns a `config` error into [`BusError::Config`], naming the key when it is known.
fn config_error(e: config::ConfigError) -> BusError {
    let key = match &e {
        config::ConfigError::Type { key: Some(k), .. } => k.clone(),
        config::ConfigError::At { key: Some(k), .. } => k.clone(),
        config::ConfigError::NotFound(k) => k.clone(),
        config::ConfigError::FileParse { uri: Some(u), .. } => u.clone(),
        _ => SECTION.to_owned(),
    };
    BusError::Config {
        key,
        reason: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Option<HashMap<String, String>> {
        Some(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    #[test]
    fn defaults_load_when_nothing_is_set() {
        let s = BusSettings::load_with_env(None, env(&[])).expect("defaults");
        assert_eq!(s, BusSettings::default());
    }

    #[test]
    fn environment_overrides_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("chorus.toml");
        std::fs::write(&path, "[bus]\nblock_ms = 250\nbatch_count = 8\n").expect("write");
        let s = BusSettings::load_with_env(
            Some(&path),
            env(&[
                ("CHORUS__BUS__BATCH_COUNT", "16"),
                ("CHORUS__BUS__REDIS_URL", "redis://10.0.0.1:7000"),
            ]),
        )
        .expect("load");
        assert_eq!(s.block_ms, 250);
        assert_eq!(s.batch_count, 16);
        assert_eq!(s.redis_url, "redis://10.0.0.1:7000");
    }

    #[test]
    fn a_bad_value_names_its_key() {
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__MAX_DELIVERIES", "0")]))
            .expect_err("invalid");
        assert!(err.to_string().contains("bus.max_deliveries"), "{err}");
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__FINISHED_TTL_SECS", "0")]))
            .expect_err("invalid");
        assert!(err.to_string().contains("bus.finished_ttl_secs"), "{err}");
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__BLOCK_MS", "soon")]))
            .expect_err("invalid");
        assert!(err.to_string().contains("block_ms"), "{err}");
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__REDIS_URL", "http://x")]))
            .expect_err("invalid");
        assert!(err.to_string().contains("bus.redis_url"), "{err}");
    }

    #[test]
    fn credentials_and_tls_settings_are_checked_and_the_password_stays_out() {
        let s = BusSettings::load_with_env(
            None,
            env(&[
                ("CHORUS__BUS__REDIS_USER", "planner"),
                (
                    "CHORUS__BUS__REDIS_PASSWORD_ENV",
                    "CHORUS_TEST_NO_SUCH_VAR_1",
                ),
            ]),
        )
        .expect("load");
        assert_eq!(s.redis_user.as_deref(), Some("planner"));
        let err = s.redis_password().expect_err("unset variable");
        assert!(
            err.to_string().contains("CHORUS_TEST_NO_SUCH_VAR_1"),
            "{err}"
        );
        let err =
            BusSettings::load_with_env(None, env(&[("CHORUS__BUS__TLS_CA_FILE", "/etc/ca.pem")]))
                .expect_err("tls file without rediss");
        assert!(err.to_string().contains("bus.tls_ca_file"), "{err}");
        let err = BusSettings::load_with_env(
            None,
            env(&[
                ("CHORUS__BUS__REDIS_URL", "rediss://redis:6380"),
                ("CHORUS__BUS__TLS_CERT_FILE", "/etc/c.pem"),
            ]),
        )
        .expect_err("cert without key");
        assert!(err.to_string().contains("bus.tls_key_file"), "{err}");
        assert_eq!(redact_url("redis://u:s3cret@h:1/0"), "redis://u:***@h:1/0");
        assert_eq!(redact_url("rediss://h:1"), "rediss://h:1");
        assert_eq!(redact_url("redis://:pw@h"), "redis://:***@h");
    }

    #[test]
    fn cluster_mode_takes_seed_nodes_from_a_list_or_the_environment() {
        let s = BusSettings::load_with_env(
            None,
            env(&[
                ("CHORUS__BUS__REDIS_MODE", "cluster"),
                ("CHORUS__BUS__REDIS_URL", "redis://10.0.0.1:7000"),
                (
                    "CHORUS__BUS__CLUSTER_NODES",
                    "redis://10.0.0.2:7000, redis://10.0.0.3:7000",
                ),
            ]),
        )
        .expect("load");
        assert_eq!(s.redis_mode, RedisMode::Cluster);
        assert_eq!(
            s.cluster_seeds(),
            [
                "redis://10.0.0.1:7000",
                "redis://10.0.0.2:7000",
                "redis://10.0.0.3:7000"
            ]
        );
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("chorus.toml");
        std::fs::write(
            &path,
            "[bus]\nredis_mode = \"cluster\"\ncluster_nodes = [\"redis://b:1\"]\n",
        )
        .expect("write");
        let s = BusSettings::load_with_env(Some(&path), env(&[])).expect("load");
        assert_eq!(s.cluster_nodes, ["redis://b:1"]);
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__REDIS_MODE", "clustr")]))
            .expect_err("typo");
        assert!(err.to_string().contains("redis_mode"), "{err}");
        let err =
            BusSettings::load_with_env(None, env(&[("CHORUS__BUS__CLUSTER_NODES", "redis://b:1")]))
                .expect_err("seeds without cluster mode");
        assert!(err.to_string().contains("bus.cluster_nodes"), "{err}");
        let err = BusSettings::load_with_env(
            None,
            env(&[
                ("CHORUS__BUS__REDIS_MODE", "cluster"),
                ("CHORUS__BUS__CLUSTER_NODES", "rediss://b:1"),
            ]),
        )
        .expect_err("mixed schemes");
        assert!(err.to_string().contains("bus.cluster_nodes"), "{err}");
    }

    #[test]
    fn sentinel_mode_takes_a_master_name_and_sentinels_from_a_list_or_the_environment() {
        let s = BusSettings::load_with_env(
            None,
            env(&[
                ("CHORUS__BUS__REDIS_MODE", "sentinel"),
                ("CHORUS__BUS__SENTINEL_MASTER", "chorus"),
                (
                    "CHORUS__BUS__SENTINELS",
                    "redis://10.0.0.1:26379, redis://10.0.0.2:26379,redis://10.0.0.3:26379",
                ),
            ]),
        )
        .expect("load");
        assert_eq!(s.redis_mode, RedisMode::Sentinel);
        assert_eq!(s.sentinel_master.as_deref(), Some("chorus"));
        assert_eq!(s.sentinels.len(), 3);
        assert_eq!(s.sentinels[1], "redis://10.0.0.2:26379");
        assert!(!s.uses_tls());
        assert!(
            s.redis_target().contains("\"chorus\""),
            "{}",
            s.redis_target()
        );
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("chorus.toml");
        std::fs::write(
            &path,
            "[bus]\nredis_mode = \"sentinel\"\nsentinel_master = \"m\"\nsentinels = [\"rediss://u:pw@s1:26379\", \"rediss://s2:26379\"]\ntls_ca_file = \"/etc/ca.pem\"\n",
        )
        .expect("write");
        let s = BusSettings::load_with_env(Some(&path), env(&[])).expect("load");
        assert!(s.uses_tls());
        assert!(!s.redis_target().contains("pw"), "{}", s.redis_target());
        let missing = |pairs: &[(&str, &str)], key: &str| {
            let err = BusSettings::load_with_env(None, env(pairs)).expect_err(key);
            assert!(err.to_string().contains(key), "{key}: {err}");
        };
        missing(
            &[
                ("CHORUS__BUS__REDIS_MODE", "sentinel"),
                ("CHORUS__BUS__SENTINELS", "redis://s:26379"),
            ],
            "bus.sentinel_master",
        );
        missing(
            &[
                ("CHORUS__BUS__REDIS_MODE", "sentinel"),
                ("CHORUS__BUS__SENTINEL_MASTER", "m"),
            ],
            "bus.sentinels",
        );
        missing(
            &[
                ("CHORUS__BUS__REDIS_MODE", "sentinel"),
                ("CHORUS__BUS__SENTINEL_MASTER", "m"),
                (
                    "CHORUS__BUS__SENTINELS",
                    "redis://s1:26379,rediss://s2:26379",
                ),
            ],
            "bus.sentinels",
        );
        missing(
            &[
                ("CHORUS__BUS__REDIS_MODE", "sentinel"),
                ("CHORUS__BUS__SENTINEL_MASTER", "m"),
                ("CHORUS__BUS__SENTINELS", "s1:26379"),
            ],
            "bus.sentinels",
        );
        missing(
            &[
                ("CHORUS__BUS__REDIS_MODE", "sentinel"),
                ("CHORUS__BUS__SENTINEL_MASTER", "my master"),
                ("CHORUS__BUS__SENTINELS", "redis://s1:26379"),
            ],
            "bus.sentinel_master",
        );
        missing(
            &[("CHORUS__BUS__SENTINELS", "redis://s1:26379")],
            "bus.sentinels",
        );
        missing(
            &[("CHORUS__BUS__SENTINEL_MASTER", "m")],
            "bus.sentinel_master",
        );
        missing(
            &[
                ("CHORUS__BUS__REDIS_MODE", "sentinel"),
                ("CHORUS__BUS__SENTINEL_MASTER", "m"),
                ("CHORUS__BUS__SENTINELS", "redis://s1:26379"),
                ("CHORUS__BUS__TLS_CA_FILE", "/etc/ca.pem"),
            ],
            "bus.tls_ca_file",
        );
    }

    #[test]
    fn an_unknown_key_is_refused() {
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__BLOK_MS", "5")]))
            .expect_err("unknown");
        assert!(err.to_string().contains("blok_ms"), "{err}");
    }
}
