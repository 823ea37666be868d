//! What the bus's writers and readers share ([`Shared`]): the write connection and the
//! settings, acknowledging and keeping alive deliveries, and the replica wait
//! (`bus.replica_acks`) after a write.

use redis::Script;

use chorus_bus::envelope::Message;
use chorus_bus::error::BusError;
use chorus_bus::settings::BusSettings;

use crate::conn::{self, Connection};
use crate::error::{self, bus_err};
use crate::{claim, publish, slots, streams};

/// What the bus's writers and readers share: the backend (to open reading connections),
/// the shared write connection, the settings and the scripts.
pub(crate) struct Shared {
    pub(crate) backend: conn::Backend,
    pub(crate) conn: Connection,
    pub(crate) settings: BusSettings,
    pub(crate) once_script: Script,
    pub(crate) guarded_script: Script,
    pub(crate) claims: claim::ClaimScripts,
}

/// The entry ids of `tokens`, per stream (a token's topic and partition name it).
fn by_stream(
    tokens: &[chorus_bus::AckToken],
    partitions: u32,
) -> std::collections::BTreeMap<String, Vec<&str>> {
    let mut by_stream: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for t in tokens {
        by_stream
            .entry(streams::name(&t.topic, t.partition, partitions))
            .or_default()
            .push(t.entry_id.as_str());
    }
    by_stream
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
            let cmds: Vec<(String, redis::Cmd)> = by_stream(tokens, self.partitions())
                .into_iter()
                .map(|(stream, ids)| {
                    let mut cmd = redis::cmd("XACK");
                    cmd.arg(&stream).arg(role).arg(ids);
                    (stream, cmd)
                })
                .collect();
            return slots::exec(&self.conn, &cmds).await.map_err(bus_err);
        }
        let mut pipe = redis::pipe();
        for (stream, ids) in &by_stream(tokens, self.partitions()) {
            publish::add_ack(&mut pipe, stream, role, ids);
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
        let cmds: Vec<(String, redis::Cmd)> = by_stream(tokens, self.partitions())
            .into_iter()
            .map(|(stream, ids)| {
                let mut cmd = redis::cmd("XCLAIM");
                cmd.arg(&stream)
                    .arg(role)
                    .arg(consumer)
                    .arg(0)
                    .arg(ids)
                    .arg("JUSTID");
                (stream, cmd)
            })
            .collect();
        slots::exec(&self.conn, &cmds).await.map_err(bus_err)
    }

    /// A clone of the shared write connection (clones share one multiplexed socket).
    pub(crate) fn conn(&self) -> Connection {
        self.conn.clone()
    }

    /// `bus.partitions`.
    pub(crate) fn partitions(&self) -> u32 {
        self.settings.partitions
    }

    /// The stream `msg` goes to (its topic's partition for its task).
    pub(crate) fn stream(&self, msg: &Message) -> String {
        streams::of_message(msg, self.partitions())
    }

    /// Whether the bus runs on a Cluster.
    pub(crate) fn cluster(&self) -> bool {
        self.conn.is_cluster()
    }

    /// Which connection writes go to now (on a Cluster and in Sentinel mode, its
    /// generation: the shared connection may be made again), taken before a publish
    /// writes.
    pub(crate) fn epoch(&self) -> Option<u64> {
        match &self.conn {
            Connection::Sentinel(c) => Some(c.generation()),
            Connection::Cluster(c) => Some(c.generation()),
            _ => None,
        }
    }

    /// With `bus.replica_acks` > 0: waits (`WAIT`) until that many replicas have this
    /// connection's writes to the primaries owning `keys`, failing when they do not
    /// within `bus.replica_ack_timeout_ms`. Nothing (no round trip) with 0. On a Cluster
    /// and in Sentinel mode the `WAIT` goes only to the connection of `epoch` (the one
    /// current before the writes): when it was made again since, the publish fails (a
    /// `WAIT` on a new connection would count none of the writes, or none to wait for).
    pub(crate) async fn replicated(
        &self,
        epoch: Option<u64>,
        keys: &[&str],
    ) -> Result<(), BusError> {
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
                        .route_on(epoch, wait.clone(), route)
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

    /// `msg` encoded, refused when larger than `bus.max_message_bytes`.
    pub(crate) fn encode(&self, msg: &Message) -> Result<String, BusError> {
        Ok(msg.encode_within(self.settings.max_message_bytes)?)
    }
}
