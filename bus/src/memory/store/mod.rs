//! The in-memory [`Store`]: strings, hashes and sorted sets with TTLs, expiring lazily
//! on access like Redis does, with a sweep of expired keys every few thousand writes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;

use crate::error::BusError;
use crate::store::{Retirement, Store};

/// Writes between two sweeps of expired keys.
const SWEEP_EVERY: u64 = 4096;

#[derive(Debug, Clone)]
enum Value {
    Str(String),
    Hash(HashMap<String, String>),
    ZSet(HashMap<String, i64>),
}

#[derive(Debug)]
struct Slot {
    value: Value,
    expires: Option<Instant>,
}

#[derive(Debug, Default)]
struct Keys {
    map: HashMap<String, Slot>,
    writes: u64,
}

impl Keys {
    /// The live slot at `key`, removing it when expired.
    fn live(&mut self, key: &str, now: Instant) -> Option<&mut Slot> {
        if self
            .map
            .get(key)
            .is_some_and(|s| s.expires.is_some_and(|e| e <= now))
        {
            self.map.remove(key);
        }
        self.map.get_mut(key)
    }

    fn wrote(&mut self, now: Instant) {
        self.writes += 1;
        if self.writes.is_multiple_of(SWEEP_EVERY) {
            self.map
                .retain(|_, s| s.expires.is_none_or(|expires| expires > now));
        }
    }
}

/// Key-value state in process memory, with the same semantics as `chorus_bus_redis::RedisStore`.
/// Clones share the same keys.
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    keys: Arc<Mutex<Keys>>,
}

fn wrong_type(key: &str) -> BusError {
    BusError::WrongType {
        key: key.to_owned(),
    }
}

