//! End-to-end harness: a real `redis-server`, both MCP servers and every Chorus role as
//! separate OS processes, started on free ports and killed when the [`Cluster`] drops.
//! The binaries come from the workspace's target directory (`tests/run.sh` builds them).
//!
//! By job: [`Cluster`] starts and drives the processes (`cluster.rs`), the bus helpers
//! read and wait on topics (`bus.rs`), the HTTP helpers poll and stream the Chief's API
//! (`http.rs`); everything is re-exported here.

use std::path::PathBuf;
use std::time::Duration;

use chorus_testkit::launcher;

mod bus;
mod cluster;
mod http;

pub use bus::{ChannelLog, ask_for, dead_letters, final_reports_by_task, of_task, wait_on};
pub use cluster::{Cluster, ClusterOptions};
pub use http::{poll_task, read_events};

/// The values of a report's output steps in plan order ([`chorus_bus::FinalReport::answers`]).
pub fn answers(report: &chorus_bus::FinalReport) -> Vec<String> {
    report.answers()
}

/// The directory holding the workspace's built binaries (`target/debug`).
pub fn bin_dir() -> PathBuf {
    // Test executables live in target/<profile>/deps.
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(|deps| deps.parent())
        .map(PathBuf::from)
        .expect("target directory")
}

/// Path of a workspace binary, with a clear message when it was not built.
pub fn bin(name: &str) -> PathBuf {
    let path = bin_dir().join(name);
    assert!(
        path.exists(),
        "{} is missing: build the workspace binaries first (cargo build --workspace --bins, as tests/run.sh does)",
        path.display()
    );
    path
}

pub use chorus_testkit::free_port;

/// Waits until something listens on `port`.
pub fn wait_for_port(port: u16, within: Duration) {
    assert!(
        launcher::port_opens(port, within),
        "nothing listened on port {port} within {within:?}"
    );
}

pub use chorus_testkit::launcher::Proc;

/// Task `i` of a stream of checkable tasks (the failover and reshard tests): its query
/// and the answer it must have — arithmetic, and every fourth a weekday in December 2026.
pub fn numbered_task(i: usize) -> (String, String) {
    if i % 4 == 3 {
        // 2026-12-01 is a Tuesday.
        const DAYS: [&str; 7] = [
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
            "Monday",
        ];
        let d = i % 28 + 1;
        (
            format!("weekday of 2026-12-{d:02}"),
            DAYS[(d - 1) % 7].to_owned(),
        )
    } else {
        let (a, b, c) = (i + 2, i % 7 + 3, i % 5 + 2);
        (format!("({a}+{b})*{c}"), ((a + b) * c).to_string())
    }
}
