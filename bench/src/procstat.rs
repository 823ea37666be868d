//! Counters of a running process, read from `/proc` through the `procfs` crate (Linux):
//! peak and current resident set size (`VmHWM`, `VmRSS`) and CPU time (`utime + stime`,
//! summed over every thread of the process).

use procfs::process::Process;

/// One reading of a process's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ProcSample {
    /// Peak resident set size so far, in KiB.
    pub peak_rss_kib: u64,
    /// Resident set size now, in KiB.
    pub rss_kib: u64,
    /// CPU time so far (user + system), in milliseconds.
    pub cpu_ms: u64,
}

/// Reads the counters of process `pid`; `None` when it is gone or `/proc` is unreadable.
pub fn sample(pid: u32) -> Option<ProcSample> {
    let process = Process::new(i32::try_from(pid).ok()?).ok()?;
    let status = process.status().ok()?;
    let stat = process.stat().ok()?;
    let ticks = stat.utime + stat.stime;
    Some(ProcSample {
        peak_rss_kib: status.vmhwm?,
        rss_kib: status.vmrss?,
        cpu_ms: ticks * 1000 / procfs::ticks_per_second().max(1),
    })
}

/// This process's own counters.
pub fn own() -> Option<ProcSample> {
    sample(std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_can_be_sampled() {
        let s = own().expect("/proc is readable");
        assert!(s.peak_rss_kib >= s.rss_kib);
        assert!(s.rss_kib > 0);
    }

    #[test]
    fn cpu_time_grows_with_work() {
        let before = own().expect("sample").cpu_ms;
        let mut x = 0u64;
        let start = std::time::Instant::now();
        let mut after = before;
        // Work until the counter shows 50 ms more (at most 10 s of wall time, however
        // busy the machine is).
        while after < before + 50 && start.elapsed() < std::time::Duration::from_secs(10) {
            for _ in 0..1_000_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            after = own().expect("sample").cpu_ms;
        }
        assert!(after >= before + 50, "{before} → {after} ms of CPU time");
    }

    #[test]
    fn a_process_that_is_gone_has_no_sample() {
        assert_eq!(sample(u32::MAX / 2), None);
    }
}
