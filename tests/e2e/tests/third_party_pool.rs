//! A pool over an MCP server nobody here wrote: the reference time server
//! `mcp-server-time` from PyPI (pinned in tests/python/requirements.txt), configured
//! purely by settings — a `[pools.time]` table with `mcp_command` in a TOML file every
//! role reads — and run over stdio by the pool agent. Real redis-server, every role its
//! own process; the only fake is the model (tests/llm/fake_model.rs).
//!
//! The server's results are not Chorus's shape: its structured content has no `result`
//! field (`{"source": {…}, "target": {…}, "time_difference": "-3.5h"}`), its text is that
//! JSON pretty-printed, its failures are `isError` texts, and an unknown tool is a
//! JSON-RPC error. The time zones asserted on keep no daylight saving time (Tokyo,
//! Kolkata, Kathmandu, UTC), so the converted hours hold on any date.

#[allow(dead_code)]
#[path = "llm/fake_model.rs"]
mod fake_model;

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chorus_bus::{
    FinalReport, Payload, PlanReady, PlannerKind, ReportStatus, StepOutcome, StepReport,
    TaskContext, Topic,
};
use chorus_bus_redis::RedisBus;
use chorus_core::client::ask;
use chorus_e2e::{Cluster, ClusterOptions, wait_on};
use fake_model::{FakeModel, Reply, Script};
use serde_json::{Value, json};

/// The settings file of every role: the docs' example (docs/mcp.md, "A pool over a
/// third-party MCP server") with the venv's absolute path to the server.
fn time_pool_toml() -> String {
    let server = chorus_testkit::python::venv_bin("mcp-server-time");
    format!(
        "[pools.time]\nmcp_command = \"{} --local-timezone UTC\"\n",
        server.display()
    )
}

/// A cluster whose roles all read the `[pools.time]` settings (plus `env`), with one
/// agent of the time pool live in the registry. Nothing has asked the Planner yet, so
/// its first read of the registry already sees the time pool.
fn cluster_with_time_pool(mut env: BTreeMap<String, String>) -> (Cluster, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("chorus.toml");
    std::fs::write(&file, time_pool_toml()).expect("write settings");
    env.insert("CHORUS_CONFIG".into(), file.to_string_lossy().into_owned());
    let mut cluster = Cluster::start(ClusterOptions {
        env,
        ..ClusterOptions::default()
    });
    cluster.start_role("pool-time-0", "pool", Some("time"));
    // The server is a Python process started by the agent: its first tool list takes a
    // second or two on a busy machine.
    cluster.wait_pool("time", true, Duration::from_secs(30));
    (cluster, dir)
}

/// The live registry's heartbeats of `pool` agents.
fn heartbeats_of(cluster: &Cluster, pool: &str) -> Vec<Value> {
    cluster
        .registry_entries()
        .into_iter()
        .map(|e| e["heartbeat"].clone())
        .filter(|hb| hb["pool"] == pool)
        .collect()
}

async fn report(bus: &RedisBus, query: &str) -> FinalReport {
    let (_, r) = ask(
        bus,
        query,
        TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .unwrap_or_else(|e| panic!("{query}: {e}"));
    r
}

/// The value of step `id` of `report`, which must have succeeded.
fn ok_value<'a>(report: &'a FinalReport, id: &str) -> &'a Value {
    match step(report, id).outcome.as_ref() {
        Some(StepOutcome::Ok { value, .. }) => value,
        other => panic!("step {id} did not succeed: {other:?}\n{}", report.text),
    }
}

fn step<'a>(report: &'a FinalReport, id: &str) -> &'a StepReport {
    report
        .steps
        .iter()
        .find(|s| s.step_id.as_str() == id)
        .unwrap_or_else(|| panic!("no step {id} in {:?}", report.steps))
}

/// A full `plan_ready` envelope for `task`, as a client with no SDK would write it (the
/// fields of docs/mcp.md's example; no deadline); the request's context says the user's
/// time zone is Kathmandu's.
fn plan_envelope(task: &str, query: &str, steps: Value) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970");
    json!({
        "id": format!("{:08x}-0000-7000-8000-{:012x}", now.as_secs(), now.subsec_nanos()),
        "task_id": task,
        "topic": "plan_ready",
        "from_agent": "client",
        "timestamp_us": now.as_micros() as u64,
        "version": 1,
        "payload": {
            "query": query,
            "context": {"timezone": "Asia/Kathmandu"},
            "language": "en",
            "planner": "heuristic",
            "plan": {"steps": steps}
        }
    })
    .to_string()
}

