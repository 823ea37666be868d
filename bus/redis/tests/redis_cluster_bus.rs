//! The behavioural suite on a Redis Cluster (three primaries, three replicas). The
//! tests of this binary share one Cluster and take turns: each flushes it first, as the
//! standalone suite starts each test on a server of its own.

#[path = "../../tests/suite/mod.rs"]
mod suite;

use std::sync::Arc;

use async_trait::async_trait;
use chorus_bus::*;
use chorus_bus_redis::*;
use chorus_testkit::RedisCluster;
use suite::{Harness, test_settings};
use tokio::sync::MutexGuard;

/// One test at a time on the shared Cluster.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The shared Cluster, flushed, held for one test.
struct Cluster {
    cluster: &'static RedisCluster,
    _turn: MutexGuard<'static, ()>,
}

async fn cluster() -> Cluster {
    let turn = TURN.lock().await;
    let cluster = tokio::task::spawn_blocking(|| {
        let cluster = RedisCluster::shared();
        cluster.flush();
        cluster
    })
    .await
    .expect("start the cluster");
    Cluster {
        cluster,
        _turn: turn,
    }
}

impl Cluster {
    fn settings(&self) -> BusSettings {
        let urls = self.cluster.urls();
        BusSettings {
            redis_url: urls[0].clone(),
            redis_mode: RedisMode::Cluster,
            cluster_nodes: urls[1..].to_vec(),
            ..test_settings()
        }
    }
}

#[async_trait]
impl Harness for Cluster {
    async fn bus(&self) -> Arc<dyn Bus> {
        Arc::new(RedisBus::connect(self.settings()).await.expect("connect"))
    }

    async fn store(&self) -> Arc<dyn Store> {
        let bus = RedisBus::connect(self.settings()).await.expect("connect");
        Arc::new(bus.store())
    }

    async fn inject(&self, topic: &str, data: &str) {
        self.cluster.cli(&["XADD", topic, "*", "data", data]);
    }

    async fn stream_len(&self, topic: &str) -> usize {
        self.cluster.cli(&["XLEN", topic]).parse().expect("XLEN")
    }
}

bus_suite!(cluster);

/// `bus.replica_acks = 1` on the Cluster: a publish-once (its claim in the task's slot,
/// its append in the stream's) returns once each primary it wrote has a replica's ack.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_publish_once_waits_for_a_replica_of_every_primary_it_wrote() {
    let c = cluster().await;
    let bus = RedisBus::connect(BusSettings {
        replica_acks: 1,
        replica_ack_timeout_ms: 10_000,
        ..c.settings()
    })
    .await
    .expect("connect");
    let msg = suite::samples::task_request("acked");
    let key = keys::once::accepted("acked");
    assert_ne!(keys::slot(&key), keys::slot("task_available"));
    assert!(
        bus.publish_once(&key, std::time::Duration::from_secs(60), &msg)
            .await
            .expect("replicated")
    );
    assert_eq!(c.stream_len("task_available").await, 1);
}
