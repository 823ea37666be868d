//! Prometheus metrics against the real system — every role its own process, real Redis,
//! a real math MCP server: after N tasks (`2+4` five times, and one division by zero),
//! the Chief's `/metrics` (on its HTTP port), each other role's (on
//! `telemetry.metrics_bind`) and the math MCP server's (`--metrics-bind`) show the
//! counters moved by exactly N (and an unreadable entry on `math_task` as one intake dead
//! letter of the math pool). Every body is parsed by the OFFICIAL Python Prometheus
//! client's OpenMetrics parser (tests/python/metrics_check.py, in the venv of
//! `chorus_testkit::python`), and the values asserted are the ones it read.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_e2e::{Cluster, ClusterOptions, Proc, bin, free_port, wait_for_port};
use chorus_testkit::launcher::{self, Output};
use serde_json::{Value, json};

/// The `2+4` tasks; one division by zero comes on top.
const N: u64 = 5;

/// The roles serving `/metrics` on `telemetry.metrics_bind`, by consumer group.
const GROUPS: [&str; 6] = [
    "planner",
    "router",
    "synthesizer",
    "verifier",
    "pool-math",
    "pool-date",
];

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../python/metrics_check.py")
}

/// One endpoint as the Python parser read it.
struct Scrape {
    content_type: String,
    samples: Vec<(String, BTreeMap<String, String>, f64)>,
}

impl Scrape {
    /// The sum of the samples named `name` whose labels include every pair of `labels`.
    fn sum(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.samples
            .iter()
            .filter(|(n, l, _)| {
                n == name
                    && labels
                        .iter()
                        .all(|(k, v)| l.get(*k).map(String::as_str) == Some(v))
            })
            .map(|(_, _, v)| v)
            .sum()
    }

    /// Whether some sample is named `name`.
    fn has(&self, name: &str) -> bool {
        self.samples.iter().any(|(n, _, _)| n == name)
    }
}

