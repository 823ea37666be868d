//! A group-less reader: XREAD from the last entry each stream had when the watcher was
//! made, on its own connection, so it sees every later message exactly once and acks
//! nothing. Unlike the Pub/Sub mirror it loses nothing while briefly disconnected. A
//! topic spread over partitions is watched on each of its streams. On a Cluster each
//! slot's streams are read by a task of its own (`fanin.rs`).

use std::sync::Arc;

use async_trait::async_trait;
use redis::Value;
use tokio::time::Instant;

use super::Shared;
use super::conn::{ReadConn, is_connection_error};
use super::fanin::FanIn;
use super::reply;
use super::slots;
use super::streams::{self, Stream};
use crate::error::bus_err;
use chorus_bus::bus::Watcher;
use chorus_bus::envelope::Message;
use chorus_bus::error::BusError;
use chorus_bus::topic::Topic;

/// Watches topics from the moment it was started.
pub(crate) struct RedisWatcher {
    shared: Arc<Shared>,
    read: ReadConn,
    streams: Vec<Stream>,
    last_ids: Vec<String>,
    /// On a Cluster: the per-slot readers.
    readers: Option<FanIn<Message>>,
}

impl RedisWatcher {
    /// Notes each stream's last entry id (`0-0` for an empty stream) and returns the watcher.
    pub(crate) async fn start(shared: Arc<Shared>, topics: Vec<Topic>) -> Result<Self, BusError> {
        for t in &topics {
            t.kind()?;
        }
        let streams = streams::of_topics(&topics, shared.partitions());
        let cmds: Vec<(String, redis::Cmd)> = streams
            .iter()
            .map(|s| {
                let mut cmd = redis::cmd("XREVRANGE");
                cmd.arg(&s.name).arg("+").arg("-").arg("COUNT").arg(1);
                (s.name.clone(), cmd)
            })
            .collect();
        let lasts: Vec<Value> = slots::query(&shared.conn(), &cmds).await.map_err(bus_err)?;
        let last_ids: Vec<String> = lasts
            .iter()
            .map(|v| {
                reply::entries(v)
                    .into_iter()
                    .next()
                    .map_or_else(|| "0-0".to_owned(), |e| e.id)
            })
            .collect();
        let read = ReadConn::new(shared.backend.clone(), &shared.settings);
        let readers = shared.cluster().then(|| {
            let mut fanin = FanIn::new();
            for group in streams::by_slot(&streams) {
                let lasts = group
                    .iter()
                    .map(|s| {
                        let i = streams.iter().position(|t| t == s).unwrap_or_default();
                        last_ids[i].clone()
                    })
                    .collect();
                let one = RedisWatcher {
                    shared: shared.clone(),
                    read: ReadConn::new(shared.backend.clone(), &shared.settings),
                    streams: group,
                    last_ids: lasts,
                    readers: None,
                };
                fanin.spawn(move |tx| one.forward(tx));
            }
            fanin
        });
        Ok(RedisWatcher {
            shared,
            read,
            streams,
            last_ids,
            readers,
        })
    }

    /// Reads this (one slot's) watcher's batches into `tx` until it is closed.
    async fn forward(mut self, tx: tokio::sync::mpsc::Sender<Vec<Message>>) {
        loop {
            match self.next_batch().await {
                Ok(batch) if batch.is_empty() => {}
                Ok(batch) => {
                    if tx.send(batch).await.is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let pause = self.read.broken();
                    tracing::warn!(error = %e, ?pause, "watch read failed; retrying");
                    tokio::time::sleep(pause).await;
                }
            }
            if tx.is_closed() {
                return;
            }
        }
    }

    async fn read(&mut self, block_ms: u64) -> Result<Vec<Message>, redis::RedisError> {
        let mut cmd = redis::cmd("XREAD");
        cmd.arg("COUNT")
            .arg(self.shared.settings.batch_count)
            .arg("BLOCK")
            .arg(block_ms.max(1))
            .arg("STREAMS");
        for s in &self.streams {
            cmd.arg(&s.name);
        }
        for id in &self.last_ids {
            cmd.arg(id);
        }
        let value: Value = cmd.query_async(self.read.get().await?).await?;
        self.read.healthy();
        let mut out = Vec::new();
        for (stream, entries) in reply::read_reply(&value) {
            let Some(i) = self.streams.iter().position(|s| s.name == stream) else {
                continue;
            };
            for e in entries {
                self.last_ids[i] = e.id.clone();
                let Some(data) = e.data else { continue };
                if data.len() > self.shared.settings.max_message_bytes {
                    continue;
                }
                if let Ok(d) = Message::decode_on(&self.streams[i].topic, &data, Some(&e.id)) {
                    out.push(d.into_message());
                }
            }
        }
        Ok(out)
    }
}

#[async_trait]
impl Watcher for RedisWatcher {
    async fn next_batch(&mut self) -> Result<Vec<Message>, BusError> {
        let deadline = Instant::now() + self.shared.settings.block();
        if let Some(readers) = &mut self.readers {
            return Ok(readers
                .next_until(deadline, self.shared.settings.batch_count)
                .await);
        }
        if self.streams.is_empty() {
            tokio::time::sleep_until(deadline).await;
            return Ok(Vec::new());
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Vec::new());
            }
            match self.read(left.as_millis() as u64).await {
                Ok(batch) if !batch.is_empty() => return Ok(batch),
                Ok(_) => {}
                Err(e) if is_connection_error(&e) => {
                    let pause = self.read.broken();
                    tracing::warn!(error = %e, ?pause, "watch connection lost; reconnecting");
                    tokio::time::sleep_until((Instant::now() + pause).min(deadline)).await;
                }
                Err(e) => return Err(bus_err(e)),
            }
        }
    }
}
