//! The language model wired into the running system: real redis-server, real MCP
//! servers, every role its own `chorus agent` process, and a fake OpenAI-compatible
//! server in this test process (the only fake: a model). The model plans what the
//! heuristic planner cannot, writes grounded reports in one streaming call whose pieces
//! go onto the task's token stream (`report_tokens:<task_id>`, relayed over
//! `POST /chat/stream`), and every failure falls back to what Chorus does without it.

#[allow(dead_code)]
#[path = "llm/fake_model.rs"]
mod fake_model;

use std::collections::HashMap;
use std::time::Duration;

use chorus_bus_redis::RedisBus;
use chorus_core::client::ask;

use chorus_bus::{Bus, TaskContext, Topic};
use chorus_bus::{FinalReport, Payload, PlanReady, PlannerKind, ReportStatus};
use chorus_e2e::{Cluster, ClusterOptions};
use fake_model::{FakeModel, Reply, Script};
use serde_json::{Value, json};

/// A query the heuristic planner cannot plan.
const PRIMES: &str = "what is the sum of the first two primes";

/// The model's plan for [`PRIMES`]: sum 2 and 3.
const PRIMES_PLAN: &str = r#"{"steps":[{"id":"s1","pool":"math","tool":"sum","arguments":{"a":"2","b":"3"},"part":"the first two primes, 2 and 3, summed","output":true}]}"#;

/// A grounded answer for [`PRIMES`]: every number is an argument or the result.
const PRIMES_ANSWER: &str = "The first two primes are 2 and 3; their sum is 5.";

/// Asks `query`; returns the plan that was published and the report.
async fn ask_with_plan(bus: &RedisBus, query: &str) -> (PlanReady, FinalReport) {
    let mut plan = None;
    let (_, report) = ask(
        bus,
        query,
        TaskContext::default(),
        Duration::from_secs(20),
        |m| {
            if let Payload::PlanReady(p) = &m.payload {
                plan = Some(p.clone());
            }
        },
    )
    .await
    .unwrap_or_else(|e| panic!("{query}: {e}"));
    (plan.expect("a plan_ready was seen"), report)
}

/// A fake model following `script`, and a cluster whose roles use it.
async fn cluster_with(script: Script) -> (FakeModel, Cluster) {
    let model = FakeModel::start(script).await;
    let cluster = Cluster::start(ClusterOptions {
        env: model.env(),
        ..ClusterOptions::default()
    });
    (model, cluster)
}

