//! The state store: small key-value operations for per-task state (plans, step
//! results, flags, deadlines) and the agent registry. State lives in Redis (or the
//! in-memory store) with a TTL, never only in a process's memory, so any replica can
//! carry on any task.

use std::time::Duration;

use async_trait::async_trait;

use crate::error::BusError;

/// What [`Store::hset_nx_and_read`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashAndValue {
    /// Whether the field was new.
    pub inserted: bool,
    /// The values at the other keys, in the order asked.
    pub others: Vec<Option<String>>,
    /// Every field of the hash, the new one included.
    pub hash: Vec<(String, String)>,
}

/// What [`Store::retire`] does to a finished piece of state, in one round trip: the
/// values set and the keys kept get the short `ttl`; the rest goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Retirement {
    /// Keys set to a value (overwriting), expiring after `ttl`.
    pub set: Vec<(String, String)>,
    /// Keys whose TTL becomes `ttl` when they exist (absent ones stay absent).
    pub keep: Vec<String>,
    /// Keys deleted (absent ones are ignored).
    pub delete: Vec<String>,
    /// Sorted-set members removed, as (set, member).
    pub zrem: Vec<(String, String)>,
    /// The TTL of what is set and kept.
    pub ttl: Duration,
    /// Keys kept and members removed only when a key exists (see [`KeepIf`]).
    pub keep_if: Option<KeepIf>,
}

/// Part of a [`Retirement`] that exists only when `key` does: `key` and `keep` are kept
/// (their TTL becomes the retirement's) and the `zrem` members removed, all only when
/// `key` exists. The caller's word is that none of them exists, and no member is in its
/// set, when `key` does not (a task's question records, written only after its
/// question), so a store may skip the lot on one look; the memory store does each as
/// `keep` and `zrem` would.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeepIf {
    /// The key whose existence decides.
    pub key: String,
    /// Keys kept too when it exists.
    pub keep: Vec<String>,
    /// Sorted-set members removed when it exists, as (set, member).
    pub zrem: Vec<(String, String)>,
}

/// Key-value state shared by every replica of every role.
#[async_trait]
pub trait Store: Send + Sync {
    /// The value at `key`.
    async fn get(&self, key: &str) -> Result<Option<String>, BusError>;
    /// Sets `key` to `value` with a TTL.
    async fn set(&self, key: &str, value: &str, ttl: Duration) -> Result<(), BusError>;
    /// Sets `key` only if absent; returns whether it was set.
    async fn set_nx(&self, key: &str, value: &str, ttl: Duration) -> Result<bool, BusError>;
    /// Deletes `key`.
    async fn del(&self, key: &str) -> Result<(), BusError>;
    /// Sets a hash field (overwriting) and refreshes the hash's TTL.
    async fn hset(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<(), BusError>;
    /// Sets a hash field only if absent (returns whether it was set) and refreshes the TTL.
    async fn hset_nx(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<bool, BusError>;
    /// All fields of a hash.
    async fn hgetall(&self, key: &str) -> Result<Vec<(String, String)>, BusError>;
    /// Removes a hash field.
    async fn hdel(&self, key: &str, field: &str) -> Result<(), BusError>;
    /// Sets a hash field if absent (refreshing the hash's TTL), then reads `other_keys`
    /// and the whole hash, in one round trip where the transport allows. This is the
    /// "store first, read second" step of a fan-in: whoever writes the last piece
    /// sees every piece.
    async fn hset_nx_and_read(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
        other_keys: &[&str],
    ) -> Result<HashAndValue, BusError> {
        let inserted = self.hset_nx(key, field, value, ttl).await?;
        let mut others = Vec::with_capacity(other_keys.len());
        for other in other_keys {
            others.push(self.get(other).await?);
        }
        let hash = self.hgetall(key).await?;
        Ok(HashAndValue {
            inserted,
            others,
            hash,
        })
    }

    /// [`Store::hset_nx_and_read`] unless `guard` exists: then nothing is written or
    /// read, and `None` comes back (the guard says the fan-in is over). Atomic where the
    /// transport allows, so a hash [`Store::retire`] deleted after the guard was set is
    /// not brought back by a late piece.
    async fn hset_nx_and_read_unless(
        &self,
        guard: &str,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
        other_keys: &[&str],
    ) -> Result<Option<HashAndValue>, BusError> {
        if self.get(guard).await?.is_some() {
            return Ok(None);
        }
        self.hset_nx_and_read(key, field, value, ttl, other_keys)
            .await
            .map(Some)
    }

    /// Adds (or re-scores) a sorted-set member.
    async fn zadd(&self, key: &str, member: &str, score: i64) -> Result<(), BusError>;
    /// Members with score at most `max`, lowest first, at most `limit`.
    async fn zrange_to(&self, key: &str, max: i64, limit: usize) -> Result<Vec<String>, BusError>;
    /// Removes a sorted-set member; returns whether it was there.
    async fn zrem(&self, key: &str, member: &str) -> Result<bool, BusError>;

    /// Unless `guard` exists: sets `key` to `value` with `ttl` and adds `member` to the
    /// sorted set `zset` with `score`; returns whether it did. Atomic where the
    /// transport allows, so a [`Store::retire`] that deleted `key` after `guard` was set
    /// is never undone by a late writer.
    #[allow(clippy::too_many_arguments)]
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
        if self.get(guard).await?.is_some() {
            return Ok(false);
        }
        self.set(key, value, ttl).await?;
        self.zadd(zset, member, score).await?;
        Ok(true)
    }

    /// Sets, keeps (with the short TTL), deletes and removes what `r` says, in one round
    /// trip where the transport allows.
    async fn retire(&self, r: &Retirement) -> Result<(), BusError>;
}
