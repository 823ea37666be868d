//! The behavioural suite in Sentinel mode (one primary, two replicas, three sentinels),
//! and a failover under load. The suite's tests share one set-up and take turns: each
//! flushes it first, as the standalone suite starts each test on a server of its own.
//! The failover test has a set-up of its own, since it kills the primary.

#[path = "../../tests/suite/mod.rs"]
mod suite;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use chorus_bus::*;
use chorus_bus_redis::*;
use chorus_testkit::RedisSentinel;
use suite::samples::math_task;
use suite::{Harness, test_settings};
use tokio::sync::MutexGuard;

/// One test at a time on the shared set-up.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Bus settings in Sentinel mode for `set`.
fn sentinel_settings(set: &RedisSentinel) -> BusSettings {
    BusSettings {
        redis_mode: RedisMode::Sentinel,
        sentinel_master: Some(set.master_name().to_owned()),
        sentinels: set.sentinel_urls(),
        ..test_settings()
    }
}

/// The shared set-up, flushed, held for one test.
struct Sentinel {
    set: &'static RedisSentinel,
    _turn: MutexGuard<'static, ()>,
}

async fn sentinel() -> Sentinel {
    let turn = TURN.lock().await;
    let set = tokio::task::spawn_blocking(|| {
        let set = RedisSentinel::shared();
        set.flush();
        set
    })
    .await
    .expect("start the sentinels");
    Sentinel { set, _turn: turn }
}

#[async_trait]
impl Harness for Sentinel {
    async fn bus(&self) -> Arc<dyn Bus> {
        Arc::new(
            RedisBus::connect(sentinel_settings(self.set))
                .await
                .expect("connect"),
        )
    }

    async fn store(&self) -> Arc<dyn Store> {
        let bus = RedisBus::connect(sentinel_settings(self.set))
            .await
            .expect("connect");
        Arc::new(bus.store())
    }

    async fn inject(&self, topic: &str, data: &str) {
        self.set.cli(&["XADD", topic, "*", "data", data]);
    }

    async fn stream_len(&self, topic: &str) -> usize {
        self.set.cli(&["XLEN", topic]).parse().expect("XLEN")
    }
}

bus_suite!(sentinel);

/// A bus that cannot reach any sentinel says so, naming the master and the sentinels.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_sentinel_answering_is_a_clear_error() {
    let port = chorus_testkit::free_port();
    let err = RedisBus::connect(BusSettings {
        redis_mode: RedisMode::Sentinel,
        sentinel_master: Some("nowhere".into()),
        sentinels: vec![format!("redis://127.0.0.1:{port}")],
        connect_timeout_ms: 500,
        ..test_settings()
    })
    .await
    .expect_err("no sentinel");
    let text = err.to_string();
    assert!(text.contains("\"nowhere\""), "{text}");
    assert!(text.contains(&port.to_string()), "{text}");
}

/// `redis_user` and the password `redis_password_env` names apply to the data nodes
/// (the sentinels keep their own): a user the data nodes do not know is refused, naming
/// it; once every data node has it (any may be promoted), the bus works as that user.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_acl_user_and_password_apply_to_the_data_nodes() {
    let s = sentinel().await;
    let user = "sentinel-acl-test";
    // The password is read from a variable; PATH is one every test process has
    // (setting one would need unsafe code).
    let password = std::env::var("PATH").expect("PATH is set");
    let settings = BusSettings {
        redis_user: Some(user.into()),
        redis_password_env: Some("PATH".into()),
        ..sentinel_settings(s.set)
    };
    let err = RedisBus::connect(settings.clone())
        .await
        .expect_err("a user the data nodes do not know");
    let text = err.to_string();
    assert!(text.contains(&format!("refused user \"{user}\"")), "{text}");
    assert!(!text.contains(&password), "the password leaked: {text}");
    let pass = format!(">{password}");
    for node in s.set.data_nodes() {
        node.cli(&["ACL", "SETUSER", user, "on", &pass, "~*", "&*", "+@all"]);
    }
    let bus = RedisBus::connect(settings)
        .await
        .expect("connect as the user");
    bus.publish(&math_task("acl"))
        .await
        .expect("publish as the user");
    let clients = s.set.cli(&["CLIENT", "LIST"]);
    assert!(
        clients.lines().any(|l| l.contains(&format!("user={user}"))),
        "{clients}"
    );
    drop(bus);
    for node in s.set.data_nodes() {
        node.cli(&["ACL", "DELUSER", user]);
    }
}

