//! Report token streams on Redis: the stream `report_tokens:<task_id>`, one entry per
//! piece of the report as plain fields (`text …`; the last one `done true written_by …
//! replace … text …`), so `XREAD STREAMS report_tokens:<task_id> 0` shows it as it is
//! written. Appends are XADDs with an approximate cap plus a PEXPIRE, pipelined in one
//! round trip; readers read from `0` on, blocking on their own connection (a blocking
//! XREAD would hold up the shared one), and only what is there on the shared one.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use redis::Value;
use tokio::time::Instant;

use super::Shared;
use super::conn::{ReadConn, is_connection_error, retry_writes};
use super::reply;
use crate::error::bus_err;
use chorus_bus::error::BusError;
use chorus_bus::ids::TaskId;
use chorus_bus::tokens::{ReportToken, TOKEN_STREAM_MAXLEN, TokenReader, token_stream_key};

/// Most entries one read returns.
const READ_COUNT: usize = 512;

/// Appends `tokens` to `task`'s stream and sets its TTL; returns its length after.
pub(crate) async fn append(
    shared: &Shared,
    task: &TaskId,
    tokens: &[ReportToken],
    ttl: Duration,
) -> Result<usize, BusError> {
    let key = token_stream_key(task);
    let mut pipe = redis::pipe();
    for token in tokens {
        let cmd = pipe
            .cmd("XADD")
            .arg(&key)
            .arg("MAXLEN")
            .arg("~")
            .arg(TOKEN_STREAM_MAXLEN)
            .arg("*");
        for (name, value) in token.fields() {
            cmd.arg(name).arg(value);
        }
        cmd.ignore();
    }
    let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
    pipe.cmd("PEXPIRE").arg(&key).arg(ttl_ms).ignore();
    pipe.cmd("XLEN").arg(&key);
    let (len,): (usize,) = retry_writes(|| async { pipe.query_async(&mut shared.conn()).await })
        .await
        .map_err(bus_err)?;
    Ok(len)
}

/// A reader of one task's token stream from its first entry.
pub(crate) struct RedisTokenReader {
    shared: Arc<Shared>,
    read: ReadConn,
    key: String,
    /// The id of the last entry returned (`0` before the first).
    last_id: String,
}

impl RedisTokenReader {
    /// A reader of `task`'s stream; it connects for blocking reads only when it first
    /// waits.
    pub(crate) fn new(shared: Arc<Shared>, task: &TaskId) -> Self {
        let read = ReadConn::new(shared.backend.clone(), &shared.settings);
        RedisTokenReader {
            shared,
            read,
            key: token_stream_key(task),
            last_id: "0".to_owned(),
        }
    }

    /// XREAD after the last id, blocking `block_ms` on the reader's own connection, or
    /// not at all on the shared one when `None`.
    async fn read(&mut self, block_ms: Option<u64>) -> Result<Vec<ReportToken>, redis::RedisError> {
        let mut cmd = redis::cmd("XREAD");
        cmd.arg("COUNT").arg(READ_COUNT);
        if let Some(ms) = block_ms {
            cmd.arg("BLOCK").arg(ms.max(1));
        }
        cmd.arg("STREAMS").arg(&self.key).arg(&self.last_id);
        let value: Value = match block_ms {
            Some(_) => {
                let value = cmd.query_async(self.read.get().await?).await?;
                self.read.healthy();
                value
            }
            None => cmd.query_async(&mut self.shared.conn()).await?,
        };
        let mut out = Vec::new();
        for (id, fields) in reply::read_fields(&value) {
            self.last_id = id;
            let fields = fields.iter().map(|(k, v)| (k.as_str(), v.as_str()));
            out.extend(ReportToken::from_fields(fields));
        }
        Ok(out)
    }
}

#[async_trait]
impl TokenReader for RedisTokenReader {
    async fn next(&mut self, wait: Duration) -> Result<Vec<ReportToken>, BusError> {
        if wait.is_zero() {
            return self.read(None).await.map_err(bus_err);
        }
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Vec::new());
            }
            match self.read(Some(left.as_millis() as u64)).await {
                Ok(batch) if !batch.is_empty() => return Ok(batch),
                Ok(_) => {}
                Err(e) if is_connection_error(&e) => {
                    let pause = self.read.broken();
                    tracing::warn!(error = %e, ?pause, "token stream connection lost; reconnecting");
                    tokio::time::sleep_until((Instant::now() + pause).min(deadline)).await;
                }
                Err(e) => return Err(bus_err(e)),
            }
        }
    }
}
