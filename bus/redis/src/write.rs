//! The bus's writes on the shared connection: publish (XADD and its PUBLISH mirror),
//! announce, publish_many, publish_once, publish_guarded and publish_once_many, on one
//! server in one round trip or on a Cluster one pipeline or claim per slot, each
//! followed by the replica wait. [`crate::RedisBus`]'s `Bus` methods call these.

use std::time::Duration;

use chorus_bus::envelope::Message;
use chorus_bus::error::BusError;

use crate::error::bus_err;
use crate::publish::{self, DATA_FIELD, add_publish};
use crate::shared::Shared;
use crate::{claim, conn, slots};

/// The keys a guarded publish writes: the guard (unless empty), each once-key and each
/// stream (`streams[i]` is item i's).
fn guarded_keys<'a>(
    guard: &'a str,
    items: &'a [(String, Message)],
    streams: &'a [String],
) -> Vec<&'a str> {
    let mut keys: Vec<&str> = (!guard.is_empty()).then_some(guard).into_iter().collect();
    for ((key, _), stream) in items.iter().zip(streams) {
        keys.push(key);
        keys.push(stream);
    }
    keys
}

/// Borrows each of `names`.
fn strs(names: &[String]) -> Vec<&str> {
    names.iter().map(String::as_str).collect()
}

/// Most messages sent in one pipeline by `publish_many`.
const PIPELINE_CHUNK: usize = 1000;

impl Shared {
    pub(crate) async fn publish(&self, msg: &Message) -> Result<String, BusError> {
        let epoch = self.epoch();
        let data = self.encode(msg)?;
        let stream = self.stream(msg);
        let mut pipe = redis::pipe();
        add_publish(&mut pipe, &stream, &data, self.settings.stream_maxlen);
        let (id,): (String,) =
            conn::retry_writes(|| async { pipe.query_async(&mut self.conn()).await })
                .await
                .map_err(bus_err)?;
        self.replicated(epoch, &[&stream]).await?;
        Ok(id)
    }

    pub(crate) async fn announce(&self, msg: &Message) -> Result<(), BusError> {
        let data = self.encode(msg)?;
        let mut cmd = redis::cmd("PUBLISH");
        cmd.arg(msg.topic.as_str()).arg(data);
        conn::retry_writes(|| async { cmd.exec_async(&mut self.conn()).await })
            .await
            .map_err(bus_err)?;
        Ok(())
    }

