//! The Redis Streams bus. One stream per topic (the stream key is the topic name, entry
//! field `data` holds the JSON envelope), one consumer group per role, every publish
//! mirrored on the Pub/Sub channel of the same name. Writes go through one shared
//! multiplexed connection; every blocking reader has its own connection. On a Redis
//! Cluster (`bus.redis_mode = "cluster"`) every script and pipeline touches one slot:
//! commands on several streams go as one pipeline per slot, sent at once, and
//! publish-once takes two steps (`claim.rs`).
//!
//! [`RedisBus`] is the `Bus`: its writes are in `write.rs`, over what writers and
//! readers share (`shared.rs`: the write connection, acks, the replica wait); reading
//! is `subscriber.rs`, `watcher.rs`, `ingress.rs` and `tokens.rs`.

mod claim;
mod conn;
mod error;
mod fanin;
mod groups;
mod ingress;
mod publish;
mod reply;
mod sentinel;
mod shared;
mod slots;
mod stats;
mod store;
mod streams;
mod subscriber;
mod tokens;
mod watcher;
mod write;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;

pub use conn::{ClusterConnection, Connection, client};
pub use error::RedisBusError;
pub use publish::DATA_FIELD;
pub use sentinel::SentinelConnection;
pub use store::RedisStore;

use chorus_bus::bus::{Bus, IngressFeed, Subscriber, Subscription, Watcher};
use chorus_bus::envelope::Message;
use chorus_bus::error::BusError;
use chorus_bus::ids::TaskId;
use chorus_bus::settings::BusSettings;
use chorus_bus::tokens::{ReportToken, TokenReader};
use chorus_bus::topic::Topic;
use error::bus_err;
use publish::{publish_guarded_script, publish_once_script};
use shared::Shared;
use subscriber::RedisSubscriber;
use tokens::RedisTokenReader;
use watcher::RedisWatcher;

/// The Redis Streams bus. Clones share the connection.
#[derive(Clone)]
pub struct RedisBus {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for RedisBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisBus")
            .field("redis", &self.shared.backend.describe())
            .finish_non_exhaustive()
    }
}

impl RedisBus {
    /// Validates `settings` and connects to `settings.redis_url` (on a Cluster, to the
    /// seed nodes, learning the rest).
    pub async fn connect(settings: BusSettings) -> Result<Self, BusError> {
        settings.validate()?;
        let backend = conn::Backend::new(&settings)?;
        let conn = backend
            .connect(&settings)
            .await
            .map_err(|e| conn::connect_error(&settings, e))?;
        Ok(RedisBus {
            shared: Arc::new(Shared {
                backend,
                conn,
                settings,
                once_script: publish_once_script(),
                guarded_script: publish_guarded_script(),
                claims: claim::ClaimScripts::default(),
            }),
        })
    }

    /// The settings.
    pub fn settings(&self) -> &BusSettings {
        &self.shared.settings
    }

    /// The state store on the same Redis and shared connection.
    pub fn store(&self) -> RedisStore {
        RedisStore::new(self.shared.conn())
    }

    /// A clone of the shared write connection, for commands the bus does not wrap.
    pub fn connection(&self) -> Connection {
        self.shared.conn()
    }

    /// Appends a raw `data` field to a topic's stream (its partition 0's, when it is
    /// spread over partitions), as an outside client would (no encoding, no size check,
    /// no mirror); returns the entry id.
    pub async fn publish_raw(&self, topic: &Topic, data: &str) -> Result<String, BusError> {
        let id: String = redis::cmd("XADD")
            .arg(streams::name(topic, 0, self.shared.partitions()))
            .arg("MAXLEN")
            .arg("~")
            .arg(self.shared.settings.stream_maxlen)
            .arg("*")
            .arg(DATA_FIELD)
            .arg(data)
            .query_async(&mut self.shared.conn())
            .await
            .map_err(bus_err)?;
        Ok(id)
    }
}

#[async_trait]
impl Bus for RedisBus {
    async fn ack(&self, role: &str, tokens: &[chorus_bus::AckToken]) -> Result<(), BusError> {
        self.shared.ack(role, tokens).await
    }

    async fn keep_alive(
        &self,
        role: &str,
        consumer: &str,
        tokens: &[chorus_bus::AckToken],
    ) -> Result<(), BusError> {
        self.shared.keep_alive(role, consumer, tokens).await
    }

    fn claim_idle(&self) -> Duration {
        self.shared.settings.claim_idle()
    }

    async fn publish(&self, msg: &Message) -> Result<String, BusError> {
        self.shared.publish(msg).await
    }

