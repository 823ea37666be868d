//! The `Bus` trait: the one way agents talk. Two implementations share its semantics:
//! Redis Streams (`crate::redis_bus`) and in-memory (`crate::memory`).
//!
//! Semantics every implementation keeps:
//! - one stream per topic; a subscription's `role` is a consumer group, so every role
//!   sees every message and replicas of a role (same role, distinct `consumer`) share them;
//! - at-least-once delivery: an entry stays pending until acked; an entry pending longer
//!   than the claim idle time is handed to another consumer of the role; after
//!   `max_deliveries` deliveries it goes to the `dead_letter` stream with the reason;
//! - an entry that does not decode (malformed JSON, wrong payload for the topic, too
//!   large) is dead-lettered at once with the decode error and never reaches a handler;
//! - every published message is mirrored on a Pub/Sub channel named like its topic;
//! - a task's report token stream ([`crate::tokens`], `report_tokens:<task_id>`) is no
//!   topic: no envelope, no group, no mirror; readers read it from its first entry.

use std::time::Duration;

use async_trait::async_trait;

use crate::envelope::Message;
use crate::error::BusError;
use crate::ids::TaskId;
use crate::tokens::{ReportToken, TokenReader};
use crate::topic::Topic;

/// Who subscribes, and to what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// The role: one consumer group per role and topic.
    pub role: String,
    /// This consumer's name within the group; unique per process start.
    pub consumer: String,
    /// The topics to read.
    pub topics: Vec<Topic>,
    /// Whether this role is the door for clients' bare entries (`task_available`,
    /// `clarification_answer`): an unreadable entry on a topic with a bare form is
    /// dead-lettered by the door's group only, and acked by the others, so one bad
    /// client entry makes one dead letter.
    pub door: bool,
}

impl Subscription {
    /// A subscription for `role` with a fresh unique consumer name (`<role>-<uuid v7>`).
    pub fn new(role: impl Into<String>, topics: Vec<Topic>) -> Self {
        let role = role.into();
        let consumer = format!("{role}-{}", uuid::Uuid::now_v7());
        Subscription {
            role,
            consumer,
            topics,
            door: false,
        }
    }

    /// The same subscription, as the door for clients' bare entries (or not).
    pub fn as_door(mut self, door: bool) -> Self {
        self.door = door;
        self
    }
}

/// One delivered stream entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    /// The topic (stream) it was read from.
    pub topic: Topic,
    /// Its stream entry id (`<ms>-<seq>`).
    pub entry_id: String,
    /// The partition of the topic it was read from (`bus.partitions`; 0 when the topic
    /// has one stream).
    pub partition: u32,
    /// How many times it has been delivered, this time included (1 the first time).
    pub deliveries: u64,
    /// The decoded message (normalised, when it arrived as a bare request).
    pub message: Message,
    /// True when the entry was a bare client request normalised by the bus.
    pub bare: bool,
}

impl Delivery {
    /// The token that acks this delivery.
    pub fn ack_token(&self) -> AckToken {
        AckToken {
            topic: self.topic.clone(),
            entry_id: self.entry_id.clone(),
            partition: self.partition,
        }
    }
}

/// Identifies a delivered entry for acking.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AckToken {
    /// The stream.
    pub topic: Topic,
    /// The entry id.
    pub entry_id: String,
    /// The partition of the topic (0 when the topic has one stream).
    pub partition: u32,
}

/// How long a topic's stream is and what its consumer groups have pending (a sample,
/// for metrics and dashboards).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamStats {
    /// The stream.
    pub topic: Topic,
    /// Entries in the stream (Redis: `XLEN`); 0 when it does not exist.
    pub length: u64,
    /// Each consumer group on the stream with its pending count, by group name.
    pub groups: Vec<GroupStats>,
}

/// One consumer group of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupStats {
    /// The group (a role's consumer-group name).
    pub group: String,
    /// Entries delivered to the group and not yet acked (Redis: `XINFO GROUPS` pending).
    pub pending: u64,
}

