//! The benchmark's own bookkeeping on Redis (`PING`, `INFO commandstats`, `INFO cpu`),
//! through the `redis` crate on a connection of its own. It is kept apart from the bus
//! on purpose: the bus has no generic command API, and the benchmark must not add round
//! trips to the bus's connections.

use std::collections::BTreeMap;
use std::time::Duration;

use chorus_bus::BusSettings;
use redis::AsyncConnectionConfig;
use redis::aio::MultiplexedConnection;

use super::BenchError;

/// One connection to the Redis under test.
pub struct RedisInfo {
    conn: MultiplexedConnection,
}

/// A Redis error as the benchmark reports it.
fn redis_error(e: redis::RedisError) -> BenchError {
    BenchError::Redis(e.to_string())
}

impl RedisInfo {
    /// Connects within `timeout` to `settings`' Redis as the bus would: the URL, the
    /// user (`bus.redis_user`, else the URL's), the password (the variable
    /// `bus.redis_password_env` names, else the URL's), and for `rediss://` the CA file
    /// and client certificate of `bus.tls_*`.
    pub async fn connect(
        settings: &BusSettings,
        timeout: Duration,
    ) -> Result<RedisInfo, BenchError> {
        let client = chorus_bus_redis::client(settings)?;
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout));
        let conn = client
            .get_multiplexed_async_connection_with_config(&config)
            .await
            .map_err(redis_error)?;
        Ok(RedisInfo { conn })
    }

    /// Whether the server answers `PING`.
    pub async fn ping(&mut self) -> Result<(), BenchError> {
        redis::cmd("PING")
            .query_async::<String>(&mut self.conn)
            .await
            .map(|_| ())
            .map_err(redis_error)
    }

    /// The text of `INFO <section>`.
    async fn info(&mut self, section: &str) -> Result<String, BenchError> {
        redis::cmd("INFO")
            .arg(section)
            .query_async(&mut self.conn)
            .await
            .map_err(redis_error)
    }

    /// Calls per command so far (`INFO commandstats`).
    pub async fn command_calls(&mut self) -> Result<BTreeMap<String, u64>, BenchError> {
        Ok(parse_commandstats(&self.info("commandstats").await?))
    }

    /// Redis's CPU time so far (user + system, `INFO cpu`), in milliseconds.
    pub async fn cpu_ms(&mut self) -> Result<f64, BenchError> {
        let text = self.info("cpu").await?;
        let field = |name: &str| -> f64 {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(':')?.trim().parse().ok())
                .unwrap_or(0.0)
        };
        Ok((field("used_cpu_user") + field("used_cpu_sys")) * 1000.0)
    }
}

/// `cmdstat_xadd:calls=12,usec=…` lines → `{"xadd": 12}`.
pub fn parse_commandstats(text: &str) -> BTreeMap<String, u64> {
    text.lines()
        .filter_map(|l| {
            let (name, stats) = l.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = stats
                .split(',')
                .find_map(|kv| kv.strip_prefix("calls="))?
                .parse()
                .ok()?;
            Some((name.to_owned(), calls))
        })
        .collect()
}

/// Per-command differences `after - before` (commands not called in between left out).
pub fn delta(
    before: &BTreeMap<String, u64>,
    after: &BTreeMap<String, u64>,
) -> BTreeMap<String, u64> {
    after
        .iter()
        .filter_map(|(k, &a)| {
            let d = a.saturating_sub(before.get(k).copied().unwrap_or(0));
            (d > 0).then(|| (k.clone(), d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commandstats_lines_become_calls_per_command() {
        let text = "# Commandstats\r\ncmdstat_xadd:calls=12,usec=40,usec_per_call=3.33,rejected_calls=0\r\ncmdstat_evalsha:calls=3,usec=9\r\n";
        let calls = parse_commandstats(text);
        assert_eq!(calls.get("xadd"), Some(&12));
        assert_eq!(calls.get("evalsha"), Some(&3));
        assert_eq!(calls.len(), 2);
    }

    #[test]
    fn delta_keeps_only_commands_called_in_between() {
        let before = parse_commandstats("cmdstat_get:calls=5,usec=1\ncmdstat_set:calls=2,usec=1");
        let after = parse_commandstats(
            "cmdstat_get:calls=9,usec=1\ncmdstat_set:calls=2,usec=1\ncmdstat_xack:calls=4,usec=1",
        );
        let d = delta(&before, &after);
        assert_eq!(d.get("get"), Some(&4));
        assert_eq!(d.get("xack"), Some(&4));
        assert_eq!(d.get("set"), None);
    }

    #[test]
    fn urls_with_and_without_credentials_are_understood() {
        use redis::IntoConnectionInfo;
        let a = "redis://127.0.0.1:7000/0"
            .into_connection_info()
            .expect("url");
        assert_eq!(a.addr().to_string(), "127.0.0.1:7000");
        assert_eq!(a.redis_settings().password(), None);
        let b = "redis://bob:secret@redis"
            .into_connection_info()
            .expect("url");
        assert_eq!(b.addr().to_string(), "redis:6379");
        assert_eq!(b.redis_settings().username(), Some("bob"));
        assert_eq!(b.redis_settings().password(), Some("secret"));
        assert!("http://x".into_connection_info().is_err());
    }
}
