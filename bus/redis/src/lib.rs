//! The Redis Streams bus. One stream per topic (the stream key is the topic name, entry
//! field `data` holds the JSON envelope), one consumer group per role, every publish
//! mirrored on the Pub/Sub channel of the same name. Writes go through one shared
//! multiplexed connection; every blocking reader has its own connection. On a Redis
//! Cluster (`bus.redis_mode = "cluster"`) every script and pipeline touches one slot:
//! commands on several streams go as one pipeline per slot, sent at once, and
//! publish-once takes two steps (`claim.rs`).

mod claim;
mod conn;
mod error;
mod fanin;
mod groups;
mod ingress;
mod publish;
mod reply;
mod sentinel;
mod slots;
mod stats;
mod store;
mod subscriber;
mod tokens;
mod watcher;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use redis::Script;

pub use conn::{Connection, client};
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
use publish::{add_publish, publish_guarded_script, publish_once_script};
use subscriber::RedisSubscriber;
use tokens::RedisTokenReader;
use watcher::RedisWatcher;

/// The streams `msgs` go to.
fn topics_of(msgs: &[Message]) -> Vec<&str> {
    msgs.iter().map(|m| m.topic.as_str()).collect()
}

/// The keys a guarded publish writes: the guard (unless empty), each once-key and each
/// stream.
fn guarded_keys<'a>(guard: &'a str, items: &'a [(String, Message)]) -> Vec<&'a str> {
    let mut keys: Vec<&str> = (!guard.is_empty()).then_some(guard).into_iter().collect();
    for (key, msg) in items {
        keys.push(key);
        keys.push(msg.topic.as_str());
    }
    keys
}

/// Most messages sent in one pipeline by `publish_many`.
const PIPELINE_CHUNK: usize = 1000;

pub(crate) struct Shared {
    backend: conn::Backend,
    conn: Connection,
    settings: BusSettings,
    publish_once: Script,
    publish_guarded: Script,
    claims: claim::ClaimScripts,
}

/// The entry ids of `tokens`, per stream.
fn by_topic(tokens: &[chorus_bus::AckToken]) -> std::collections::BTreeMap<&str, Vec<&str>> {
    let mut by_topic: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for t in tokens {
        by_topic
            .entry(t.topic.as_str())
            .or_default()
            .push(t.entry_id.as_str());
    }
    by_topic
}

impl Shared {
    /// XACKs `tokens` for `role`'s group, one XACK per stream, in one pipeline.
    pub(crate) async fn ack(
        &self,
        role: &str,
        tokens: &[chorus_bus::AckToken],
    ) -> Result<(), BusError> {
        if tokens.is_empty() {
            return Ok(());
        }
        if self.conn.is_cluster() {
            let cmds: Vec<(String, redis::Cmd)> = by_topic(tokens)
                .into_iter()
                .map(|(topic, ids)| {
                    let mut cmd = redis::cmd("XACK");
                    cmd.arg(topic).arg(role).arg(ids);
                    (topic.to_owned(), cmd)
                })
                .collect();
            return slots::exec(&self.conn, &cmds).await.map_err(bus_err);
        }
        let mut pipe = redis::pipe();
        for (topic, ids) in &by_topic(tokens) {
            publish::add_ack(&mut pipe, topic, role, ids);
        }
        conn::retry_writes(|| async { pipe.exec_async(&mut self.conn()).await })
            .await
            .map_err(bus_err)?;
        Ok(())
    }

    /// XCLAIMs `tokens` of `role` for `consumer` with min-idle 0 and JUSTID (idle time
    /// reset, delivery count kept), one XCLAIM per stream, in one pipeline.
    pub(crate) async fn keep_alive(
        &self,
        role: &str,
        consumer: &str,
        tokens: &[chorus_bus::AckToken],
    ) -> Result<(), BusError> {
        if tokens.is_empty() {
            return Ok(());
        }
        let cmds: Vec<(String, redis::Cmd)> = by_topic(tokens)
            .into_iter()
            .map(|(topic, ids)| {
                let mut cmd = redis::cmd("XCLAIM");
                cmd.arg(topic)
                    .arg(role)
                    .arg(consumer)
                    .arg(0)
                    .arg(ids)
                    .arg("JUSTID");
                (topic.to_owned(), cmd)
            })
            .collect();
        slots::exec(&self.conn, &cmds).await.map_err(bus_err)
    }

    /// A clone of the shared write connection (clones share one multiplexed socket).
    fn conn(&self) -> Connection {
        self.conn.clone()
    }

