//! A minimal Redis client for the benchmark's own bookkeeping (`PING`, `INFO`), over a
//! plain TCP connection speaking RESP. It is kept apart from the bus on purpose: the
//! bus has no generic command API, and the benchmark must not add round trips to it.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use super::BenchError;

/// Where a Redis URL points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisAddr {
    /// `host:port`.
    pub host_port: String,
    /// Username, when the URL has one.
    pub user: Option<String>,
    /// Password, when the URL has one.
    pub password: Option<String>,
}

impl RedisAddr {
    /// Parses `redis://[user[:password]@]host[:port][/db]`.
    pub fn parse(url: &str) -> Result<RedisAddr, BenchError> {
        let rest = url
            .strip_prefix("redis://")
            .ok_or_else(|| BenchError::Url(url.to_owned()))?;
        let rest = rest.split('/').next().unwrap_or_default();
        let (auth, host) = match rest.rsplit_once('@') {
            Some((a, h)) => (Some(a), h),
            None => (None, rest),
        };
        if host.is_empty() {
            return Err(BenchError::Url(url.to_owned()));
        }
        let host_port = if host.contains(':') {
            host.to_owned()
        } else {
            format!("{host}:6379")
        };
        let (user, password) = match auth {
            None => (None, None),
            Some(a) => match a.split_once(':') {
                Some((u, p)) => ((!u.is_empty()).then(|| u.to_owned()), Some(p.to_owned())),
                None => (None, Some(a.to_owned())),
            },
        };
        Ok(RedisAddr {
            host_port,
            user,
            password,
        })
    }
}

/// One connection sending one command at a time.
pub struct RedisInfo {
    conn: BufReader<TcpStream>,
}

impl RedisInfo {
    /// Connects (and authenticates) within `timeout`.
    pub async fn connect(addr: &RedisAddr, timeout: Duration) -> Result<RedisInfo, BenchError> {
        let stream = tokio::time::timeout(timeout, TcpStream::connect(&addr.host_port))
            .await
            .map_err(|_| BenchError::Redis(format!("connecting to {} timed out", addr.host_port)))?
            .map_err(|e| BenchError::Redis(format!("connecting to {}: {e}", addr.host_port)))?;
        let mut info = RedisInfo {
            conn: BufReader::new(stream),
        };
        if let Some(password) = &addr.password {
            let mut args = vec!["AUTH"];
            if let Some(user) = &addr.user {
                args.push(user);
            }
            args.push(password);
            info.command(&args).await?;
        }
        Ok(info)
    }

    /// Sends one command and returns its reply as text (bulk or simple string, or integer).
    pub async fn command(&mut self, args: &[&str]) -> Result<String, BenchError> {
        let mut out = format!("*{}\r\n", args.len());
        for a in args {
            out.push_str(&format!("${}\r\n{a}\r\n", a.len()));
        }
        let io = |e: std::io::Error| BenchError::Redis(e.to_string());
        self.conn
            .get_mut()
            .write_all(out.as_bytes())
            .await
            .map_err(io)?;
        let mut line = String::new();
        self.conn.read_line(&mut line).await.map_err(io)?;
        let line = line.trim_end();
        match line.split_at_checked(1) {
            Some(("+", s)) | Some((":", s)) => Ok(s.to_owned()),
            Some(("-", e)) => Err(BenchError::Redis(e.to_owned())),
            Some(("$", len)) => {
                let len: usize = len
                    .parse()
                    .map_err(|_| BenchError::Redis(format!("bad bulk length {len:?}")))?;
                let mut buf = vec![0u8; len + 2];
                self.conn.read_exact(&mut buf).await.map_err(io)?;
                buf.truncate(len);
                String::from_utf8(buf).map_err(|e| BenchError::Redis(e.to_string()))
            }
            _ => Err(BenchError::Redis(format!("unexpected reply {line:?}"))),
        }
    }

    /// Calls per command so far (`INFO commandstats`).
    pub async fn command_calls(&mut self) -> Result<BTreeMap<String, u64>, BenchError> {
        Ok(parse_commandstats(
            &self.command(&["INFO", "commandstats"]).await?,
        ))
    }

    /// Redis's CPU time so far (user + system, `INFO cpu`), in milliseconds.
    pub async fn cpu_ms(&mut self) -> Result<f64, BenchError> {
        let text = self.command(&["INFO", "cpu"]).await?;
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
    fn urls_with_and_without_credentials_parse() {
        let a = RedisAddr::parse("redis://127.0.0.1:7000/0").expect("url");
        assert_eq!(a.host_port, "127.0.0.1:7000");
        assert_eq!(a.password, None);
        let b = RedisAddr::parse("redis://bob:secret@redis").expect("url");
        assert_eq!(b.host_port, "redis:6379");
        assert_eq!(b.user.as_deref(), Some("bob"));
        assert_eq!(b.password.as_deref(), Some("secret"));
        assert!(RedisAddr::parse("http://x").is_err());
    }
}
