//! Counters of a running process read from `/proc` (Linux): peak and current resident
//! set size (`VmHWM`, `VmRSS` in `/proc/<pid>/status`) and CPU time (`utime + stime`
//! in `/proc/<pid>/stat`, summed over every thread of the process).

/// Clock ticks per second of `/proc/<pid>/stat` times (`CLK_TCK`, 100 on Linux).
const TICKS_PER_S: u64 = 100;

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
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(ProcSample {
        peak_rss_kib: status_kib(&status, "VmHWM")?,
        rss_kib: status_kib(&status, "VmRSS")?,
        cpu_ms: stat_cpu_ticks(&stat)? * 1000 / TICKS_PER_S,
    })
}

/// This process's own counters.
pub fn own() -> Option<ProcSample> {
    sample(std::process::id())
}

/// A `Name:   1234 kB` line of `/proc/<pid>/status`, in KiB.
fn status_kib(status: &str, name: &str) -> Option<u64> {
    status.lines().find_map(|l| {
        let rest = l.strip_prefix(name)?.strip_prefix(':')?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// `utime + stime` (fields 14 and 15) of `/proc/<pid>/stat`, in clock ticks. The
/// command name (field 2) may hold spaces, so fields are counted after its `)`.
fn stat_cpu_ticks(stat: &str) -> Option<u64> {
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // fields[0] is field 3 (state), so field n is fields[n - 3].
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_give_kib() {
        let status = "Name:\tchorus\nVmHWM:\t   12345 kB\nVmRSS:\t    9876 kB\n";
        assert_eq!(status_kib(status, "VmHWM"), Some(12345));
        assert_eq!(status_kib(status, "VmRSS"), Some(9876));
        assert_eq!(status_kib(status, "VmSwap"), None);
    }

    #[test]
    fn stat_cpu_time_is_counted_after_the_command_name() {
        let stat = "42 (my (odd) name) S 1 42 42 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 8 0";
        assert_eq!(stat_cpu_ticks(stat), Some(300));
    }

    #[test]
    fn this_process_can_be_sampled() {
        let s = own().expect("/proc is readable");
        assert!(s.peak_rss_kib >= s.rss_kib);
        assert!(s.rss_kib > 0);
    }
}
