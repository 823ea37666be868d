//! Redis-specific behaviour: surviving a server restart, re-creating lost groups,
//! the Pub/Sub mirror, entries with no `data` field, and stale consumer cleanup.

#[path = "../../tests/suite/mod.rs"]
mod suite;

use std::collections::HashSet;
use std::time::Duration;

use chorus_bus::*;
use chorus_bus_redis::*;
use chorus_testkit::{RedisOptions, RedisServer};
use futures::StreamExt;
use suite::samples::math_task;
use suite::{collect, dead_letters, task_ids, test_settings};

fn settings(redis: &RedisServer) -> BusSettings {
    BusSettings {
        redis_url: redis.url(),
        ..test_settings()
    }
}

/// Publishes, retrying while the server is away (the write connection reconnects).
async fn publish_retrying(bus: &RedisBus, msg: &Message) {
    for _ in 0..200 {
        if bus.publish(msg).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("publish did not succeed after the restart");
}

/// A bus on `redis` and a `math` subscriber of `math_task`.
async fn math_subscriber(redis: &RedisServer) -> (RedisBus, Box<dyn Subscriber>) {
    let bus = RedisBus::connect(settings(redis)).await.expect("connect");
    let sub = bus
        .subscribe(Subscription::new("math", vec![Topic::pool_task("math")]))
        .await
        .expect("subscribe");
    (bus, sub)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_restart_mid_stream_loses_nothing_and_needs_no_new_clients() {
    let mut redis = RedisServer::start_with(RedisOptions::with_aof());
    let publisher = RedisBus::connect(settings(&redis))
        .await
        .expect("publisher");
    let consumer_bus = RedisBus::connect(settings(&redis)).await.expect("consumer");
    let mut sub = consumer_bus
        .subscribe(Subscription::new("math", vec![Topic::pool_task("math")]))
        .await
        .expect("subscribe");
    let consumer = tokio::spawn(async move {
        let mut seen = Vec::new();
        for _ in 0..400 {
            match sub.next_batch().await {
                Ok(batch) => {
                    let tokens: Vec<AckToken> = batch.iter().map(Delivery::ack_token).collect();
                    if sub.ack(&tokens).await.is_ok() {
                        seen.extend(task_ids(&batch));
                    }
                }
                Err(e) => panic!("next_batch failed instead of recovering: {e}"),
            }
            if seen.iter().collect::<HashSet<_>>().len() >= 100 {
                break;
            }
        }
        seen
    });
    for i in 0..50 {
        publish_retrying(&publisher, &math_task(&format!("r{i}"))).await;
    }
    redis = tokio::task::spawn_blocking(move || {
        redis.restart();
        redis
    })
    .await
    .expect("restart");
    for i in 50..100 {
        publish_retrying(&publisher, &math_task(&format!("r{i}"))).await;
    }
    let seen = consumer.await.expect("consumer");
    let distinct: HashSet<String> = seen.into_iter().collect();
    let expected: HashSet<String> = (0..100).map(|i| format!("r{i}")).collect();
    assert_eq!(distinct, expected);
    assert_eq!(redis.cli(&["XLEN", "math_task"]), "100");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_consumer_recreates_its_group_when_the_server_lost_it() {
    let redis = RedisServer::start();
    let (bus, mut sub) = math_subscriber(&redis).await;
    assert!(collect(sub.as_mut(), 1, 2).await.is_empty());
    assert_eq!(redis.cli(&["FLUSHALL"]), "OK");
    bus.publish(&math_task("after-flush"))
        .await
        .expect("publish");
    let got = collect(sub.as_mut(), 1, 30).await;
    assert_eq!(task_ids(&got), vec!["after-flush"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_publish_is_mirrored_on_the_channel_of_its_topic() {
    let server = RedisServer::start();
    let client = redis::Client::open(server.url()).expect("client");
    let mut pubsub = client.get_async_pubsub().await.expect("pubsub");
    pubsub.subscribe("math_task").await.expect("subscribe");
    let bus = RedisBus::connect(settings(&server)).await.expect("connect");
    let msg = math_task("mirrored");
    bus.publish(&msg).await.expect("publish");
    let mut stream = pubsub.on_message();
    let got = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("mirror within 5 s")
        .expect("a message");
    let payload: String = got.get_payload().expect("payload");
    assert_eq!(Message::from_json(&payload).expect("envelope"), msg);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entry_without_a_data_field_is_dead_lettered() {
    let redis = RedisServer::start();
    let (bus, mut sub) = math_subscriber(&redis).await;
    redis.cli(&["XADD", "math_task", "*", "payload", "{}"]);
    bus.publish(&math_task("good")).await.expect("publish");
    let got = collect(sub.as_mut(), 1, 20).await;
    assert_eq!(task_ids(&got), vec!["good"]);
    let dls = dead_letters(&bus).await;
    assert_eq!(dls.len(), 1);
    assert!(
        dls[0].reason.contains("no `data` field"),
        "{}",
        dls[0].reason
    );
    assert_eq!(
        redis.cli(&["XPENDING", "math_task", "math"]).lines().next(),
        Some("0")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribing_removes_stale_idle_consumers_but_keeps_busy_ones() {
    let redis = RedisServer::start();
    redis.cli(&["XGROUP", "CREATE", "math_task", "math", "0", "MKSTREAM"]);
    redis.cli(&["XGROUP", "CREATECONSUMER", "math_task", "math", "ghost"]);
    redis.cli(&["XADD", "math_task", "*", "data", "{}"]);
    redis.cli(&[
        "XREADGROUP",
        "GROUP",
        "math",
        "busy",
        "COUNT",
        "1",
        "STREAMS",
        "math_task",
        ">",
    ]);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let bus = RedisBus::connect(BusSettings {
        stale_consumer_ms: 1000,
        claim_idle_ms: 60_000,
        ..settings(&redis)
    })
    .await
    .expect("connect");
    let _sub = bus
        .subscribe(Subscription::new("math", vec![Topic::pool_task("math")]))
        .await
        .expect("subscribe");
    let consumers = redis.cli(&["XINFO", "CONSUMERS", "math_task", "math"]);
    assert!(!consumers.contains("ghost"), "{consumers}");
    assert!(consumers.contains("busy"), "{consumers}");
}
