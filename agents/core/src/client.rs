//! Asking Chorus through the bus, as the CLI and tests do: watch `final_report` and
//! `clarification_needed` first, hand the request (or the answer to a question) to the
//! one way in ([`crate::door::submit`], [`crate::door::answer`]), and wait for what the
//! task says next — its report, or a question for the user (progress events are passed
//! to a callback as they come).

use std::time::{Duration, Instant};

use chorus_bus::{
    Bus, BusError, ClarificationNeeded, FinalReport, Message, Payload, TaskContext, TaskId, Topic,
    Watcher,
};

use crate::door::{AnswerError, AnswerSubmission, Limits, Submission, SubmitError, submit};
use crate::state::TaskState;

/// Asking failed.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// The bus failed.
    #[error(transparent)]
    Bus(#[from] BusError),
    /// The door refused the request.
    #[error("refused: {0}")]
    Refused(SubmitError),
    /// The door refused the answer.
    #[error("answer refused: {0}")]
    AnswerRefused(AnswerError),
    /// The task asked a question where the caller wanted a report ([`ask`]).
    #[error("task {task_id} asks: {}", .question.question)]
    Asked {
        /// The task.
        task_id: TaskId,
        /// The question.
        question: Box<ClarificationNeeded>,
    },
    /// Nothing came in time.
    #[error("no report for task {task_id} within {waited:?}")]
    Timeout {
        /// The task.
        task_id: TaskId,
        /// How long we waited.
        waited: Duration,
    },
}

/// What a task said next.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Its one final report.
    Report(FinalReport),
    /// A question for the user; the task waits for the answer ([`answer`]).
    Question(ClarificationNeeded),
}

/// The topics a waiting client watches.
fn watched() -> [Topic; 4] {
    [
        Topic::final_report(),
        Topic::clarification_needed(),
        Topic::plan_ready(),
        Topic::tool_response(),
    ]
}

/// Publishes `query` as a new task and waits up to `timeout` for its final report. A
/// question from the task is [`AskError::Asked`]; use [`ask_turn`] to answer it.
pub async fn ask(
    bus: &dyn Bus,
    query: &str,
    context: TaskContext,
    timeout: Duration,
    progress: impl FnMut(&Message),
) -> Result<(TaskId, FinalReport), AskError> {
    match ask_turn(bus, query, context, timeout, progress).await? {
        (task_id, Reply::Report(report)) => Ok((task_id, report)),
        (task_id, Reply::Question(question)) => Err(AskError::Asked {
            task_id,
            question: Box::new(question),
        }),
    }
}

/// Publishes `query` as a new task and waits up to `timeout` for its report or its
/// question. `progress` sees every other message of the task as it passes.
pub async fn ask_turn(
    bus: &dyn Bus,
    query: &str,
    context: TaskContext,
    timeout: Duration,
    progress: impl FnMut(&Message),
) -> Result<(TaskId, Reply), AskError> {
    let mut watcher = bus.watch(&watched()).await?;
    let submission = Submission {
        context,
        ..Submission::new(query, "cli")
    };
    let accepted = match submit(bus, None, &Limits::default(), submission).await {
        Ok(accepted) => accepted,
        Err(SubmitError::Bus(e)) => return Err(e.into()),
        Err(refused) => return Err(AskError::Refused(refused)),
    };
    let task_id = accepted.message.task_id;
    let reply = wait(watcher.as_mut(), &task_id, 0, timeout, progress).await?;
    Ok((task_id, reply))
}

/// Answers question `number` of `task_id` through the one way in for answers and waits
/// up to `timeout` for what the task says next: its report, or another question.
pub async fn answer(
    bus: &dyn Bus,
    state: &TaskState,
    task_id: &TaskId,
    number: u32,
    text: &str,
    timeout: Duration,
    progress: impl FnMut(&Message),
) -> Result<Reply, AskError> {
    let mut watcher = bus.watch(&watched()).await?;
    let submission = AnswerSubmission {
        task_id: task_id.to_string(),
        answer: text.to_owned(),
        question: Some(number),
        from: "cli".to_owned(),
    };
    match crate::door::answer(bus, state, submission).await {
        Ok(_) => {}
        Err(AnswerError::Bus(e)) => return Err(e.into()),
        Err(refused) => return Err(AskError::AnswerRefused(refused)),
    }
    wait(watcher.as_mut(), task_id, number, timeout, progress).await
}

/// Waits for `task_id`'s report, or a question numbered after `after`.
async fn wait(
    watcher: &mut dyn Watcher,
    task_id: &TaskId,
    after: u32,
    timeout: Duration,
    mut progress: impl FnMut(&Message),
) -> Result<Reply, AskError> {
    let started = Instant::now();
    while started.elapsed() < timeout {
        let batch = tokio::time::timeout(
            timeout.saturating_sub(started.elapsed()),
            watcher.next_batch(),
        )
        .await;
        let Ok(batch) = batch else { break };
        for m in batch? {
            if m.task_id != *task_id {
                continue;
            }
            match m.payload {
                Payload::FinalReport(report) => return Ok(Reply::Report(report)),
                Payload::ClarificationNeeded(q) if q.number > after => {
                    return Ok(Reply::Question(q));
                }
                _ => progress(&m),
            }
        }
    }
    Err(AskError::Timeout {
        task_id: task_id.clone(),
        waited: timeout,
    })
}
