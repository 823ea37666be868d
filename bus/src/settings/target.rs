//! Where the bus connects and as whom: TLS or not, the seed nodes or the sentinels, the
//! password from its variable, and URLs with their passwords masked for messages.

use super::{BusSettings, RedisMode, bad};
use crate::error::BusError;

impl BusSettings {
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
