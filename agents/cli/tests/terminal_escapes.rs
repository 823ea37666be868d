//! `chorus ask --local` given a query that holds terminal escape sequences (clear the
//! screen, turn the text red, a C1 CSI, a right-to-left override): what it prints shows
//! them escaped (`\u{1b}`), never raw, as text, as `--json`, and in a usage error.

use std::process::{Command, Output, Stdio};

/// Clears the screen and turns red (ESC), the same by a C1 CSI, and a bidi override.
const HOSTILE: &str = "\u{1b}[2J\u{1b}[31m \u{9b}1m \u{202e}gnp";

/// `chorus ask --local ARGS…` with no Redis configured.
fn ask_local(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chorus"))
        .arg("ask")
        .arg("--local")
        .args(args)
        .env_remove("CHORUS__BUS__REDIS_URL")
        .env_remove("CHORUS_CONFIG")
        .env("CHORUS_LOG", "error")
        .stdin(Stdio::null())
        .output()
        .expect("run chorus ask --local")
}

/// Fails when `bytes` hold something a terminal would act on: ESC, a C1 CSI, the bidi
/// override, a carriage return.
fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    assert!(!bytes.contains(&0x1b), "{what} holds a raw ESC: {text:?}");
    for c in ['\u{9b}', '\u{202e}', '\r'] {
        assert!(!text.contains(c), "{what} holds a raw {c:?}: {text:?}");
    }
}

#[test]
fn ask_prints_a_reports_escape_sequences_escaped() {
    let out = ask_local(&[&format!("write a poem {HOSTILE}")]);
    assert_terminal_safe("stdout", &out.stdout);
    assert_terminal_safe("stderr", &out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(r"write a poem \u{1b}[2J\u{1b}[31m \u{9b}1m \u{202e}gnp"),
        "{stdout}"
    );
    // The report keeps its lines.
    assert!(stdout.lines().count() > 3, "{stdout}");
    assert_eq!(out.status.code(), Some(1), "unplannable");
}

#[test]
fn ask_json_is_the_same_report_with_nothing_raw_for_a_terminal() {
    let query = format!("write a poem {HOSTILE}");
    let out = ask_local(&["--json", &query]);
    assert_terminal_safe("stdout", &out.stdout);
    assert_terminal_safe("stderr", &out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(r"\u001b[2J\u001b[31m \u009b1m \u202egnp"),
        "{stdout}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["query"], query.as_str());
    assert!(
        report["text"].as_str().is_some_and(|t| t.contains(HOSTILE)),
        "{report}"
    );
}

#[test]
fn a_usage_error_shows_the_bad_argument_escaped() {
    let out = ask_local(&[&format!("--no-such-flag{HOSTILE}"), "2+4"]);
    assert_eq!(out.status.code(), Some(2), "clap's usage error code");
    assert_terminal_safe("stderr", &out.stderr);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(r"--no-such-flag\u{1b}[2J"), "{stderr}");
}
