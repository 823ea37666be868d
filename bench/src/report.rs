//! The benchmark's report: everything one run measured, printed for people and as one
//! JSON object (the last line with `--json`, for scripts such as `bench/compare.sh`).

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::procstat::ProcSample;
use super::stats::{Percentiles, fmt_ms, ms};

/// One process's figures over the measured run.
#[derive(Debug, Clone)]
pub struct ProcessFigures {
    /// Its name (`chief`, `pool-math-0`, `redis-server`, `bench client`…).
    pub name: String,
    /// Counters after the run.
    pub after: ProcSample,
    /// CPU time spent during the measured run, in ms.
    pub cpu_ms: u64,
}

/// Everything one run measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// The query of every task.
    pub query: String,
    /// Measured tasks.
    pub tasks: usize,
    /// Tasks in flight at once.
    pub concurrency: usize,
    /// The Redis used.
    pub redis_url: String,
    /// Whether the benchmark started the system itself.
    pub spawned: bool,
    /// End-to-end latency.
    pub latency: Percentiles,
    /// Wall time of the measured run.
    pub elapsed: Duration,
    /// Reports not `completed`, by status.
    pub not_completed: BTreeMap<String, usize>,
    /// The text of the first report that was not `completed`.
    pub first_failure: Option<String>,
    /// Per-hop latency.
    pub hops: Vec<(String, Option<Percentiles>)>,
    /// Redis commands during the measured run, by command.
    pub commands: BTreeMap<String, u64>,
    /// Redis CPU time during the measured run, in ms.
    pub redis_cpu_ms: f64,
    /// Per-process figures (spawned processes and the client).
    pub processes: Vec<ProcessFigures>,
    /// With `--traces`: OTLP export requests and bytes the sink received (whole run).
    pub otlp: Option<(u64, u64)>,
}

impl BenchReport {
    /// Finished tasks per second.
    pub fn tasks_per_s(&self) -> f64 {
        self.latency.count as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    fn per_task(&self, n: f64) -> f64 {
        n / self.latency.count.max(1) as f64
    }

    /// Redis commands per finished task.
    pub fn commands_per_task(&self) -> f64 {
        self.per_task(self.commands.values().sum::<u64>() as f64)
    }

    /// CPU per task summed over processes, in ms: every process, and every one but
    /// Redis and the benchmark's client (the roles and the MCP servers).
    pub fn cpu_per_task(&self) -> (f64, f64) {
        let sum = |keep: &dyn Fn(&str) -> bool| {
            let ms: u64 = self
                .processes
                .iter()
                .filter(|p| keep(&p.name))
                .map(|p| p.cpu_ms)
                .sum();
            self.per_task(ms as f64)
        };
        (
            sum(&|_| true),
            sum(&|n| n != "bench client" && !n.starts_with("redis")),
        )
    }

    /// The report for people.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let l = &self.latency;
        let who = if self.spawned { "spawned" } else { "running" };
        s += &format!(
            "chorus-bench: {:?}, {} tasks, concurrency {}, {who} system on {}\n",
            self.query, self.tasks, self.concurrency, self.redis_url
        );
        s += &format!(
            "end-to-end latency: p50 {}  p90 {}  p99 {}  max {}  mean {}\n",
            fmt_ms(l.p50),
            fmt_ms(l.p90),
            fmt_ms(l.p99),
            fmt_ms(l.max),
            fmt_ms(l.mean)
        );
        s += &format!(
            "throughput: {:.0} tasks/s ({} tasks in {:.3} s)\n",
            self.tasks_per_s(),
            l.count,
            self.elapsed.as_secs_f64()
        );
        if let Some((requests, bytes)) = self.otlp {
            s += &format!("traces exported (whole run): {requests} OTLP requests, {bytes} bytes\n");
        }
        if self.not_completed.is_empty() {
            s += "reports: all completed\n";
        } else {
            s += &format!("reports NOT completed: {:?}\n", self.not_completed);
            if let Some(text) = &self.first_failure {
                s += &format!("  first: {}\n", text.replace('\n', " "));
            }
        }
        s += "per-hop latency (from message timestamps):  p50 / p99\n";
        for (name, p) in &self.hops {
            match p {
                Some(p) => {
                    s += &format!("  {name:<50} {:>10} / {}\n", fmt_ms(p.p50), fmt_ms(p.p99))
                }
                None => s += &format!("  {name:<50} (no samples)\n"),
            }
        }
        let mut top: Vec<(&String, &u64)> = self.commands.iter().collect();
        top.sort_by(|a, b| b.1.cmp(a.1));
        let top: Vec<String> = top
            .iter()
            .take(12)
            .map(|(c, n)| format!("{c} {:.2}", self.per_task(**n as f64)))
            .collect();
        s += &format!(
            "redis: {:.1} commands per task ({}); redis CPU {:.3} ms per task\n",
            self.commands_per_task(),
            top.join(", "),
            self.per_task(self.redis_cpu_ms)
        );
        s += "processes: peak RSS (VmHWM), RSS now, CPU per task during the run\n";
        for p in &self.processes {
            s += &format!(
                "  {:<16} {:>7.1} MiB {:>7.1} MiB {:>9.3} ms/task\n",
                p.name,
                p.after.peak_rss_kib as f64 / 1024.0,
                p.after.rss_kib as f64 / 1024.0,
                self.per_task(p.cpu_ms as f64)
            );
        }
        let (all, roles) = self.cpu_per_task();
        s += &format!(
            "CPU per task: {all:.3} ms every process, {roles:.3} ms without Redis and the client\n"
        );
        s
    }

