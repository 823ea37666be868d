//! The in-memory stream log: entries with `<ms>-<seq>` ids, consumer groups with their
//! own cursor, and a pending entries list per group with delivery counts and the time of
//! the last delivery. It mirrors what Redis keeps for a stream, and nothing more.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::ids::now_ms;

/// A stream entry id, ordered like Redis ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub(crate) struct EntryId {
    ms: u64,
    seq: u64,
}

impl EntryId {
    /// Parses `<ms>-<seq>`.
    pub(crate) fn parse(s: &str) -> Option<Self> {
        let (ms, seq) = s.split_once('-')?;
        Some(EntryId {
            ms: ms.parse().ok()?,
            seq: seq.parse().ok()?,
        })
    }
}

impl fmt::Display for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.ms, self.seq)
    }
}

/// One entry read for a consumer.
#[derive(Debug, Clone)]
pub(crate) struct ReadEntry {
    /// The entry id.
    pub id: EntryId,
    /// The raw `data` field.
    pub data: Arc<str>,
    /// Deliveries so far, this one included.
    pub deliveries: u64,
}

#[derive(Debug)]
struct Pending {
    consumer: String,
    deliveries: u64,
    last_delivery: Instant,
}

#[derive(Debug, Default)]
struct Group {
    last_delivered: EntryId,
    pending: BTreeMap<EntryId, Pending>,
}

/// One topic's stream.
#[derive(Debug, Default)]
pub(crate) struct Log {
    entries: VecDeque<(EntryId, Arc<str>)>,
    last_id: EntryId,
    groups: HashMap<String, Group>,
}

impl Log {
    /// Appends an entry, trimming the oldest ones past `maxlen`; returns its id.
    pub(crate) fn append(&mut self, data: Arc<str>, maxlen: usize) -> EntryId {
        let ms = now_ms();
        let id = if ms > self.last_id.ms {
            EntryId { ms, seq: 0 }
        } else {
            EntryId {
                ms: self.last_id.ms,
                seq: self.last_id.seq + 1,
            }
        };
        self.last_id = id;
        self.entries.push_back((id, data));
        while self.entries.len() > maxlen {
            self.entries.pop_front();
        }
        id
    }

    /// Creates `role`'s group at the stream's start, unless it exists.
    pub(crate) fn create_group(&mut self, role: &str) {
        self.groups.entry(role.to_owned()).or_default();
    }

    fn data(&self, id: EntryId) -> Option<Arc<str>> {
        self.entries
            .binary_search_by(|(e, _)| e.cmp(&id))
            .ok()
            .and_then(|i| self.entries.get(i))
            .map(|(_, d)| d.clone())
    }

    /// Entries never delivered to `role`, at most `max`, now pending for `consumer`.
    pub(crate) fn read_new(&mut self, role: &str, consumer: &str, max: usize) -> Vec<ReadEntry> {
        let Some(group) = self.groups.get_mut(role) else {
            return Vec::new();
        };
        let start = self
            .entries
            .partition_point(|(id, _)| *id <= group.last_delivered);
        let now = Instant::now();
        let mut out = Vec::new();
        for (id, data) in self.entries.range(start..).take(max) {
            group.last_delivered = *id;
            group.pending.insert(
                *id,
                Pending {
                    consumer: consumer.to_owned(),
                    deliveries: 1,
                    last_delivery: now,
                },
            );
            out.push(ReadEntry {
                id: *id,
                data: data.clone(),
                deliveries: 1,
            });
        }
        out
    }

