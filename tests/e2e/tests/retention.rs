//! Retention against the real system (real Redis, every role its own process): once a
//! task's report is out, its state shrinks to the report, the report's once-key and the
//! acceptance record, each expiring within `bus.finished_ttl_secs`; the report is still
//! served, the same task id is still the same task, a finished task still refuses a
//! cancellation as finished, and a late duplicate step result brings no second report.

use std::time::{Duration, Instant};

use chorus_bus::keys;
use chorus_bus::{Bus, Payload, Topic};
use chorus_e2e::{Cluster, ClusterOptions, of_task, poll_task, wait_on};
use serde_json::json;

/// The finished TTL the cluster runs with, in seconds.
const FINISHED_TTL_SECS: u64 = 30;

/// The task's keys (`chorus:{<id>}:*`), sorted.
fn task_keys(cluster: &Cluster, task: &str) -> Vec<String> {
    let out = cluster.redis.cli(&[
        "--scan",
        "--pattern",
        &format!("{}*", keys::task_prefix(&task.into())),
    ]);
    let mut keys: Vec<String> = out.lines().map(str::to_owned).collect();
    keys.sort();
    keys
}

/// Waits (up to 5 s) until the task's keys are `want` (the Chief shrinks the state
/// right after the report is stored; a reader may look in between), and returns them.
fn keys_become(cluster: &Cluster, task: &str, want: &[String]) -> Vec<String> {
    let start = Instant::now();
    loop {
        let keys = task_keys(cluster, task);
        if keys == want || start.elapsed() > Duration::from_secs(5) {
            return keys;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What must be left of a finished task.
fn finished_keys(task: &str) -> Vec<String> {
    let mut keys = vec![
        keys::once::accepted(&task.into()),
        keys::once::reported(&task.into()),
        keys::report(&task.into()),
    ];
    keys.sort();
    keys
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_task_keeps_only_its_report_and_records_for_the_finished_ttl() {
    let mut opts = ClusterOptions::default();
    opts.env.insert(
        "CHORUS__BUS__FINISHED_TTL_SECS".into(),
        FINISHED_TTL_SECS.to_string(),
    );
    let cluster = Cluster::start(opts);
    let bus = cluster.bus().await;
    let http = reqwest::Client::new();
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    let url = format!("http://127.0.0.1:{}", cluster.http_port);
    let task = "keep-1";
    let body = json!({"query": "compute (2+4)*3", "task_id": task});

    let r = http
        .post(format!("{url}/tasks"))
        .json(&body)
        .send()
        .await
        .expect("POST /tasks");
    assert_eq!(r.status(), 202);
    let done = poll_task(&http, &url, task, |s| s["state"] == "done").await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["report"]["status"], "completed", "{done}");

    // Only the report and the two records are left, each with the finished TTL.
    let want = finished_keys(task);
    assert_eq!(keys_become(&cluster, task, &want), want);
    for key in &want {
        let ttl: i64 = cluster.redis.cli(&["PTTL", key]).parse().expect("PTTL");
        assert!(
            ttl > 0 && ttl <= (FINISHED_TTL_SECS * 1000) as i64,
            "{key}: PTTL {ttl}"
        );
    }
    for set in [keys::DEADLINES, keys::WAITING] {
        assert_eq!(cluster.redis.cli(&["ZSCORE", set, task]), "", "{set}");
    }

    // The report is still served.
    let again = poll_task(&http, &url, task, |s| s["state"] == "done").await;
    assert_eq!(again["report"], done["report"]);

    // The same id with the same request is the same task: 200 with its report, nothing
    // run twice; with another request it is refused.
    let r = http
        .post(format!("{url}/tasks"))
        .json(&body)
        .send()
        .await
        .expect("POST again");
    assert_eq!(r.status(), 200);
    let same: serde_json::Value = r.json().await.expect("json");
    assert_eq!(same["report"], done["report"]);
    let r = http
        .post(format!("{url}/tasks"))
        .json(&json!({"query": "what is 7 times 7", "task_id": task}))
        .send()
        .await
        .expect("POST other");
    assert_eq!(r.status(), 409);
    // A cancellation of the finished task is refused as finished.
    let r = http
        .delete(format!("{url}/tasks/{task}"))
        .send()
        .await
        .expect("DELETE");
    assert_eq!(r.status(), 409);

    // A late duplicate of a step result (a pool agent's redelivery after the report)
    // brings no second report.
    let results = wait_on(
        &bus,
        &Topic::pool_result("math"),
        task,
        Duration::from_secs(5),
    )
    .await;
    let late = results
        .iter()
        .find(|m| matches!(m.payload, Payload::StepResult(_)))
        .expect("a math result")
        .clone();
    bus.publish(&late).await.expect("publish the duplicate");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let reports = of_task(&bus, &Topic::final_report(), task).await;
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(
        of_task(&bus, &Topic::task_available(), task).await.len(),
        1,
        "the task ran once"
    );
    // Still finished, still with its report.
    let after = poll_task(&http, &url, task, |s| s["state"] == "done").await;
    assert_eq!(after["report"], done["report"]);
    // Nothing came back: a late result is not recorded once the report is out.
    assert_eq!(task_keys(&cluster, task), want);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_redis_store_retires_in_one_step_and_a_guarded_open_stays_shut() {
    use chorus_bus::Store;
    use chorus_bus::store::Retirement;

    let redis = chorus_testkit::RedisServer::start();
    let settings = chorus_bus::BusSettings {
        redis_url: redis.url(),
        ..chorus_bus::BusSettings::default()
    };
    let bus = chorus_bus_redis::RedisBus::connect(settings)
        .await
        .expect("connect");
    let store = bus.store();
    let long = Duration::from_secs(86_400);
    store.set("t:kept", "k", long).await.expect("set");
    store.set("t:gone", "g", long).await.expect("set");
    store.hset("t:hash", "f", "v", long).await.expect("hset");
    store.zadd("open", "t", 1).await.expect("zadd");
    store.zadd("open", "u", 2).await.expect("zadd");
    let r = Retirement {
        set: vec![("t:report".into(), "r".into())],
        keep: vec!["t:kept".into(), "t:absent".into()],
        delete: vec!["t:gone".into(), "t:hash".into()],
        zrem: vec![("open".into(), "t".into())],
        ttl: Duration::from_secs(30),
        keep_if: None,
    };
    store.retire(&r).await.expect("retire");
    let mut left: Vec<String> = redis
        .cli(&["--scan", "--pattern", "t:*"])
        .lines()
        .map(str::to_owned)
        .collect();
    left.sort();
    assert_eq!(left, ["t:kept", "t:report"]);
    for key in &left {
        let ttl: i64 = redis.cli(&["PTTL", key]).parse().expect("PTTL");
        assert!(ttl > 0 && ttl <= 30_000, "{key}: {ttl}");
    }
    assert_eq!(store.zrange_to("open", 10, 10).await.expect("z"), ["u"]);
    let opened = store
        .set_and_zadd_unless("t:kept", "t:request", "q", long, "open", "t", 3)
        .await
        .expect("guarded");
    assert!(!opened);
    assert_eq!(store.get("t:request").await.expect("get"), None);
    let opened = store
        .set_and_zadd_unless("v:guard", "v:request", "q", long, "open", "v", 3)
        .await
        .expect("open");
    assert!(opened);
    assert_eq!(store.get("v:request").await.expect("get"), Some("q".into()));
    assert_eq!(
        store.zrange_to("open", 10, 10).await.expect("z"),
        ["u", "v"]
    );
    // A late piece of a fan-in whose guard is set writes and reads nothing.
    let late = store
        .hset_nx_and_read_unless("t:kept", "t:results", "s1", "v", long, &["v:request"])
        .await
        .expect("guarded");
    assert_eq!(late, None);
    assert_eq!(redis.cli(&["EXISTS", "t:results"]), "0");
    let read = store
        .hset_nx_and_read_unless(
            "t:none",
            "t:results",
            "s1",
            "v",
            long,
            &["v:request", "t:absent"],
        )
        .await
        .expect("read")
        .expect("no guard: written and read");
    assert!(read.inserted);
    assert_eq!(read.others, [Some("q".to_owned()), None]);
    assert_eq!(read.hash, [("s1".to_owned(), "v".to_owned())]);
    // The same field again: not added, and the hash's TTL left as the first call set it.
    redis.cli(&["PEXPIRE", "t:results", "50000"]);
    let again = store
        .hset_nx_and_read_unless("t:none", "t:results", "s1", "w", long, &[])
        .await
        .expect("read")
        .expect("no guard");
    assert!(!again.inserted);
    assert_eq!(again.hash, [("s1".to_owned(), "v".to_owned())]);
    let ttl: i64 = redis.cli(&["PTTL", "t:results"]).parse().expect("PTTL");
    assert!(ttl <= 50_000, "{ttl}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_redis_store_keeps_what_hangs_on_a_condition_key_only_when_it_exists() {
    use chorus_bus::Store;
    use chorus_bus::store::{KeepIf, Retirement};

    let redis = chorus_testkit::RedisServer::start();
    let settings = chorus_bus::BusSettings {
        redis_url: redis.url(),
        ..chorus_bus::BusSettings::default()
    };
    let bus = chorus_bus_redis::RedisBus::connect(settings)
        .await
        .expect("connect");
    let store = bus.store();
    let long = Duration::from_secs(86_400);
    let retirement = |task: &str| Retirement {
        set: vec![(format!("{task}:report"), "r".into())],
        keep: Vec::new(),
        delete: vec![format!("{task}:plan")],
        zrem: vec![("open".into(), task.into())],
        ttl: Duration::from_secs(30),
        keep_if: Some(KeepIf {
            key: format!("{task}:question"),
            keep: vec![format!("{task}:answered")],
            zrem: vec![("waiting".into(), task.into())],
        }),
    };
    // Asked: the question records are kept with the short TTL, the task leaves the
    // waiting set.
    for key in ["t:question", "t:answered", "t:plan"] {
        store.set(key, "x", long).await.expect("set");
    }
    store.zadd("open", "t", 1).await.expect("zadd");
    store.zadd("waiting", "t", 1).await.expect("zadd");
    store.zadd("waiting", "u", 2).await.expect("zadd");
    store.retire(&retirement("t")).await.expect("retire");
    for key in ["t:question", "t:answered", "t:report"] {
        let ttl: i64 = redis.cli(&["PTTL", key]).parse().expect("PTTL");
        assert!(ttl > 0 && ttl <= 30_000, "{key}: {ttl}");
    }
    assert_eq!(redis.cli(&["EXISTS", "t:plan"]), "0");
    assert_eq!(
        store.zrange_to("open", 10, 10).await.expect("z"),
        Vec::<String>::new()
    );
    assert_eq!(store.zrange_to("waiting", 10, 10).await.expect("z"), ["u"]);
    // Not asked: no question key, so what hangs on it is not touched (the caller's word
    // is that it does not exist; here it does, to show it was not looked at), and the
    // rest is done as always.
    store.set("v:answered", "x", long).await.expect("set");
    store.set("v:plan", "x", long).await.expect("set");
    store.zadd("open", "v", 1).await.expect("zadd");
    store.retire(&retirement("v")).await.expect("retire");
    let ttl: i64 = redis.cli(&["PTTL", "v:answered"]).parse().expect("PTTL");
    assert!(ttl > 30_000, "{ttl}");
    assert_eq!(redis.cli(&["EXISTS", "v:question"]), "0");
    assert_eq!(redis.cli(&["EXISTS", "v:plan"]), "0");
    assert_eq!(redis.cli(&["EXISTS", "v:report"]), "1");
    assert_eq!(
        store.zrange_to("open", 10, 10).await.expect("z"),
        Vec::<String>::new()
    );
    assert_eq!(store.zrange_to("waiting", 10, 10).await.expect("z"), ["u"]);
}
