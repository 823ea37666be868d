//! In-memory consumers: a group member that claims idle entries and reads new ones,
//! waiting on a `Notify` (never polling in a loop), and a group-less watcher fed by a
//! broadcast of published messages.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::broadcast;
use tokio::time::Instant;

use super::Inner;
use super::log::{EntryId, ReadEntry};
use crate::bus::{AckToken, Delivery, Subscriber, Subscription, Watcher};
use crate::counts::{self, TransportEvent};
use crate::envelope::Message;
use crate::error::BusError;
use crate::intake::{Intake, RawEntry, handler_dead_letter, intake};
use crate::topic::Topic;

/// A consumer of one role on the in-memory bus.
pub(crate) struct MemorySubscriber {
    inner: Arc<Inner>,
    sub: Subscription,
}

impl MemorySubscriber {
    pub(crate) fn new(inner: Arc<Inner>, sub: Subscription) -> Self {
        MemorySubscriber { inner, sub }
    }

    /// Claimed entries first, then new ones, at most `batch_count`; and the earliest time
    /// a pending entry becomes claimable.
    fn read(&self) -> (Vec<(Topic, ReadEntry)>, Option<Instant>) {
        let settings = &self.inner.settings;
        let (max, min_idle) = (settings.batch_count, settings.claim_idle());
        let mut logs = self.inner.logs();
        let mut out = Vec::new();
        for topic in &self.sub.topics {
            let Some(log) = logs.get_mut(topic) else {
                continue;
            };
            let room = max.saturating_sub(out.len());
            let claimed = log.claim_idle(&self.sub.role, &self.sub.consumer, min_idle, room);
            let n = claimed.len() as u64;
            counts::record(&self.sub.role, topic, TransportEvent::Claimed, n);
            out.extend(claimed.into_iter().map(|e| (topic.clone(), e)));
        }
        for topic in &self.sub.topics {
            let Some(log) = logs.get_mut(topic) else {
                continue;
            };
            let room = max.saturating_sub(out.len());
            let fresh = log.read_new(&self.sub.role, &self.sub.consumer, room);
            out.extend(fresh.into_iter().map(|e| (topic.clone(), e)));
        }
        let next_claim = self
            .sub
            .topics
            .iter()
            .filter_map(|t| logs.get(t)?.next_claimable(&self.sub.role, min_idle))
            .min()
            .map(Instant::from_std);
        (out, next_claim)
    }

    /// Turns read entries into deliveries, dead-lettering the ones that cannot be handled.
    fn take(&self, entries: Vec<(Topic, ReadEntry)>) -> Vec<Delivery> {
        let settings = &self.inner.settings;
        let mut out = Vec::with_capacity(entries.len());
        for (topic, entry) in entries {
            let id = entry.id.to_string();
            let raw = RawEntry {
                topic: &topic,
                entry_id: &id,
                partition: 0,
                data: Some(&entry.data),
                deliveries: entry.deliveries,
            };
            match intake(
                raw,
                &self.sub,
                settings.max_deliveries,
                settings.max_message_bytes,
            ) {
                Intake::Deliver(d) => out.push(*d),
                Intake::DeadLetter(dl) => {
                    tracing::warn!(topic = %topic, entry_id = %id, role = %self.sub.role, "dead-lettering entry");
                    self.publish_dead_letter(&dl);
                    self.ack_ids(&topic, &[entry.id]);
                }
                Intake::Drop(reason) => {
                    tracing::error!(topic = %topic, entry_id = %id, %reason, "dropping dead letter");
                    self.ack_ids(&topic, &[entry.id]);
                }
                Intake::LeaveToDoor(reason) => {
                    tracing::debug!(topic = %topic, entry_id = %id, %reason, "unreadable client entry; the door dead-letters it");
                    self.ack_ids(&topic, &[entry.id]);
                }
            }
        }
        out
    }

    fn publish_dead_letter(&self, dl: &Message) {
        let data = dl.to_json();
        self.inner.publish_encoded(dl, data);
    }

    fn ack_ids(&self, topic: &Topic, ids: &[EntryId]) {
        if let Some(log) = self.inner.logs().get_mut(topic) {
            log.ack(&self.sub.role, ids);
        }
    }
}

#[async_trait]
impl Subscriber for MemorySubscriber {
    async fn next_batch(&mut self) -> Result<Vec<Delivery>, BusError> {
        let deadline = Instant::now() + self.inner.settings.block();
        loop {
            let appended = self.inner.appended.notified();
            tokio::pin!(appended);
            appended.as_mut().enable();
            let (entries, next_claim) = self.read();
            if !entries.is_empty() {
                let batch = self.take(entries);
                if !batch.is_empty() {
                    return Ok(batch);
                }
                continue;
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(Vec::new());
            }
            let wake = next_claim.map_or(deadline, |c| c.clamp(now, deadline));
            let _ = tokio::time::timeout_at(wake, appended).await;
        }
    }

    async fn ack(&self, tokens: &[AckToken]) -> Result<(), BusError> {
        let mut logs = self.inner.logs();
        for token in tokens {
            if let (Some(log), Some(id)) =
                (logs.get_mut(&token.topic), EntryId::parse(&token.entry_id))
            {
                log.ack(&self.sub.role, &[id]);
            }
        }
        Ok(())
    }

    async fn dead_letter(&self, delivery: &Delivery, reason: &str) -> Result<(), BusError> {
        let dl = handler_dead_letter(delivery, &self.sub.role, reason);
        self.publish_dead_letter(&dl);
        self.ack(&[delivery.ack_token()]).await
    }
}

/// A group-less reader of messages published after it was created.
pub(crate) struct MemoryWatcher {
    rx: broadcast::Receiver<Arc<Message>>,
    topics: HashSet<Topic>,
    block: Duration,
    batch_count: usize,
}

impl MemoryWatcher {
    pub(crate) fn new(
        rx: broadcast::Receiver<Arc<Message>>,
        topics: Vec<Topic>,
        block: Duration,
        batch_count: usize,
    ) -> Self {
        MemoryWatcher {
            rx,
            topics: topics.into_iter().collect(),
            block,
            batch_count,
        }
    }

    fn keep(&self, msg: &Message) -> bool {
        self.topics.contains(&msg.topic)
    }
}

#[async_trait]
impl Watcher for MemoryWatcher {
    async fn next_batch(&mut self) -> Result<Vec<Message>, BusError> {
        let deadline = Instant::now() + self.block;
        let mut out = Vec::new();
        while out.is_empty() {
            match tokio::time::timeout_at(deadline, self.rx.recv()).await {
                Err(_) => return Ok(out),
                Ok(Ok(msg)) if self.keep(&msg) => out.push((*msg).clone()),
                Ok(Ok(_)) => {}
                Ok(Err(broadcast::error::RecvError::Lagged(n))) => {
                    tracing::warn!(missed = n, "watcher lagged behind; messages skipped");
                }
                Ok(Err(broadcast::error::RecvError::Closed)) => return Err(BusError::Closed),
            }
        }
        while out.len() < self.batch_count {
            match self.rx.try_recv() {
                Ok(msg) if self.keep(&msg) => out.push((*msg).clone()),
                Ok(_) | Err(broadcast::error::TryRecvError::Lagged(_)) => {}
                Err(_) => break,
            }
        }
        Ok(out)
    }
}
