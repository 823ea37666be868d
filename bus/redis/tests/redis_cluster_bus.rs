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

/// The suite and the partition tests again with `bus.partitions = 3`, on the same
/// shared Cluster (taking turns with the tests above).
mod partitioned {
    use super::*;
    use std::collections::BTreeSet;
    use std::time::Duration;

    /// Partitions of the tests below.
    const N: u32 = 3;

    /// The shared Cluster with `bus.partitions = 3`.
    struct Partitioned(Cluster);

    async fn partitioned() -> Partitioned {
        Partitioned(cluster().await)
    }

    impl Partitioned {
        fn settings(&self) -> BusSettings {
            BusSettings {
                partitions: N,
                ..self.0.settings()
            }
        }

        /// The entries of each partition's stream of `topic`.
        fn lens(&self, topic: &str) -> Vec<usize> {
            keys::partition_streams(topic, N)
                .iter()
                .map(|s| self.0.cluster.cli(&["XLEN", s]).parse().expect("XLEN"))
                .collect()
        }

        /// The entries `group` has pending on each partition's stream of `topic`.
        fn pending(&self, topic: &str, group: &str) -> Vec<usize> {
            keys::partition_streams(topic, N)
                .iter()
                .map(|s| {
                    let out = self.0.cluster.cli(&["XPENDING", s, group]);
                    out.lines()
                        .next()
                        .unwrap_or("0")
                        .trim()
                        .parse()
                        .unwrap_or(0)
                })
                .collect()
        }
    }

    #[async_trait]
    impl Harness for Partitioned {
        async fn bus(&self) -> Arc<dyn Bus> {
            Arc::new(RedisBus::connect(self.settings()).await.expect("connect"))
        }

        async fn store(&self) -> Arc<dyn Store> {
            let bus = RedisBus::connect(self.settings()).await.expect("connect");
            Arc::new(bus.store())
        }

        /// An outside client's entry goes to the topic's partition 0 (as
        /// `RedisBus::publish_raw` does).
        async fn inject(&self, topic: &str, data: &str) {
            let stream = keys::partition_stream(topic, 0, N);
            self.0.cluster.cli(&["XADD", &stream, "*", "data", data]);
        }

        async fn stream_len(&self, topic: &str) -> usize {
            self.lens(topic).iter().sum()
        }
    }

    // The suite, but for the cap test (each partition is capped on its own, so a topic
    // holds up to N times `bus.stream_maxlen`) and the keep-alive test, which reads two
    // tasks in publish order (order holds within a partition, not across them).
    bus_suite!(@tests partitioned;
        every_topic_round_trips_through_the_bus_and_raw_json,
        two_roles_both_receive_every_message,
        two_replicas_split_a_thousand_messages_without_duplicates,
        a_dead_consumers_messages_go_to_another_replica_after_the_idle_time,
        an_announcement_reaches_channel_subscribers_and_no_stream,
        a_message_failing_too_often_is_dead_lettered_and_the_consumer_goes_on,
        a_handler_can_dead_letter_a_message_with_its_reason,
        malformed_entries_are_dead_lettered_and_the_next_good_one_delivered,
        a_bare_xadd_request_is_delivered_normalised,
        publish_once_publishes_once_under_concurrency,
        publish_once_many_publishes_each_new_key_once,
        publish_guarded_publishes_only_behind_a_new_guard,
        publish_all_once_publishes_every_message_once_or_none,
        a_watcher_sees_messages_published_after_it_started,
        stream_stats_count_entries_and_each_groups_pending,
    );

    /// A task id (`<prefix>-<i>`, the first `i` that fits) in partition `k`.
    fn task_in(prefix: &str, k: u32) -> String {
        (0..)
            .map(|i| format!("{prefix}-{i}"))
            .find(|t| keys::partition_of(&TaskId::from(t.as_str()), N) == k)
            .expect("a task id")
    }

