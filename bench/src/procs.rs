//! The processes a benchmark starts, in a directory of its own: each spawned with its
//! log there, sampled, watched for exits, and stopped by PID — the last started first
//! (roles before Redis) — when asked or dropped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use chorus_testkit::launcher::{Output, Proc};

use super::BenchError;
use super::procstat::{ProcSample, sample};

/// Started processes and the directory holding their logs.
pub struct Procs {
    procs: Vec<Proc>,
    dir: PathBuf,
    keep_logs: bool,
    /// The tool named when the kept logs are pointed at (`chorus-bench`).
    tool: &'static str,
    stopped: bool,
}

impl Procs {
    /// An empty group in a new directory `<temp>/<tool>-<pid>-<µs>`; with `keep_logs`
    /// the directory is kept (and printed) on stop, else deleted.
    pub fn in_new_dir(tool: &'static str, keep_logs: bool) -> Result<Procs, BenchError> {
        let dir = std::env::temp_dir().join(format!(
            "{tool}-{}-{}",
            std::process::id(),
            chorus_bus::now_us()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| BenchError::Spawn {
            what: format!("directory {}", dir.display()),
            reason: e.to_string(),
        })?;
        Ok(Procs {
            procs: Vec::new(),
            dir,
            keep_logs,
            tool,
            stopped: false,
        })
    }

    /// The group's directory (logs, and whatever the caller writes there).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Starts `cmd` as `name`, its output in `<dir>/<name>.log`.
    pub fn spawn(&mut self, name: &str, cmd: Command) -> Result<(), BenchError> {
        let log = Output::File(self.dir.join(format!("{name}.log")));
        let proc = Proc::spawn(name, cmd, log).map_err(|e| BenchError::Spawn {
            what: name.into(),
            reason: e.to_string(),
        })?;
        self.procs.push(proc);
        Ok(())
    }

    /// Every started process's name and a sample of its counters (peak RSS, CPU time).
    pub fn sample(&self) -> Vec<(String, ProcSample)> {
        self.procs
            .iter()
            .filter_map(|p| Some((p.name.clone(), sample(p.pid())?)))
            .collect()
    }

    /// Names of started processes that have exited, with the end of their log.
    pub fn exited(&mut self) -> Vec<String> {
        self.procs
            .iter_mut()
            .filter_map(|p| {
                let gone = !p.is_running();
                gone.then(|| format!("{} exited: {}", p.name, p.log_tail(5)))
            })
            .collect()
    }

    /// Stops every process (once): SIGTERM, then SIGKILL after two seconds, the last
    /// started first; then deletes the directory, or prints where the logs are kept.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let deadline = Instant::now() + Duration::from_secs(2);
        for mut p in self.procs.drain(..).rev() {
            p.terminate_by(deadline);
        }
        if self.keep_logs {
            eprintln!("{}: logs kept in {}", self.tool, self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl Drop for Procs {
    fn drop(&mut self) {
        self.stop();
    }
}
