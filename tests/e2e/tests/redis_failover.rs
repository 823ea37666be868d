//! Failover with nothing lost: the pipeline (every role its own process) answers a
//! steady stream of tasks while the Redis primary is killed (SIGKILL) and a replica is
//! promoted — by the sentinels (one primary, two replicas, three sentinels), then by a
//! Redis Cluster itself (three primaries, one replica each; the primary of
//! `task_available`'s slot is killed). Every task must get exactly one final report:
//! the right value, or a report that says plainly it is degraded or failed. None may be
//! missing (a hang) or doubled. Roles and the client run with `bus.replica_acks = 1`,
//! so no publish returns before a replica has it: what a publish acknowledged survives
//! the promotion of that replica.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chorus_bus::{BusSettings, ReportStatus, Topic};
use chorus_bus_redis::RedisBus;
use chorus_core::door::{Limits, Submission, SubmitError, submit};
use chorus_e2e::{Cluster, ClusterOptions, answers, final_reports_by_task, numbered_task};

/// Tasks submitted in all.
const TASKS: usize = 48;
/// The primary is killed once this many tasks were submitted.
const KILL_AFTER: usize = 16;
/// Pause between two submissions.
const SPACING: Duration = Duration::from_millis(120);
/// Longest the reports may take after the last submission (the deadline is 10 s).
const REPORTS_WITHIN: Duration = Duration::from_secs(30);

/// One failover at a time: each runs a whole pipeline on the 2-core machine.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The task id of task `i` in a run named `run`.
fn task_id(run: &str, i: usize) -> String {
    format!("{run}-{i:02}")
}