/// Scrapes `urls` through the Python parser; the parser's error when it failed.
fn scrape(python: &PathBuf, urls: &[String]) -> Result<Vec<Scrape>, String> {
    let out = Command::new(python)
        .arg(script())
        .args(urls)
        .output()
        .map_err(|e| format!("running metrics_check.py: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let parsed: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    Ok(urls
        .iter()
        .map(|url| {
            let one = &parsed[url.as_str()];
            let samples = one["samples"]
                .as_array()
                .map(|a| a.as_slice())
                .unwrap_or_default()
                .iter()
                .map(|s| {
                    let labels = s[1]
                        .as_object()
                        .map(|m| {
                            m.iter()
                                .map(|(k, v)| {
                                    (k.clone(), v.as_str().unwrap_or_default().to_owned())
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    let name = s[0].as_str().unwrap_or_default().to_owned();
                    (name, labels, s[2].as_f64().unwrap_or(f64::NAN))
                })
                .collect();
            Scrape {
                content_type: one["content_type"].as_str().unwrap_or_default().to_owned(),
                samples,
            }
        })
        .collect())
}

/// Every report is in at the Chief, the math pool dead-lettered the unreadable entry,
/// and every role has handled all it was given.
fn settled(scrapes: &[Scrape]) -> bool {
    let roles = &scrapes[..scrapes.len() - 1];
    scrapes[0].sum("chorus_tasks_finished_total", &[]) >= (N + 1) as f64
        && scrapes[5].sum("chorus_intake_dead_letters_total", &[]) >= 1.0
        && roles.iter().all(|r| {
            r.sum("chorus_in_flight", &[]) == 0.0
                && r.sum("chorus_handled_total", &[]) == r.sum("chorus_deliveries_total", &[])
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_process_counts_n_tasks_exactly_in_parseable_metrics() {
    let python = chorus_testkit::python::python();
    // A math MCP server of our own, serving metrics; the math pool calls it.
    let (mcp_port, mcp_metrics) = (free_port(), free_port());
    let mut cmd = launcher::mcp_http(&bin("chorus-mcp-math"), mcp_port);
    cmd.args(["--metrics-bind", &format!("127.0.0.1:{mcp_metrics}")]);
    let _math = Proc::spawn("metrics-math-mcp", cmd, Output::Inherit).expect("math MCP");
    let mut role_env = BTreeMap::new();
    let mut ports = BTreeMap::new();
    for group in GROUPS {
        let port = free_port();
        ports.insert(group, port);
        let bind = format!("127.0.0.1:{port}");
        role_env.insert(
            group.to_owned(),
            BTreeMap::from([("CHORUS__TELEMETRY__METRICS_BIND".to_owned(), bind)]),
        );
    }
    if let Some(env) = role_env.get_mut("pool-math") {
        let url = format!("http://127.0.0.1:{mcp_port}/mcp");
        env.insert("CHORUS__POOLS__MATH__MCP_URL".to_owned(), url);
    }
    let cluster = Cluster::start(ClusterOptions {
        role_env,
        ..ClusterOptions::default()
    });
    let started = Instant::now();
    wait_for_port(mcp_metrics, Duration::from_secs(10));
    for port in ports.values() {
        wait_for_port(*port, Duration::from_secs(10));
    }

    // One entry no role can read: the math pool's transport dead-letters it.
    cluster
        .redis
        .cli(&["XADD", "math_task", "*", "data", "{not json"]);
    let base = format!("http://127.0.0.1:{}", cluster.http_port);
    let http = reqwest::Client::new();
    let mut task_ids = Vec::new();
    for query in std::iter::repeat_n("2+4", N as usize).chain(["7 / 0"]) {
        let response = http
            .post(format!("{base}/tasks"))
            .json(&json!({ "query": query }))
            .send()
            .await
            .expect("POST /tasks");
        assert!(response.status().is_success(), "{}", response.status());
        let body: Value = response.json().await.expect("json");
        task_ids.push(body["task_id"].as_str().expect("task id").to_owned());
    }

    let chief = format!("{base}/metrics");
    let mut urls = vec![chief];
    urls.extend(
        GROUPS
            .iter()
            .map(|g| format!("http://127.0.0.1:{}/metrics", ports[g])),
    );
    urls.push(format!("http://127.0.0.1:{mcp_metrics}/metrics"));
    // Until every report is in and the last hops are handled (bounded; the assertions
    // below are on the last scrape).
    let deadline = Instant::now() + Duration::from_secs(15);
    let scrapes = loop {
        let got = scrape(&python, &urls);
        let done = got.as_ref().is_ok_and(|s| settled(s));
        if done || Instant::now() > deadline {
            break got.unwrap_or_else(|e| panic!("metrics_check.py failed:\n{e}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    eprintln!("tasks and scrapes took {:?}", started.elapsed());
    let [
        chief,
        planner,
        router,
        synthesizer,
        verifier,
        pool_math,
        pool_date,
        mcp,
    ] = <[Scrape; 8]>::try_from(scrapes).unwrap_or_else(|_| panic!("eight scrapes"));

    for s in [
        &chief,
        &planner,
        &router,
        &synthesizer,
        &verifier,
        &pool_math,
        &pool_date,
        &mcp,
    ] {
        assert!(
            s.content_type.starts_with("application/openmetrics-text"),
            "{}",
            s.content_type
        );
        for (name, labels, _) in &s.samples {
            assert!(name.starts_with("chorus_"), "{name}");
            for key in ["task_id", "message_id", "entry_id"] {
                assert!(!labels.contains_key(key), "{name} has a {key} label");
            }
            for id in &task_ids {
                assert!(
                    !labels.values().any(|v| v == id),
                    "{name} carries task id {id}"
                );
            }
        }
    }

    // The Chief: every task accepted at the HTTP door, each report counted by status.
    let n = N as f64;
    assert_eq!(
        chief.sum("chorus_tasks_accepted_total", &[("door", "http")]),
        n + 1.0
    );
    assert_eq!(
        chief.sum("chorus_tasks_finished_total", &[("status", "completed")]),
        n
    );
    assert_eq!(
        chief.sum("chorus_tasks_finished_total", &[("status", "failed")]),
        1.0
    );
    assert_eq!(
        chief.sum("chorus_task_duration_seconds_count", &[]),
        n + 1.0
    );
    let reports = [("role", "chief"), ("topic", "final_report")];
    assert_eq!(chief.sum("chorus_deliveries_total", &reports), n + 1.0);
    let handled = chief.sum(
        "chorus_handled_total",
        &[("role", "chief"), ("result", "ok")],
    );
    assert_eq!(
        handled,
        chief.sum("chorus_deliveries_total", &[("role", "chief")])
    );
    assert!(
        chief.has("chorus_stream_length"),
        "the Chief samples its streams"
    );
    assert!(chief.has("chorus_stream_pending"));

    // The math pool: five sums and one failed division, each timed.
    let ok = [("pool", "math"), ("outcome", "ok")];
    assert_eq!(pool_math.sum("chorus_steps_total", &ok), n);
    let divide = [("pool", "math"), ("tool", "divide"), ("outcome", "failed")];
    assert_eq!(pool_math.sum("chorus_steps_total", &divide), 1.0);
    assert_eq!(
        pool_math.sum("chorus_mcp_call_duration_seconds_count", &[]),
        n + 1.0
    );
    let steps = [("role", "pool-math"), ("topic", "math_task")];
    assert_eq!(pool_math.sum("chorus_deliveries_total", &steps), n + 1.0);
    assert_eq!(
        pool_math.sum("chorus_hop_latency_seconds_count", &steps),
        n + 1.0
    );
    assert_eq!(pool_math.sum("chorus_redeliveries_total", &[]), 0.0);
    assert_eq!(pool_math.sum("chorus_claims_total", &[]), 0.0);
    let unreadable = [
        ("role", "pool-math"),
        ("topic", "math_task"),
        ("reason", "undecodable"),
    ];
    assert_eq!(
        pool_math.sum("chorus_intake_dead_letters_total", &unreadable),
        1.0
    );
    assert_eq!(pool_date.sum("chorus_steps_total", &[]), 0.0);

    // The math MCP server served the same calls.
    let server = ("server", "chorus-mcp-math");
    assert_eq!(
        mcp.sum("chorus_mcp_tool_calls_total", &[server, ("outcome", "ok")]),
        n
    );
    let failed = [server, ("tool", "divide"), ("outcome", "error")];
    assert_eq!(mcp.sum("chorus_mcp_tool_calls_total", &failed), 1.0);
    assert_eq!(
        mcp.sum("chorus_mcp_tool_duration_seconds_count", &[server]),
        n + 1.0
    );

    // The planner, router and synthesizer saw every task, handled all they were given,
    // and hold nothing; the verifier had nothing to do (every verdict was FINISHED).
    for (name, role) in [
        ("planner", &planner),
        ("router", &router),
        ("synthesizer", &synthesizer),
    ] {
        let delivered = role.sum("chorus_deliveries_total", &[("role", name)]);
        assert!(delivered >= n + 1.0, "{name}: {delivered} deliveries");
        let handled = role.sum("chorus_handled_total", &[("role", name), ("result", "ok")]);
        assert_eq!(handled, delivered, "{name} handled what it was given");
        assert_eq!(
            role.sum("chorus_dead_letters_total", &[("role", name)]),
            0.0
        );
        assert_eq!(role.sum("chorus_in_flight", &[("role", name)]), 0.0);
    }
    assert_eq!(verifier.sum("chorus_deliveries_total", &[]), 0.0);
    assert!(
        verifier.has("chorus_in_flight"),
        "the verifier serves its metrics"
    );
    let plans = [("role", "planner"), ("topic", "task_available")];
    assert_eq!(planner.sum("chorus_deliveries_total", &plans), n + 1.0);
}