/// Messages published with `bus.replica_acks = 1` while the primary is killed and a
/// replica promoted: every publish that returned Ok is delivered to the consumer, which
/// (like the publisher) follows the new primary without being made again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failover_mid_stream_loses_no_acknowledged_publish_and_needs_no_new_clients() {
    /// Publishes before the kill; publishing goes on until the failover is over and at
    /// least `2 * N` were published.
    const N: usize = 50;
    let set = Arc::new(
        tokio::task::spawn_blocking(RedisSentinel::start)
            .await
            .expect("start the sentinels"),
    );
    let settings = BusSettings {
        replica_acks: 1,
        replica_ack_timeout_ms: 5000,
        ..sentinel_settings(&set)
    };
    let publisher = RedisBus::connect(settings.clone())
        .await
        .expect("publisher");
    let consumer_bus = RedisBus::connect(settings).await.expect("consumer");
    let mut sub = consumer_bus
        .subscribe(Subscription::new("math", vec![Topic::pool_task("math")]))
        .await
        .expect("subscribe");
    // The number published, once publishing is over.
    let (done_tx, mut done_rx) = tokio::sync::watch::channel(None::<usize>);
    let consumer = tokio::spawn(async move {
        let mut seen = BTreeSet::new();
        let deadline = Instant::now() + Duration::from_secs(45);
        while Instant::now() < deadline {
            match sub.next_batch().await {
                Ok(batch) => {
                    let tokens: Vec<AckToken> = batch.iter().map(Delivery::ack_token).collect();
                    let _ = sub.ack(&tokens).await;
                    seen.extend(batch.iter().map(|d| d.message.task_id.to_string()));
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
            if done_rx.borrow_and_update().is_some_and(|n| seen.len() >= n) {
                break;
            }
        }
        seen
    });

    let mut failover = None;
    let mut failed_attempts = 0;
    let start = Instant::now();
    let mut published = 0;
    while published < 2 * N
        || failover
            .as_ref()
            .is_none_or(|f: &tokio::task::JoinHandle<Duration>| !f.is_finished())
    {
        if published == N {
            let set = set.clone();
            failover = Some(tokio::task::spawn_blocking(move || {
                let old = set.kill_primary();
                set.wait_failover(old, Duration::from_secs(30))
            }));
        }
        let msg = math_task(&format!("t{published}"));
        loop {
            match publisher.publish(&msg).await {
                Ok(_) => break,
                Err(_) => {
                    failed_attempts += 1;
                    assert!(
                        start.elapsed() < Duration::from_secs(40),
                        "publish t{published} did not succeed after the failover"
                    );
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
        published += 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let took = failover
        .expect("the primary was killed")
        .await
        .expect("failover");
    done_tx.send(Some(published)).expect("consumer running");
    let seen = consumer.await.expect("consumer");
    let missing: Vec<String> = (0..published)
        .map(|i| format!("t{i}"))
        .filter(|t| !seen.contains(t))
        .collect();
    eprintln!(
        "failover took {took:?}; {failed_attempts} publish attempts failed meanwhile; {} of {published} delivered",
        published - missing.len()
    );
    assert!(
        missing.is_empty(),
        "acknowledged but never delivered: {missing:?}"
    );
    assert!(failed_attempts > 0, "the failover went unnoticed");
}

/// A failover with the old primary alive (`SENTINEL FAILOVER`: it becomes a replica and
/// its clients are disconnected): the same bus goes on publishing, now on the new
/// primary, and the same subscriber reads there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_failover_moves_the_bus_to_the_new_primary() {
    let set = Arc::new(
        tokio::task::spawn_blocking(RedisSentinel::start)
            .await
            .expect("start the sentinels"),
    );
    let bus = RedisBus::connect(sentinel_settings(&set))
        .await
        .expect("connect");
    let mut sub = bus
        .subscribe(Subscription::new("math", vec![Topic::pool_task("math")]))
        .await
        .expect("subscribe");
    bus.publish(&math_task("before")).await.expect("publish");
    let moved = set.clone();
    let old = tokio::task::spawn_blocking(move || {
        let old = moved.fail_over();
        moved.wait_failover(old, Duration::from_secs(30));
        old
    })
    .await
    .expect("failover");
    let new = set.primary_port().expect("a primary");
    assert_ne!(new, old);
    // The first publishes may fail while the bus finds the new primary.
    let start = Instant::now();
    while bus.publish(&math_task("after")).await.is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no publish on the new primary"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut seen = BTreeSet::new();
    while !seen.contains("after") && start.elapsed() < Duration::from_secs(30) {
        match sub.next_batch().await {
            Ok(batch) => {
                let tokens: Vec<AckToken> = batch.iter().map(Delivery::ack_token).collect();
                let _ = sub.ack(&tokens).await;
                seen.extend(batch.iter().map(|d| d.message.task_id.to_string()));
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    assert!(
        seen.contains("before") && seen.contains("after"),
        "{seen:?}"
    );
    let on_new = set.cli(&["XLEN", Topic::pool_task("math").as_str()]);
    assert_eq!(
        on_new, "2",
        "both entries are on the new primary (port {new})"
    );
}
