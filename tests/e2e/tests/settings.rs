//! A role started with a misspelt setting stops at once, naming the key: in a settings
//! file and in the environment alike.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use chorus_e2e::bin;

/// Runs `chorus agent planner` with `args` and `env`, waiting at most 10 s.
fn planner(args: &[&str], env: &[(&str, &str)]) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = Command::new(bin("chorus"))
        .args(args)
        .args(["agent", "planner"])
        .envs(env.iter().copied())
        .env("CHORUS_LOG", "error")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chorus agent planner");
    while started.elapsed() < Duration::from_secs(10) {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let out = child.wait_with_output().expect("output");
    (out, started.elapsed())
}

#[test]
fn a_misspelt_setting_stops_the_role_at_start_and_names_the_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("chorus.toml");
    std::fs::write(&file, "[agents]\ndeadine_ms = 5000\n").expect("write settings");
    let path = file.to_string_lossy().into_owned();
    let runs = [
        planner(&["--config", &path], &[]),
        planner(&[], &[("CHORUS__AGENTS__DEADINE_MS", "5000")]),
    ];
    for (out, took) in runs {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "exited {:?}: {stderr}", out.status);
        assert!(took < Duration::from_secs(5), "took {took:?}: {stderr}");
        assert!(stderr.contains("agents.deadine_ms"), "{stderr}");
    }
}
