//! What a transport did that no handler sees, counted for the metrics: entries claimed
//! from an idle consumer, and entries dead-lettered at intake (undecodable, too large,
//! or delivered more than `max_deliveries` times). Both are rare, so one process-wide
//! map under a mutex keeps them; the metrics read it when scraped ([`snapshot`]). The
//! bus knows no metrics library: it only counts.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

use crate::topic::Topic;

/// What was counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TransportEvent {
    /// An entry idle past the claim time was claimed by a consumer of the role.
    Claimed,
    /// An entry that does not decode (or is too large) was dead-lettered at intake.
    Undecodable,
    /// An entry delivered more than `max_deliveries` times was dead-lettered.
    TooManyDeliveries,
}

/// One count: the role (consumer group), the topic, what happened, how often.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportCount {
    /// The role's consumer group.
    pub role: String,
    /// The topic (stream).
    pub topic: String,
    /// What happened.
    pub event: TransportEvent,
    /// How many times, since the process started.
    pub count: u64,
}

type Key = (String, String, TransportEvent);

fn counts() -> std::sync::MutexGuard<'static, BTreeMap<Key, u64>> {
    static COUNTS: Mutex<BTreeMap<Key, u64>> = Mutex::new(BTreeMap::new());
    COUNTS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Counts `n` times `event` for `role` on `topic`.
pub fn record(role: &str, topic: &Topic, event: TransportEvent, n: u64) {
    if n == 0 {
        return;
    }
    let key = (role.to_owned(), topic.as_str().to_owned(), event);
    *counts().entry(key).or_insert(0) += n;
}

/// Every count so far, in (role, topic, event) order.
pub fn snapshot() -> Vec<TransportCount> {
    counts()
        .iter()
        .map(|((role, topic, event), n)| TransportCount {
            role: role.clone(),
            topic: topic.clone(),
            event: *event,
            count: *n,
        })
        .collect()
}
