//! A role's consumer on Redis: claims entries idle past `claim_idle_ms` (every half of
//! that time), reads new ones with XREADGROUP on its own connection, dead-letters what
//! cannot be handled and acks in pipelines. Connection errors are retried inside
//! `next_batch` until its block time is spent, so a restarted Redis is invisible to
//! callers except for a few empty batches. A topic spread over partitions
//! (`bus.partitions`) is read, claimed and acked on each of its streams
//! (`streams.rs`). On a Cluster each slot's streams (partition k of every topic the
//! role reads; a client-facing stream alone) are read by a task of its own with one
//! blocking connection (`fanin.rs`), and dead letters and their acks, in different
//! slots, are written one after the other: the letter first, so a crash between the
//! two repeats a letter but never loses one.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use redis::Value;
use tokio::time::Instant;

use super::Shared;
use super::conn::{ReadConn, is_connection_error};
use super::fanin::FanIn;
use super::groups::{ensure_groups, is_nogroup};
use super::publish::{add_ack, add_publish};
use super::reply::{self, StreamEntry};
use super::slots;
use super::streams::{self, Stream};
use crate::error::bus_err;
use chorus_bus::bus::{AckToken, Delivery, Subscriber, Subscription};
use chorus_bus::counts::{self, TransportEvent};
use chorus_bus::envelope::Message;
use chorus_bus::error::BusError;
use chorus_bus::intake::{Intake, RawEntry, handler_dead_letter, intake};

/// One entry read, with its stream and delivery count.
struct Read {
    stream: Stream,
    entry: StreamEntry,
    deliveries: u64,
}

/// A consumer of one role on Redis.
pub(crate) struct RedisSubscriber {
    shared: Arc<Shared>,
    sub: Subscription,
    /// The streams of the subscription's topics.
    streams: Vec<Stream>,
    read: ReadConn,
    last_claim: Option<Instant>,
    /// On a Cluster: the per-slot readers.
    readers: Option<FanIn<Read>>,
}

impl RedisSubscriber {
    pub(crate) fn new(shared: Arc<Shared>, sub: Subscription) -> Self {
        let read = ReadConn::new(shared.backend.clone(), &shared.settings);
        let streams = streams::of_topics(&sub.topics, shared.partitions());
        let readers = shared.cluster().then(|| {
            let mut fanin = FanIn::new();
            for group in streams::by_slot(&streams) {
                let (shared, sub) = (shared.clone(), sub.clone());
                fanin.spawn(move |tx| read_streams(shared, sub, group, tx));
            }
            fanin
        });
        RedisSubscriber {
            shared,
            sub,
            streams,
            read,
            last_claim: None,
            readers,
        }
    }

    fn claim_due(&self) -> bool {
        let every = self.shared.settings.claim_idle() / 2;
        self.last_claim.is_none_or(|t| t.elapsed() >= every)
    }

    /// Claims entries of the role idle past the claim time: XPENDING IDLE for their
    /// delivery counts, then XCLAIM (which re-checks idleness, so two replicas never
    /// both claim one entry).
    async fn claim(&mut self, room: usize) -> Result<Vec<Read>, redis::RedisError> {
        let min_idle = self.shared.settings.claim_idle_ms;
        let conn = self.shared.conn();
        let mut pending_cmds = Vec::with_capacity(self.streams.len());
        for stream in &self.streams {
            let mut cmd = redis::cmd("XPENDING");
            cmd.arg(&stream.name)
                .arg(&self.sub.role)
                .arg("IDLE")
                .arg(min_idle)
                .arg("-")
                .arg("+")
                .arg(room);
            pending_cmds.push((stream.name.clone(), cmd));
        }
        let pending = slots::query(&conn, &pending_cmds).await?;
        let mut claims = Vec::new();
        let mut counts: Vec<BTreeMap<String, u64>> = Vec::new();
        for (stream, rows) in self.streams.iter().zip(&pending) {
            let rows = reply::pending_rows(rows);
            if !rows.is_empty() {
                let mut cmd = redis::cmd("XCLAIM");
                cmd.arg(&stream.name)
                    .arg(&self.sub.role)
                    .arg(&self.sub.consumer)
                    .arg(min_idle)
                    .arg(rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>());
                claims.push((stream.name.clone(), cmd));
            }
            counts.push(rows.into_iter().map(|r| (r.id, r.deliveries)).collect());
        }
        self.last_claim = Some(Instant::now());
        if counts.iter().all(BTreeMap::is_empty) {
            return Ok(Vec::new());
        }
        let claimed = slots::query(&conn, &claims).await?;
        let mut claimed = claimed.iter();
        let mut out = Vec::new();
        for (stream, counts) in self.streams.iter().zip(&counts) {
            if counts.is_empty() {
                continue;
            }
            let Some(value) = claimed.next() else { break };
            let entries = reply::entries(value);
            let n = entries.len() as u64;
            counts::record(&self.sub.role, &stream.topic, TransportEvent::Claimed, n);
            for entry in entries {
                let deliveries = counts.get(&entry.id).map_or(2, |n| n + 1);
                out.push(Read {
                    stream: stream.clone(),
                    entry,
                    deliveries,
                });
            }
        }
        Ok(out)
    }

