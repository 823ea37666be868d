//! The model path against a REAL model: llama-cpp-python's OpenAI-compatible server
//! with a small open GGUF model (SmolLM2-135M-Instruct by default), installed and
//! started by `tests/model/up.sh`, and every Chorus role its own process on a real
//! Redis. Nothing here is faked.
//!
//! Runs only when the cached server and model are present (`tests/model/up.sh present`;
//! building the server takes 20–40 minutes, more than CI's budget, so `.ci/run` does
//! not build it); otherwise it says so and passes as skipped. What it pins:
//! - a request the heuristic cannot plan goes to the model; either the model's plan
//!   passes every check and runs (`planner: llm`), or the heuristic answer is published
//!   and the Planner logs the fallback with its reason code (`llm_failed:<code>`);
//! - the server's structured-output dialect is found (llama-cpp-python refuses
//!   `json_schema`; `json_object` with the plan's schema is what it takes), so the code
//!   is never a refused request (`http_500`);
//! - the model's time is `llm.timeout_ms` (two minutes here), not the claim idle time
//!   (1.5 s in the cluster): the runtime keeps the Planner's message alive meanwhile;
//! - a report the model writes arrives token by token over `POST /chat/stream`, and the
//!   task's `report_tokens:<task_id>` on Redis shows exactly the report's text.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_bus::{Bus, Payload, PlannerKind, Topic};
use chorus_e2e::{Cluster, ClusterOptions};
use chorus_testkit::launcher::{self, Output, Proc};
use futures::StreamExt;
use serde_json::{Value, json};

/// A request the heuristic planner cannot plan (it names no operation it knows).
const HARD: &str = "what is the sum of the first two primes";

/// A request the heuristic plans, so the model only writes its report.
const PLANNED: &str = "(2+4)*3 - 1";

/// The model's own time: generous, as a 2-core CPU needs.
const MODEL_TIMEOUT_MS: u64 = 120_000;

/// The reason codes a plan fallback may carry (docs/llm.md).
const CODES: &[&str] = &[
    "timeout",
    "transport",
    "bad_response",
    "empty",
    "refused",
    "invalid_json",
    "empty_plan",
    "invalid_dag",
    "too_many_steps",
    "unknown_pool",
    "unknown_tool",
    "bad_arguments",
];

fn up_sh() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../model/up.sh")
}

/// The model server: started by this test (and stopped when dropped), or one a
/// developer already runs (left running).
struct ModelServer {
    base_url: String,
    model: String,
    started_here: bool,
}

impl ModelServer {
    /// The cached server, started; `None` when it is not installed.
    fn start() -> Option<ModelServer> {
        let present = Command::new("bash")
            .arg(up_sh())
            .arg("present")
            .status()
            .is_ok_and(|s| s.success());
        if !present {
            return None;
        }
        let running = Command::new("bash")
            .arg(up_sh())
            .arg("status")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stderr).contains("running: pid"));
        let out = Command::new("bash")
            .arg(up_sh())
            .arg("start")
            .output()
            .expect("tests/model/up.sh start");
        assert!(
            out.status.success(),
            "up.sh start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{name}=")))
                .unwrap_or_else(|| panic!("up.sh printed no {name}: {text}"))
                .to_owned()
        };
        Some(ModelServer {
            base_url: field("CHORUS__LLM__BASE_URL"),
            model: field("CHORUS__LLM__MODEL"),
            started_here: !running,
        })
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        if self.started_here {
            let _ = Command::new("bash").arg(up_sh()).arg("stop").status();
        }
    }
}

/// Posts `query` to `POST /chat/stream` and reads every event until the stream ends
/// (or `within` passes).
async fn chat_stream(cluster: &Cluster, query: &str, within: Duration) -> Vec<(String, Value)> {
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
    let mut body = response.bytes_stream();
    let mut buffer = String::new();
    let until = Instant::now() + within;
    while let Ok(Some(Ok(chunk))) =
        tokio::time::timeout(until.saturating_duration_since(Instant::now()), body.next()).await
    {
        buffer.push_str(&String::from_utf8_lossy(&chunk));
    }
    chorus_testkit::sse::parse_all(&buffer)
        .into_iter()
        .map(|e| (e.name, serde_json::from_str(&e.data).unwrap_or(Value::Null)))
        .collect()
}