    async fn announce(&self, msg: &Message) -> Result<(), BusError> {
        self.shared.announce(msg).await
    }

    async fn publish_many(&self, msgs: &[Message]) -> Result<(), BusError> {
        self.shared.publish_many(msgs).await
    }

    async fn publish_once(
        &self,
        key: &str,
        ttl: Duration,
        msg: &Message,
    ) -> Result<bool, BusError> {
        self.shared.publish_once(key, ttl, msg).await
    }

    async fn publish_guarded(
        &self,
        guard: &str,
        value: &str,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Option<Vec<bool>>, BusError> {
        self.shared.publish_guarded(guard, value, items, ttl).await
    }

    async fn publish_all_once(
        &self,
        key: &str,
        ttl: Duration,
        msgs: &[Message],
    ) -> Result<bool, BusError> {
        self.shared.publish_all_once(key, ttl, msgs).await
    }

    async fn publish_once_many(
        &self,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Vec<bool>, BusError> {
        self.shared.publish_once_many(items, ttl).await
    }

    async fn subscribe(&self, sub: Subscription) -> Result<Box<dyn Subscriber>, BusError> {
        for topic in &sub.topics {
            topic.kind()?;
        }
        let streams = streams::of_topics(&sub.topics, self.shared.partitions());
        // A role started during a failover waits for the Cluster (or the restarted
        // server) rather than exiting on its first MOVED.
        conn::patiently(
            "creating the consumer groups",
            conn::SETUP_PATIENCE,
            self.shared.cluster(),
            || {
                let mut conn = self.shared.conn();
                let (streams, role) = (&streams, &sub.role);
                async move { groups::ensure_groups(&mut conn, streams, role).await }
            },
        )
        .await?;
        let mut conn = self.shared.conn();
        let stale = Duration::from_millis(self.shared.settings.stale_consumer_ms);
        let cluster = self.shared.cluster();
        if let Err(e) =
            groups::remove_stale_consumers(&mut conn, &sub, &streams, stale, cluster).await
        {
            tracing::warn!(role = %sub.role, error = %e, "could not clean stale consumers");
        }
        Ok(Box::new(RedisSubscriber::new(self.shared.clone(), sub)))
    }

    async fn watch(&self, topics: &[Topic]) -> Result<Box<dyn Watcher>, BusError> {
        let watcher = RedisWatcher::start(self.shared.clone(), topics.to_vec()).await?;
        Ok(Box::new(watcher))
    }

    async fn ingress(&self, topic: &Topic) -> Result<Box<dyn IngressFeed>, BusError> {
        topic.kind()?;
        Ok(Box::new(self.ingress_feed(topic).await?))
    }

    async fn recent(&self, topic: &Topic, count: usize) -> Result<Vec<Message>, BusError> {
        // Every partition's last `count`, merged by entry id (ms first), the last kept.
        let cmds: Vec<(String, redis::Cmd)> =
            streams::of_topics(std::slice::from_ref(topic), self.shared.partitions())
                .into_iter()
                .map(|s| {
                    let mut cmd = redis::cmd("XREVRANGE");
                    cmd.arg(&s.name).arg("+").arg("-").arg("COUNT").arg(count);
                    (s.name, cmd)
                })
                .collect();
        let values = slots::query(&self.shared.conn, &cmds)
            .await
            .map_err(bus_err)?;
        let mut entries: Vec<reply::StreamEntry> = values.iter().flat_map(reply::entries).collect();
        entries.sort_by_key(|e| reply::entry_order(&e.id));
        let skip = entries.len().saturating_sub(count);
        Ok(entries
            .into_iter()
            .skip(skip)
            .filter_map(|e| {
                let data = e.data?;
                Message::decode_on(topic, &data, Some(&e.id))
                    .ok()
                    .map(|d| d.into_message())
            })
            .collect())
    }

    async fn stream_stats(
        &self,
        topics: &[Topic],
    ) -> Result<Vec<chorus_bus::StreamStats>, BusError> {
        let partitions = self.shared.partitions();
        stats::stream_stats(&self.shared.conn, topics, partitions)
            .await
            .map_err(bus_err)
    }

    async fn append_tokens(
        &self,
        task: &TaskId,
        tokens: &[ReportToken],
        ttl: Duration,
    ) -> Result<usize, BusError> {
        tokens::append(&self.shared, task, tokens, ttl).await
    }

    async fn read_tokens(&self, task: &TaskId) -> Result<Box<dyn TokenReader>, BusError> {
        Ok(Box::new(RedisTokenReader::new(self.shared.clone(), task)))
    }
}
