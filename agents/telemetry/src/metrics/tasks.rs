//! Task metrics, kept by the Chief: tasks accepted by door, tasks finished by status,
//! and the end-to-end latency from a request's envelope time to its report.
//!
//! The request time is remembered when the Chief sees the request's envelope and read
//! back when it sees the report. A Chief that did not see the request (another replica
//! took it, or it restarted meanwhile) counts the report but observes no latency.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use chorus_bus::{ReportStatus, TaskId, now_us};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

use super::{families, latency_histogram};

/// How many open tasks' request times are remembered; past it, the oldest half is
/// forgotten (their reports then count without a latency).
const MAX_OPEN: usize = 100_000;

/// The door a task came in by.
#[derive(Debug, Clone, Copy, Hash, PartialEq, Eq)]
pub enum Door {
    /// The HTTP API (`POST /tasks`, `/chat/stream`, A2A, the OpenAI-compatible door).
    Http,
    /// A bare `PUBLISH task_available …`.
    Publish,
    /// A bare `XADD task_available …` read by the Chief.
    Stream,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DoorLabel {
    door: &'static str,
}

impl Door {
    /// The label value (`http`, `publish`, `stream`).
    pub fn as_str(self) -> &'static str {
        match self {
            Door::Http => "http",
            Door::Publish => "publish",
            Door::Stream => "stream",
        }
    }
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StatusLabel {
    status: &'static str,
}

/// The task families.
#[derive(Debug)]
pub(crate) struct TaskFamilies {
    accepted: Family<DoorLabel, Counter>,
    finished: Family<StatusLabel, Counter>,
    duration: Histogram,
    opened: Mutex<HashMap<String, u64>>,
}

impl TaskFamilies {
    pub(crate) fn register(registry: &mut Registry) -> Self {
        let me = TaskFamilies {
            accepted: Family::default(),
            finished: Family::default(),
            duration: latency_histogram(),
            opened: Mutex::new(HashMap::new()),
        };
        registry.register(
            "chorus_tasks_accepted",
            "Tasks accepted (once each), by the door they came in by",
            me.accepted.clone(),
        );
        registry.register(
            "chorus_tasks_finished",
            "Final reports the Chief received, by report status",
            me.finished.clone(),
        );
        registry.register_with_unit(
            "chorus_task_duration",
            "End-to-end task latency: from the request's envelope time to its report at the Chief",
            Unit::Seconds,
            me.duration.clone(),
        );
        me
    }
}

/// A task was accepted (a fresh one, not a repeat of the same id) at `door`.
pub fn accepted(door: Door) {
    families()
        .tasks
        .accepted
        .get_or_create(&DoorLabel {
            door: door.as_str(),
        })
        .inc();
}

/// The Chief saw `task`'s request envelope, written at `sent_us` (µs since the epoch).
pub fn opened(task: &TaskId, sent_us: u64) {
    let mut opened = families()
        .tasks
        .opened
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if opened.len() >= MAX_OPEN {
        let mut times: Vec<u64> = opened.values().copied().collect();
        times.sort_unstable();
        let median = times[times.len() / 2];
        opened.retain(|_, at| *at > median);
    }
    opened.entry(task.to_string()).or_insert(sent_us);
}

/// The Chief received `task`'s final report: counts it by status and observes its
/// latency when the Chief saw the request.
pub fn reported(task: &TaskId, status: ReportStatus) {
    let sent = families()
        .tasks
        .opened
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(task.as_str());
    let took = sent.map(|at| Duration::from_micros(now_us().saturating_sub(at)));
    finished(status, took);
}

/// Counts a finished task by `status`, and observes `took` when known.
pub fn finished(status: ReportStatus, took: Option<Duration>) {
    let f = &families().tasks;
    f.finished
        .get_or_create(&StatusLabel {
            status: status_label(status),
        })
        .inc();
    if let Some(took) = took {
        f.duration.observe(took.as_secs_f64());
    }
}

/// The report status as written on the wire (`completed`, `deadline_exceeded`).
pub fn status_label(status: ReportStatus) -> &'static str {
    match status {
        ReportStatus::Completed => "completed",
        ReportStatus::Partial => "partial",
        ReportStatus::Failed => "failed",
        ReportStatus::DeadlineExceeded => "deadline_exceeded",
        ReportStatus::Unplannable => "unplannable",
        ReportStatus::Unanswered => "unanswered",
        ReportStatus::Canceled => "canceled",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_labels_are_the_wire_names() {
        for status in [
            ReportStatus::Completed,
            ReportStatus::Partial,
            ReportStatus::DeadlineExceeded,
            ReportStatus::Canceled,
        ] {
            let wire = serde_json::to_value(status).expect("serializes");
            assert_eq!(wire.as_str(), Some(status_label(status)));
        }
    }

    #[test]
    fn a_report_after_its_request_observes_the_latency_once() {
        let count = || {
            let text = crate::metrics::render();
            let line = text
                .lines()
                .find(|l| l.starts_with("chorus_task_duration_seconds_count "))
                .map(str::to_owned);
            line.and_then(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
                .expect("a count line")
        };
        let before = count();
        opened(
            &chorus_bus::TaskId::from("tasks-test-latency"),
            now_us().saturating_sub(5_000),
        );
        reported(
            &chorus_bus::TaskId::from("tasks-test-latency"),
            ReportStatus::Partial,
        );
        reported(
            &chorus_bus::TaskId::from("tasks-test-latency"),
            ReportStatus::Partial,
        );
        assert_eq!(count(), before + 1);
    }
}
