//! Connections. Writes share one `ConnectionManager` (multiplexed, reconnecting by
//! itself). Each blocking reader owns a dedicated connection whose response timeout is
//! above its BLOCK time; it is dropped on any connection error and made again on the
//! next read, with a growing pause, so a restarted Redis is picked up without help.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig, MultiplexedConnection};
use redis::{AsyncConnectionConfig, Client, ErrorKind, RedisError, ServerErrorKind};

use chorus_bus::settings::BusSettings;

/// Longest pause between two reconnection attempts of a dedicated connection.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
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
        )
}

/// The shared write connection.
pub(crate) async fn connect_manager(
    client: &Client,
    settings: &BusSettings,
) -> Result<ConnectionManager, RedisError> {
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(settings.connect_timeout()))
        .set_response_timeout(Some(settings.response_timeout()))
        .set_number_of_retries(3)
        .set_max_delay(MAX_BACKOFF);
    ConnectionManager::new_with_config(client.clone(), config).await
}

/// A dedicated connection for blocking reads, made on demand.
pub(crate) struct ReadConn {
    client: Client,
    config: AsyncConnectionConfig,
    conn: Option<MultiplexedConnection>,
    backoff: Duration,
}

impl ReadConn {
    /// A reader connection (not yet connected) with a response timeout of `read_timeout`.
    pub(crate) fn new(client: Client, settings: &BusSettings) -> Self {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(settings.connect_timeout()))
            .set_response_timeout(Some(settings.read_timeout()));
        ReadConn {
            client,
            config,
            conn: None,
            backoff: MIN_BACKOFF,
        }
    }

    /// The connection, connecting when there is none.
    pub(crate) async fn get(&mut self) -> Result<&mut MultiplexedConnection, RedisError> {
        if self.conn.is_none() {
            let conn = self
                .client
                .get_multiplexed_async_connection_with_config(&self.config)
                .await?;
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
