//! The connection to a Redis Cluster: redis-rs's cluster connection (one multiplexed
//! socket per node, following MOVED and ASK, reloading its slot map on a MOVED),
//! replaced ([`super::renew`]: a new one made in the background while commands go on
//! on the old one) once it has failed [`CLUSTER_FORGET_AFTER`] times on a timeout or a
//! connection error. redis-rs does not do that itself: a node that stops
//! answering without closing its socket (a frozen or partitioned primary, failed over
//! by the Cluster) gets every command for its slots until each times out, with nothing
//! that reloads the slot map (a timeout is retried on the same node; no MOVED comes
//! back), and in one chaos run a role's connection stopped answering after a failover
//! for good. A new connection asks a live node for the slots and connects to the nodes
//! serving them now.

use std::time::Duration;

use redis::aio::ConnectionLike;
use redis::cluster::ClusterClient;
use redis::cluster_routing::RoutingInfo;
use redis::{Cmd, ErrorKind, Pipeline, RedisError, RedisFuture, Value};

use super::renew::{Renewing, Source};

/// Failures (timeouts, connection errors, CLUSTERDOWN, … — after redis-rs's own
/// retries) after which a role's Cluster connection is replaced. Not 1: during a
/// failover every command to the shard that lost its primary fails for a few seconds
/// whatever the connection, and a new one would fail alike.
pub(crate) const CLUSTER_FORGET_AFTER: u32 = 3;

/// Makes cluster connections from a client, each within a time limit (making one asks
/// the seeds for the slots, then connects to every node).
pub(crate) struct Nodes {
    client: ClusterClient,
    within: Duration,
}

impl Source for Nodes {
    type Conn = redis::cluster_async::ClusterConnection;
    const KIND: &'static str = "cluster";

    async fn connect(&self) -> Result<Self::Conn, RedisError> {
        match tokio::time::timeout(self.within, self.client.get_async_connection()).await {
            Ok(made) => made,
            Err(_) => Err(RedisError::from((
                ErrorKind::Io,
                "connecting to the Cluster timed out",
            ))),
        }
    }

    fn forget_after(&self) -> u32 {
        CLUSTER_FORGET_AFTER
    }

    /// Most nodes may still answer on the old connection while the new one is made.
    fn replace_in_background(&self) -> bool {
        true
    }
}

/// A connection to a Redis Cluster, made again when it stops answering (see the
/// module's doc). Clones share it.
#[derive(Clone)]
pub struct ClusterConnection {
    inner: Renewing<Nodes>,
}

impl ClusterConnection {
    /// Connects through `client`, each connection made within `within`.
    pub(crate) async fn connect(
        client: ClusterClient,
        within: Duration,
    ) -> Result<Self, RedisError> {
        Ok(ClusterConnection {
            inner: Renewing::connect(Nodes { client, within }).await?,
        })
    }

    /// The generation writes go to now (see [`Renewing::generation`]); each new
    /// connection has a greater one.
    pub(crate) fn generation(&self) -> u64 {
        self.inner.generation()
    }

    /// Runs `cmd` where `routing` says on connection `generation` only, failing when
    /// there is another now (or none): a `WAIT` must go to the connection that wrote.
    pub(crate) async fn route_on(
        &self,
        generation: Option<u64>,
        cmd: Cmd,
        routing: RoutingInfo,
    ) -> Result<Value, RedisError> {
        let (g, mut conn) = self.inner.at(generation)?;
        let result = conn.route_command(cmd, routing).await;
        self.inner.check(g, &result);
        result
    }
}

impl ConnectionLike for ClusterConnection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        self.inner.req_packed_command(cmd)
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        self.inner.req_packed_commands(pipeline, offset, count)
    }

    fn get_db(&self) -> i64 {
        self.inner.get_db()
    }
}
