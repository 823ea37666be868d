//! Resharding under load: the pipeline (every role its own process) on a Redis Cluster
//! (three primaries, one replica each) answers a steady stream of tasks while every slot
//! of the primary holding `task_available` moves to another primary with
//! `redis-cli --cluster reshard` (slot by slot: MIGRATING/IMPORTING, the keys moved by
//! MIGRATE — streams with their consumer groups, tasks' state, once-keys). Clients and
//! roles meet MOVED, ASK and TRYAGAIN (a multi-key script whose keys are split between the
//! two nodes mid-migration) and must ride them out: every task gets exactly one report,
//! with the right value; none missing, none doubled. The figures it prints (how long the
//! reshard took, how many redirections and retries the nodes answered) are in
//! docs/reliability.md.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chorus_bus::{ReportStatus, Topic};
use chorus_bus_redis::RedisBus;
use chorus_core::door::{Limits, Submission, SubmitError, submit};
use chorus_e2e::{Cluster, ClusterOptions, answers, final_reports_by_task, numbered_task};

/// Tasks submitted before the reshard starts.
const BEFORE: usize = 8;
/// Tasks submitted after the reshard ended.
const AFTER: usize = 8;
/// Pause between two submissions.
const SPACING: Duration = Duration::from_millis(100);
/// Longest the reports may take after the last submission.
const REPORTS_WITHIN: Duration = Duration::from_secs(30);

/// The task id of task `i`.
fn task_id(i: usize) -> String {
    format!("reshard-{i:03}")
}

/// Submits tasks (each its own id, so a retried submission is the same task), one every
/// [`SPACING`], until `stop`; retries a failed submission as a client would. Counts
/// submissions done in `submitted` and returns the failed attempts.
async fn submit_until(
    bus: Arc<RedisBus>,
    stop: Arc<AtomicBool>,
    submitted: Arc<AtomicUsize>,
) -> usize {
    let mut failed = 0;
    let mut i = 0;
    while !stop.load(Ordering::SeqCst) {
        let (query, _) = numbered_task(i);
        let start = Instant::now();
        loop {
            let submission = Submission {
                task_id: Some(task_id(i)),
                ..Submission::new(query.clone(), "reshard-test")
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
        i += 1;
        submitted.store(i, Ordering::SeqCst);
        tokio::time::sleep(SPACING).await;
    }
    failed
}

/// Waits until `submitted` reaches `n`.
async fn wait_submitted(submitted: &AtomicUsize, n: usize) {
    while submitted.load(Ordering::SeqCst) < n {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reshard_under_load_leaves_every_task_exactly_one_report() {
    let started = Instant::now();
    let cluster = Cluster::start(ClusterOptions {
        redis_cluster: true,
        ..ClusterOptions::default()
    });
    let nodes = cluster.redis_cluster.as_ref().expect("redis cluster");
    let bus = Arc::new(cluster.bus().await);
    // Warm-up: the pipeline answers before anything moves.
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
    nodes.reset_stats();

    let stop = Arc::new(AtomicBool::new(false));
    let submitted = Arc::new(AtomicUsize::new(0));
    let submitter = tokio::spawn(submit_until(bus.clone(), stop.clone(), submitted.clone()));
    wait_submitted(&submitted, BEFORE).await;

    // Every slot of the primary holding `task_available` goes to another primary.
    let stream = Topic::task_available();
    let from = nodes
        .primary_port_of(stream.as_str())
        .expect("a primary serves task_available");
    let to = *nodes
        .primary_ports()
        .iter()
        .find(|p| **p != from)
        .expect("another primary");
    let slots = nodes.slots_of(from);
    let at_start = submitted.load(Ordering::SeqCst);
    let took = tokio::task::block_in_place(|| nodes.reshard(from, to, slots));
    let at_end = submitted.load(Ordering::SeqCst);
    assert_eq!(nodes.slots_of(from), 0, "the source kept slots");
    assert_eq!(
        nodes.primary_port_of(stream.as_str()),
        Some(to),
        "task_available did not move"
    );

    wait_submitted(&submitted, at_end + AFTER).await;
    stop.store(true, Ordering::SeqCst);
    let failed_submits = submitter.await.expect("the submitter");
    let total = submitted.load(Ordering::SeqCst);
    let last_submit = Instant::now();

    // Wait until every task has a report, then a moment for a second one to show.
    let ids: Vec<String> = (0..total).map(task_id).collect();
    loop {
        let got = final_reports_by_task(bus.as_ref()).await;
        if ids.iter().all(|id| got.contains_key(id)) || last_submit.elapsed() > REPORTS_WITHIN {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let got = final_reports_by_task(bus.as_ref()).await;
    let errors = nodes.errors();

    let (mut right, mut missing, mut doubled, mut wrong) = (0, Vec::new(), Vec::new(), Vec::new());
    for (i, id) in ids.iter().enumerate() {
        let (query, want) = numbered_task(i);
        match got.get(id).map(Vec::as_slice) {
            None | Some([]) => missing.push(format!("{id} ({query})")),
            Some([r])
                if r.status == ReportStatus::Completed && answers(r) == vec![want.clone()] =>
            {
                right += 1
            }
            Some([r]) => wrong.push(format!(
                "{id} ({query}): want {want}, got {:?} {:?}: {}",
                r.status,
                answers(r),
                r.text
            )),
            Some(many) => doubled.push(format!("{id} ({query}): {} reports", many.len())),
        }
    }
    let count = |kind: &str| errors.get(kind).copied().unwrap_or(0);
    eprintln!(
        "reshard: {slots} slots from port {from} to {to} in {took:.1?}; {total} tasks \
         ({} submitted while it ran, {failed_submits} submission attempts failed): {right} right, \
         {} missing, {} doubled, {} wrong; the nodes answered MOVED {}, ASK {}, TRYAGAIN {} \
         (all error replies: {errors:?}); {:.1} s in all",
        at_end - at_start,
        missing.len(),
        doubled.len(),
        wrong.len(),
        count("MOVED"),
        count("ASK"),
        count("TRYAGAIN"),
        started.elapsed().as_secs_f64()
    );
    assert!(missing.is_empty(), "tasks with no report: {missing:?}");
    assert!(
        doubled.is_empty(),
        "tasks with several reports: {doubled:?}"
    );
    assert!(wrong.is_empty(), "wrong or failed answers: {wrong:?}");
    assert_eq!(right, total);
    // The clients did meet the move: the old primary redirected them.
    assert!(
        count("MOVED") + count("ASK") > 0,
        "no redirection was answered: {errors:?}"
    );
}
