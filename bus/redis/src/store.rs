//! The Redis [`Store`], on the bus's shared connection. Key names are the caller's,
//! spelled in `chorus_bus::keys`. On a Cluster every script's keys share one slot (a
//! task's keys share its hash tag), except `set_and_zadd_unless`'s shared sorted set,
//! which is then written after the script; a retirement's pipeline goes one pipeline
//! per slot.

use std::time::Duration;

use super::conn::Connection;
use async_trait::async_trait;

use super::conn::retry_writes;
use crate::error::bus_err;
use chorus_bus::error::BusError;
use chorus_bus::store::{KeepIf, Retirement, Store};

/// KEYS[1] = guard, KEYS[2] = key, KEYS[3] = sorted set; ARGV = value, ttl ms, member,
/// score. Unless the guard exists: SET key value PX ttl, ZADD set score member; returns
/// 1 when it did, 0 when the guard was there.
const SET_AND_ZADD_UNLESS_LUA: &str = r#"
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
return 1
"#;

/// KEYS[1] = guard, KEYS[2] = key; ARGV = value, ttl ms. Unless the guard exists: SET
/// key value PX ttl; returns 1 when it did, 0 when the guard was there (Cluster: the
/// sorted set of `SET_AND_ZADD_UNLESS_LUA` lives in another slot).
const SET_UNLESS_LUA: &str = r#"
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1
"#;

/// KEYS[1] = guard (a string key), KEYS[2] = hash, KEYS[3..] = other keys (strings);
/// ARGV = field, value, ttl ms. The guard and the other keys are read in one MGET;
/// unless the guard is set: HSETNX, and PEXPIRE when that added the field (a field
/// already there was written, with the hash's TTL, by an earlier call), then HGETALL;
/// returns {set, others, flat hash}, or nil when the guard was there.
const HSET_NX_AND_READ_UNLESS_LUA: &str = r#"
local read = redis.call('MGET', KEYS[1], unpack(KEYS, 3))
if read[1] then
  return false
end
local set = redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
if set == 1 then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
table.remove(read, 1)
return {set, read, redis.call('HGETALL', KEYS[2])}
"#;

/// A retirement on one server. KEYS = the keys set, kept, deleted, the sorted sets,
/// then (with a condition) the condition key, the keys kept and the sorted sets if it
/// exists; ARGV[1] = ttl ms, ARGV[2..7] = how many of each of those six lists,
/// ARGV[8] = 1 with a condition (else 0), then the values set, the members removed and
/// the members removed if the condition key exists. That key, and what hangs on it, is
/// looked at once (EXISTS) instead of touching each.
const RETIRE_LUA: &str = r#"
local ttl = ARGV[1]
local n = {}
for i = 1, 7 do n[i] = tonumber(ARGV[1 + i]) end
local k, a = 0, 8
for i = 1, n[1] do
  redis.call('SET', KEYS[k + i], ARGV[a + i], 'PX', ttl)
end
k, a = k + n[1], a + n[1]
for i = 1, n[2] do redis.call('PEXPIRE', KEYS[k + i], ttl) end
k = k + n[2]
if n[3] > 0 then redis.call('DEL', unpack(KEYS, k + 1, k + n[3])) end
k = k + n[3]
for i = 1, n[4] do redis.call('ZREM', KEYS[k + i], ARGV[a + i]) end
k, a = k + n[4], a + n[4]
if n[7] == 1 and redis.call('EXISTS', KEYS[k + 1]) == 1 then
  redis.call('PEXPIRE', KEYS[k + 1], ttl)
  k = k + 1
  for i = 1, n[5] do redis.call('PEXPIRE', KEYS[k + i], ttl) end
  for i = 1, n[6] do redis.call('ZREM', KEYS[k + n[5] + i], ARGV[a + i]) end
end
return 1
"#;

/// Key-value state on Redis.
#[derive(Clone)]
pub struct RedisStore {
    conn: Connection,
    set_and_zadd_unless: redis::Script,
    set_unless: redis::Script,
    hset_nx_and_read_unless: redis::Script,
    retire: redis::Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore").finish_non_exhaustive()
    }
}

/// `WRONGTYPE` becomes [`BusError::WrongType`] (as in the memory store); the rest stays.
fn store_error(key: &str, e: redis::RedisError) -> BusError {
    if e.code() == Some("WRONGTYPE") || e.to_string().contains("WRONGTYPE") {
        BusError::WrongType {
            key: key.to_owned(),
        }
    } else {
        bus_err(e)
    }
}

