//! The in-memory bus: the same semantics as Redis Streams inside one process, for unit
//! tests and the one-process mode. Entries are stored as their JSON text, so decoding,
//! size limits and dead-lettering behave exactly as on Redis.

mod log;
mod store;
mod subscriber;
mod tokens;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{Notify, broadcast};

pub use store::MemoryStore;

use crate::bus::{Bus, GroupStats, IngressFeed, StreamStats, Subscriber, Subscription, Watcher};
use crate::envelope::Message;
use crate::error::BusError;
use crate::ids::TaskId;
use crate::settings::BusSettings;
use crate::store::Store;
use crate::tokens::{ReportToken, TokenReader, token_stream_key};
use crate::topic::Topic;
use log::{EntryId, Log};
use subscriber::{MemorySubscriber, MemoryWatcher};
use tokens::{MemoryTokenReader, TokenStreams};

/// Capacity of the watch broadcast; a watcher lagging further loses the oldest messages.
const WATCH_CAPACITY: usize = 16_384;

struct Inner {
    settings: BusSettings,
    logs: Mutex<HashMap<Topic, Log>>,
    /// Woken on every append, so blocked `next_batch` calls re-check their streams.
    appended: Notify,
    /// Every published message that decodes, for watchers (the Pub/Sub mirror's twin).
    mirror: broadcast::Sender<Arc<Message>>,
    /// What outside clients "PUBLISH" ([`MemoryBus::publish_channel`]), and the mirror
    /// of every envelope, as the raw text a channel would carry.
    channels: broadcast::Sender<(Topic, Arc<str>)>,
    store: MemoryStore,
    /// Every task's report token stream.
    tokens: Arc<TokenStreams>,
}

/// The in-memory bus. Clones share the same streams.
#[derive(Clone)]
pub struct MemoryBus {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for MemoryBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryBus").finish_non_exhaustive()
    }
}

impl Default for MemoryBus {
    fn default() -> Self {
        Self::new(BusSettings::default())
    }
}

impl MemoryBus {
    /// A new empty bus with its own store.
    pub fn new(settings: BusSettings) -> Self {
        Self::with_store(settings, MemoryStore::new())
    }

    /// A new empty bus whose `publish_once` keys live in `store` (share it with agents
    /// so bus and state use one keyspace, as on Redis).
    pub fn with_store(settings: BusSettings, store: MemoryStore) -> Self {
        let (mirror, _) = broadcast::channel(WATCH_CAPACITY);
        let (channels, _) = broadcast::channel(WATCH_CAPACITY);
        MemoryBus {
            inner: Arc::new(Inner {
                settings,
                logs: Mutex::new(HashMap::new()),
                appended: Notify::new(),
                mirror,
                channels,
                store,
                tokens: Arc::default(),
            }),
        }
    }

    /// The store holding this bus's `publish_once` keys.
    pub fn store(&self) -> MemoryStore {
        self.inner.store.clone()
    }

    /// The settings.
    pub fn settings(&self) -> &BusSettings {
        &self.inner.settings
    }

    /// Appends a raw `data` field to a topic's stream, as an outside client would
    /// (no encoding, no size check); returns the entry id.
    pub fn publish_raw(&self, topic: &Topic, data: &str) -> String {
        let id = self.inner.append(topic, Arc::from(data));
        if let Ok(decoded) = Message::decode_on(topic, data, Some(&id.to_string())) {
            let _ = self.inner.mirror.send(Arc::new(decoded.into_message()));
        }
        id.to_string()
    }

    /// Publishes `payload` on `topic`'s channel, as an outside client's `PUBLISH` would
    /// (for the PUBLISH ingress); returns how many ingress feeds received it.
    pub fn publish_channel(&self, topic: &Topic, payload: &str) -> usize {
        self.inner
            .channels
            .send((topic.clone(), Arc::from(payload)))
            .unwrap_or(0)
    }