    /// Partition k of every topic lands in the k-th third of the slots, so on the
    /// even split `redis-cli --cluster create` makes, on the k-th primary: three
    /// partitions, three distinct primaries, whatever the topic.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_partition_of_a_topic_lands_on_its_own_primary() {
        let p = partitioned().await;
        let primaries: Vec<u16> = tokio::task::block_in_place(|| {
            keys::partition_streams("math_task", N)
                .iter()
                .map(|s| p.0.cluster.primary_port_of(s).expect("a primary"))
                .collect()
        });
        let distinct: BTreeSet<u16> = primaries.iter().copied().collect();
        assert_eq!(distinct.len(), 3, "{primaries:?}");
        for topic in ["plan_ready", "tool_response", "date_result"] {
            let others: Vec<u16> = tokio::task::block_in_place(|| {
                keys::partition_streams(topic, N)
                    .iter()
                    .map(|s| p.0.cluster.primary_port_of(s).expect("a primary"))
                    .collect()
            });
            assert_eq!(others, primaries, "{topic}");
        }
        // The client-facing streams keep their plain names.
        assert_eq!(
            keys::partition_streams("task_available", N),
            ["task_available"]
        );
    }

    /// A topic's messages go to the partition of their task (every partition gets
    /// some), and one consumer group reads them all, once each, acking each on its own
    /// partition.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_group_reads_a_topic_spread_over_every_partition() {
        let p = partitioned().await;
        let bus = p.bus().await;
        let topic = Topic::pool_task("math");
        let mut sub = bus
            .subscribe(Subscription::new("pool-math", vec![topic.clone()]))
            .await
            .expect("subscribe");
        let ids: Vec<String> = (0..30).map(|i| format!("spread-{i}")).collect();
        let msgs: Vec<Message> = ids.iter().map(|t| suite::samples::math_task(t)).collect();
        bus.publish_many(&msgs).await.expect("publish");
        let lens = p.lens("math_task");
        assert_eq!(lens.iter().sum::<usize>(), 30, "{lens:?}");
        assert!(lens.iter().all(|&n| n > 0), "{lens:?}");
        for (k, len) in lens.iter().enumerate() {
            let want = ids
                .iter()
                .filter(|t| keys::partition_of(&TaskId::from(t.as_str()), N) == k as u32)
                .count();
            assert_eq!(*len, want, "partition {k}");
        }
        assert_eq!(
            p.0.cluster.cli(&["EXISTS", "math_task"]),
            "0",
            "nothing on the plain stream"
        );
        let got = suite::collect(sub.as_mut(), 30, 40).await;
        let mut got_ids = suite::task_ids(&got);
        got_ids.sort();
        let mut want = ids.clone();
        want.sort();
        assert_eq!(got_ids, want);
        for d in &got {
            assert_eq!(
                d.partition,
                keys::partition_of(&d.message.task_id, N),
                "{}",
                d.message.task_id
            );
        }
        assert_eq!(p.pending("math_task", "pool-math"), [0, 0, 0]);
    }

    /// A consumer dies holding an entry of partition 2: another consumer of the role
    /// claims it after the idle time (second delivery) and its ack clears partition 2.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dead_consumers_entry_in_a_later_partition_is_claimed() {
        let p = partitioned().await;
        let topic = Topic::pool_task("math");
        let task = task_in("claimed", 2);
        let bus = p.bus().await;
        let mut doomed = bus
            .subscribe(Subscription::new("pool-math", vec![topic.clone()]))
            .await
            .expect("doomed");
        bus.publish(&suite::samples::math_task(&task))
            .await
            .expect("publish");
        let mut taken = Vec::new();
        for _ in 0..40 {
            taken.extend(doomed.next_batch().await.expect("next_batch"));
            if !taken.is_empty() {
                break;
            }
        }
        assert_eq!(suite::task_ids(&taken), std::slice::from_ref(&task));
        assert_eq!(taken[0].partition, 2);
        drop(doomed); // dies before acking
        assert_eq!(p.pending("math_task", "pool-math"), [0, 0, 1]);
        let other = p.bus().await;
        let mut survivor = other
            .subscribe(Subscription::new("pool-math", vec![topic]))
            .await
            .expect("survivor");
        let got = suite::collect(survivor.as_mut(), 1, 40).await;
        assert_eq!(suite::task_ids(&got), [task]);
        assert_eq!(got[0].deliveries, 2);
        assert_eq!(got[0].partition, 2);
        assert_eq!(p.pending("math_task", "pool-math"), [0, 0, 0]);
    }

    /// Publish-once into partition 1 across retries: a retry after the first call
    /// appends nothing; a caller that finds a claim whose append never happened (the
    /// claimer died between the two steps, its message in the outbox) appends the
    /// stored message, once, to the partition's stream.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn publish_once_into_a_partition_is_deduped_across_retries() {
        let p = partitioned().await;
        let bus = p.bus().await;
        let ttl = Duration::from_secs(60);
        let task = task_in("once", 1);
        let key = keys::once::dispatched(&TaskId::from(task.as_str()), &"s1".into(), 1);
        let msg = suite::samples::math_task(&task);
        assert!(bus.publish_once(&key, ttl, &msg).await.expect("first"));
        assert!(!bus.publish_once(&key, ttl, &msg).await.expect("retry"));
        assert_eq!(p.lens("math_task"), [0, 1, 0]);
        let stream = keys::partition_stream("math_task", 1, N);
        let sent = keys::sent(&stream, &key);
        assert_eq!(keys::slot(&sent), keys::slot(&stream));
        assert_eq!(p.0.cluster.cli(&["EXISTS", &sent]), "1", "{sent}");

        // A claim left behind by a claimer that died before appending.
        let stranded = task_in("stranded", 1);
        let key = keys::once::dispatched(&TaskId::from(stranded.as_str()), &"s1".into(), 1);
        let stored = suite::samples::math_task(&stranded);
        p.0.cluster.cli(&["SET", &key, "1", "PX", "60000"]);
        p.0.cluster
            .cli(&["SET", &keys::outbox(&key), &stored.to_json(), "PX", "60000"]);
        // The redelivered work makes the same task's message again (a new message id).
        let mut retry = suite::samples::math_task(&stranded);
        retry.id = uuid::Uuid::now_v7();
        for _ in 0..2 {
            assert!(!bus.publish_once(&key, ttl, &retry).await.expect("retry"));
        }
        assert_eq!(p.lens("math_task"), [0, 2, 0]);
        let got: Vec<uuid::Uuid> = bus
            .recent(&Topic::pool_task("math"), 10)
            .await
            .expect("recent")
            .into_iter()
            .map(|m| m.id)
            .collect();
        assert_eq!(got, [msg.id, stored.id]);
    }
}
