//! The PUBLISH door on a real Redis: a bare `PUBLISH task_available '{"query":…}'`
//! becomes one normalised stream entry however many listeners run; invalid payloads
//! become one dead letter; the bus's own mirror never loops back in.

#[path = "../../../bus/tests/suite/mod.rs"]
mod suite;

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::*;
use chorus_bus_redis::*;
use chorus_core::door::{Ingested, Limits, ingest, run_publish_ingress};
use chorus_testkit::RedisServer;
use suite::{collect, dead_letters, test_settings};
use tokio::sync::Notify;

/// Two ingress listeners on one server, stopped when dropped.
struct Listeners {
    stop: Arc<Notify>,
    handles: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for Listeners {
    fn drop(&mut self) {
        self.stop.notify_waiters();
        for h in &self.handles {
            h.abort();
        }
    }
}

async fn start_listeners(redis: &RedisServer, n: usize) -> Listeners {
    let stop = Arc::new(Notify::new());
    let mut handles = Vec::new();
    for _ in 0..n {
        let bus = RedisBus::connect(settings(redis)).await.expect("connect");
        let stop = stop.clone();
        let bus_settings = settings(redis);
        handles.push(tokio::spawn(async move {
            let stopped = async move { stop.notified().await };
            run_publish_ingress(&bus, None, &bus_settings, &Limits::default(), stopped).await;
        }));
    }
    wait_for("listeners subscribed", || {
        redis
            .cli(&["PUBSUB", "NUMSUB", "task_available"])
            .ends_with(&n.to_string())
    })
    .await;
    Listeners { stop, handles }
}

fn settings(redis: &RedisServer) -> BusSettings {
    BusSettings {
        redis_url: redis.url(),
        ..test_settings()
    }
}

/// Waits (bounded) until `cond` holds.
async fn wait_for(what: &str, cond: impl Fn() -> bool) {
    for _ in 0..200 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("not reached within 5 s: {what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bare_publish_with_two_listeners_makes_exactly_one_normalised_entry() {
    let redis = RedisServer::start();
    let _listeners = start_listeners(&redis, 2).await;
    let receivers = redis.cli(&["PUBLISH", "task_available", r#"{"query":"2+4"}"#]);
    assert_eq!(receivers, "2");
    wait_for("one task_available entry", || {
        redis.cli(&["XLEN", "task_available"]) == "1"
    })
    .await;
    // Give a slow duplicate (or a mirror loop) the chance to show up.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(redis.cli(&["XLEN", "task_available"]), "1");

    let bus = RedisBus::connect(settings(&redis)).await.expect("connect");
    let mut planner = bus
        .subscribe(Subscription::new("planner", vec![Topic::task_available()]))
        .await
        .expect("subscribe");
    let got = collect(planner.as_mut(), 1, 20).await;
    assert_eq!(got.len(), 1);
    assert!(!got[0].bare, "the stream holds the normalised envelope");
    assert_eq!(got[0].message.from_agent, "client");
    assert!(!got[0].message.task_id.is_empty());
    let Payload::TaskAvailable(req) = &got[0].message.payload else {
        panic!("payload")
    };
    assert_eq!(req.query, "2+4");
    assert!(dead_letters(&bus).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bare_publish_keeps_its_task_id() {
    let redis = RedisServer::start();
    let _listeners = start_listeners(&redis, 1).await;
    redis.cli(&[
        "PUBLISH",
        "task_available",
        r#"{"query":"what day is it","task_id":"my-task-7","context":{"language":"en"}}"#,
    ]);
    wait_for("one task_available entry", || {
        redis.cli(&["XLEN", "task_available"]) == "1"
    })
    .await;
    let bus = RedisBus::connect(settings(&redis)).await.expect("connect");
    let recent = bus
        .recent(&Topic::task_available(), 5)
        .await
        .expect("recent");
    assert_eq!(recent.len(), 1);
    assert_eq!(recent[0].task_id, "my-task-7");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_ingress_payload_becomes_one_dead_letter() {
    let redis = RedisServer::start();
    let _listeners = start_listeners(&redis, 2).await;
    redis.cli(&["PUBLISH", "task_available", r#"{"question":"2+4"}"#]);
    redis.cli(&["PUBLISH", "task_available", "not json"]);
    wait_for("two dead letters", || {
        redis.cli(&["XLEN", "dead_letter"]) == "2"
    })
    .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(redis.cli(&["XLEN", "dead_letter"]), "2");
    assert_eq!(redis.cli(&["XLEN", "task_available"]), "0");
    let bus = RedisBus::connect(settings(&redis)).await.expect("connect");
    let dls = dead_letters(&bus).await;
    assert!(
        dls[0].reason.contains("missing field `query`"),
        "{}",
        dls[0].reason
    );
    assert_eq!(dls[0].original, r#"{"question":"2+4"}"#);
    assert!(
        dls[1].reason.contains("invalid message JSON"),
        "{}",
        dls[1].reason
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ingress_ignores_the_mirror_of_published_envelopes() {
    let redis = RedisServer::start();
    let _listeners = start_listeners(&redis, 1).await;
    let bus = RedisBus::connect(settings(&redis)).await.expect("connect");
    let msg = suite::samples::task_request("2+4");
    bus.publish(&msg).await.expect("publish");
    assert_eq!(
        ingest(
            &bus,
            None,
            &settings(&redis),
            &Limits::default(),
            &msg.to_json()
        )
        .await
        .expect("ingest"),
        Ingested::Mirror
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(redis.cli(&["XLEN", "task_available"]), "1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ingress_resubscribes_after_a_redis_restart() {
    let mut redis = RedisServer::start();
    let _listeners = start_listeners(&redis, 1).await;
    redis = tokio::task::spawn_blocking(move || {
        redis.restart();
        redis
    })
    .await
    .expect("restart");
    wait_for("listener resubscribed", || {
        redis
            .cli(&["PUBSUB", "NUMSUB", "task_available"])
            .ends_with('1')
    })
    .await;
    redis.cli(&["PUBLISH", "task_available", r#"{"query":"3*7"}"#]);
    wait_for("one task_available entry", || {
        redis.cli(&["XLEN", "task_available"]) == "1"
    })
    .await;
}
