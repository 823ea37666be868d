//! The bus through a Cluster failover, as the chaos run (`deploy/chaos.sh --cluster`)
//! met it: a role's shared write connection must reach the replica promoted in place of
//! a primary that stopped answering, and a subscription made while a slot has no
//! primary must wait for one rather than fail; and with `bus.partitions = 3`, a primary
//! holding a partition killed under load loses and repeats no task. Each test freezes or
//! kills a node, so each starts a Cluster of its own (3 primaries + 3 replicas), one
//! test at a time.

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

/// With `bus.partitions = 3` (one partition of each topic on each primary), the primary
/// holding partition 1 is killed (SIGKILL) while tasks go in, as in the chaos run with
/// partitions: a client publishes each task's step on `math_task` (retrying what
/// failed, so a step may go in twice), a worker turns each step into the task's one
/// result on `math_result` with `publish_once` and acks it after, and a reader counts
/// the results. With `replica_acks = 1` nothing acknowledged is lost with the primary,
/// and what failed is redelivered (claimed) and done once: every task gets exactly one
/// result. The killed node is restarted, as a supervisor would, and rejoins as a
/// replica (until then the promoted primary has no replica to acknowledge its writes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_primary_holding_a_partition_killed_under_load_loses_and_repeats_no_task() {
    use std::collections::{BTreeMap, BTreeSet};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// Partitions: as many as primaries.
    const N: u32 = 3;
    /// Tasks published before the kill; publishing goes on until the failover is over
    /// (the killed node back as a replica) and at least `2 * KILL_AT` went in.
    const KILL_AT: usize = 60;
    /// Longest the whole exchange may take.
    const WITHIN: Duration = Duration::from_secs(120);
    let _turn = TURN.lock().await;
    let cluster = start_cluster().await;
    let settings = BusSettings {
        partitions: N,
        replica_acks: 1,
        replica_ack_timeout_ms: 2000,
        claim_idle_ms: 1000,
        // Deliveries are many while a shard is out (one per claim_idle_ms): the test is
        // about loss and repetition, not about dead-lettering.
        max_deliveries: 50,
        ..settings(&cluster)
    };
    let killed_stream = keys::partition_stream("math_task", 1, N);
    let client = RedisBus::connect(settings.clone()).await.expect("client");
    let worker_bus = RedisBus::connect(settings.clone()).await.expect("worker");
    let reader_bus = RedisBus::connect(settings).await.expect("reader");
    let mut steps = worker_bus
        .subscribe(Subscription::new("math", vec![Topic::pool_task("math")]))
        .await
        .expect("subscribe math_task");
    let mut results = reader_bus
        .subscribe(Subscription::new(
            "router",
            vec![Topic::pool_result("math")],
        ))
        .await
        .expect("subscribe math_result");

    let stop = Arc::new(AtomicBool::new(false));
    let worker_failures = Arc::new(AtomicUsize::new(0));
    let worker = tokio::spawn({
        let (stop, failures) = (stop.clone(), worker_failures.clone());
        async move {
            while !stop.load(Ordering::Relaxed) {
                let Ok(batch) = steps.next_batch().await else {
                    failures.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let mut done = Vec::new();
                for d in &batch {
                    let task = &d.message.task_id;
                    let result = Message::new(
                        task.clone(),
                        Topic::pool_result("math"),
                        "math-1",
                        Payload::StepResult(StepResult {
                            step_id: "s1".into(),
                            pool: "math".into(),
                            tool: "sum".into(),
                            arguments: Default::default(),
                            outcome: StepOutcome::Ok {
                                value: serde_json::json!(6),
                                text: "6".into(),
                            },
                            agent: "math-1".into(),
                            elapsed_us: 1,
                            iteration: 1,
                        }),
                    );
                    let once = keys::once::result(task, &"s1".into(), 1);
                    match worker_bus
                        .publish_once(&once, Duration::from_secs(600), &result)
                        .await
                    {
                        // Published now or before: either way the effect is there.
                        Ok(_) => done.push(d.ack_token()),
                        // Left pending: claimed again after claim_idle_ms.
                        Err(_) => {
                            failures.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                if steps.ack(&done).await.is_err() {
                    failures.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    });
    // Task id -> the distinct result entries (partition, entry id) read for it.
    let (total_tx, total_rx) = tokio::sync::watch::channel(None::<usize>);
    let reader = tokio::spawn(async move {
        let mut seen: BTreeMap<String, BTreeSet<(u32, String)>> = BTreeMap::new();
        let start = Instant::now();
        let mut all_since: Option<Instant> = None;
        while start.elapsed() < WITHIN {
            if let Ok(batch) = results.next_batch().await {
                let tokens: Vec<AckToken> = batch.iter().map(Delivery::ack_token).collect();
                let _ = results.ack(&tokens).await;
                for d in batch {
                    seen.entry(d.message.task_id.to_string())
                        .or_default()
                        .insert((d.partition, d.entry_id));
                }
            } else {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // Every task has a result: 2 s more for a late duplicate to show.
            if total_rx.borrow().is_some_and(|n| seen.len() >= n) {
                let since = *all_since.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_secs(2) {
                    break;
                }
            }
        }
        seen
    });

    let mut cluster = Some(cluster);
    let mut failover = None;
    let mut failed_publishes = 0;
    let mut published = 0;
    let start = Instant::now();
    while published < 2 * KILL_AT
        || failover
            .as_ref()
            .is_none_or(|f: &tokio::task::JoinHandle<_>| !f.is_finished())
    {
        if published == KILL_AT {
            let mut cluster = cluster.take().expect("the cluster, once");
            let stream = killed_stream.clone();
            failover = Some(tokio::task::spawn_blocking(move || {
                let port = cluster.kill_primary_of(&stream);
                let promoted = cluster.wait_promoted(&stream, port, CLUSTER_WITHIN);
                cluster.restart_node(port);
                (cluster, port, promoted)
            }));
        }
        let msg = math_task(&format!("t{published}"));
        while let Err(e) = client.publish(&msg).await {
            failed_publishes += 1;
            assert!(
                start.elapsed() < WITHIN,
                "publish t{published} did not succeed after the failover: {e}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        published += 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (cluster, port, promoted) = failover
        .expect("the primary was killed")
        .await
        .expect("the failover");
    let back = start.elapsed();
    total_tx.send(Some(published)).expect("the reader runs");
    let seen = reader.await.expect("the reader");
    stop.store(true, Ordering::Relaxed);
    worker.await.expect("the worker");
    let lost: Vec<String> = (0..published)
        .map(|i| format!("t{i}"))
        .filter(|t| !seen.contains_key(t))
        .collect();
    let repeated: Vec<(&String, usize)> = seen
        .iter()
        .filter(|(_, entries)| entries.len() > 1)
        .map(|(task, entries)| (task, entries.len()))
        .collect();
    let per_partition = (0..N)
        .map(|k| {
            (0..published)
                .filter(|i| keys::partition_of(&TaskId::from(format!("t{i}")), N) == k)
                .count()
        })
        .collect::<Vec<_>>();
    eprintln!(
        "killed :{port} (primary of {killed_stream}); replica promoted after {promoted:?}; \
         {published} tasks ({per_partition:?} per partition) in {back:?}; {failed_publishes} \
         publish attempts and {} worker steps failed meanwhile; {} of {published} have one result",
        worker_failures.load(Ordering::Relaxed),
        published - lost.len() - repeated.len()
    );
    // The results went over every partition (each on its own primary).
    let lens: Vec<String> = tokio::task::block_in_place(|| {
        keys::partition_streams("math_result", N)
            .iter()
            .map(|s| cluster.cli(&["XLEN", s]))
            .collect()
    });
    assert!(
        lens.iter().all(|n| n.parse::<u64>().is_ok_and(|n| n > 0)),
        "math_result's partitions hold {lens:?} entries"
    );
    assert!(lost.is_empty(), "tasks with no result: {lost:?}");
    assert!(
        repeated.is_empty(),
        "tasks with more than one result: {repeated:?}"
    );
    assert_eq!(
        seen.len(),
        published,
        "results for tasks never published: {:?}",
        seen.keys()
            .filter(|t| !t[1..].parse::<usize>().is_ok_and(|i| i < published))
            .collect::<Vec<_>>()
    );
    assert!(
        failed_publishes + worker_failures.load(Ordering::Relaxed) > 0,
        "the failover went unnoticed"
    );
}
