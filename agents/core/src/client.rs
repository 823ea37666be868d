//! Asking Chorus a question through the bus, as the CLI and tests do: watch
//! `final_report` first, publish the request on `task_available`, and wait for the
//! report of that task (progress events are passed to a callback as they come).

use std::time::{Duration, Instant};

use chorus_bus::{Bus, BusError, FinalReport, Message, Payload, TaskContext, TaskRequest, Topic};
use uuid::Uuid;

/// Asking failed.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// The bus failed.
    #[error(transparent)]
    Bus(#[from] BusError),
    /// No report came in time.
    #[error("no report for task {task_id} within {waited:?}")]
    Timeout {
        /// The task.
        task_id: String,
        /// How long we waited.
        waited: Duration,
    },
}

/// Publishes `query` as a new task and waits up to `timeout` for its final report.
/// `progress` sees every other message of the task as it passes.
pub async fn ask(
    bus: &dyn Bus,
    query: &str,
    context: TaskContext,
    timeout: Duration,
    mut progress: impl FnMut(&Message),
) -> Result<(String, FinalReport), AskError> {
    let task_id = Uuid::now_v7().to_string();
    let mut topics: Vec<Topic> = vec![Topic::final_report(), Topic::plan_ready()];
    topics.push(Topic::tool_response());
    let mut watcher = bus.watch(&topics).await?;
    let request = TaskRequest {
        query: query.to_owned(),
        context,
    };
    let msg = Message::new(
        task_id.clone(),
        Topic::task_available(),
        "cli",
        Payload::TaskAvailable(request),
    );
    bus.publish(&msg).await?;
    let started = Instant::now();
    while started.elapsed() < timeout {
        let batch = tokio::time::timeout(
            timeout.saturating_sub(started.elapsed()),
            watcher.next_batch(),
        )
        .await;
        let Ok(batch) = batch else { break };
        for m in batch? {
            if m.task_id != task_id {
                continue;
            }
            if let Payload::FinalReport(report) = m.payload {
                return Ok((task_id, report));
            }
            progress(&m);
        }
    }
    Err(AskError::Timeout {
        task_id,
        waited: timeout,
    })
}