/// A TTL in milliseconds, at least 1 (Redis refuses 0).
fn ms(ttl: Duration) -> u64 {
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl RedisStore {
    /// A store on `conn`.
    pub fn new(conn: Connection) -> Self {
        RedisStore {
            conn,
            set_and_zadd_unless: redis::Script::new(SET_AND_ZADD_UNLESS_LUA),
            set_unless: redis::Script::new(SET_UNLESS_LUA),
            hset_nx_and_read_unless: redis::Script::new(HSET_NX_AND_READ_UNLESS_LUA),
            retire: redis::Script::new(RETIRE_LUA),
        }
    }

    /// Runs a command, retrying on connection errors (see `retry_writes`).
    async fn run<T: redis::FromRedisValue>(
        &self,
        key: &str,
        cmd: &redis::Cmd,
    ) -> Result<T, BusError> {
        retry_writes(|| async { cmd.query_async(&mut self.conn.clone()).await })
            .await
            .map_err(|e| store_error(key, e))
    }

    /// Runs a pipeline, retrying on connection errors.
    async fn run_pipe<T: redis::FromRedisValue>(
        &self,
        key: &str,
        pipe: &redis::Pipeline,
    ) -> Result<T, BusError> {
        retry_writes(|| async { pipe.query_async(&mut self.conn.clone()).await })
            .await
            .map_err(|e| store_error(key, e))
    }
}

#[async_trait]
impl Store for RedisStore {
    async fn get(&self, key: &str) -> Result<Option<String>, BusError> {
        self.run(key, redis::cmd("GET").arg(key)).await
    }

    async fn set(&self, key: &str, value: &str, ttl: Duration) -> Result<(), BusError> {
        self.run(
            key,
            redis::cmd("SET").arg(key).arg(value).arg("PX").arg(ms(ttl)),
        )
        .await
    }

    async fn set_nx(&self, key: &str, value: &str, ttl: Duration) -> Result<bool, BusError> {
        let mut cmd = redis::cmd("SET");
        cmd.arg(key).arg(value).arg("NX").arg("PX").arg(ms(ttl));
        let set: Option<String> = self.run(key, &cmd).await?;
        Ok(set.is_some())
    }

    async fn del(&self, key: &str) -> Result<(), BusError> {
        self.run(key, redis::cmd("DEL").arg(key)).await
    }

    async fn hset(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<(), BusError> {
        let mut pipe = redis::pipe();
        pipe.cmd("HSET").arg(key).arg(field).arg(value).ignore();
        pipe.cmd("PEXPIRE").arg(key).arg(ms(ttl)).ignore();
        self.run_pipe(key, &pipe).await
    }

    async fn hset_nx(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
    ) -> Result<bool, BusError> {
        let mut pipe = redis::pipe();
        pipe.cmd("HSETNX").arg(key).arg(field).arg(value);
        pipe.cmd("PEXPIRE").arg(key).arg(ms(ttl)).ignore();
        let (set,): (i64,) = self.run_pipe(key, &pipe).await?;
        Ok(set == 1)
    }

    async fn hset_nx_and_read(
        &self,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
        other_keys: &[&str],
    ) -> Result<chorus_bus::HashAndValue, BusError> {
        let mut pipe = redis::pipe();
        pipe.cmd("HSETNX").arg(key).arg(field).arg(value);
        pipe.cmd("PEXPIRE").arg(key).arg(ms(ttl)).ignore();
        if !other_keys.is_empty() {
            pipe.cmd("MGET").arg(other_keys);
        }
        pipe.cmd("HGETALL").arg(key);
        let (set, others, hash): (
            i64,
            Vec<Option<String>>,
            std::collections::HashMap<String, String>,
        ) = if other_keys.is_empty() {
            let (set, hash) = self.run_pipe(key, &pipe).await?;
            (set, Vec::new(), hash)
        } else {
            self.run_pipe(key, &pipe).await?
        };
        Ok(chorus_bus::HashAndValue {
            inserted: set == 1,
            others,
            hash: hash.into_iter().collect(),
        })
    }

    async fn hset_nx_and_read_unless(
        &self,
        guard: &str,
        key: &str,
        field: &str,
        value: &str,
        ttl: Duration,
        other_keys: &[&str],
    ) -> Result<Option<chorus_bus::HashAndValue>, BusError> {
        let mut invocation = self.hset_nx_and_read_unless.key(guard);
        invocation.key(key);
        for other in other_keys {
            invocation.key(*other);
        }
        invocation.arg(field).arg(value).arg(ms(ttl));
        type Read = Option<(i64, Vec<Option<String>>, Vec<String>)>;
        let read: Read =
            retry_writes(|| async { invocation.invoke_async(&mut self.conn.clone()).await })
                .await
                .map_err(|e| store_error(key, e))?;
        Ok(read.map(|(set, others, flat)| {
            let mut hash = Vec::with_capacity(flat.len() / 2);
            let mut fields = flat.into_iter();
            while let (Some(f), Some(v)) = (fields.next(), fields.next()) {
                hash.push((f, v));
            }
            chorus_bus::HashAndValue {
                inserted: set == 1,
                others,
                hash,
            }
        }))
    }

    async fn hgetall(&self, key: &str) -> Result<Vec<(String, String)>, BusError> {
        let map: std::collections::HashMap<String, String> =
            self.run(key, redis::cmd("HGETALL").arg(key)).await?;
        Ok(map.into_iter().collect())
    }

    async fn hdel(&self, key: &str, field: &str) -> Result<(), BusError> {
        self.run(key, redis::cmd("HDEL").arg(key).arg(field)).await
    }

    async fn zadd(&self, key: &str, member: &str, score: i64) -> Result<(), BusError> {
        self.run(key, redis::cmd("ZADD").arg(key).arg(score).arg(member))
            .await
    }

    async fn zrange_to(&self, key: &str, max: i64, limit: usize) -> Result<Vec<String>, BusError> {
        let mut cmd = redis::cmd("ZRANGEBYSCORE");
        cmd.arg(key)
            .arg("-inf")
            .arg(max)
            .arg("LIMIT")
            .arg(0)
            .arg(limit);
        self.run(key, &cmd).await
    }

    async fn zrem(&self, key: &str, member: &str) -> Result<bool, BusError> {
        let removed: i64 = self
            .run(key, redis::cmd("ZREM").arg(key).arg(member))
            .await?;
        Ok(removed == 1)
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
        if self.conn.is_cluster() {
            let mut invocation = self.set_unless.key(guard);
            invocation.key(key).arg(value).arg(ms(ttl));
            let done: i64 =
                retry_writes(|| async { invocation.invoke_async(&mut self.conn.clone()).await })
                    .await
                    .map_err(|e| store_error(key, e))?;
            if done == 1 {
                self.zadd(zset, member, score).await?;
            }
            return Ok(done == 1);
        }
        let mut invocation = self.set_and_zadd_unless.key(guard);
        invocation
            .key(key)
            .key(zset)
            .arg(value)
            .arg(ms(ttl))
            .arg(member)
            .arg(score);
        let done: i64 =
            retry_writes(|| async { invocation.invoke_async(&mut self.conn.clone()).await })
                .await
                .map_err(|e| store_error(key, e))?;
        Ok(done == 1)
    }

    /// One script on one server (`RETIRE_LUA`); on a Cluster one pipeline per slot: SET …
    /// PX per value, PEXPIRE per kept key, DEL per key, ZREM per member.
    async fn retire(&self, r: &Retirement) -> Result<(), BusError> {
        if r.set.is_empty()
            && r.keep.is_empty()
            && r.delete.is_empty()
            && r.zrem.is_empty()
            && r.keep_if.is_none()
        {
            return Ok(());
        }
        let ttl = ms(r.ttl);
        let first = r.set.first().map_or("", |(k, _)| k.as_str());
        if self.conn.is_cluster() {
            let mut cmds: Vec<(String, redis::Cmd)> = Vec::new();
            for (key, value) in &r.set {
                let mut cmd = redis::cmd("SET");
                cmd.arg(key).arg(value).arg("PX").arg(ttl);
                cmds.push((key.clone(), cmd));
            }
            let (kept_if, removed_if) = conditional(r);
            for key in r.keep.iter().chain(kept_if) {
                let mut cmd = redis::cmd("PEXPIRE");
                cmd.arg(key).arg(ttl);
                cmds.push((key.clone(), cmd));
            }
            // One DEL per key: a multi-key DEL must touch one slot.
            for key in &r.delete {
                let mut cmd = redis::cmd("DEL");
                cmd.arg(key);
                cmds.push((key.clone(), cmd));
            }
            for (zset, member) in r.zrem.iter().chain(removed_if) {
                let mut cmd = redis::cmd("ZREM");
                cmd.arg(zset).arg(member);
                cmds.push((zset.clone(), cmd));
            }
            return super::slots::exec(&self.conn, &cmds)
                .await
                .map_err(|e| store_error(first, e));
        }
        let empty = KeepIf::default();
        let cond = r.keep_if.as_ref().unwrap_or(&empty);
        let mut invocation = self.retire.prepare_invoke();
        invocation.arg(ttl);
        for n in [
            r.set.len(),
            r.keep.len(),
            r.delete.len(),
            r.zrem.len(),
            cond.keep.len(),
            cond.zrem.len(),
            usize::from(r.keep_if.is_some()),
        ] {
            invocation.arg(n);
        }
        for (key, value) in &r.set {
            invocation.key(key).arg(value);
        }
        for key in r.keep.iter().chain(&r.delete) {
            invocation.key(key);
        }
        for (zset, member) in &r.zrem {
            invocation.key(zset).arg(member);
        }
        if r.keep_if.is_some() {
            invocation.key(&cond.key);
        }
        for key in &cond.keep {
            invocation.key(key);
        }
        for (zset, member) in &cond.zrem {
            invocation.key(zset).arg(member);
        }
        let _: i64 =
            retry_writes(|| async { invocation.invoke_async(&mut self.conn.clone()).await })
                .await
                .map_err(|e| store_error(first, e))?;
        Ok(())
    }
}

/// The keys kept and the members removed only when a retirement's condition key exists
/// (that key first), for stores that do them unconditionally (on a Cluster, where they
/// share no slot with the sorted sets).
fn conditional(r: &Retirement) -> (Vec<&String>, Vec<&(String, String)>) {
    match &r.keep_if {
        Some(k) => (
            std::iter::once(&k.key).chain(&k.keep).collect(),
            k.zrem.iter().collect(),
        ),
        None => (Vec::new(), Vec::new()),
    }
}
