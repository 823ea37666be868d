//! `bus.replica_acks`: a publish returns once that many replicas have it, and fails,
//! naming the setting, when they do not within `bus.replica_ack_timeout_ms`.

use std::time::{Duration, Instant};

use chorus_bus::*;
use chorus_bus_redis::RedisBus;
use chorus_testkit::{RedisOptions, RedisServer};

/// A message on `task_available`.
fn request(task: &str) -> Message {
    Message::new(
        TaskId::from(task),
        Topic::task_available(),
        "test",
        Payload::TaskAvailable(TaskRequest {
            query: "2+4".into(),
            context: TaskContext::default(),
        }),
    )
}

/// Waits until `primary` has `n` replicas online.
fn wait_replicas(primary: &RedisServer, n: usize) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(15) {
        let info = primary.cli(&["INFO", "replication"]);
        let online = info
            .lines()
            .filter(|l| l.starts_with("slave") && l.contains("state=online"))
            .count();
        if online == n {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{n} replicas did not come online");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_publish_waits_for_its_replica_and_fails_plainly_without_one() {
    let primary = RedisServer::start();
    let replica_of = |p: &RedisServer| RedisOptions {
        extra_args: vec![
            "--replicaof".into(),
            "127.0.0.1".into(),
            p.port().to_string(),
        ],
        ..RedisOptions::default()
    };
    let mut replica = RedisServer::start_with(replica_of(&primary));
    wait_replicas(&primary, 1);
    let acked = |timeout_ms: u64| BusSettings {
        redis_url: primary.url(),
        replica_acks: 1,
        replica_ack_timeout_ms: timeout_ms,
        ..BusSettings::default()
    };
    // A generous wait while the replica is there (a loaded test machine can take more
    // than the default second to ack), a short one once it is gone.
    let bus = RedisBus::connect(acked(10_000)).await.expect("connect");
    let short = RedisBus::connect(acked(300)).await.expect("connect");

    bus.publish(&request("r1"))
        .await
        .expect("replicated publish");
    assert!(
        bus.publish_once(
            &keys::once::accepted(&"r2".into()),
            Duration::from_secs(60),
            &request("r2")
        )
        .await
        .expect("replicated publish_once")
    );
    assert_eq!(replica.cli(&["XLEN", "task_available"]), "2");

    // Without its replica a publish fails after the timeout, saying why.
    replica.kill();
    wait_replicas(&primary, 0);
    let start = Instant::now();
    let err = short.publish(&request("r3")).await.expect_err("no replica");
    assert!(
        start.elapsed() >= Duration::from_millis(250),
        "{:?}",
        start.elapsed()
    );
    assert!(err.to_string().contains("bus.replica_acks"), "{err}");
    assert!(err.to_string().contains("0 of the 1"), "{err}");

    // With 0 (the default) nothing waits.
    let plain = RedisBus::connect(BusSettings {
        redis_url: primary.url(),
        ..BusSettings::default()
    })
    .await
    .expect("connect");
    plain
        .publish(&request("r4"))
        .await
        .expect("unreplicated publish");
}