    /// New entries (`>`), blocking up to `block` when given.
    async fn read_new(
        &mut self,
        room: usize,
        block: Option<Duration>,
    ) -> Result<Vec<Read>, redis::RedisError> {
        if let Some(readers) = &mut self.readers {
            let deadline = Instant::now() + block.unwrap_or_default();
            return Ok(readers.next_until(deadline, room).await);
        }
        let mut cmd = redis::cmd("XREADGROUP");
        cmd.arg("GROUP")
            .arg(&self.sub.role)
            .arg(&self.sub.consumer)
            .arg("COUNT")
            .arg(room);
        if let Some(b) = block {
            cmd.arg("BLOCK").arg(b.as_millis().max(1) as u64);
        }
        cmd.arg("STREAMS");
        for stream in &self.streams {
            cmd.arg(&stream.name);
        }
        for _ in &self.streams {
            cmd.arg(">");
        }
        let value: Value = cmd.query_async(self.read.get().await?).await?;
        self.read.healthy();
        Ok(reads_of(&value, &self.streams))
    }

    /// Turns read entries into deliveries; dead letters and their acks go in one atomic
    /// pipeline. A failure there is logged: those entries stay pending and come back.
    async fn take(&self, reads: Vec<Read>) -> Vec<Delivery> {
        let settings = &self.shared.settings;
        let mut out = Vec::with_capacity(reads.len());
        let mut letters = Vec::new();
        let mut acks: Vec<(String, String)> = Vec::new();
        for read in reads {
            let raw = RawEntry {
                topic: &read.stream.topic,
                entry_id: &read.entry.id,
                partition: read.stream.partition,
                data: read.entry.data.as_deref(),
                deliveries: read.deliveries,
            };
            match intake(
                raw,
                &self.sub,
                settings.max_deliveries,
                settings.max_message_bytes,
            ) {
                Intake::Deliver(d) => out.push(*d),
                Intake::DeadLetter(dl) => {
                    tracing::warn!(stream = %read.stream.name, entry_id = %read.entry.id, role = %self.sub.role, "dead-lettering entry");
                    letters.push(*dl);
                    acks.push((read.stream.name, read.entry.id));
                }
                Intake::LeaveToDoor(reason) => {
                    tracing::debug!(stream = %read.stream.name, entry_id = %read.entry.id, %reason, "unreadable client entry; the door dead-letters it");
                    acks.push((read.stream.name, read.entry.id));
                }
                Intake::Drop(reason) => {
                    tracing::error!(stream = %read.stream.name, entry_id = %read.entry.id, %reason, "dropping dead letter");
                    acks.push((read.stream.name, read.entry.id));
                }
            }
        }
        if !acks.is_empty()
            && let Err(e) = self.letters_and_acks(&letters, &acks).await
        {
            tracing::warn!(error = %e, "could not write dead letters; the entries will be redelivered");
        }
        out
    }

    /// Writes `letters` and acks `acks` (stream, entry id) of the role: in one atomic
    /// pipeline on a standalone Redis; on a Cluster the letters first, then the acks.
    async fn letters_and_acks(
        &self,
        letters: &[Message],
        acks: &[(String, String)],
    ) -> Result<(), redis::RedisError> {
        let maxlen = self.shared.settings.stream_maxlen;
        let mut pipe = redis::pipe();
        pipe.atomic();
        for dl in letters {
            add_dead_letter(&mut pipe, dl, maxlen);
        }
        if self.shared.cluster() {
            if !letters.is_empty() {
                pipe.exec_async(&mut self.shared.conn()).await?;
            }
            let cmds: Vec<(String, redis::Cmd)> = acks
                .iter()
                .map(|(stream, id)| {
                    let mut cmd = redis::cmd("XACK");
                    cmd.arg(stream).arg(&self.sub.role).arg(id);
                    (stream.clone(), cmd)
                })
                .collect();
            return slots::exec(&self.shared.conn, &cmds).await;
        }
        for (stream, id) in acks {
            add_ack(&mut pipe, stream, &self.sub.role, &[id]);
        }
        pipe.exec_async(&mut self.shared.conn()).await
    }
}

/// Adds the dead letter's XADD and PUBLISH.
fn add_dead_letter(pipe: &mut redis::Pipeline, dl: &Message, maxlen: usize) {
    add_publish(pipe, dl.topic.as_str(), &dl.to_json(), maxlen);
}

/// The reads in an XREADGROUP reply on `streams`, each with its stream.
fn reads_of(value: &Value, streams: &[Stream]) -> Vec<Read> {
    let mut out = Vec::new();
    for (name, entries) in reply::read_reply(value) {
        let Some(stream) = streams.iter().find(|s| s.name == name) else {
            continue;
        };
        out.extend(entries.into_iter().map(|entry| Read {
            stream: stream.clone(),
            entry,
            deliveries: 1,
        }));
    }
    out
}