    /// Number of entries in a topic's stream.
    pub fn len(&self, topic: &Topic) -> usize {
        self.inner.logs().get(topic).map_or(0, Log::len)
    }

    /// Number of entries pending (delivered, not acked) for `role` on `topic`.
    pub fn pending(&self, topic: &Topic, role: &str) -> usize {
        self.inner
            .logs()
            .get(topic)
            .map_or(0, |l| l.pending_count(role))
    }
}

impl Inner {
    fn logs(&self) -> MutexGuard<'_, HashMap<Topic, Log>> {
        // Each critical section leaves the logs consistent, so a poisoned lock is usable.
        self.logs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn append(&self, topic: &Topic, data: Arc<str>) -> EntryId {
        let id = self
            .logs()
            .entry(topic.clone())
            .or_default()
            .append(data, self.settings.stream_maxlen);
        self.appended.notify_waiters();
        id
    }

    /// Checks and encodes a message for publishing.
    fn encode(&self, msg: &Message) -> Result<String, BusError> {
        Ok(msg.encode_within(self.settings.max_message_bytes)?)
    }

    /// Calls `f` with the stream and entry id of each token (unknown ones skipped).
    fn each_entry(&self, tokens: &[crate::bus::AckToken], mut f: impl FnMut(&mut Log, EntryId)) {
        let mut logs = self.logs();
        for token in tokens {
            if let (Some(log), Some(id)) =
                (logs.get_mut(&token.topic), EntryId::parse(&token.entry_id))
            {
                f(log, id);
            }
        }
    }

    fn publish_encoded(&self, msg: &Message, data: String) -> String {
        let data: Arc<str> = Arc::from(data);
        let id = self.append(&msg.topic, data.clone());
        let _ = self.mirror.send(Arc::new(msg.clone()));
        if self.channels.receiver_count() > 0 {
            let _ = self.channels.send((msg.topic.clone(), data));
        }
        id.to_string()
    }
}

/// A memory bus channel's ingress feed.
struct MemoryIngress {
    topic: Topic,
    rx: broadcast::Receiver<(Topic, Arc<str>)>,
}

