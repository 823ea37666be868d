//! Signals to a process the test started, by PID: SIGSTOP waits until the process has
//! really stopped. `kill -STOP` returns once the signal is sent, and a thread of the
//! process may still answer a request in the moment after (seen: a frozen server
//! answering 2+4 7 ms after the signal), so a test that freezes a server must wait for
//! every thread to show as stopped in /proc.

use std::process::Command;
use std::time::{Duration, Instant};

/// Sends `signal` (`-STOP`, `-CONT`, …) to `pid`; after `-STOP`, waits (up to 5 s, then
/// panics) until every thread of the process is stopped.
pub fn send(pid: u32, signal: &str) {
    let ok = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "kill {signal} {pid} failed");
    if signal == "-STOP" {
        let start = Instant::now();
        while !all_threads_stopped(pid) {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "process {pid} did not stop within 5 s"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Whether every thread of `pid` is stopped (state `T` or `t` in /proc); true when the
/// process is gone.
pub fn all_threads_stopped(pid: u32) -> bool {
    let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return true;
    };
    threads.flatten().all(|thread| {
        std::fs::read_to_string(thread.path().join("stat"))
            .ok()
            .and_then(|stat| {
                // The state is the first field after the command name's `)`.
                let (_, rest) = stat.rsplit_once(')')?;
                Some(rest.trim_start().starts_with(['T', 't']))
            })
            .unwrap_or(true)
    })
}