    /// Whether the bus runs on a Cluster.
    fn cluster(&self) -> bool {
        self.conn.is_cluster()
    }

    /// Which connection writes go to now (in Sentinel mode, its generation; the primary
    /// can change under the shared connection), taken before a publish writes.
    fn epoch(&self) -> Option<u64> {
        match &self.conn {
            Connection::Sentinel(c) => c.generation(),
            _ => None,
        }
    }

    /// With `bus.replica_acks` > 0: waits (`WAIT`) until that many replicas have this
    /// connection's writes to the primaries owning `keys`, failing when they do not
    /// within `bus.replica_ack_timeout_ms`. Nothing (no round trip) with 0. In Sentinel
    /// mode the `WAIT` goes only to the connection of `epoch` (the one current before the
    /// writes): when the primary changed since, the publish fails (a `WAIT` on the new
    /// primary's connection would count none of the writes).
    async fn replicated(&self, epoch: Option<u64>, keys: &[&str]) -> Result<(), BusError> {
        let want = self.settings.replica_acks;
        if want == 0 {
            return Ok(());
        }
        let timeout = self.settings.replica_ack_timeout_ms;
        let mut wait = redis::cmd("WAIT");
        wait.arg(want).arg(timeout);
        let mut acked = Vec::new();
        match &self.conn {
            Connection::Cluster(c) => {
                let slots: std::collections::BTreeSet<u16> =
                    keys.iter().map(|k| chorus_bus::keys::slot(k)).collect();
                for slot in slots {
                    let route = redis::cluster_routing::RoutingInfo::SingleNode(
                        redis::cluster_routing::SingleNodeRoutingInfo::SpecificNode(
                            redis::cluster_routing::Route::new(
                                slot,
                                redis::cluster_routing::SlotAddr::Master,
                            ),
                        ),
                    );
                    let n = c
                        .clone()
                        .route_command(wait.clone(), route)
                        .await
                        .map_err(bus_err)?;
                    acked.push(redis::from_redis_value::<i64>(n).map_err(|e| bus_err(e.into()))?);
                }
            }
            Connection::Sentinel(c) => {
                let n = c.query_on(epoch, &wait).await.map_err(bus_err)?;
                acked.push(redis::from_redis_value::<i64>(n).map_err(|e| bus_err(e.into()))?);
            }
            conn => {
                let n: i64 = wait.query_async(&mut conn.clone()).await.map_err(bus_err)?;
                acked.push(n);
            }
        }
        match acked.iter().min() {
            Some(&n) if n < i64::from(want) => Err(error::RedisBusError::NotReplicated {
                acked: n,
                wanted: want,
                within_ms: timeout,
            }
            .into()),
            _ => Ok(()),
        }
    }
}

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
                publish_once: publish_once_script(),
                publish_guarded: publish_guarded_script(),
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

    /// Appends a raw `data` field to a topic's stream, as an outside client would (no
    /// encoding, no size check, no mirror); returns the entry id.
    pub async fn publish_raw(&self, topic: &Topic, data: &str) -> Result<String, BusError> {
        let id: String = redis::cmd("XADD")
            .arg(topic.as_str())
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

    fn encode(&self, msg: &Message) -> Result<String, BusError> {
        Ok(msg.encode_within(self.shared.settings.max_message_bytes)?)
    }

    /// `publish_once_many` on a Cluster: the items grouped by their once-keys' slot, one
    /// claim per slot, all at once.
    async fn publish_once_many_on_cluster(
        &self,
        items: &[(String, Message)],
        ttl_ms: u64,
    ) -> Result<Vec<bool>, BusError> {
        let encoded = items
            .iter()
            .map(|(_, m)| self.encode(m))
            .collect::<Result<Vec<_>, _>>()?;
        let mut by_slot: std::collections::BTreeMap<u16, Vec<usize>> = Default::default();
        for (i, (key, _)) in items.iter().enumerate() {
            by_slot
                .entry(chorus_bus::keys::slot(key))
                .or_default()
                .push(i);
        }
        let maxlen = self.shared.settings.stream_maxlen;
        let ttl = claim::Ttl::new(ttl_ms, &self.shared.settings);
        let runs = by_slot.into_values().map(|indices| {
            let claims: Vec<claim::Item<'_>> = indices
                .iter()
                .map(|&i| claim::Item {
                    key: &items[i].0,
                    stream: items[i].1.topic.as_str(),
                    data: &encoded[i],
                })
                .collect();
            async move {
                let set = self
                    .shared
                    .claims
                    .publish_once(&self.shared.conn, &claims, ttl, maxlen)
                    .await?;
                Ok::<_, redis::RedisError>(indices.into_iter().zip(set).collect::<Vec<_>>())
            }
        });
        let mut out = vec![false; items.len()];
        for (i, set) in futures::future::try_join_all(runs)
            .await
            .map_err(bus_err)?
            .into_iter()
            .flatten()
        {
            out[i] = set;
        }
        Ok(out)
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
        let epoch = self.shared.epoch();
        let data = self.encode(msg)?;
        let mut pipe = redis::pipe();
        add_publish(
            &mut pipe,
            msg.topic.as_str(),
            &data,
            self.shared.settings.stream_maxlen,
        );
        let (id,): (String,) =
            conn::retry_writes(|| async { pipe.query_async(&mut self.shared.conn()).await })
                .await
                .map_err(bus_err)?;
        self.shared.replicated(epoch, &[msg.topic.as_str()]).await?;
        Ok(id)
    }

    async fn announce(&self, msg: &Message) -> Result<(), BusError> {
        let data = self.encode(msg)?;
        let mut cmd = redis::cmd("PUBLISH");
        cmd.arg(msg.topic.as_str()).arg(data);
        conn::retry_writes(|| async { cmd.exec_async(&mut self.shared.conn()).await })
            .await
            .map_err(bus_err)?;
        Ok(())
    }

    async fn publish_many(&self, msgs: &[Message]) -> Result<(), BusError> {
        let epoch = self.shared.epoch();
        let encoded = msgs
            .iter()
            .map(|m| self.encode(m))
            .collect::<Result<Vec<_>, _>>()?;
        let maxlen = self.shared.settings.stream_maxlen;
        if self.shared.cluster() {
            for chunk in msgs
                .iter()
                .zip(&encoded)
                .collect::<Vec<_>>()
                .chunks(PIPELINE_CHUNK)
            {
                let mut cmds = Vec::with_capacity(chunk.len() * 2);
                for (msg, data) in chunk {
                    let topic = msg.topic.as_str();
                    let mut xadd = redis::cmd("XADD");
                    xadd.arg(topic)
                        .arg("MAXLEN")
                        .arg("~")
                        .arg(publish::cap(topic, maxlen))
                        .arg("*")
                        .arg(DATA_FIELD)
                        .arg(data.as_str());
                    let mut mirror = redis::cmd("PUBLISH");
                    mirror.arg(topic).arg(data.as_str());
                    cmds.push((topic.to_owned(), xadd));
                    cmds.push((topic.to_owned(), mirror));
                }
                slots::exec(&self.shared.conn, &cmds)
                    .await
                    .map_err(bus_err)?;
            }
            return self.shared.replicated(epoch, &topics_of(msgs)).await;
        }
        for chunk in msgs
            .iter()
            .zip(&encoded)
            .collect::<Vec<_>>()
            .chunks(PIPELINE_CHUNK)
        {
            let mut pipe = redis::pipe();
            for (msg, data) in chunk {
                add_publish(&mut pipe, msg.topic.as_str(), data, maxlen);
            }
            conn::retry_writes(|| async { pipe.exec_async(&mut self.shared.conn()).await })
                .await
                .map_err(bus_err)?;
        }
        self.shared.replicated(epoch, &topics_of(msgs)).await
    }

    async fn publish_once(
        &self,
        key: &str,
        ttl: Duration,
        msg: &Message,
    ) -> Result<bool, BusError> {
        let epoch = self.shared.epoch();
        let data = self.encode(msg)?;
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        if self.shared.cluster() {
            let item = claim::Item {
                key,
                stream: msg.topic.as_str(),
                data: &data,
            };
            let set = self
                .shared
                .claims
                .publish_once(
                    &self.shared.conn,
                    &[item],
                    claim::Ttl::new(ttl_ms, &self.shared.settings),
                    self.shared.settings.stream_maxlen,
                )
                .await
                .map_err(bus_err)?;
            self.shared
                .replicated(epoch, &[key, msg.topic.as_str()])
                .await?;
            return Ok(set.first().copied().unwrap_or(false));
        }
        let mut invocation = self.shared.publish_once.key(key);
        invocation
            .key(msg.topic.as_str())
            .arg(ttl_ms)
            .arg(self.shared.settings.stream_maxlen)
            .arg(&data);
        let id: Option<String> =
            conn::retry_writes(|| async { invocation.invoke_async(&mut self.shared.conn()).await })
                .await
                .map_err(bus_err)?;
        self.shared
            .replicated(epoch, &[key, msg.topic.as_str()])
            .await?;
        Ok(id.is_some())
    }

    async fn publish_guarded(
        &self,
        guard: &str,
        value: &str,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Option<Vec<bool>>, BusError> {
        let epoch = self.shared.epoch();
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        if self.shared.cluster() {
            let encoded = items
                .iter()
                .map(|(_, m)| self.encode(m))
                .collect::<Result<Vec<_>, _>>()?;
            let claims: Vec<claim::Item<'_>> = items
                .iter()
                .zip(&encoded)
                .map(|((key, msg), data)| claim::Item {
                    key,
                    stream: msg.topic.as_str(),
                    data,
                })
                .collect();
            let sent = self
                .shared
                .claims
                .publish_guarded(
                    &self.shared.conn,
                    guard,
                    value,
                    &claims,
                    claim::Ttl::new(ttl_ms, &self.shared.settings),
                    self.shared.settings.stream_maxlen,
                )
                .await
                .map_err(bus_err)?;
            self.shared
                .replicated(epoch, &guarded_keys(guard, items))
                .await?;
            return Ok(sent);
        }
        let mut invocation = self.shared.publish_guarded.key(guard);
        invocation
            .arg(ttl_ms)
            .arg(self.shared.settings.stream_maxlen)
            .arg(value);
        for (key, msg) in items {
            let data = self.encode(msg)?;
            invocation
                .key(key.as_str())
                .key(msg.topic.as_str())
                .arg(data);
        }
        let sent: Option<Vec<i64>> =
            conn::retry_writes(|| async { invocation.invoke_async(&mut self.shared.conn()).await })
                .await
                .map_err(bus_err)?;
        self.shared
            .replicated(epoch, &guarded_keys(guard, items))
            .await?;
        Ok(sent.map(|v| v.into_iter().map(|n| n == 1).collect()))
    }

    async fn publish_once_many(
        &self,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Vec<bool>, BusError> {
        let epoch = self.shared.epoch();
        if items.is_empty() {
            return Ok(Vec::new());
        }
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        if self.shared.cluster() {
            let sent = self.publish_once_many_on_cluster(items, ttl_ms).await?;
            self.shared
                .replicated(epoch, &guarded_keys("", items))
                .await?;
            return Ok(sent);
        }
        let script = &self.shared.publish_once;
        let mut invocations = Vec::with_capacity(items.len());
        for (key, msg) in items {
            let data = self.encode(msg)?;
            let mut invocation = script.key(key.as_str());
            invocation
                .key(msg.topic.as_str())
                .arg(ttl_ms)
                .arg(self.shared.settings.stream_maxlen)
                .arg(data);
            invocations.push(invocation);
        }
        // One round trip (EVALSHA per item); when the server does not know the script
        // yet (first use, or after a restart), load it and run the pipeline again.
        let run = |load: bool| {
            let mut pipe = redis::pipe();
            if load {
                pipe.load_script(script).ignore();
            }
            for invocation in &invocations {
                pipe.invoke_script(invocation);
            }
            pipe
        };
        let pipe = run(false);
        let first: Result<Vec<Option<String>>, redis::RedisError> =
            conn::retry_writes(|| async { pipe.query_async(&mut self.shared.conn()).await }).await;
        let ids = match first {
            Err(e) if e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) => {
                let pipe = run(true);
                conn::retry_writes(|| async { pipe.query_async(&mut self.shared.conn()).await })
                    .await
                    .map_err(bus_err)?
            }
            other => other.map_err(bus_err)?,
        };
        self.shared
            .replicated(epoch, &guarded_keys("", items))
            .await?;
        Ok(ids.into_iter().map(|id| id.is_some()).collect())
    }

    async fn subscribe(&self, sub: Subscription) -> Result<Box<dyn Subscriber>, BusError> {
        for topic in &sub.topics {
            topic.kind()?;
        }
        let mut conn = self.shared.conn();
        groups::ensure_groups(&mut conn, &sub.topics, &sub.role)
            .await
            .map_err(bus_err)?;
        let stale = Duration::from_millis(self.shared.settings.stale_consumer_ms);
        if let Err(e) =
            groups::remove_stale_consumers(&mut conn, &sub, stale, self.shared.cluster()).await
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
        let value: redis::Value = redis::cmd("XREVRANGE")
            .arg(topic.as_str())
            .arg("+")
            .arg("-")
            .arg("COUNT")
            .arg(count)
            .query_async(&mut self.shared.conn())
            .await
            .map_err(bus_err)?;
        let mut entries = reply::entries(&value);
        entries.reverse();
        Ok(entries
            .into_iter()
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
        stats::stream_stats(&mut self.shared.conn(), topics, self.shared.cluster())
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
