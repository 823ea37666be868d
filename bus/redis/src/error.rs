//! The Redis transport's own error, and its conversion into the bus's transport-neutral
//! [`BusError::Transport`]: callers of the `Bus` and `Store` traits never see a Redis type.

use chorus_bus::BusError;

/// A Redis operation failed.
#[derive(Debug, thiserror::Error)]
pub enum RedisBusError {
    /// Redis answered with an error, or the connection failed.
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// Connecting took longer than the configured connect timeout.
    #[error("redis: timed out {0}")]
    Timeout(&'static str),
    /// A setup step kept meeting errors a failover or a restart explains (a connection
    /// error, a Cluster without a primary for a slot) for as long as the bus waits.
    #[error(
        "redis: {what} failed for {waited:.1?} while Redis was unavailable (no primary for a slot, or no answer); last error: {last}"
    )]
    Unavailable {
        /// The step.
        what: &'static str,
        /// How long it was tried.
        waited: std::time::Duration,
        /// The last error.
        last: redis::RedisError,
    },
    /// A write reached fewer replicas than `bus.replica_acks` in time.
    #[error(
        "redis: the write reached {acked} of the {wanted} replicas bus.replica_acks asks for within {within_ms} ms"
    )]
    NotReplicated {
        /// Replicas that acknowledged.
        acked: i64,
        /// Replicas asked for.
        wanted: u32,
        /// The wait, in ms.
        within_ms: u64,
    },
}

impl From<RedisBusError> for BusError {
    fn from(e: RedisBusError) -> Self {
        BusError::Transport(Box::new(e))
    }
}

/// Converts a Redis error into a [`BusError`] (for `map_err` before `?`).
pub(crate) fn bus_err(e: redis::RedisError) -> BusError {
    RedisBusError::Redis(e).into()
}