/// The report of `task`, waited for on `final_report`.
async fn report_of(bus: &RedisBus, task: &str) -> FinalReport {
    let msgs = wait_on(bus, &Topic::final_report(), task, Duration::from_secs(20)).await;
    match msgs.as_slice() {
        [m] => match &m.payload {
            Payload::FinalReport(r) => r.clone(),
            other => panic!("not a report: {other:?}"),
        },
        other => panic!("{task}: expected one report, got {}", other.len()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_third_party_tools_are_in_the_registry_and_in_what_chorus_can_do() {
    let (cluster, _settings) = cluster_with_time_pool(BTreeMap::new());

    let beats = heartbeats_of(&cluster, "time");
    assert_eq!(beats.len(), 1, "{beats:?}");
    let tools = beats[0]["tools"].as_array().expect("tools");
    let mut names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["convert_time", "get_current_time"]);
    let convert = tools
        .iter()
        .find(|t| t["name"] == "convert_time")
        .expect("convert_time");
    assert_eq!(
        convert["input_schema"]["required"],
        json!(["source_timezone", "time", "target_timezone"])
    );
    assert_eq!(convert["description"], "Convert time between timezones");

    let bus = cluster.bus().await;
    let en = report(&bus, "what can you do?").await;
    assert_eq!(en.status, ReportStatus::Completed, "{}", en.text);
    assert!(
        en.text
            .lines()
            .any(|l| l == "- use the time tools (convert_time, get_current_time)"),
        "{}",
        en.text
    );
    // The built-in pools are still listed as before.
    assert!(
        en.text.contains("compute with the math tools ("),
        "{}",
        en.text
    );
    let vi = report(&bus, "bạn làm được gì?").await;
    assert_eq!(vi.language, "vi");
    assert!(
        vi.text
            .lines()
            .any(|l| l == "- dùng các công cụ time (convert_time, get_current_time)"),
        "{}",
        vi.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_published_from_outside_runs_on_the_third_party_pool() {
    let (cluster, _settings) = cluster_with_time_pool(BTreeMap::new());
    let bus = cluster.bus().await;

    // Three steps on the time pool, no parts named; Tokyo is UTC+9, Kolkata UTC+5:30
    // and Kathmandu UTC+5:45 all year. s3 names no time zone: the pool agent fills in
    // the request's (its input schema takes `timezone`).
    let steps = json!([
        {"id": "s1", "pool": "time", "tool": "convert_time",
         "arguments": {"source_timezone": "Asia/Tokyo", "time": "09:15", "target_timezone": "Asia/Kolkata"}},
        {"id": "s2", "pool": "time", "tool": "get_current_time",
         "arguments": {"timezone": "Asia/Tokyo"}},
        {"id": "s3", "pool": "time", "tool": "get_current_time", "arguments": {}}
    ]);
    cluster.xadd_bare(
        "plan_ready",
        &plan_envelope(
            "time-1",
            "09:15 in Tokyo in Kolkata; the time in Tokyo and here",
            steps,
        ),
    );
    let r = report_of(&bus, "time-1").await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    let converted = ok_value(&r, "s1");
    let target = converted["target"]["datetime"].as_str().expect("datetime");
    assert!(target.ends_with("T05:45:00+05:30"), "{converted}");
    assert_eq!(converted["time_difference"], "-3.5h");
    for (id, zone, offset) in [
        ("s2", "Asia/Tokyo", "+09:00"),
        ("s3", "Asia/Kathmandu", "+05:45"),
    ] {
        let now = ok_value(&r, id);
        assert_eq!(now["timezone"], zone, "{id}");
        assert!(
            now["datetime"]
                .as_str()
                .is_some_and(|d| d.ends_with(offset)),
            "{id}: {now}"
        );
    }
    assert_eq!(step(&r, "s3").arguments["timezone"], "Asia/Kathmandu");
    // The report answers each step on a line of its own, the tool's answer as
    // name: value pairs, not its JSON text.
    let lines: Vec<&str> = r.text.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.text);
    assert!(lines[0].starts_with("convert_time: "), "{}", r.text);
    assert!(lines[0].contains("; target.datetime: "), "{}", r.text);
    assert!(lines[0].contains("T05:45:00+05:30;"), "{}", r.text);
    assert!(lines[0].ends_with("; time_difference: -3.5h"), "{}", r.text);
    assert!(
        lines[1].starts_with("get_current_time: datetime: "),
        "{}",
        r.text
    );
    assert!(lines[1].ends_with("; timezone: Asia/Tokyo"), "{}", r.text);
    assert!(
        lines[2].ends_with("; timezone: Asia/Kathmandu"),
        "{}",
        r.text
    );
    assert!(!r.text.contains('{'), "{}", r.text);

    // A failure the tool anticipates (isError) fails its step with the tool's message;
    // an unknown tool (a JSON-RPC error from this server) fails its step too; the step
    // that works still answers.
    let steps = json!([
        {"id": "s1", "pool": "time", "tool": "convert_time",
         "arguments": {"source_timezone": "Mars/Olympus_Mons", "time": "09:15", "target_timezone": "UTC"}},
        {"id": "s2", "pool": "time", "tool": "sunrise", "arguments": {"place": "Hanoi"}},
        {"id": "s3", "pool": "time", "tool": "convert_time",
         "arguments": {"source_timezone": "UTC", "time": "23:30", "target_timezone": "Asia/Tokyo"}}
    ]);
    cluster.xadd_bare("plan_ready", &plan_envelope("time-2", "three steps", steps));
    let r = report_of(&bus, "time-2").await;
    assert_eq!(r.status, ReportStatus::Partial, "{}", r.text);
    match &step(&r, "s1").outcome {
        Some(StepOutcome::Failed { error, transient }) => {
            assert!(error.contains("Mars/Olympus_Mons"), "{error}");
            assert!(!transient);
        }
        other => panic!("s1: {other:?}"),
    }
    match &step(&r, "s2").outcome {
        Some(StepOutcome::Failed { error, transient }) => {
            assert_eq!(
                error,
                "the time server refused sunrise: Unknown tool: sunrise"
            );
            assert!(!transient);
        }
        other => panic!("s2: {other:?}"),
    }
    let next_day = ok_value(&r, "s3");
    let target = next_day["target"]["datetime"].as_str().expect("datetime");
    assert!(target.ends_with("T08:30:00+09:00"), "{next_day}");
    assert_eq!(next_day["target"]["timezone"], "Asia/Tokyo");
    assert!(
        r.text.lines().any(|l| l
            == "sunrise (Hanoi): failed (the time server refused sunrise: Unknown tool: sunrise)."),
        "{}",
        r.text
    );
    assert!(
        r.text.lines().any(|l| l.starts_with(
            "convert_time (source_timezone=Mars/Olympus_Mons, target_timezone=UTC, time=09:15): failed ("
        )),
        "{}",
        r.text
    );
}

/// A query the heuristic planner cannot plan, so the model is asked.
const NEPAL: &str = "how far ahead of UTC are Nepal's clocks, and what time is it there?";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_is_shown_the_third_party_tools_and_plans_with_them() {
    // Noon in Kathmandu (UTC+5:45, no daylight saving) is 06:15 UTC.
    let plan = json!({"steps": [
        {"id": "s1", "pool": "time", "tool": "convert_time",
         "arguments": {"source_timezone": "Asia/Kathmandu", "time": "12:00", "target_timezone": "UTC"},
         "part": "Nepal's offset from UTC", "output": true},
        {"id": "s2", "pool": "time", "tool": "get_current_time",
         "arguments": {"timezone": "Asia/Kathmandu"},
         "part": "the time in Nepal", "output": true}
    ]});
    let answer = "Nepal is 5 hours 45 minutes ahead of UTC: 12:00 in Kathmandu is 06:15 UTC.";
    let model = FakeModel::start(Script {
        plan: Reply::Text(plan.to_string()),
        report: Reply::Text(answer.into()),
    })
    .await;
    let (cluster, _settings) = cluster_with_time_pool(model.env());
    let bus = cluster.bus().await;

    let mut planned: Option<PlanReady> = None;
    let (_, r) = ask(
        &bus,
        NEPAL,
        TaskContext::default(),
        Duration::from_secs(20),
        |m| {
            if let Payload::PlanReady(p) = &m.payload {
                planned = Some(p.clone());
            }
        },
    )
    .await
    .unwrap_or_else(|e| panic!("{NEPAL}: {e}"));
    let planned = planned.expect("a plan_ready was seen");
    assert_eq!(planned.planner, PlannerKind::Llm);
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    let converted = ok_value(&r, "s1");
    let target = converted["target"]["datetime"].as_str().expect("datetime");
    assert!(target.ends_with("T06:15:00+00:00"), "{converted}");
    assert_eq!(converted["time_difference"], "-5.75h");
    assert!(
        ok_value(&r, "s2")["datetime"]
            .as_str()
            .is_some_and(|d| d.ends_with("+05:45")),
        "{}",
        r.text
    );
    assert_eq!(r.written_by, "llm", "{}", r.text);
    assert_eq!(r.text.trim(), answer);

    // The model was shown the time pool's tools, each with its name and arguments.
    let bodies = model.bodies();
    let (_, request) = bodies
        .iter()
        .find(|(kind, _)| *kind == "plan")
        .expect("a plan request");
    let shown = tools_shown(request);
    let convert = shown
        .iter()
        .find(|t| t["pool"] == "time" && t["tool"] == "convert_time")
        .unwrap_or_else(|| panic!("convert_time not shown: {shown:?}"));
    // As a compact card (docs/llm.md): each required argument by name with its type.
    assert_eq!(
        convert["arguments"],
        json!({"source_timezone": "string", "target_timezone": "string", "time": "string"})
    );
    let current = shown
        .iter()
        .find(|t| t["pool"] == "time" && t["tool"] == "get_current_time")
        .unwrap_or_else(|| panic!("get_current_time not shown: {shown:?}"));
    assert_eq!(current["arguments"], json!({"timezone": "string"}));
}

/// The tools listed in a plan request's `<tools>` block.
fn tools_shown(request: &Value) -> Vec<Value> {
    let user = request["messages"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["role"] == "user"))
        .and_then(|m| m["content"].as_str())
        .expect("a user message");
    let block = user
        .split_once("<tools>\n")
        .and_then(|(_, rest)| rest.split_once("\n</tools>"))
        .map(|(tools, _)| tools)
        .expect("a <tools> block");
    serde_json::from_str(block).expect("tools as JSON")
}