    /// Claims for `consumer` the entries of `role` pending longer than `min_idle`, at most
    /// `max`, counting a delivery each (like XAUTOCLAIM). Entries trimmed from the stream
    /// meanwhile are dropped from the pending list.
    pub(crate) fn claim_idle(
        &mut self,
        role: &str,
        consumer: &str,
        min_idle: Duration,
        max: usize,
    ) -> Vec<ReadEntry> {
        let now = Instant::now();
        let idle: Vec<EntryId> = match self.groups.get(role) {
            Some(g) => g
                .pending
                .iter()
                .filter(|(_, p)| now.duration_since(p.last_delivery) >= min_idle)
                .map(|(id, _)| *id)
                .take(max)
                .collect(),
            None => return Vec::new(),
        };
        let mut out = Vec::new();
        for id in idle {
            let data = self.data(id);
            let Some(group) = self.groups.get_mut(role) else {
                break;
            };
            let Some(data) = data else {
                group.pending.remove(&id);
                continue;
            };
            if let Some(p) = group.pending.get_mut(&id) {
                p.consumer = consumer.to_owned();
                p.deliveries += 1;
                p.last_delivery = now;
                out.push(ReadEntry {
                    id,
                    data,
                    deliveries: p.deliveries,
                });
            }
        }
        out
    }

    /// Makes the pending entries `ids` of `role` fresh deliveries to `consumer` (idle
    /// time reset, delivery count kept), like XCLAIM JUSTID; returns how many were pending.
    pub(crate) fn keep_alive(&mut self, role: &str, consumer: &str, ids: &[EntryId]) -> usize {
        let Some(group) = self.groups.get_mut(role) else {
            return 0;
        };
        let now = Instant::now();
        let mut kept = 0;
        for id in ids {
            if let Some(p) = group.pending.get_mut(id) {
                p.consumer = consumer.to_owned();
                p.last_delivery = now;
                kept += 1;
            }
        }
        kept
    }

    /// When the earliest pending entry of `role` becomes claimable.
    pub(crate) fn next_claimable(&self, role: &str, min_idle: Duration) -> Option<Instant> {
        self.groups
            .get(role)?
            .pending
            .values()
            .map(|p| p.last_delivery + min_idle)
            .min()
    }

    /// Removes entries from `role`'s pending list; returns how many were pending.
    pub(crate) fn ack(&mut self, role: &str, ids: &[EntryId]) -> usize {
        let Some(group) = self.groups.get_mut(role) else {
            return 0;
        };
        ids.iter()
            .filter(|id| group.pending.remove(id).is_some())
            .count()
    }

    /// The last `count` entries, oldest first.
    pub(crate) fn last(&self, count: usize) -> Vec<(EntryId, Arc<str>)> {
        let skip = self.entries.len().saturating_sub(count);
        self.entries.iter().skip(skip).cloned().collect()
    }

    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Each group's name and pending count, by name.
    pub(crate) fn groups_pending(&self) -> Vec<(String, usize)> {
        let mut groups: Vec<_> = self
            .groups
            .iter()
            .map(|(name, g)| (name.clone(), g.pending.len()))
            .collect();
        groups.sort();
        groups
    }

    /// Number of entries pending for `role`.
    pub(crate) fn pending_count(&self, role: &str) -> usize {
        self.groups.get(role).map_or(0, |g| g.pending.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_group_has_its_own_cursor_and_claims_count_deliveries() {
        let mut log = Log::default();
        log.create_group("a");
        log.create_group("b");
        for i in 0..3 {
            log.append(Arc::from(format!("m{i}")), 100);
        }
        assert_eq!(log.read_new("a", "a1", 2).len(), 2);
        assert_eq!(log.read_new("a", "a2", 10).len(), 1);
        assert_eq!(log.read_new("b", "b1", 10).len(), 3);
        let claimed = log.claim_idle("a", "a2", Duration::ZERO, 10);
        assert_eq!(claimed.len(), 3);
        assert!(claimed.iter().all(|e| e.deliveries == 2));
        let ids: Vec<EntryId> = claimed.iter().map(|e| e.id).collect();
        assert_eq!(log.ack("a", &ids), 3);
        assert_eq!(log.pending_count("a"), 0);
        assert_eq!(log.pending_count("b"), 3);
    }

    #[test]
    fn the_cap_trims_oldest_entries_and_ids_increase() {
        let mut log = Log::default();
        let a = log.append(Arc::from("x"), 2);
        let b = log.append(Arc::from("y"), 2);
        let c = log.append(Arc::from("z"), 2);
        assert!(a < b && b < c);
        assert_eq!(log.len(), 2);
        assert_eq!(EntryId::parse(&c.to_string()), Some(c));
        assert_eq!(&*log.last(5)[0].1, "y");
    }
}
