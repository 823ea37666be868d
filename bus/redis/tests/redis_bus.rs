//! The behavioural suite on Redis Streams, each test against its own redis-server.

#[path = "../../tests/suite/mod.rs"]
mod suite;

use std::sync::Arc;

use async_trait::async_trait;
use chorus_bus::*;
use chorus_bus_redis::*;
use chorus_testkit::RedisServer;
use suite::{Harness, test_settings};

/// A private redis-server; every `bus()` is a new connection, like another process.
struct Redis {
    server: RedisServer,
}

async fn redis() -> Redis {
    Redis {
        server: RedisServer::start(),
    }
}

impl Redis {
    fn settings(&self) -> BusSettings {
        BusSettings {
            redis_url: self.server.url(),
            ..test_settings()
        }
    }
}

#[async_trait]
impl Harness for Redis {
    async fn bus(&self) -> Arc<dyn Bus> {
        Arc::new(RedisBus::connect(self.settings()).await.expect("connect"))
    }

    async fn store(&self) -> Arc<dyn Store> {
        let bus = RedisBus::connect(self.settings()).await.expect("connect");
        Arc::new(bus.store())
    }

    async fn inject(&self, topic: &str, data: &str) {
        self.server.cli(&["XADD", topic, "*", "data", data]);
    }

    async fn stream_len(&self, topic: &str) -> usize {
        self.server.cli(&["XLEN", topic]).parse().expect("XLEN")
    }
}

bus_suite!(redis);
