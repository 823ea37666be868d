//! Riding out a lost connection: which errors mean the connection (not the command)
//! failed, the dedicated reader connection dropped and made again with a growing pause
//! (asking the sentinels again after a failover), writes retried while the shared
//! connection reconnects, and setup steps retried while a failover goes on.

use std::time::{Duration, Instant};

use redis::{AsyncConnectionConfig, ErrorKind, RedisError, ServerErrorKind};

use chorus_bus::settings::BusSettings;

use super::{Backend, Connection, cluster_connect_within};
use crate::error::RedisBusError;

/// Longest pause between two reconnection attempts of a dedicated connection.
pub(super) const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// First pause after a connection error.
const MIN_BACKOFF: Duration = Duration::from_millis(50);

/// Whether `e` means the connection (not the command) failed, so retrying on a new
/// connection may succeed.
pub(crate) fn is_connection_error(e: &RedisError) -> bool {
    e.is_io_error()
        || e.is_connection_dropped()
        || e.is_connection_refusal()
        || e.is_timeout()
        || matches!(
            e.kind(),
            ErrorKind::Server(ServerErrorKind::BusyLoading)
                | ErrorKind::Server(ServerErrorKind::TryAgain)
                | ErrorKind::Server(ServerErrorKind::MasterDown)
                | ErrorKind::Server(ServerErrorKind::ClusterDown)
                // A primary demoted to a replica (a Sentinel failover): a new
                // connection goes to the new primary.
                | ErrorKind::Server(ServerErrorKind::ReadOnly)
        )
}

/// Whether `e` is one Redis gets over by itself: a connection error, or on a Cluster a
/// redirection redis-rs gave up following (the MOVED a replica answers while its
/// primary is down and not yet replaced) or no connection to any node.
pub(crate) fn is_transient(e: &RedisError, cluster: bool) -> bool {
    is_connection_error(e)
        || (cluster
            && matches!(
                e.kind(),
                ErrorKind::Server(ServerErrorKind::Moved)
                    | ErrorKind::Server(ServerErrorKind::Ask)
                    | ErrorKind::ClusterConnectionNotFound
            ))
}

/// How long a setup step (a subscription's consumer groups) goes on trying while Redis
/// turns it away with transient errors: a failover takes seconds (3–5 s measured on a
/// Cluster, `docs/reliability.md`); a Redis still unavailable after this is a problem
/// to report.
pub(crate) const SETUP_PATIENCE: Duration = Duration::from_secs(60);

/// Runs the setup step `op` (`what`, for messages) until it succeeds or fails for a
/// reason that is not transient ([`is_transient`]), pausing 50 ms, then twice as long
/// each time up to 1 s, between attempts; gives up with
/// [`RedisBusError::Unavailable`] once `within` has passed.
pub(crate) async fn patiently<T, F, Fut>(
    what: &'static str,
    within: Duration,
    cluster: bool,
    mut op: F,
) -> Result<T, RedisBusError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, RedisError>>,
{
    let start = Instant::now();
    let mut pause = MIN_BACKOFF;
    loop {
        match op().await {
            Err(e) if is_transient(&e, cluster) => {
                let waited = start.elapsed();
                if waited + pause > within {
                    return Err(RedisBusError::Unavailable {
                        what,
                        waited,
                        last: e,
                    });
                }
                tracing::warn!(error = %e, ?pause, "{what}: Redis is unavailable; trying again");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(MAX_BACKOFF);
            }
            other => return other.map_err(RedisBusError::Redis),
        }
    }
}

/// A dedicated connection for blocking reads, made on demand.
pub(crate) struct ReadConn {
    backend: Backend,
    config: AsyncConnectionConfig,
    /// On a Cluster, the longest making a connection may take.
    cluster_within: Duration,
    conn: Option<Connection>,
    /// In Sentinel mode, the primary switches announced when `conn` was made.
    switches: u64,
    backoff: Duration,
}

impl ReadConn {
    /// A reader connection (not yet connected) with a response timeout of `read_timeout`.
    pub(crate) fn new(backend: Backend, settings: &BusSettings) -> Self {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(settings.connect_timeout()))
            .set_response_timeout(Some(settings.read_timeout()));
        ReadConn {
            backend,
            config,
            cluster_within: cluster_connect_within(settings, settings.read_timeout()),
            conn: None,
            switches: 0,
            backoff: MIN_BACKOFF,
        }
    }

    /// The connection, connecting when there is none.
    pub(crate) async fn get(&mut self) -> Result<&mut Connection, RedisError> {
        if let Backend::Sentinel(primary) = &self.backend {
            // After a switch the old primary may answer for seconds yet: leave it.
            if self.conn.is_some() && self.switches != primary.switches() {
                tracing::info!("the sentinels switched the primary; reconnecting a reader");
                self.conn = None;
            }
            self.switches = primary.switches();
        }
        if self.conn.is_none() {
            let conn = match &self.backend {
                Backend::Standalone(client) => Connection::Plain(
                    client
                        .get_multiplexed_async_connection_with_config(&self.config)
                        .await?,
                ),
                Backend::Cluster(c) => c.reader(self.cluster_within).await?,
                // Asks the sentinels each time: after a failover, the new primary.
                Backend::Sentinel(primary) => Connection::Plain(
                    primary
                        .client()
                        .await?
                        .get_multiplexed_async_connection_with_config(&self.config)
                        .await?,
                ),
            };
            self.conn = Some(conn);
        }
        match self.conn.as_mut() {
            Some(c) => Ok(c),
            None => Err(RedisError::from((ErrorKind::Client, "no read connection"))),
        }
    }

    /// Notes a success: the next failure starts with a short pause again.
    pub(crate) fn healthy(&mut self) {
        self.backoff = MIN_BACKOFF;
    }

    /// Drops the connection after a connection error and returns how long to pause
    /// before the next attempt (growing up to one second).
    pub(crate) fn broken(&mut self) -> Duration {
        self.conn = None;
        let pause = self.backoff;
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
        pause
    }
}

/// Attempts of a write before a connection error is returned to the caller.
const WRITE_ATTEMPTS: u32 = 4;

/// Runs `op`, retrying it with growing pauses (50 ms, 100 ms, 200 ms) while it fails with
/// a connection error: the first command after a server restart fails while the
/// `ConnectionManager` reconnects. A retried write may land twice when only its reply
/// was lost (at-least-once); `publish_once` is safe to retry.
pub(crate) async fn retry_writes<T, F, Fut>(mut op: F) -> Result<T, RedisError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, RedisError>>,
{
    let mut pause = MIN_BACKOFF;
    for _ in 1..WRITE_ATTEMPTS {
        match op().await {
            Err(e) if is_connection_error(&e) => {
                tracing::debug!(error = %e, ?pause, "write failed on a connection error; retrying");
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
            other => return other,
        }
    }
    op().await
}
