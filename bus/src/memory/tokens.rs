//! Report token streams in memory: per task, the entries in order with their sequence
//! numbers, capped at [`TOKEN_STREAM_MAXLEN`] and expiring like the Redis stream does
//! (lazily on access, and in a sweep every few hundred appends). Readers wait on a
//! `Notify`, never polling in a loop.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::error::BusError;
use crate::tokens::{ReportToken, TOKEN_STREAM_MAXLEN, TokenReader};

/// Appends between two sweeps of expired streams.
const SWEEP_EVERY: u64 = 256;

/// One task's stream.
struct TokenLog {
    /// Entries with their sequence numbers, oldest first.
    entries: VecDeque<(u64, ReportToken)>,
    expires: Instant,
}

#[derive(Default)]
struct Logs {
    by_key: HashMap<String, TokenLog>,
    appends: u64,
    /// The sequence number of the last entry appended to any stream: numbers only grow,
    /// so a stream made again after it expired is still read after the old entries,
    /// as Redis's time-based ids are.
    seq: u64,
}

impl Logs {
    /// The live stream at `key`, dropping it when expired.
    fn live(&mut self, key: &str, now: Instant) -> Option<&mut TokenLog> {
        if self.by_key.get(key).is_some_and(|l| l.expires <= now) {
            self.by_key.remove(key);
        }
        self.by_key.get_mut(key)
    }
}

/// Every task's token stream.
#[derive(Default)]
pub(crate) struct TokenStreams {
    logs: Mutex<Logs>,
    /// Woken on every append, so waiting readers look again.
    appended: Notify,
}

impl TokenStreams {
    fn logs(&self) -> MutexGuard<'_, Logs> {
        // Each critical section leaves the map consistent, so a poisoned lock is usable.
        self.logs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Appends `tokens` to the stream at `key`; returns its length after.
    pub(crate) fn append(&self, key: &str, tokens: &[ReportToken], ttl: Duration) -> usize {
        let now = Instant::now();
        let len = {
            let mut logs = self.logs();
            logs.appends += 1;
            if logs.appends.is_multiple_of(SWEEP_EVERY) {
                logs.by_key.retain(|_, l| l.expires > now);
            }
            if logs.live(key, now).is_none() {
                logs.by_key.insert(
                    key.to_owned(),
                    TokenLog {
                        entries: VecDeque::new(),
                        expires: now,
                    },
                );
            }
            let first = logs.seq + 1;
            logs.seq += tokens.len() as u64;
            let Some(log) = logs.by_key.get_mut(key) else {
                return 0;
            };
            for (seq, token) in (first..).zip(tokens) {
                log.entries.push_back((seq, token.clone()));
            }
            while log.entries.len() > TOKEN_STREAM_MAXLEN {
                log.entries.pop_front();
            }
            log.expires = now + ttl.max(Duration::from_millis(1));
            log.entries.len()
        };
        self.appended.notify_waiters();
        len
    }

    /// The entries of the stream at `key` after sequence number `after`, with the last
    /// one's number.
    fn after(&self, key: &str, after: u64) -> (Vec<ReportToken>, u64) {
        let mut logs = self.logs();
        let Some(log) = logs.live(key, Instant::now()) else {
            return (Vec::new(), after);
        };
        let mut last = after;
        let out = log
            .entries
            .iter()
            .filter(|(seq, _)| *seq > after)
            .map(|(seq, t)| {
                last = *seq;
                t.clone()
            })
            .collect();
        (out, last)
    }
}

/// A reader of one stream from its first entry.
pub(crate) struct MemoryTokenReader {
    streams: Arc<TokenStreams>,
    key: String,
    /// The sequence number of the last entry returned.
    seen: u64,
}

impl MemoryTokenReader {
    pub(crate) fn new(streams: Arc<TokenStreams>, key: String) -> Self {
        MemoryTokenReader {
            streams,
            key,
            seen: 0,
        }
    }
}

#[async_trait]
impl TokenReader for MemoryTokenReader {
    async fn next(&mut self, wait: Duration) -> Result<Vec<ReportToken>, BusError> {
        let deadline = Instant::now() + wait;
        loop {
            // Registered before looking, so an append in between still wakes us.
            let notified = self.streams.appended.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let (out, last) = self.streams.after(&self.key, self.seen);
            if !out.is_empty() {
                self.seen = last;
                return Ok(out);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return Ok(Vec::new());
            }
        }
    }
}