    /// The report as one JSON object.
    pub fn json(&self) -> Value {
        let l = &self.latency;
        let hops: Map<String, Value> = self
            .hops
            .iter()
            .map(|(n, p)| ((*n).to_owned(), p.map_or(Value::Null, |p| json!(ms(p.p50)))))
            .collect();
        let commands: Map<String, Value> = self
            .commands
            .iter()
            .map(|(c, n)| (c.clone(), json!(round3(self.per_task(*n as f64)))))
            .collect();
        let processes: Vec<Value> = self
            .processes
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "peak_rss_mib": round3(p.after.peak_rss_kib as f64 / 1024.0),
                    "cpu_ms_per_task": round3(self.per_task(p.cpu_ms as f64)),
                })
            })
            .collect();
        json!({
            "query": self.query,
            "tasks": l.count,
            "concurrency": self.concurrency,
            "p50_ms": ms(l.p50),
            "p90_ms": ms(l.p90),
            "p99_ms": ms(l.p99),
            "max_ms": ms(l.max),
            "mean_ms": ms(l.mean),
            "tasks_per_s": round3(self.tasks_per_s()),
            "elapsed_s": round3(self.elapsed.as_secs_f64()),
            "not_completed": self.not_completed,
            "hops_p50_ms": hops,
            "redis_commands_per_task": round3(self.commands_per_task()),
            "redis_commands_per_task_by_command": commands,
            "redis_cpu_ms_per_task": round3(self.per_task(self.redis_cpu_ms)),
            "processes": processes,
            "cpu_ms_per_task_all": round3(self.cpu_per_task().0),
            "cpu_ms_per_task_without_redis_and_client": round3(self.cpu_per_task().1),
            "otlp_requests": self.otlp.map(|(r, _)| r),
            "otlp_bytes": self.otlp.map(|(_, b)| b),
        })
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> BenchReport {
        BenchReport {
            query: "2+4".into(),
            tasks: 4,
            concurrency: 2,
            redis_url: "redis://127.0.0.1:1".into(),
            spawned: true,
            latency: Percentiles::of(&mut [1000, 1200, 1400, 3000]).expect("sample"),
            elapsed: Duration::from_millis(2),
            not_completed: BTreeMap::new(),
            first_failure: None,
            hops: vec![(
                super::super::hops::labels(&[])[0].clone(),
                Percentiles::of(&mut [300]),
            )],
            commands: BTreeMap::from([("xadd".to_owned(), 20), ("evalsha".to_owned(), 12)]),
            redis_cpu_ms: 1.0,
            processes: vec![ProcessFigures {
                name: "chief".into(),
                after: ProcSample {
                    peak_rss_kib: 10240,
                    rss_kib: 9000,
                    cpu_ms: 100,
                },
                cpu_ms: 4,
            }],
            otlp: Some((3, 4096)),
        }
    }

    #[test]
    fn json_carries_the_keys_scripts_read() {
        let j = report().json();
        assert_eq!(j["p50_ms"], json!(1.2));
        assert_eq!(j["p99_ms"], json!(3.0));
        assert_eq!(j["tasks_per_s"], json!(2000.0));
        assert_eq!(j["redis_commands_per_task"], json!(8.0));
        assert_eq!(j["redis_commands_per_task_by_command"]["xadd"], json!(5.0));
        assert_eq!(j["processes"][0]["peak_rss_mib"], json!(10.0));
        assert_eq!(j["otlp_requests"], json!(3));
        assert_eq!(j["otlp_bytes"], json!(4096));
        assert_eq!(j["processes"][0]["cpu_ms_per_task"], json!(1.0));
        assert_eq!(j["cpu_ms_per_task_all"], json!(1.0));
        assert_eq!(j["cpu_ms_per_task_without_redis_and_client"], json!(1.0));
    }

    #[test]
    fn text_names_the_figures() {
        let t = report().text();
        assert!(t.contains("p50 1.200 ms"), "{t}");
        assert!(t.contains("2000 tasks/s"), "{t}");
        assert!(t.contains("8.0 commands per task"), "{t}");
        assert!(t.contains("reports: all completed"), "{t}");
    }
}