fn count(asked: &[(&str, bool)], kind: &str) -> usize {
    asked.iter().filter(|(k, _)| *k == kind).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_plans_and_writes_through_every_process_and_each_failure_falls_back() {
    let (model, cluster) = cluster_with(Script {
        plan: Reply::Text(PRIMES_PLAN.into()),
        report: Reply::Text(PRIMES_ANSWER.into()),
    })
    .await;
    let bus = cluster.bus().await;

    // 1. The heuristic cannot plan it; the model's plan runs and its answer is grounded.
    let (plan, report) = ask_with_plan(&bus, PRIMES).await;
    assert_eq!(plan.planner, PlannerKind::Llm);
    assert_eq!(plan.plan.steps.len(), 1);
    assert_eq!(report.status, ReportStatus::Completed, "{}", report.text);
    assert_eq!(chorus_e2e::answers(&report), vec!["5"]);
    assert_eq!(report.written_by, "llm");
    assert_eq!(report.text.trim(), PRIMES_ANSWER);
    assert_eq!(count(&model.asked(), "plan"), 1);
    assert_eq!(count(&model.asked(), "report"), 1);

    // 2. A report with a number the tools never produced: the template writes it.
    model.set(Script {
        plan: Reply::Text(PRIMES_PLAN.into()),
        report: Reply::Text("The sum of the first two primes is 7.".into()),
    });
    let (plan, report) = ask_with_plan(&bus, PRIMES).await;
    assert_eq!(plan.planner, PlannerKind::Llm);
    assert_eq!(chorus_e2e::answers(&report), vec!["5"]);
    assert_eq!(report.written_by, "template");
    assert!(report.text.contains('5'), "{}", report.text);
    assert!(!report.text.contains('7'), "{}", report.text);

    // 3. What the heuristic plans costs no model plan.
    let plans_before = count(&model.asked(), "plan");
    let (plan, report) = ask_with_plan(&bus, "2+4").await;
    assert_eq!(plan.planner, PlannerKind::Heuristic);
    assert_eq!(chorus_e2e::answers(&report), vec!["6"]);
    assert_eq!(count(&model.asked(), "plan"), plans_before);

    // 4. The model server fails (HTTP 500): the heuristic answer, "cannot plan this".
    model.set(Script {
        plan: Reply::Status(500),
        report: Reply::Status(500),
    });
    let (plan, report) = ask_with_plan(&bus, PRIMES).await;
    assert_eq!(plan.planner, PlannerKind::Heuristic);
    assert!(plan.unplanned.is_some());
    assert_eq!(report.status, ReportStatus::Unplannable);
    assert!(report.steps.is_empty());
    assert_eq!(report.written_by, "template");
    assert!(
        report.text.contains("sum") || report.text.to_lowercase().contains("math"),
        "{}",
        report.text
    );
    // The model was asked (async-openai 0.43 itself retries a 5xx a few times with
    // backoff inside the call's timeout, so more than one request may arrive).
    assert!(
        count(&model.asked(), "plan") > plans_before,
        "{:?}",
        model.asked()
    );

    // Every plan went out once per task, whatever the model did.
    let plans = bus
        .recent(&Topic::plan_ready(), 1000)
        .await
        .expect("history");
    assert_eq!(plans.len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_stream_sends_the_models_tokens_after_the_steps_then_the_report() {
    let answer = "2+4 is 6, times 3 is 18, and 18 - 1 is 17.";
    let (model, cluster) = cluster_with(Script {
        plan: Reply::Status(500),
        report: Reply::Text(answer.into()),
    })
    .await;
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    let response = reqwest::Client::new()
        .post(format!(
            "http://127.0.0.1:{}/chat/stream",
            cluster.http_port
        ))
        .json(&json!({"query": "(2+4)*3 - 1"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    let events = chorus_e2e::read_events(response).await;
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    let tokens = names.iter().filter(|n| **n == "token").count();
    assert!(tokens >= 2, "the answer comes in pieces: {names:?}");
    let mut expected = vec!["accepted", "plan", "step", "step", "step"];
    expected.extend(std::iter::repeat_n("token", tokens));
    expected.push("report");
    assert_eq!(names, expected, "{events:?}");
    let streamed: String = events
        .iter()
        .filter(|(n, _)| n == "token")
        .filter_map(|(_, d)| d["text"].as_str())
        .collect();
    assert_eq!(streamed, answer);
    let report = &events[events.len() - 1].1;
    assert_eq!(report["steps"][2]["outcome"]["value"], "17");
    assert_eq!(report["written_by"], "llm");
    assert_eq!(report["text"].as_str().map(str::trim), Some(answer));
    // The heuristic planned it (no model plan); the model was asked once, streaming,
    // by the Synthesizer: the gateway relayed that one call.
    let asked = model.asked();
    assert_eq!(count(&asked, "plan"), 0);
    assert_eq!(asked, vec![("report", true)]);

    // A number the tools never produced, midway: the tokens before it were shown, the
    // number never is; `replace` carries the template, and the report is the template.
    model.set(Script {
        plan: Reply::Status(500),
        report: Reply::Text("(2+4)*3 - 1 is 17, or maybe 99.".into()),
    });
    let response = reqwest::Client::new()
        .post(format!(
            "http://127.0.0.1:{}/chat/stream",
            cluster.http_port
        ))
        .json(&json!({"query": "(2+4)*3 - 1"}))
        .send()
        .await
        .expect("request");
    let events = chorus_e2e::read_events(response).await;
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names[..5], ["accepted", "plan", "step", "step", "step"]);
    assert_eq!(names[names.len() - 2..], ["replace", "report"], "{names:?}");
    let shown: String = events
        .iter()
        .filter(|(n, _)| n == "token")
        .filter_map(|(_, d)| d["text"].as_str())
        .collect();
    assert!(shown.contains("17") && !shown.contains("99"), "{shown:?}");
    let replace = &events[events.len() - 2].1;
    let report = &events[events.len() - 1].1;
    assert_eq!(replace["written_by"], "template");
    assert_eq!(replace["reason"], "ungrounded");
    assert_eq!(report["written_by"], "template");
    assert_eq!(replace["text"], report["text"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_slower_than_the_deadline_falls_back_within_it() {
    // The model takes 10 s; its own timeout would allow 20 s; the task has 3 s.
    let model = FakeModel::start(Script {
        plan: Reply::Slow(Duration::from_secs(10), PRIMES_PLAN.into()),
        report: Reply::Slow(Duration::from_secs(10), PRIMES_ANSWER.into()),
    })
    .await;
    let mut env = model.env_with_timeout(20_000);
    env.insert("CHORUS__AGENTS__DEADLINE_MS".into(), "3000".into());
    // Claims far off, so the deadline (not the claim-idle cap) is what cuts the calls.
    env.insert("CHORUS__BUS__CLAIM_IDLE_MS".into(), "30000".into());
    let cluster = Cluster::start(ClusterOptions {
        env,
        ..ClusterOptions::default()
    });
    let bus = cluster.bus().await;

    // Planning: cut at half the time left, then the heuristic answer (not a deadline report).
    let (plan, report) = ask_with_plan(&bus, PRIMES).await;
    assert_eq!(plan.planner, PlannerKind::Heuristic);
    assert_eq!(report.status, ReportStatus::Unplannable, "{}", report.text);

    // Writing: cut before the deadline, then the template with every step's result.
    let (plan, report) = ask_with_plan(&bus, "2+4").await;
    assert_eq!(plan.planner, PlannerKind::Heuristic);
    assert_eq!(report.status, ReportStatus::Completed, "{}", report.text);
    assert_eq!(chorus_e2e::answers(&report), vec!["6"]);
    assert_eq!(report.written_by, "template");
    assert_eq!(count(&model.asked(), "plan"), 1);
    assert_eq!(count(&model.asked(), "report"), 1);
}

/// Posts `query` to `POST /chat/stream` and reads every event.
async fn chat_stream(cluster: &Cluster, query: &str) -> Vec<(String, Value)> {
    let response = reqwest::Client::new()
        .post(format!(
            "http://127.0.0.1:{}/chat/stream",
            cluster.http_port
        ))
        .json(&json!({"query": query}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    chorus_e2e::read_events(response).await
}

/// What an SSE client shows: the `token` texts, replaced by a `replace`'s text.
fn shown_over_sse(events: &[(String, Value)]) -> String {
    let mut shown = String::new();
    for (name, data) in events {
        let text = data["text"].as_str().unwrap_or_default();
        match name.as_str() {
            "token" => shown.push_str(text),
            "replace" => shown = text.to_owned(),
            _ => {}
        }
    }
    shown
}

/// The task's token stream read straight from Redis, as any client can
/// (`XREAD STREAMS report_tokens:<task_id> 0`): what it shows (the `text` of each entry,
/// replaced by the last one's when it says `replace true`), and the last entry's fields.
async fn shown_on_redis(bus: &RedisBus, task: &str) -> (String, HashMap<String, String>) {
    let key = format!("report_tokens:{task}");
    let reply: redis::streams::StreamReadReply = redis::cmd("XREAD")
        .arg("STREAMS")
        .arg(&key)
        .arg("0")
        .query_async(&mut bus.connection())
        .await
        .expect("XREAD");
    let entries = &reply.keys.first().expect("the token stream exists").ids;
    let fields = |e: &redis::streams::StreamId| -> HashMap<String, String> {
        e.map
            .keys()
            .filter_map(|k| Some((k.clone(), e.get::<String>(k)?)))
            .collect()
    };
    let (last, pieces) = entries.split_last().expect("entries");
    let mut shown: String = pieces.iter().map(|e| fields(e)["text"].clone()).collect();
    let done = fields(last);
    assert_eq!(
        done.get("done").map(String::as_str),
        Some("true"),
        "{done:?}"
    );
    if done["replace"] == "true" {
        shown = done["text"].clone();
    }
    let ttl: i64 = redis::cmd("PTTL")
        .arg(&key)
        .query_async(&mut bus.connection())
        .await
        .expect("PTTL");
    assert!(ttl > 0, "the token stream expires (PTTL {ttl})");
    (shown, done)
}

/// The task's report as published on `final_report`.
async fn published_report(bus: &RedisBus, task: &str) -> FinalReport {
    let reports = bus
        .recent(&Topic::final_report(), 100)
        .await
        .expect("final_report history");
    let mine: Vec<FinalReport> = reports
        .into_iter()
        .filter(|m| m.task_id == task)
        .filter_map(|m| match m.payload {
            Payload::FinalReport(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(mine.len(), 1, "one report per task");
    mine.into_iter().next().expect("a report")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tokens_on_redis_and_over_http_show_exactly_the_reports_text() {
    let answer = "(2+4)*3 - 1: 2+4 is 6, times 3 is 18, less 1 is 17.";
    let (model, cluster) = cluster_with(Script {
        plan: Reply::Status(500),
        report: Reply::Text(answer.into()),
    })
    .await;
    let bus = cluster.bus().await;

    // A grounded answer: the pieces, on Redis and over HTTP, are the report's text.
    let events = chat_stream(&cluster, "(2+4)*3 - 1").await;
    let task = events[0].1["task_id"].as_str().expect("task id").to_owned();
    let report = published_report(&bus, &task).await;
    let (on_redis, done) = shown_on_redis(&bus, &task).await;
    assert_eq!(report.written_by, "llm");
    assert_eq!(report.text, answer);
    assert_eq!(on_redis, report.text);
    assert_eq!(shown_over_sse(&events), report.text);
    assert_eq!(done["written_by"], "llm");
    assert_eq!(done["replace"], "false");
    assert_eq!(done["text"], report.text);
    assert!(!events.iter().any(|(n, _)| n == "replace"), "{events:?}");
    assert_eq!(model.asked(), vec![("report", true)], "one call per report");

    // Refused midway: both show the template in the end, and so does the report.
    model.set(Script {
        plan: Reply::Status(500),
        report: Reply::Text("(2+4)*3 - 1 is 17, or maybe 99.".into()),
    });
    let events = chat_stream(&cluster, "(2+4)*3 - 1").await;
    let task = events[0].1["task_id"].as_str().expect("task id").to_owned();
    let report = published_report(&bus, &task).await;
    let (on_redis, done) = shown_on_redis(&bus, &task).await;
    assert_eq!(report.written_by, "template");
    assert_eq!(done["replace"], "true");
    assert_eq!(done["reason"], "ungrounded");
    assert_eq!(done["written_by"], "template");
    assert_eq!(on_redis, report.text);
    assert_eq!(shown_over_sse(&events), report.text);
    assert!(events.iter().any(|(n, _)| n == "replace"), "{events:?}");
    assert!(!report.text.contains("99"), "{}", report.text);
    assert_eq!(count(&model.asked(), "report"), 2);
}
