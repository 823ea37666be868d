//! The live capability registry through every process: a pool whose agents die drops
//! out of planning within a few heartbeats ("the date pool is down"), comes back when an
//! agent starts again, and "what can you do?" lists exactly the live tools.

use std::collections::BTreeMap;
use std::time::Duration;

use chorus_bus_redis::RedisBus;
use chorus_core::client::ask;

use chorus_bus::{FinalReport, ReportStatus, StepOutcome, TaskContext};
use chorus_e2e::{Cluster, ClusterOptions};

/// Heartbeats every 200 ms, so an entry expires 600 ms after its agent dies; planning
/// waits 300 ms for a pool that is down before saying so.
fn fast_heartbeats() -> ClusterOptions {
    ClusterOptions {
        env: BTreeMap::from([
            ("CHORUS__AGENTS__HEARTBEAT_MS".to_owned(), "200".to_owned()),
            ("CHORUS__AGENTS__POOL_WAIT_MS".to_owned(), "300".to_owned()),
        ]),
        ..Default::default()
    }
}

async fn report(bus: &RedisBus, query: &str) -> FinalReport {
    let ctx = TaskContext {
        now: Some("2026-11-22T09:00:00Z".into()),
        timezone: Some("UTC".into()),
        ..TaskContext::default()
    };
    let (_, r) = ask(bus, query, ctx, Duration::from_secs(20), |_| {})
        .await
        .unwrap_or_else(|e| panic!("{query}: {e}"));
    r
}

fn value(r: &FinalReport, i: usize) -> String {
    match r.steps.get(i).and_then(|s| s.outcome.as_ref()) {
        Some(StepOutcome::Ok { value, .. }) => value
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| value.to_string()),
        other => format!("{other:?}"),
    }
}

const DATE_QUESTION: &str = "what is the weekday of 2026-12-25";
/// How the capability text names some math tools, by the query's language (in words,
/// never by tool identifier).
fn math_words(query: &str) -> [&'static str; 4] {
    match query.is_ascii() {
        true => ["adding", "subtracting", "multiplying", "dividing"],
        false => ["cộng", "trừ", "nhân", "chia"],
    }
}

/// How the capability text names some date tools, by the query's language.
fn date_words(query: &str) -> [&'static str; 4] {
    match query.is_ascii() {
        true => [
            "today's date",
            "from now or from a date",
            "the days between two dates",
            "the weekday of a date",
        ],
        false => [
            "ngày hôm nay",
            "ngày sau một số ngày",
            "số ngày giữa hai ngày",
            "thứ của một ngày",
        ],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_pool_is_reported_down_and_works_again_once_an_agent_returns() {
    let mut cluster = Cluster::start(fast_heartbeats());
    let bus = cluster.bus().await;
    let r = report(&bus, DATE_QUESTION).await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(value(&r, 0), "Friday");

    cluster.kill("pool-date-0");
    // More than three heartbeats: the entry has expired.
    cluster.wait_pool("date", false, Duration::from_secs(10));
    // The planner rereads the registry at most every 200 ms.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let r = report(&bus, DATE_QUESTION).await;
    assert_eq!(r.status, ReportStatus::Unplannable, "{}", r.text);
    assert!(r.steps.is_empty());
    assert!(r.text.contains("The date pool is down"), "{}", r.text);
    // Math still works meanwhile.
    let r = report(&bus, "2+4").await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(value(&r, 0), "6");

    cluster.start_role("pool-date-0", "pool", Some("date"));
    cluster.wait_pool("date", true, Duration::from_secs(10));
    // The planner rereads the registry at most every 200 ms.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let r = report(&bus, DATE_QUESTION).await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(value(&r, 0), "Friday");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_can_you_do_lists_the_tools_of_live_pools_only() {
    let mut cluster = Cluster::start(fast_heartbeats());
    let bus = cluster.bus().await;
    for query in ["what can you do?", "bạn làm được gì?"] {
        let r = report(&bus, query).await;
        assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
        assert!(r.steps.is_empty());
        for words in math_words(query).iter().chain(date_words(query).iter()) {
            assert!(
                r.text.contains(words),
                "{query}: {words} missing:\n{}",
                r.text
            );
        }
        for id in ["add_duration", "days_until", "subtract,"] {
            assert!(!r.text.contains(id), "{query}: tool id {id}:\n{}", r.text);
        }
    }
    let r = report(&bus, "bạn làm được gì?").await;
    assert_eq!(r.language, "vi");

    cluster.kill("pool-date-0");
    cluster.wait_pool("date", false, Duration::from_secs(10));
    tokio::time::sleep(Duration::from_millis(300)).await;
    for query in ["what can you do?", "bạn làm được gì?"] {
        let r = report(&bus, query).await;
        assert!(
            r.text.contains(math_words(query)[0]),
            "{query}:\n{}",
            r.text
        );
        for words in date_words(query) {
            assert!(
                !r.text.contains(words),
                "{query}: {words} listed for a dead pool:\n{}",
                r.text
            );
        }
    }
}