/// What an SSE client shows: the `token` texts, replaced by a `replace`'s text.
fn shown(events: &[(String, Value)]) -> String {
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

/// `text` without terminal colour codes (`ESC [ … m`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn names(events: &[(String, Value)]) -> Vec<&str> {
    events.iter().map(|(n, _)| n.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_small_model_plans_or_falls_back_with_its_reason_and_streams_a_report() {
    let Some(server) = ModelServer::start() else {
        eprintln!(
            "llm_real: SKIPPED — no cached model server; run `tests/model/up.sh install` (20-40 min) to enable this test"
        );
        return;
    };
    eprintln!("llm_real: model {} at {}", server.model, server.base_url);
    let env = [
        ("CHORUS__LLM__BASE_URL", server.base_url.clone()),
        ("CHORUS__LLM__MODEL", server.model.clone()),
        ("CHORUS__LLM__API_KEY_ENV", "CHORUS_E2E_NO_SUCH_KEY".into()),
        ("CHORUS__LLM__TIMEOUT_MS", MODEL_TIMEOUT_MS.to_string()),
        ("CHORUS__LLM__MAX_TOKENS", "256".into()),
        ("CHORUS__AGENTS__DEADLINE_MS", "400000".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    // The cluster's claim idle time stays 1.5 s: far below the model's time.
    let mut cluster = Cluster::start(ClusterOptions {
        env,
        ..ClusterOptions::default()
    });
    // The Planner again, its log in a file, to read the path of each plan.
    cluster.kill("planner");
    let log = std::env::temp_dir().join(format!(
        "chorus-llm-real-planner-{}.log",
        std::process::id()
    ));
    let planner = Proc::spawn(
        "planner-logged",
        launcher::role(
            &chorus_e2e::bin("chorus"),
            "planner",
            None,
            cluster.env(),
            "warn,chorus_core::roles::planner=info,chorus_llm=info",
        ),
        Output::File(log.clone()),
    )
    .expect("planner");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let bus = cluster.bus().await;

    // 1. The heuristic cannot plan it: the model is asked.
    let started = Instant::now();
    let events = chat_stream(&cluster, HARD, Duration::from_secs(360)).await;
    let took = started.elapsed();
    eprintln!("llm_real: {HARD:?} took {took:?}: {:?}", names(&events));
    let task = events[0].1["task_id"].as_str().expect("task id").to_owned();
    let plan = bus
        .recent(&Topic::plan_ready(), 100)
        .await
        .expect("plans")
        .into_iter()
        .filter(|m| m.task_id == task)
        .find_map(|m| match m.payload {
            Payload::PlanReady(p) => Some(p),
            _ => None,
        })
        .expect("a plan_ready for the task");
    let report = &events.last().expect("events").1;
    assert_eq!(names(&events).last(), Some(&"report"), "{events:?}");
    let planner_log = strip_ansi(&std::fs::read_to_string(&log).unwrap_or_default());
    let path_line = planner_log
        .lines()
        .rfind(|l| l.contains(&task) && l.contains("path="))
        .unwrap_or_else(|| panic!("no plan path for {task} in the Planner's log: {planner_log}"))
        .to_owned();
    eprintln!("llm_real: {path_line}");
    match plan.planner {
        PlannerKind::Llm => {
            assert!(path_line.contains("path=llm"), "{path_line}");
            assert!(!plan.plan.steps.is_empty());
            assert_eq!(
                report["steps"].as_array().map(Vec::len),
                Some(plan.plan.steps.len())
            );
            eprintln!("llm_real: the model's plan ran: {}", report["text"]);
        }
        PlannerKind::Heuristic => {
            let code = path_line
                .split("path=llm_failed:")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap_or_else(|| panic!("a fallback names its code: {path_line}"));
            assert!(
                CODES.contains(&code),
                "unknown fallback code {code}: {path_line}"
            );
            assert_eq!(report["status"], "unplannable", "{report}");
            eprintln!("llm_real: fell back with {code}");
        }
    }
    // The dialect was found: no request was refused for its format, and the model had
    // more than the claim idle time.
    assert!(!path_line.contains("http_"), "{path_line}");
    assert!(
        !path_line.contains("llm_failed:timeout")
            || took > Duration::from_millis(MODEL_TIMEOUT_MS / 2),
        "cut before llm.timeout_ms: {path_line}"
    );

    // 2. A request the heuristic plans: the model writes the report, streamed.
    let events = chat_stream(&cluster, PLANNED, Duration::from_secs(360)).await;
    let names = names(&events);
    eprintln!("llm_real: {PLANNED:?}: {names:?}");
    assert_eq!(
        names[..5],
        ["accepted", "plan", "step", "step", "step"],
        "{events:?}"
    );
    assert_eq!(names.last(), Some(&"report"));
    let report = &events.last().expect("report").1;
    assert_eq!(report["steps"][2]["outcome"]["value"], "17", "{report}");
    let tokens = names.iter().filter(|n| **n == "token").count();
    assert_eq!(shown(&events), report["text"].as_str().unwrap_or_default());
    match report["written_by"].as_str() {
        Some("llm") => assert!(tokens >= 2, "a model's report comes in pieces: {names:?}"),
        Some("template") => {
            // The model wrote, and a number it wrote was not in the results: the tokens
            // shown before it are replaced by the template (or the call failed).
            eprintln!("llm_real: the model's report was replaced: {events:?}");
            assert!(tokens >= 1, "{names:?}");
        }
        other => panic!("written_by {other:?}"),
    }
    let task = events[0].1["task_id"].as_str().expect("task id");
    let entries = cluster
        .redis
        .cli(&["XLEN", &format!("report_tokens:{task}")]);
    assert!(
        entries.trim().parse::<usize>().unwrap_or(0) > tokens.min(1),
        "report_tokens:{task} holds the pieces and the done entry: {entries}"
    );
    eprintln!("llm_real: report ({} tokens): {}", tokens, report["text"]);
    drop(planner);
    let _ = std::fs::remove_file(&log);
}
