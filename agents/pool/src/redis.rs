//! Connecting a role to the Redis transport, waiting for it when the role starts first.

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::BusError;
use chorus_bus_redis::RedisBus;
use chorus_core::settings::Settings;
use chorus_core::system::Infra;

/// Connects to the Redis at `bus.redis_url` (or the primary the sentinels name): the
/// Redis bus itself (for stream statistics) and the bus and store a role runs on.
pub async fn connect(settings: &Settings) -> Result<(Arc<RedisBus>, Infra), BusError> {
    let bus = RedisBus::connect(settings.bus.clone()).await?;
    let store = Arc::new(bus.store());
    let bus = Arc::new(bus);
    Ok((bus.clone(), Infra { bus, store }))
}

/// Connects to Redis, waiting (with backoff, up to 2 s between tries) while it is
/// unreachable: a role started before Redis, or during a Redis restart, waits for it.
pub async fn connect_patiently(settings: &Settings) -> (Arc<RedisBus>, Infra) {
    let mut pause = Duration::from_millis(100);
    loop {
        match connect(settings).await {
            Ok(connected) => return connected,
            Err(e) => {
                let error = format!(
                    "connecting to Redis at {}: {e}",
                    settings.bus.redis_target()
                );
                tracing::warn!(error = %error, retry_in = ?pause, "Redis unreachable; waiting");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
}