/// A role's consumer on one or more streams.
#[async_trait]
pub trait Subscriber: Send {
    /// The next batch of deliveries: entries reclaimed from dead consumers first, then
    /// new ones. Waits at most the configured block time; an empty batch means nothing
    /// arrived. Entries that do not decode, or were delivered too often, are
    /// dead-lettered here and not returned.
    async fn next_batch(&mut self) -> Result<Vec<Delivery>, BusError>;

    /// Acknowledges handled entries (pipelined), after their effects are written.
    async fn ack(&self, tokens: &[AckToken]) -> Result<(), BusError>;

    /// Sends an entry to the dead-letter stream with `reason`, and acks it.
    async fn dead_letter(&self, delivery: &Delivery, reason: &str) -> Result<(), BusError>;
}

/// A reader of new messages with no consumer group (for watchers and waiting clients):
/// it sees every message published after it was created and acks nothing.
#[async_trait]
pub trait Watcher: Send {
    /// The next messages, waiting at most the block time; empty when none arrived.
    async fn next_batch(&mut self) -> Result<Vec<Message>, BusError>;
}

/// Raw payloads published by outside clients on a topic's channel (`PUBLISH
/// task_available '{"query": …}'`): the PUBLISH ingress. The transport only carries
/// them; what they become (a task, a dead letter, nothing for the bus's own mirror) is
/// decided by the one way in (`chorus_core::door`).
#[async_trait]
pub trait IngressFeed: Send {
    /// The next payload, as published (invalid UTF-8 replaced); `None` when the
    /// subscription ended (a lost connection): subscribe again to go on.
    async fn next(&mut self) -> Option<String>;
}

/// The message bus.
#[async_trait]
pub trait Bus: Send + Sync {
    /// Publishes one message on its topic's stream (and mirror channel); returns the entry id.
    async fn publish(&self, msg: &Message) -> Result<String, BusError>;

    /// Publishes `msg` on its topic's Pub/Sub channel only (`redis-cli SUBSCRIBE <topic>`
    /// shows it): no stream entry, so no role reads it and nothing is kept. For events
    /// that are shown, not acted on — the verdict FINISHED, whose report went out just
    /// before — so the happy path does not pay a stream entry and a consumer for them.
    async fn announce(&self, msg: &Message) -> Result<(), BusError>;

    /// Publishes several messages in one round trip.
    async fn publish_many(&self, msgs: &[Message]) -> Result<(), BusError>;

    /// Publishes `msg` only if `key` is not set, setting it (with `ttl`) in the same
    /// atomic step. Returns whether it published. This is how effects happen once.
    async fn publish_once(&self, key: &str, ttl: Duration, msg: &Message)
    -> Result<bool, BusError>;

