//! The checks run once at start: every value in range, the mode's own settings present
//! (and the others' absent), credentials and TLS files that fit together. The error
//! names the first bad key.

use super::{BusSettings, RedisMode, bad, redact_url};
use crate::error::BusError;

impl BusSettings {
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
            "partitions",
            self.partitions.into(),
            1,
            crate::keys::MAX_PARTITIONS.into(),
        )?;
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
}

/// Whether `s` is usable as a Redis ACL user name here.
fn is_acl_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::test_env as env;

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
}
