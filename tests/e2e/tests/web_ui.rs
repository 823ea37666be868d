//! The Chief's web view (`/ui`) in a real headless Chromium (Debian's `chromium`),
//! driven by the official Playwright package (tests/python/ui_check.py, in the venv of
//! `chorus_testkit::python`), against the real system: every role its own process, real
//! Redis, real MCP servers. The page loads with no console or page error; a malformed
//! entry shows in the dead letters with its reason; a request sent from the page's box
//! draws its plan as a graph whose steps reach done, with the report (18, Friday); the
//! agents list shows the math and date pools; the hop timeline lists the task's topics;
//! a question is answered from the page. With tokens on, the page asks for the token,
//! refuses a wrong one, and works with the right one.
//!
//! The screenshot goes to `$CHORUS_UI_SCREENSHOT` (relative to the repository, e.g.
//! `docs/ui.png`), else into the target directory. Without Chromium (after tests/run.sh
//! tried to install it) the tests say so and pass as skipped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_e2e::{Cluster, ClusterOptions};

const HTTP_TOKEN: &str = "e2e-ui-token-3c9d";

/// The checks ui_check.py prints without tokens, in order.
const CHECKS: [&str; 8] = [
    "feed",
    "agents",
    "dead_letters",
    "graph",
    "hops",
    "question",
    "screenshot",
    "console",
];

/// The checks with tokens on.
const TOKEN_CHECKS: [&str; 5] = ["token", "feed", "agents", "request", "console"];

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Debian's Chromium: `$CHORUS_CHROMIUM`, else `chromium` or `chromium-browser` on the
/// PATH or in /usr/bin.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHORUS_CHROMIUM") {
        return Some(PathBuf::from(path)).filter(|p| p.exists());
    }
    let dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    ["chromium", "chromium-browser"]
        .iter()
        .flat_map(|name| {
            dirs.iter()
                .map(move |d| d.join(name))
                .chain([Path::new("/usr/bin").join(name)])
        })
        .find(|p| p.exists())
}

/// Every role, both MCP servers and Redis, with `env`; its HTTP API listening and every
/// agent live.
fn cluster(env: &[(&str, &str)]) -> Cluster {
    let mut opts = ClusterOptions::default();
    for (k, v) in env {
        opts.env.insert((*k).into(), (*v).into());
    }
    let cluster = Cluster::start(opts);
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    // chief, planner, router, synthesizer, verifier, a math and a date agent.
    cluster.wait_ready(7, Duration::from_secs(20));
    cluster
}

/// Runs ui_check.py on `cluster` with `extra` arguments; its lines, each checked to
/// be `ok <check>: …` in the order of `checks`.
fn run_check(browser: &Path, cluster: &Cluster, extra: &[&str], checks: &[&str]) -> Vec<String> {
    let python = chorus_testkit::python::python();
    let started = Instant::now();
    let out = Command::new(&python)
        .arg(repo_root().join("tests/python/ui_check.py"))
        .args([
            "--base-url",
            &format!("http://127.0.0.1:{}", cluster.http_port),
        ])
        .arg("--chromium")
        .arg(browser)
        .args(extra)
        .output()
        .expect("run tests/python/ui_check.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("ui_check.py ({:?}):\n{stdout}", started.elapsed());
    assert!(
        out.status.success(),
        "ui_check.py failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let lines: Vec<String> = stdout.lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), checks.len(), "{stdout}");
    for (line, check) in lines.iter().zip(checks) {
        assert!(
            line.starts_with(&format!("ok {check}: ")),
            "expected check {check:?} to pass, got {line:?}\n{stdout}"
        );
    }
    lines
}

/// Where the screenshot goes.
fn screenshot_path() -> PathBuf {
    match std::env::var_os("CHORUS_UI_SCREENSHOT") {
        Some(path) if Path::new(&path).is_absolute() => PathBuf::from(path),
        Some(path) => repo_root().join(path),
        None => chorus_e2e::bin_dir().join("ui.png"),
    }
}

#[test]
fn the_web_view_follows_a_request_to_its_report_and_answers_a_question() {
    let Some(browser) = chromium() else {
        eprintln!(
            "SKIPPED: no Chromium found (install Debian's chromium, as tests/run.sh does, \
             or set CHORUS_CHROMIUM)"
        );
        return;
    };
    let cluster = cluster(&[]);
    // A malformed entry, which the Planner dead-letters with the reason.
    cluster
        .redis
        .cli(&["XADD", "task_available", "*", "data", "{not json"]);
    let shot = screenshot_path();
    let _ = std::fs::remove_file(&shot);
    let lines = run_check(
        &browser,
        &cluster,
        &["--screenshot", &shot.display().to_string()],
        &CHECKS,
    );
    assert!(
        lines[3].contains("18") && lines[3].contains("Friday"),
        "{}",
        lines[3]
    );
    assert!(lines[5].contains("2.5"), "{}", lines[5]);
    let png = std::fs::read(&shot).expect("the screenshot");
    assert!(png.starts_with(b"\x89PNG"), "{} is a PNG", shot.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_tokens_on_the_page_asks_for_the_token_and_then_works() {
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED: no Chromium found (install Debian's chromium, or set CHORUS_CHROMIUM)");
        return;
    };
    let cluster = cluster(&[
        ("CHORUS__HTTP__TOKENS_ENV", "CHORUS_E2E_UI_TOKENS"),
        ("CHORUS_E2E_UI_TOKENS", HTTP_TOKEN),
    ]);
    // The page and its assets load without a token; the API asks for one.
    let http = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{}", cluster.http_port);
    for (path, status) in [
        ("/ui", 200),
        ("/ui/app.js", 200),
        ("/ui/common.js", 200),
        ("/ui/graph.js", 200),
        ("/ui/app.css", 200),
        ("/tasks", 401),
        ("/tasks/t-1/hops", 401),
        ("/agents", 401),
        ("/dead-letters", 401),
        ("/events", 401),
    ] {
        let response = http.get(format!("{base}{path}")).send().await.expect("get");
        assert_eq!(response.status(), status, "{path}");
    }
    let agents = http
        .get(format!("{base}/agents"))
        .bearer_auth(HTTP_TOKEN)
        .send()
        .await
        .expect("get /agents");
    assert_eq!(agents.status(), 200);
    tokio::task::block_in_place(|| {
        run_check(&browser, &cluster, &["--token", HTTP_TOKEN], &TOKEN_CHECKS)
    });
}
