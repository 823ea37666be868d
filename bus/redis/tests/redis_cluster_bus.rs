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
    let key = keys::once::accepted(&"acked".into());
    assert_ne!(keys::slot(&key), keys::slot("task_available"));
    assert!(
        bus.publish_once(&key, std::time::Duration::from_secs(60), &msg)
            .await
            .expect("replicated")
    );
    assert_eq!(c.stream_len("task_available").await, 1);
}

/// The node of `cluster` listening on `port`.
fn node(cluster: &RedisCluster, port: u16) -> &chorus_testkit::RedisServer {
    cluster
        .nodes()
        .iter()
        .find(|n| n.port() == port)
        .expect("a node of the cluster")
}

/// A publish-once whose stream's slot is caught mid-migration (MIGRATING on its primary,
/// IMPORTING on another, the stream not moved yet): its append script names the stream
/// and a new dedupe key, so the old primary answers TRYAGAIN (a multi-key command whose
/// keys are split between the two nodes) until the stream has moved and the slot is
/// given to the new primary. The publish rides it out and appends once, on the new
/// primary; a second call with the same once-key appends nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_publish_once_rides_out_its_streams_slot_mid_migration() {
    let c = cluster().await;
    let bus = Arc::new(RedisBus::connect(c.settings()).await.expect("connect"));
    let stream = Topic::task_available();
    let first = suite::samples::task_request("before-the-move");
    bus.publish(&first).await.expect("publish");
    let (from, to, slot) = tokio::task::block_in_place(|| {
        let from = c
            .cluster
            .primary_port_of(stream.as_str())
            .expect("a primary serves the stream");
        let to = *c
            .cluster
            .primary_ports()
            .iter()
            .find(|p| **p != from)
            .expect("another primary");
        (from, to, keys::slot(stream.as_str()).to_string())
    });
    let id = |port| node(c.cluster, port).cli(&["CLUSTER", "MYID"]);
    let (from_id, to_id) = (id(from), id(to));
    node(c.cluster, to).cli(&["CLUSTER", "SETSLOT", &slot, "IMPORTING", &from_id]);
    node(c.cluster, from).cli(&["CLUSTER", "SETSLOT", &slot, "MIGRATING", &to_id]);
    c.cluster.reset_stats();

    let key = keys::once::accepted(&"moved".into());
    let msg = suite::samples::task_request("moved");
    let began = std::time::Instant::now();
    let publishing = {
        let (bus, key) = (bus.clone(), key.clone());
        tokio::spawn(async move {
            bus.publish_once(&key, std::time::Duration::from_secs(60), &msg)
                .await
        })
    };
    // Wait until the old primary has turned the append away at least once.
    let start = std::time::Instant::now();
    while c.cluster.errors().get("TRYAGAIN").copied().unwrap_or(0) == 0 {
        assert!(!publishing.is_finished(), "the publish ended mid-migration");
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "no TRYAGAIN: {:?}",
            c.cluster.errors()
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    // Finish the migration as redis-cli --cluster reshard does: move the key, then give
    // the slot to the new primary everywhere.
    let to_port = to.to_string();
    node(c.cluster, from).cli(&[
        "MIGRATE",
        "127.0.0.1",
        &to_port,
        "",
        "0",
        "5000",
        "KEYS",
        stream.as_str(),
    ]);
    node(c.cluster, to).cli(&["CLUSTER", "SETSLOT", &slot, "NODE", &to_id]);
    node(c.cluster, from).cli(&["CLUSTER", "SETSLOT", &slot, "NODE", &to_id]);
    for port in c.cluster.primary_ports() {
        node(c.cluster, port).cli(&["CLUSTER", "SETSLOT", &slot, "NODE", &to_id]);
    }
    let moved = began.elapsed();

    let published = publishing.await.expect("the publish task");
    let took = began.elapsed();
    assert_eq!(published.ok(), Some(true), "{:?}", c.cluster.errors());
    assert!(
        !bus.publish_once(&key, std::time::Duration::from_secs(60), &first)
            .await
            .expect("again")
    );
    let got: Vec<String> = bus
        .recent(&stream, 10)
        .await
        .expect("history")
        .into_iter()
        .filter_map(|m| match m.payload {
            Payload::TaskAvailable(r) => Some(r.query),
            _ => None,
        })
        .collect();
    assert_eq!(got, ["before-the-move", "moved"]);
    assert_eq!(
        c.cluster.primary_port_of(stream.as_str()),
        Some(to),
        "the slot moved"
    );
    eprintln!(
        "mid-migration publish: returned {took:.1?} after it started, {:.1?} after the slot \
         had moved; the nodes answered {:?}",
        took.saturating_sub(moved),
        c.cluster.errors()
    );
}