fn deadline(now: Instant, ttl: Duration) -> Option<Instant> {
    Some(now + ttl.max(Duration::from_millis(1)))
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Keys> {
        // Every critical section leaves the map consistent, so a poisoned lock is usable.
        self.keys.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sets a hash field, keeping or creating the hash; `only_new` refuses existing fields.
    fn hash_set(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
        only_new: bool,
    ) -> Result<bool, BusError> {
        let now = Instant::now();
        let mut keys = self.lock();
        keys.wrote(now);
        let slot = match keys.live(key, now) {
            Some(slot) => slot,
            None => {
                keys.map.insert(
                    key.to_owned(),
                    Slot {
                        value: Value::Hash(HashMap::new()),
                        expires: None,
                    },
                );
                keys.live(key, now).ok_or_else(|| wrong_type(key))?
            }
        };
        let Value::Hash(h) = &mut slot.value else {
            return Err(wrong_type(key));
        };
        let set = !(only_new && h.contains_key(field));
        if set {
            h.insert(field.to_owned(), value.to_owned());
        }
        slot.expires = deadline(now, ttl);
        Ok(set)
    }

    /// Every live key starting with `prefix`, sorted, with its remaining TTL (`None`:
    /// no TTL): what a task leaves behind, for tests and inspection.
    pub fn keys_with_ttl(&self, prefix: &str) -> Vec<(String, Option<Duration>)> {
        let now = Instant::now();
        let keys = self.lock();
        let mut found: Vec<(String, Option<Duration>)> = keys
            .map
            .iter()
            .filter(|(k, s)| k.starts_with(prefix) && s.expires.is_none_or(|e| e > now))
            .map(|(k, s)| (k.clone(), s.expires.map(|e| e - now)))
            .collect();
        found.sort();
        found
    }
}

#[async_trait]
impl Store for MemoryStore {
    async fn get(&self, key: &str) -> Result<Option<String>, BusError> {
        match self.lock().live(key, Instant::now()) {
            None => Ok(None),
            Some(Slot {
                value: Value::Str(s),
                ..
            }) => Ok(Some(s.clone())),
            Some(_) => Err(wrong_type(key)),
        }
    }

    async fn set(&self, key: &str, value: &str, ttl: Duration) -> Result<(), BusError> {
        let now = Instant::now();
        let mut keys = self.lock();
        keys.wrote(now);
        keys.map.insert(
            key.to_owned(),
            Slot {
                value: Value::Str(value.to_owned()),
                expires: deadline(now, ttl),
            },
        );
        Ok(())
    }

    async fn set_nx(&self, key: &str, value: &str, ttl: Duration) -> Result<bool, BusError> {
        let now = Instant::now();
        let mut keys = self.lock();
        keys.wrote(now);
        if keys.live(key, now).is_some() {
            return Ok(false);
        }
        keys.map.insert(
            key.to_owned(),
            Slot {
                value: Value::Str(value.to_owned()),
                expires: deadline(now, ttl),
            },
        );
        Ok(true)
    }

    async fn del(&self, key: &str) -> Result<(), BusError> {
        self.lock().map.remove(key);
        Ok(())
    }

    async fn hset(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<(), BusError> {
        self.hash_set(key, field, value, ttl, false).map(|_| ())
    }

    async fn hset_nx(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<bool, BusError> {
        self.hash_set(key, field, value, ttl, true)
    }

    async fn hgetall(&self, key: &str) -> Result<Vec<(String, String)>, BusError> {
        match self.lock().live(key, Instant::now()) {
            None => Ok(Vec::new()),
            Some(Slot {
                value: Value::Hash(h),
                ..
            }) => Ok(h.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
            Some(_) => Err(wrong_type(key)),
        }
    }

    async fn hdel(&self, key: &str, field: &str) -> Result<(), BusError> {
        let mut keys = self.lock();
        let now = Instant::now();
        let empty = match keys.live(key, now) {
            None => return Ok(()),
            Some(Slot {
                value: Value::Hash(h),
                ..
            }) => {
                h.remove(field);
                h.is_empty()
            }
            Some(_) => return Err(wrong_type(key)),
        };
        if empty {
            keys.map.remove(key);
        }
        Ok(())
    }

    async fn zadd(&self, key: &str, member: &str, score: i64) -> Result<(), BusError> {
        let now = Instant::now();
        let mut keys = self.lock();
        keys.wrote(now);
        if keys.live(key, now).is_none() {
            keys.map.insert(
                key.to_owned(),
                Slot {
                    value: Value::ZSet(HashMap::new()),
                    expires: None,
                },
            );
        }
        match keys.live(key, now) {
            Some(Slot {
                value: Value::ZSet(z),
                ..
            }) => {
                z.insert(member.to_owned(), score);
                Ok(())
            }
            _ => Err(wrong_type(key)),
        }
    }

    async fn zrange_to(&self, key: &str, max: i64, limit: usize) -> Result<Vec<String>, BusError> {
        match self.lock().live(key, Instant::now()) {
            None => Ok(Vec::new()),
            Some(Slot {
                value: Value::ZSet(z),
                ..
            }) => {
                let mut members: Vec<(i64, &String)> = z
                    .iter()
                    .filter(|(_, s)| **s <= max)
                    .map(|(m, s)| (*s, m))
                    .collect();
                members.sort();
                Ok(members
                    .into_iter()
                    .take(limit)
                    .map(|(_, m)| m.clone())
                    .collect())
            }
            Some(_) => Err(wrong_type(key)),
        }
    }

    async fn zrem(&self, key: &str, member: &str) -> Result<bool, BusError> {
        let mut keys = self.lock();
        let now = Instant::now();
        let (removed, empty) = match keys.live(key, now) {
            None => return Ok(false),
            Some(Slot {
                value: Value::ZSet(z),
                ..
            }) => (z.remove(member).is_some(), z.is_empty()),
            Some(_) => return Err(wrong_type(key)),
        };
        if empty {
            keys.map.remove(key);
        }
        Ok(removed)
    }

    async fn set_and_zadd_unless(
        &self,
        guard: &str,
        key: &str,
        value: &str,
        ttl: Duration,
        zset: &str,
        member: &str,
        score: i64,
    ) -> Result<bool, BusError> {
        let now = Instant::now();
        let mut keys = self.lock();
        if keys.live(guard, now).is_some() {
            return Ok(false);
        }
        match keys.live(zset, now) {
            Some(Slot {
                value: Value::ZSet(_),
                ..
            })
            | None => {}
            Some(_) => return Err(wrong_type(zset)),
        }
        keys.wrote(now);
        keys.map.insert(
            key.to_owned(),
            Slot {
                value: Value::Str(value.to_owned()),
                expires: deadline(now, ttl),
            },
        );
        let slot = keys.map.entry(zset.to_owned()).or_insert(Slot {
            value: Value::ZSet(HashMap::new()),
            expires: None,
        });
        if let Value::ZSet(z) = &mut slot.value {
            z.insert(member.to_owned(), score);
        }
        Ok(true)
    }

    async fn retire(&self, r: &Retirement) -> Result<(), BusError> {
        let now = Instant::now();
        let mut keys = self.lock();
        keys.wrote(now);
        for (key, value) in &r.set {
            keys.map.insert(
                key.clone(),
                Slot {
                    value: Value::Str(value.clone()),
                    expires: deadline(now, r.ttl),
                },
            );
        }
        let (kept_if, removed_if) = match &r.keep_if {
            Some(k) => (
                std::iter::once(&k.key).chain(&k.keep).collect::<Vec<_>>(),
                k.zrem.iter().collect::<Vec<_>>(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        for key in r.keep.iter().chain(kept_if) {
            if let Some(slot) = keys.live(key, now) {
                slot.expires = deadline(now, r.ttl);
            }
        }
        for key in &r.delete {
            keys.map.remove(key);
        }
        for (zset, member) in r.zrem.iter().chain(removed_if) {
            let empty = match keys.live(zset, now) {
                Some(Slot {
                    value: Value::ZSet(z),
                    ..
                }) => {
                    z.remove(member);
                    z.is_empty()
                }
                _ => false,
            };
            if empty {
                keys.map.remove(zset);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
