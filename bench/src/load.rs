//! The load generator: keeps `concurrency` tasks in flight until `tasks` have finished.
//! One watcher on `final_report` serves every task in flight (a map from task id to its
//! start), and freed slots are refilled with one pipelined `publish_many`, so the client
//! adds one read and one write per batch, not per task.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use chorus_bus::{
    Bus, Deadline, Message, Payload, ReportStatus, TaskId, TaskRequest, Topic, now_us,
};

use super::BenchError;

/// What one load run measured.
#[derive(Debug, Default)]
pub struct LoadResult {
    /// End-to-end latency of every finished task (publish → report seen), in µs.
    pub latencies_us: Vec<u64>,
    /// Wall time from the first publish to the last report.
    pub elapsed: Duration,
    /// When the client saw each task's report (µs since the epoch), by task id.
    pub received_us: HashMap<String, u64>,
    /// Reports whose status was not `completed`, counted by status.
    pub not_completed: BTreeMap<String, usize>,
    /// The text of the first report that was not `completed`.
    pub first_failure: Option<String>,
}

/// How to load the system.
#[derive(Debug, Clone)]
pub struct Load {
    /// The query of every task.
    pub query: String,
    /// Tasks to finish.
    pub tasks: usize,
    /// Tasks in flight at once.
    pub concurrency: usize,
    /// The deadline given to each task.
    pub deadline: Duration,
    /// Give up when no report arrives for this long.
    pub stall: Duration,
}

/// A new task request as any client would publish it.
fn new_task(query: &str, deadline: Duration) -> Message {
    let request = TaskRequest {
        query: query.to_owned(),
        context: Default::default(),
    };
    let mut msg = Message::new(
        TaskId::generate(),
        Topic::task_available(),
        "bench",
        Payload::TaskAvailable(request),
    );
    msg.deadline_ms = Some(Deadline::after(deadline));
    msg
}

/// Runs `load` against the system behind `bus` and returns what it measured.
pub async fn run(bus: &dyn Bus, load: &Load) -> Result<LoadResult, BenchError> {
    let mut watcher = bus.watch(&[Topic::final_report()]).await?;
    let concurrency = load.concurrency.max(1);
    let mut in_flight: HashMap<String, Instant> = HashMap::with_capacity(concurrency);
    let mut out = LoadResult {
        latencies_us: Vec::with_capacity(load.tasks),
        received_us: HashMap::with_capacity(load.tasks),
        ..Default::default()
    };
    let mut sent = 0;
    let started = Instant::now();
    let mut last_progress = started;
    loop {
        let free = (concurrency - in_flight.len()).min(load.tasks - sent);
        if free > 0 {
            let msgs: Vec<Message> = (0..free)
                .map(|_| new_task(&load.query, load.deadline))
                .collect();
            let at = Instant::now();
            if let [one] = msgs.as_slice() {
                bus.publish(one).await?;
            } else {
                bus.publish_many(&msgs).await?;
            }
            in_flight.extend(msgs.into_iter().map(|m| (m.task_id.to_string(), at)));
            sent += free;
        }
        if in_flight.is_empty() {
            break;
        }
        let batch = watcher.next_batch().await?;
        let now = Instant::now();
        let wall = now_us();
        for m in batch {
            let Some(at) = in_flight.remove(m.task_id.as_str()) else {
                continue;
            };
            out.latencies_us
                .push(now.duration_since(at).as_micros() as u64);
            if let Payload::FinalReport(report) = &m.payload
                && report.status != ReportStatus::Completed
            {
                let status = format!("{:?}", report.status);
                *out.not_completed.entry(status).or_default() += 1;
                if out.first_failure.is_none() {
                    out.first_failure = Some(format!("task {}: {}", m.task_id, report.text));
                }
            }
            out.received_us.insert(m.task_id.to_string(), wall);
            last_progress = now;
        }
        if last_progress.elapsed() > load.stall {
            return Err(BenchError::Stalled {
                done: out.latencies_us.len(),
                total: load.tasks,
                waited: load.stall,
                exited: Vec::new(),
            });
        }
    }
    out.elapsed = started.elapsed();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_task_carries_the_query_and_a_deadline() {
        let m = new_task("2+4", Duration::from_secs(10));
        let Payload::TaskAvailable(r) = &m.payload else {
            panic!("not a request")
        };
        assert_eq!(r.query, "2+4");
        assert_eq!(m.topic, Topic::task_available());
        let deadline = m.deadline_ms.expect("deadline");
        assert!(deadline >= m.timestamp_us / 1000 + 9_000);
    }
}