#[async_trait]
impl IngressFeed for MemoryIngress {
    async fn next(&mut self) -> Option<String> {
        loop {
            match self.rx.recv().await {
                Ok((topic, payload)) if topic == self.topic => return Some(payload.to_string()),
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

#[async_trait]
impl Bus for MemoryBus {
    async fn ack(&self, role: &str, tokens: &[crate::bus::AckToken]) -> Result<(), BusError> {
        self.inner.each_entry(tokens, |log, id| {
            log.ack(role, &[id]);
        });
        Ok(())
    }

    async fn keep_alive(
        &self,
        role: &str,
        consumer: &str,
        tokens: &[crate::bus::AckToken],
    ) -> Result<(), BusError> {
        self.inner.each_entry(tokens, |log, id| {
            log.keep_alive(role, consumer, &[id]);
        });
        Ok(())
    }

    fn claim_idle(&self) -> Duration {
        self.inner.settings.claim_idle()
    }

    async fn publish(&self, msg: &Message) -> Result<String, BusError> {
        let data = self.inner.encode(msg)?;
        Ok(self.inner.publish_encoded(msg, data))
    }

    async fn announce(&self, msg: &Message) -> Result<(), BusError> {
        // The channel only, as on Redis: watchers of streams do not see it.
        let data: Arc<str> = Arc::from(self.inner.encode(msg)?);
        if self.inner.channels.receiver_count() > 0 {
            let _ = self.inner.channels.send((msg.topic.clone(), data));
        }
        Ok(())
    }

    async fn publish_many(&self, msgs: &[Message]) -> Result<(), BusError> {
        let encoded = msgs
            .iter()
            .map(|m| self.inner.encode(m))
            .collect::<Result<Vec<_>, _>>()?;
        for (msg, data) in msgs.iter().zip(encoded) {
            self.inner.publish_encoded(msg, data);
        }
        Ok(())
    }

    async fn publish_once(
        &self,
        key: &str,
        ttl: Duration,
        msg: &Message,
    ) -> Result<bool, BusError> {
        let data = self.inner.encode(msg)?;
        if !self.inner.store.set_nx(key, "1", ttl).await? {
            return Ok(false);
        }
        self.inner.publish_encoded(msg, data);
        Ok(true)
    }

    async fn publish_guarded(
        &self,
        guard: &str,
        value: &str,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Option<Vec<bool>>, BusError> {
        // Every message is checked before anything is written, as the script does.
        let encoded = items
            .iter()
            .map(|(key, msg)| Ok((key, msg, self.inner.encode(msg)?)))
            .collect::<Result<Vec<_>, BusError>>()?;
        if !self.inner.store.set_nx(guard, value, ttl).await? {
            return Ok(None);
        }
        let mut sent = Vec::with_capacity(encoded.len());
        for (key, msg, data) in encoded {
            let new = self.inner.store.set_nx(key, "1", ttl).await?;
            if new {
                self.inner.publish_encoded(msg, data);
            }
            sent.push(new);
        }
        Ok(Some(sent))
    }

    async fn subscribe(&self, sub: Subscription) -> Result<Box<dyn Subscriber>, BusError> {
        {
            let mut logs = self.inner.logs();
            for topic in &sub.topics {
                topic.kind()?;
                logs.entry(topic.clone())
                    .or_default()
                    .create_group(&sub.role);
            }
        }
        Ok(Box::new(MemorySubscriber::new(self.inner.clone(), sub)))
    }

    async fn watch(&self, topics: &[Topic]) -> Result<Box<dyn Watcher>, BusError> {
        Ok(Box::new(MemoryWatcher::new(
            self.inner.mirror.subscribe(),
            topics.to_vec(),
            self.inner.settings.block(),
            self.inner.settings.batch_count,
        )))
    }

    async fn ingress(&self, topic: &Topic) -> Result<Box<dyn IngressFeed>, BusError> {
        topic.kind()?;
        Ok(Box::new(MemoryIngress {
            topic: topic.clone(),
            rx: self.inner.channels.subscribe(),
        }))
    }

    async fn recent(&self, topic: &Topic, count: usize) -> Result<Vec<Message>, BusError> {
        let entries = self
            .inner
            .logs()
            .get(topic)
            .map(|l| l.last(count))
            .unwrap_or_default();
        Ok(entries
            .into_iter()
            .filter_map(|(id, data)| {
                Message::decode_on(topic, &data, Some(&id.to_string()))
                    .ok()
                    .map(|d| d.into_message())
            })
            .collect())
    }

    async fn stream_stats(&self, topics: &[Topic]) -> Result<Vec<StreamStats>, BusError> {
        let logs = self.inner.logs();
        Ok(topics
            .iter()
            .map(|topic| StreamStats {
                topic: topic.clone(),
                length: logs.get(topic).map_or(0, |l| l.len() as u64),
                groups: logs.get(topic).map_or_else(Vec::new, |l| {
                    l.groups_pending()
                        .into_iter()
                        .map(|(group, n)| GroupStats {
                            group,
                            pending: n as u64,
                        })
                        .collect()
                }),
            })
            .collect())
    }

    async fn append_tokens(
        &self,
        task: &TaskId,
        tokens: &[ReportToken],
        ttl: Duration,
    ) -> Result<usize, BusError> {
        Ok(self
            .inner
            .tokens
            .append(&token_stream_key(task), tokens, ttl))
    }

    async fn read_tokens(&self, task: &TaskId) -> Result<Box<dyn TokenReader>, BusError> {
        Ok(Box::new(MemoryTokenReader::new(
            self.inner.tokens.clone(),
            token_stream_key(task),
        )))
    }
}