    pub(crate) async fn publish_many(&self, msgs: &[Message]) -> Result<(), BusError> {
        let epoch = self.epoch();
        let encoded = msgs
            .iter()
            .map(|m| self.encode(m))
            .collect::<Result<Vec<_>, _>>()?;
        let streams: Vec<String> = msgs.iter().map(|m| self.stream(m)).collect();
        let maxlen = self.settings.stream_maxlen;
        if self.cluster() {
            for chunk in streams
                .iter()
                .zip(&encoded)
                .collect::<Vec<_>>()
                .chunks(PIPELINE_CHUNK)
            {
                let mut cmds = Vec::with_capacity(chunk.len() * 2);
                for (stream, data) in chunk {
                    let topic = stream.as_str();
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
                slots::exec(&self.conn, &cmds).await.map_err(bus_err)?;
            }
            return self.replicated(epoch, &strs(&streams)).await;
        }
        for chunk in streams
            .iter()
            .zip(&encoded)
            .collect::<Vec<_>>()
            .chunks(PIPELINE_CHUNK)
        {
            let mut pipe = redis::pipe();
            for (stream, data) in chunk {
                add_publish(&mut pipe, stream, data, maxlen);
            }
            conn::retry_writes(|| async { pipe.exec_async(&mut self.conn()).await })
                .await
                .map_err(bus_err)?;
        }
        self.replicated(epoch, &strs(&streams)).await
    }

    pub(crate) async fn publish_once(
        &self,
        key: &str,
        ttl: Duration,
        msg: &Message,
    ) -> Result<bool, BusError> {
        let epoch = self.epoch();
        let data = self.encode(msg)?;
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        let stream = self.stream(msg);
        if self.cluster() {
            let item = claim::Item {
                key,
                stream: &stream,
                data: &data,
            };
            let set = self
                .claims
                .publish_once(
                    &self.conn,
                    &[item],
                    claim::Ttl::new(ttl_ms, &self.settings),
                    self.settings.stream_maxlen,
                )
                .await
                .map_err(bus_err)?;
            self.replicated(epoch, &[key, &stream]).await?;
            return Ok(set.first().copied().unwrap_or(false));
        }
        let mut invocation = self.once_script.key(key);
        invocation
            .key(&stream)
            .arg(ttl_ms)
            .arg(self.settings.stream_maxlen)
            .arg(&data);
        let id: Option<String> =
            conn::retry_writes(|| async { invocation.invoke_async(&mut self.conn()).await })
                .await
                .map_err(bus_err)?;
        self.replicated(epoch, &[key, &stream]).await?;
        Ok(id.is_some())
    }

    pub(crate) async fn publish_all_once(
        &self,
        key: &str,
        ttl: Duration,
        msgs: &[Message],
    ) -> Result<bool, BusError> {
        if msgs.is_empty() {
            return Ok(false);
        }
        if self.cluster() {
            // The streams are in other slots than the once-key: the two-step claim,
            // with a once-key (and outbox) per message, as `publish_guarded` does.
            let items: Vec<(String, Message)> = msgs
                .iter()
                .enumerate()
                .map(|(i, m)| (chorus_bus::keys::once::part(key, i), m.clone()))
                .collect();
            return Ok(self.publish_guarded(key, "1", &items, ttl).await?.is_some());
        }
        let epoch = self.epoch();
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        let streams: Vec<String> = msgs.iter().map(|m| self.stream(m)).collect();
        let mut invocation = self.once_script.key(key);
        invocation.arg(ttl_ms).arg(self.settings.stream_maxlen);
        for (msg, stream) in msgs.iter().zip(&streams) {
            invocation.key(stream.as_str()).arg(self.encode(msg)?);
        }
        let id: Option<String> =
            conn::retry_writes(|| async { invocation.invoke_async(&mut self.conn()).await })
                .await
                .map_err(bus_err)?;
        let mut written: Vec<&str> = vec![key];
        written.extend(streams.iter().map(String::as_str));
        self.replicated(epoch, &written).await?;
        Ok(id.is_some())
    }

    pub(crate) async fn publish_guarded(
        &self,
        guard: &str,
        value: &str,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Option<Vec<bool>>, BusError> {
        let epoch = self.epoch();
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        let streams: Vec<String> = items.iter().map(|(_, m)| self.stream(m)).collect();
        if self.cluster() {
            let encoded = items
                .iter()
                .map(|(_, m)| self.encode(m))
                .collect::<Result<Vec<_>, _>>()?;
            let claims: Vec<claim::Item<'_>> = items
                .iter()
                .zip(&encoded)
                .zip(&streams)
                .map(|(((key, _), data), stream)| claim::Item { key, stream, data })
                .collect();
            let sent = self
                .claims
                .publish_guarded(
                    &self.conn,
                    guard,
                    value,
                    &claims,
                    claim::Ttl::new(ttl_ms, &self.settings),
                    self.settings.stream_maxlen,
                )
                .await
                .map_err(bus_err)?;
            self.replicated(epoch, &guarded_keys(guard, items, &streams))
                .await?;
            return Ok(sent);
        }
        let mut invocation = self.guarded_script.key(guard);
        invocation
            .arg(ttl_ms)
            .arg(self.settings.stream_maxlen)
            .arg(value);
        for ((key, msg), stream) in items.iter().zip(&streams) {
            let data = self.encode(msg)?;
            invocation.key(key.as_str()).key(stream.as_str()).arg(data);
        }
        let sent: Option<Vec<i64>> =
            conn::retry_writes(|| async { invocation.invoke_async(&mut self.conn()).await })
                .await
                .map_err(bus_err)?;
        self.replicated(epoch, &guarded_keys(guard, items, &streams))
            .await?;
        Ok(sent.map(|v| v.into_iter().map(|n| n == 1).collect()))
    }

    pub(crate) async fn publish_once_many(
        &self,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Vec<bool>, BusError> {
        let epoch = self.epoch();
        if items.is_empty() {
            return Ok(Vec::new());
        }
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        let streams: Vec<String> = items.iter().map(|(_, m)| self.stream(m)).collect();
        if self.cluster() {
            let sent = self
                .publish_once_many_on_cluster(items, &streams, ttl_ms)
                .await?;
            self.replicated(epoch, &guarded_keys("", items, &streams))
                .await?;
            return Ok(sent);
        }
        let script = &self.once_script;
        let mut invocations = Vec::with_capacity(items.len());
        for ((key, msg), stream) in items.iter().zip(&streams) {
            let data = self.encode(msg)?;
            let mut invocation = script.key(key.as_str());
            invocation
                .key(stream.as_str())
                .arg(ttl_ms)
                .arg(self.settings.stream_maxlen)
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
            conn::retry_writes(|| async { pipe.query_async(&mut self.conn()).await }).await;
        let ids = match first {
            Err(e) if e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) => {
                let pipe = run(true);
                conn::retry_writes(|| async { pipe.query_async(&mut self.conn()).await })
                    .await
                    .map_err(bus_err)?
            }
            other => other.map_err(bus_err)?,
        };
        self.replicated(epoch, &guarded_keys("", items, &streams))
            .await?;
        Ok(ids.into_iter().map(|id| id.is_some()).collect())
    }

    /// `publish_once_many` on a Cluster: the items grouped by their once-keys' slot, one
    /// claim per slot, all at once.
    async fn publish_once_many_on_cluster(
        &self,
        items: &[(String, Message)],
        streams: &[String],
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
        let maxlen = self.settings.stream_maxlen;
        let ttl = claim::Ttl::new(ttl_ms, &self.settings);
        let runs = by_slot.into_values().map(|indices| {
            let claims: Vec<claim::Item<'_>> = indices
                .iter()
                .map(|&i| claim::Item {
                    key: &items[i].0,
                    stream: &streams[i],
                    data: &encoded[i],
                })
                .collect();
            async move {
                let set = self
                    .claims
                    .publish_once(&self.conn, &claims, ttl, maxlen)
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
