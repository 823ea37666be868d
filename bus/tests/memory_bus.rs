//! The behavioural suite on the in-memory bus.

mod suite;

use std::sync::Arc;

use async_trait::async_trait;
use chorus_bus::*;
use suite::{Harness, test_settings};

/// One in-memory bus (every `bus()` is a clone sharing its streams).
struct Memory {
    bus: MemoryBus,
}

async fn memory() -> Memory {
    Memory {
        bus: MemoryBus::new(test_settings()),
    }
}

#[async_trait]
impl Harness for Memory {
    async fn bus(&self) -> Arc<dyn Bus> {
        Arc::new(self.bus.clone())
    }

    async fn store(&self) -> Arc<dyn Store> {
        Arc::new(self.bus.store())
    }

    async fn inject(&self, topic: &str, data: &str) {
        self.bus
            .publish_raw(&Topic::parse(topic).expect("topic"), data);
    }

    async fn stream_len(&self, topic: &str) -> usize {
        self.bus.len(&Topic::parse(topic).expect("topic"))
    }
}

bus_suite!(memory);