/// Reads new entries of `streams` (one slot's) for the role, on a connection of its
/// own, handing each batch to `tx` (a Cluster's per-slot reader; ends when `tx` is
/// closed).
async fn read_streams(
    shared: Arc<Shared>,
    sub: Subscription,
    streams: Vec<Stream>,
    tx: tokio::sync::mpsc::Sender<Vec<Read>>,
) {
    let mut read = ReadConn::new(shared.backend.clone(), &shared.settings);
    let block = shared.settings.block().as_millis().max(1) as u64;
    let names: Vec<&str> = streams.iter().map(|s| s.name.as_str()).collect();
    loop {
        let mut cmd = redis::cmd("XREADGROUP");
        cmd.arg("GROUP")
            .arg(&sub.role)
            .arg(&sub.consumer)
            .arg("COUNT")
            .arg(shared.settings.batch_count)
            .arg("BLOCK")
            .arg(block)
            .arg("STREAMS")
            .arg(&names);
        for _ in &streams {
            cmd.arg(">");
        }
        let value: Result<Value, redis::RedisError> = match read.get().await {
            Ok(conn) => cmd.query_async(conn).await,
            Err(e) => Err(e),
        };
        match value {
            Ok(value) => {
                read.healthy();
                let reads = reads_of(&value, &streams);
                if !reads.is_empty() && tx.send(reads).await.is_err() {
                    return;
                }
            }
            Err(e) if is_nogroup(&e) => {
                tracing::warn!(role = %sub.role, streams = ?names, "consumer group missing; re-creating it");
                let mut conn = shared.conn();
                if let Err(e) = ensure_groups(&mut conn, &streams, &sub.role).await {
                    tracing::warn!(error = %e, "could not re-create the group");
                    tokio::time::sleep(read.broken()).await;
                }
            }
            Err(e) => {
                let pause = read.broken();
                if is_connection_error(&e) {
                    tracing::warn!(error = %e, ?pause, streams = ?names, "read connection lost; reconnecting");
                } else {
                    tracing::warn!(error = %e, ?pause, streams = ?names, "read failed; retrying");
                }
                tokio::time::sleep(pause).await;
            }
        }
        if tx.is_closed() {
            return;
        }
    }
}

#[async_trait]
impl Subscriber for RedisSubscriber {
    async fn next_batch(&mut self) -> Result<Vec<Delivery>, BusError> {
        let deadline = Instant::now() + self.shared.settings.block();
        let max = self.shared.settings.batch_count;
        loop {
            let mut reads = Vec::new();
            if self.claim_due() {
                match self.claim(max).await {
                    Ok(c) => reads = c,
                    Err(e) if is_connection_error(&e) || is_nogroup(&e) => {
                        tracing::debug!(error = %e, "claim failed; retrying later");
                    }
                    Err(e) => return Err(bus_err(e)),
                }
            }
            let now = Instant::now();
            let block = reads
                .is_empty()
                .then(|| deadline.saturating_duration_since(now));
            if block.is_some_and(|b| b.is_zero()) {
                return Ok(Vec::new());
            }
            let room = max.saturating_sub(reads.len());
            if room > 0 {
                match self.read_new(room, block).await {
                    Ok(new) => reads.extend(new),
                    Err(e) if is_nogroup(&e) => {
                        tracing::warn!(role = %self.sub.role, "consumer group missing; re-creating it");
                        let mut conn = self.shared.conn();
                        if let Err(e) =
                            ensure_groups(&mut conn, &self.streams, &self.sub.role).await
                        {
                            tracing::warn!(error = %e, "could not re-create groups");
                            let pause = self.read.broken();
                            tokio::time::sleep_until((Instant::now() + pause).min(deadline)).await;
                        }
                    }
                    Err(e) if is_connection_error(&e) => {
                        let pause = self.read.broken();
                        tracing::warn!(error = %e, ?pause, "read connection lost; reconnecting");
                        tokio::time::sleep_until((Instant::now() + pause).min(deadline)).await;
                    }
                    Err(e) => return Err(bus_err(e)),
                }
            }
            let batch = self.take(reads).await;
            if !batch.is_empty() || Instant::now() >= deadline {
                return Ok(batch);
            }
        }
    }

    async fn ack(&self, tokens: &[AckToken]) -> Result<(), BusError> {
        self.shared.ack(&self.sub.role, tokens).await
    }

    async fn dead_letter(&self, delivery: &Delivery, reason: &str) -> Result<(), BusError> {
        let dl = handler_dead_letter(delivery, &self.sub.role, reason);
        let stream = streams::name(
            &delivery.topic,
            delivery.partition,
            self.shared.partitions(),
        );
        self.letters_and_acks(
            std::slice::from_ref(&dl),
            &[(stream, delivery.entry_id.clone())],
        )
        .await
        .map_err(bus_err)
    }
}
