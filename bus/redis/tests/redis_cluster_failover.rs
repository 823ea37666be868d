//! The bus through a Cluster failover, as the chaos run (`deploy/chaos.sh --cluster`)
//! met it: a role's shared write connection must reach the replica promoted in place of
//! a primary that stopped answering, and a subscription made while a slot has no
//! primary must wait for one rather than fail. Each test freezes or kills a node, so
//! each starts a Cluster of its own (3 primaries + 3 replicas), one test at a time.

#[path = "../../tests/suite/mod.rs"]
mod suite;

use std::time::{Duration, Instant};

use chorus_bus::*;
use chorus_bus_redis::*;
use chorus_testkit::{RedisCluster, signals};
use suite::samples::math_task;
use suite::test_settings;

/// One Cluster at a time on the 2-core machine.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Longest a failover (or the nodes' agreement that a slot has no primary) may take.
const CLUSTER_WITHIN: Duration = Duration::from_secs(30);

/// Settings for a bus on `cluster`, every node a seed.
fn settings(cluster: &RedisCluster) -> BusSettings {
    let urls = cluster.urls();
    BusSettings {
        redis_url: urls[0].clone(),
        redis_mode: RedisMode::Cluster,
        cluster_nodes: urls[1..].to_vec(),
        ..test_settings()
    }
}

/// Starts a Cluster of its own (blocking work, off the runtime's threads).
async fn start_cluster() -> RedisCluster {
    tokio::task::spawn_blocking(RedisCluster::start)
        .await
        .expect("start the cluster")
}

/// The ports of the nodes of `cluster` but `except`.
fn others(cluster: &RedisCluster, except: u16) -> Vec<u16> {
    cluster
        .nodes()
        .iter()
        .map(|n| n.port())
        .filter(|p| *p != except)
        .collect()
}

/// Polls `done` (blocking redis-cli calls) every 50 ms until it holds; panics with
/// `what` after [`CLUSTER_WITHIN`].
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < CLUSTER_WITHIN,
            "{what}: not within {CLUSTER_WITHIN:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A primary that stops answering without closing its sockets (frozen: a hung host, a
/// partition) is failed over by the Cluster; redis-rs's cluster connection keeps
/// sending its slots' commands to it (a timeout is retried on the same node, and no
/// MOVED ever comes back to reload the slot map), so before the shared connection was
/// made again after repeated timeouts every write to those slots timed out for as long
/// as the node stayed frozen — the chaos run's wedged Chief. Now the writes reach the
/// promoted replica.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_reach_the_replica_promoted_in_place_of_a_primary_that_stopped_answering() {
    /// Publishes tried after the failover (each one `retry_writes`' 4 attempts).
    const PUBLISHES: usize = 8;
    let _turn = TURN.lock().await;
    let cluster = start_cluster().await;
    let bus = RedisBus::connect(BusSettings {
        connect_timeout_ms: 500,
        response_timeout_ms: 500,
        ..settings(&cluster)
    })
    .await
    .expect("connect");
    let topic = Topic::pool_task("math");
    let stream = topic.as_str().to_owned();
    // The connection to the stream's primary is up and used.
    bus.publish(&math_task("before")).await.expect("publish");

    let (primary, replica, pid) = tokio::task::block_in_place(|| {
        let primary = cluster.primary_port_of(&stream).expect("a primary");
        let replica = cluster
            .replica_port_of(primary, primary)
            .expect("the primary has a replica");
        let pid = cluster.node(primary).pid().expect("the primary runs");
        signals::send(pid, "-STOP");
        // Every other node serves the stream's slot from the promoted replica.
        wait_until("the replica promoted, as every live node sees it", || {
            others(&cluster, primary).iter().all(|&via| {
                cluster.primary_port_seen_by(via, &stream) == Some(replica)
                    && cluster
                        .node(via)
                        .cli(&["CLUSTER", "INFO"])
                        .contains("cluster_state:ok")
            })
        });
        (primary, replica, pid)
    });

    let mut failures = Vec::new();
    let mut published = None;
    for i in 0..PUBLISHES {
        match bus.publish(&math_task(&format!("after-{i}"))).await {
            Ok(id) => {
                published = Some(id);
                break;
            }
            Err(e) => failures.push(e.to_string()),
        }
    }
    // Thawed (it rejoins as the promoted node's replica) before any assertion.
    signals::send(pid, "-CONT");
    let id = published.unwrap_or_else(|| {
        panic!(
            "none of {PUBLISHES} publishes reached the promoted replica on {replica} while \
             the old primary on {primary} was frozen: {failures:?}"
        )
    });
    let entries =
        tokio::task::block_in_place(|| cluster.node(replica).cli(&["XRANGE", &stream, &id, &id]));
    assert!(
        entries.contains("after-"),
        "the entry is on the promoted replica: {entries:?}"
    );
    eprintln!(
        "frozen primary: {} publish(es) failed before one reached the promoted replica",
        failures.len()
    );
}

