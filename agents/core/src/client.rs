//! Asking Chorus a question through the bus, as the CLI and tests do: watch
//! `final_report` first, hand the request to the one way in ([`crate::door::submit`]),
//! and wait for the report of that task (progress events are passed to a callback as
//! they come).

use std::time::{Duration, Instant};

use chorus_bus::{Bus, BusError, FinalReport, Message, Payload, TaskContext, Topic};

use crate::door::{Limits, Submission, SubmitError, submit};

/// Asking failed.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// The bus failed.
    #[error(transparent)]
    Bus(#[from] BusError),
    /// The door refused the request.
    #[error("refused: {0}")]
    Refused(SubmitError),
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
    let topics = [
        Topic::final_report(),
        Topic::plan_ready(),
        Topic::tool_response(),
    ];
    let mut watcher = bus.watch(&topics).await?;
    let submission = Submission {
        context,
        ..Submission::new(query, "cli")
    };
    let accepted = match submit(bus, None, &Limits::default(), submission).await {
        Ok(accepted) => accepted,
        Err(SubmitError::Bus(e)) => return Err(e.into()),
        Err(refused) => return Err(AskError::Refused(refused)),
    };
    let task_id = accepted.message.task_id.to_string();
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