    /// Like [`Bus::publish_once`] for several `(key, message)` pairs, in one round trip
    /// where the transport allows; returns, per pair, whether it published.
    async fn publish_once_many(
        &self,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Vec<bool>, BusError> {
        let mut published = Vec::with_capacity(items.len());
        for (key, msg) in items {
            published.push(self.publish_once(key, ttl, msg).await?);
        }
        Ok(published)
    }

    /// Publishes every message of `msgs` once, under one once-key: when `key` is not
    /// set, sets it (with `ttl`) and publishes them all in the same atomic step;
    /// otherwise publishes nothing. Returns whether it published. For effects that go
    /// out together or not at all (a pool agent's tool response and step result), where
    /// a once-key each would guard nothing more. The default is
    /// [`Bus::publish_guarded`] with `key` as the guard and a once-key per message
    /// derived from it (`<key>:<i>`), which a transport may do without (one server does).
    async fn publish_all_once(
        &self,
        key: &str,
        ttl: Duration,
        msgs: &[Message],
    ) -> Result<bool, BusError> {
        let items: Vec<(String, Message)> = msgs
            .iter()
            .enumerate()
            .map(|(i, m)| (crate::keys::once::part(key, i), m.clone()))
            .collect();
        Ok(self.publish_guarded(key, "1", &items, ttl).await?.is_some())
    }

    /// Publishes `items` (each under its own once-key, as [`Bus::publish_once_many`]
    /// does) only if `guard` is not set, setting `guard` to `value` (with `ttl`) in the
    /// same atomic step and round trip. Returns `None`, publishing nothing, when `guard`
    /// was set already; otherwise, per item, whether it published. This is how a plan is
    /// stored and goes out with its first steps in one step: whoever stores the plan is
    /// the one who sends it. The guard and the items' once-keys share one hash tag (a
    /// task's keys do, see `chorus_bus::keys`), so on a Redis Cluster they share a slot.
    async fn publish_guarded(
        &self,
        guard: &str,
        value: &str,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Option<Vec<bool>>, BusError>;

    /// Joins `sub.role`'s consumer group on each topic (creating it at the stream's start
    /// when new) and returns the subscriber.
    async fn subscribe(&self, sub: Subscription) -> Result<Box<dyn Subscriber>, BusError>;

    /// Starts watching `topics` from now on, with no consumer group.
    async fn watch(&self, topics: &[Topic]) -> Result<Box<dyn Watcher>, BusError>;

    /// Subscribes to what outside clients publish on `topic`'s channel (the PUBLISH
    /// ingress). The channel also carries the bus's own mirror of every envelope
    /// published on the topic: telling the two apart is the caller's job.
    async fn ingress(&self, topic: &Topic) -> Result<Box<dyn IngressFeed>, BusError>;

    /// Acknowledges entries delivered to `role`'s group (pipelined), from any task of
    /// the process: acks need not wait for the subscriber's next read.
    async fn ack(&self, role: &str, tokens: &[AckToken]) -> Result<(), BusError>;

    /// Keeps entries that `consumer` is still handling from being claimed by another
    /// consumer of `role`: resets their idle time as a new delivery would, without
    /// counting one (Redis: `XCLAIM … JUSTID`). A handler that may run longer than the
    /// claim idle time is kept alive this way by the runtime loop. An entry another
    /// consumer claimed meanwhile comes back to `consumer`; both may then finish it,
    /// which handlers allow (they are idempotent). Entries no longer pending are skipped.
    async fn keep_alive(
        &self,
        role: &str,
        consumer: &str,
        tokens: &[AckToken],
    ) -> Result<(), BusError>;

    /// How long an entry may stay pending before another consumer of its role may
    /// claim it (`bus.claim_idle_ms`).
    fn claim_idle(&self) -> Duration;

    /// The last `count` messages of a topic's stream, oldest first (undecodable entries skipped).
    async fn recent(&self, topic: &Topic, count: usize) -> Result<Vec<Message>, BusError>;

    /// The length and per-group pending counts of each topic's stream, in `topics`'
    /// order, in one or two round trips; a stream that does not exist has length 0 and
    /// no groups. A bus that cannot tell (a decorator that does not pass it on) says so
    /// with an error.
    async fn stream_stats(&self, topics: &[Topic]) -> Result<Vec<StreamStats>, BusError> {
        let _ = topics;
        Err(BusError::Transport(
            "this bus does not report stream stats".into(),
        ))
    }

    /// Appends `tokens`, in order, to `task`'s report token stream ([`crate::tokens`]),
    /// in one round trip: the stream is capped near
    /// [`crate::tokens::TOKEN_STREAM_MAXLEN`] entries and expires `ttl` after this append.
    /// Returns how many entries the stream holds now (more than `tokens.len()` when
    /// something was written before).
    async fn append_tokens(
        &self,
        task: &TaskId,
        tokens: &[ReportToken],
        ttl: Duration,
    ) -> Result<usize, BusError>;

    /// A reader of `task`'s report token stream from its first entry (the stream need not
    /// exist yet).
    async fn read_tokens(&self, task: &TaskId) -> Result<Box<dyn TokenReader>, BusError>;
}