/// A role started while a primary is down and not yet replaced (the chaos run's
/// Verifier, exiting on `Moved`): creating its consumer groups meets CLUSTERDOWN or
/// MOVED on every attempt, past redis-rs's retries of one command. The subscription
/// waits and is made once the slot has a primary again. The replica is kept from
/// taking over by itself (`cluster-replica-no-failover`) until redis-rs has certainly
/// given up on one command; then it takes over (`CLUSTER FAILOVER TAKEOVER`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscription_made_while_a_slot_has_no_primary_waits_for_one() {
    /// Attempts redis-rs makes for one command on a Cluster (1 + `CLUSTER_RETRIES` in
    /// bus/redis/src/conn/mod.rs): more refusals than this mean the bus asked again.
    const ONE_COMMANDS_ATTEMPTS: u64 = 11;
    let _turn = TURN.lock().await;
    let cluster = start_cluster().await;
    let topic = Topic::pool_task("math");
    let stream = topic.as_str().to_owned();
    let (replica, live) = tokio::task::block_in_place(|| {
        let primary = cluster.primary_port_of(&stream).expect("a primary");
        let replica = cluster
            .replica_port_of(primary, primary)
            .expect("the primary has a replica");
        cluster
            .node(replica)
            .cli(&["CONFIG", "SET", "cluster-replica-no-failover", "yes"]);
        cluster.kill_primary_of(&stream);
        let live = others(&cluster, primary);
        wait_until("every live node sees the slot without a primary", || {
            live.iter().all(|&via| {
                cluster
                    .node(via)
                    .cli(&["CLUSTER", "INFO"])
                    .contains("cluster_state:fail")
            })
        });
        for &port in &live {
            cluster.node(port).cli(&["CONFIG", "RESETSTAT"]);
        }
        (replica, live)
    });
    // Refusals (CLUSTERDOWN, MOVED) the live nodes answered.
    let refused = || -> u64 {
        live.iter()
            .flat_map(|&port| {
                let info = cluster.node(port).cli(&["INFO", "errorstats"]);
                info.lines()
                    .filter_map(|line| {
                        let (kind, count) =
                            line.strip_prefix("errorstat_")?.split_once(":count=")?;
                        ["CLUSTERDOWN", "MOVED"]
                            .contains(&kind)
                            .then(|| count.trim().parse::<u64>().ok())?
                    })
                    .collect::<Vec<_>>()
            })
            .sum()
    };

    let bus = RedisBus::connect(settings(&cluster))
        .await
        .expect("connect while the slot has no primary");
    let subscribing = tokio::spawn(async move {
        bus.subscribe(Subscription::new("math", vec![topic]))
            .await
            .map(|_| ())
    });
    let start = Instant::now();
    loop {
        let n = tokio::task::block_in_place(refused);
        if n > ONE_COMMANDS_ATTEMPTS {
            break;
        }
        if subscribing.is_finished() {
            panic!(
                "the subscription ended while the slot had no primary ({n} refusals): {:?}",
                subscribing.await.expect("the subscribing task")
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the subscription was refused only {n} times"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::task::block_in_place(|| {
        cluster
            .node(replica)
            .cli(&["CLUSTER", "FAILOVER", "TAKEOVER"]);
    });
    let subscribed = subscribing.await.expect("the subscribing task");
    assert!(
        subscribed.is_ok(),
        "the subscription failed after the replica took over: {subscribed:?}"
    );
    let groups =
        tokio::task::block_in_place(|| cluster.node(replica).cli(&["XINFO", "GROUPS", &stream]));
    assert!(
        groups.lines().any(|l| l.trim() == "math"),
        "the group was created on the new primary: {groups:?}"
    );
}