/// `bus.replica_acks` of the roles and the client: 1, or `CHORUS_FAILOVER_REPLICA_ACKS`
/// (0 measures the same failover without `WAIT`, for docs/reliability.md).
fn replica_acks() -> u32 {
    std::env::var("CHORUS_FAILOVER_REPLICA_ACKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// Every role and the client publish only once a replica has the write.
fn acked_env() -> BTreeMap<String, String> {
    BTreeMap::from([
        (
            "CHORUS__BUS__REPLICA_ACKS".into(),
            replica_acks().to_string(),
        ),
        ("CHORUS__BUS__REPLICA_ACK_TIMEOUT_MS".into(), "2000".into()),
    ])
}

/// Submits every task (its own id, so a retried submission is the same task), one every
/// [`SPACING`], retrying a failed submission as a client would; counts submissions
/// done in `submitted` and returns the failed attempts.
async fn submit_all(bus: Arc<RedisBus>, run: String, submitted: Arc<AtomicUsize>) -> usize {
    let mut failed = 0;
    for i in 0..TASKS {
        let (query, _) = numbered_task(i);
        let start = Instant::now();
        loop {
            let submission = Submission {
                task_id: Some(task_id(&run, i)),
                ..Submission::new(query.clone(), "failover-test")
            };
            match submit(bus.as_ref(), None, &Limits::default(), submission).await {
                Ok(_) => break,
                Err(SubmitError::Bus(e)) => {
                    failed += 1;
                    assert!(
                        start.elapsed() < Duration::from_secs(30),
                        "task {i} could not be submitted for 30 s: {e}"
                    );
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(refused) => panic!("task {i} refused: {refused}"),
            }
        }
        submitted.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(SPACING).await;
    }
    failed
}

/// Runs the stream of tasks on `cluster`, calling `fail_over` (blocking: kill the
/// primary, wait for the promotion) once [`KILL_AFTER`] tasks were submitted, then checks
/// every task's reports and prints the counts.
async fn run_through_a_failover(
    name: &str,
    cluster: &mut Cluster,
    fail_over: impl FnOnce(&mut Cluster) -> String,
) {
    let started = Instant::now();
    let bus = Arc::new(
        RedisBus::connect(BusSettings {
            replica_acks: replica_acks(),
            replica_ack_timeout_ms: 2000,
            ..cluster.bus_settings()
        })
        .await
        .expect("connect the client"),
    );
    // Warm-up: the pipeline answers before anything is killed.
    let (_, r) = chorus_core::client::ask(
        bus.as_ref(),
        "2+4",
        Default::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .expect("warm-up");
    assert_eq!(answers(&r), vec!["6"], "{}", r.text);

    let submitted = Arc::new(AtomicUsize::new(0));
    let submitter = tokio::spawn(submit_all(bus.clone(), name.to_owned(), submitted.clone()));
    while submitted.load(Ordering::SeqCst) < KILL_AFTER {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let at_kill = submitted.load(Ordering::SeqCst);
    let failover = tokio::task::block_in_place(|| fail_over(cluster));
    let during = submitted.load(Ordering::SeqCst) - at_kill;
    let failed_submits = submitter.await.expect("the submitter");
    let last_submit = Instant::now();

    // Wait until every task has a report, then a moment for a second one to show.
    let ids: Vec<String> = (0..TASKS).map(|i| task_id(name, i)).collect();
    loop {
        let got = final_reports_by_task(bus.as_ref()).await;
        if ids.iter().all(|id| got.contains_key(id)) || last_submit.elapsed() > REPORTS_WITHIN {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let got = final_reports_by_task(bus.as_ref()).await;

    let (mut right, mut degraded, mut missing, mut doubled, mut wrong) =
        (0, Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, id) in ids.iter().enumerate() {
        let (query, want) = numbered_task(i);
        match got.get(id).map(Vec::as_slice) {
            None | Some([]) => missing.push(format!("{id} ({query})")),
            Some([r])
                if r.status == ReportStatus::Completed && answers(r) == vec![want.clone()] =>
            {
                right += 1
            }
            Some([r]) if r.status != ReportStatus::Completed => {
                degraded.push(format!("{id} ({query}): {:?}: {}", r.status, r.text))
            }
            Some([r]) => wrong.push(format!(
                "{id} ({query}): want {want}, got {:?}: {}",
                answers(r),
                r.text
            )),
            Some(many) => doubled.push(format!("{id} ({query}): {} reports", many.len())),
        }
    }
    eprintln!(
        "{name} (replica_acks {}): {failover}; {TASKS} tasks: {right} right, {} degraded, {} missing, {} doubled, {} wrong; \
         {during} submitted while it lasted ({failed_submits} attempts failed); {:.1} s in all",
        replica_acks(),
        degraded.len(),
        missing.len(),
        doubled.len(),
        wrong.len(),
        started.elapsed().as_secs_f64()
    );
    for d in &degraded {
        eprintln!("  degraded: {d}");
    }
    assert!(
        missing.is_empty(),
        "{name}: tasks with no report: {missing:?}"
    );
    assert!(
        doubled.is_empty(),
        "{name}: tasks with several reports: {doubled:?}"
    );
    assert!(wrong.is_empty(), "{name}: wrong answers: {wrong:?}");
    for d in &degraded {
        // A degraded report says what happened in words, never a bare status.
        assert!(d.len() > 40, "{name}: an unclear degraded report: {d}");
    }
    // The kill came mid-stream: tasks were still to be submitted after it. (On the
    // Cluster with replica_acks = 1 submissions wait until the killed shard has a
    // replica again, so few or none go in while it lasts.)
    assert!(
        at_kill < TASKS,
        "{name}: every task was submitted before the kill"
    );
    assert!(
        at_kill + during < TASKS,
        "{name}: every task was submitted before the failover ended"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sentinel_failover_mid_stream_leaves_every_task_exactly_one_report() {
    let _turn = TURN.lock().await;
    let mut cluster = Cluster::start(ClusterOptions {
        redis_sentinel: true,
        env: acked_env(),
        ..ClusterOptions::default()
    });
    run_through_a_failover("sentinel", &mut cluster, |cluster| {
        let set = cluster.redis_sentinel.as_ref().expect("sentinel set-up");
        let old = set.kill_primary();
        let took = set.wait_failover(old, Duration::from_secs(30));
        format!("primary on port {old} killed, a replica promoted after {took:.1?}")
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_failover_mid_stream_leaves_every_task_exactly_one_report() {
    let _turn = TURN.lock().await;
    let mut cluster = Cluster::start(ClusterOptions {
        redis_cluster: true,
        env: acked_env(),
        ..ClusterOptions::default()
    });
    run_through_a_failover("cluster", &mut cluster, |cluster| {
        let c = cluster.redis_cluster.as_mut().expect("redis cluster");
        let key = Topic::task_available();
        let old = c.kill_primary_of(key.as_str());
        let took = c.wait_promoted(key.as_str(), old, Duration::from_secs(30));
        // With one replica per primary, the promoted primary has none: with
        // replica_acks = 1 its writes wait until the old node is back as its replica,
        // as a supervisor would restart it.
        let back = Instant::now();
        c.restart_node(old);
        format!(
            "primary of {key} on port {old} killed, its replica promoted after {took:.1?}, \
             the old node back as a replica {:.1?} later",
            back.elapsed()
        )
    })
    .await;
}
