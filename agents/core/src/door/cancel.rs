//! [`cancel`]: the one way in for cancellations. Every door — `DELETE /tasks/{id}`, the
//! A2A `CancelTask` method, `chorus cancel ID`, a bare `{"task_id": …}` on `task_cancel`
//! by `XADD` or `PUBLISH` (the Chief) — hands the task id here. A cancellation *is* the
//! task's one final report, status `canceled`, published under the same once-key as
//! every other report: whoever publishes first (the Synthesizer, the deadline, the
//! answer timeout, a cancellation) is the only one, so a task is canceled at most once
//! and never both canceled and answered. Nothing else has to be told: the Router
//! dispatches no step of a reported task (it reads the report's key in the round trip
//! that records each result), the Planner plans no reported task, and results still in
//! flight find the report out and are ignored.

use chorus_bus::{Bus, BusError, FinalReport, Message, Payload, TaskId, Topic};
use tracing::info;

use super::answer::{FromBus, Letter, refused, short};
use crate::report;
use crate::state::{TaskState, once};

/// The value of a task's report once-key when a cancellation set it (every other
/// report sets it to `1`): how a second cancellation knows it repeats the first.
pub const CANCELED: &str = "\u{1}canceled";

/// Longest reason accepted, in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// A cancellation as a door hands it in.
#[derive(Debug, Clone)]
pub struct CancelSubmission {
    /// The task to cancel.
    pub task_id: String,
    /// Why, in the client's words (shown in the report).
    pub reason: Option<String>,
    /// Who cancels (`from_agent` of the report): the door's name or instance.
    pub from: String,
}

/// What [`cancel`] did: the task's one report, as published.
#[derive(Debug, Clone, PartialEq)]
pub struct Canceled {
    /// The report's message on `final_report`.
    pub message: Message,
    /// The report (status `canceled`).
    pub report: FinalReport,
}

/// Why a cancellation was refused. Each refusal leaves the task as it was.
#[derive(Debug, thiserror::Error)]
pub enum CancelError {
    /// The reason is longer than the limit.
    #[error("the reason is too long: {chars} characters, over the limit of {limit}")]
    ReasonTooLong {
        /// Its length in characters.
        chars: usize,
        /// The limit.
        limit: usize,
    },
    /// No such task (never accepted, or expired).
    #[error("no task {0:?} (unknown, or expired)")]
    UnknownTask(String),
    /// The task has its report already (answered, failed or timed out).
    #[error("task {0} is finished; its report is out")]
    Finished(TaskId),
    /// The task was canceled already (its report, status `canceled`, is out).
    #[error("task {0} was canceled already")]
    AlreadyCanceled(TaskId),
    /// The bus or the state store failed; the cancellation may be retried.
    #[error(transparent)]
    Bus(#[from] BusError),
}

impl CancelError {
    /// A stable code for clients (`reason_too_long`, `unknown_task`, `finished`,
    /// `already_canceled`, `bus_unavailable`).
    pub fn code(&self) -> &'static str {
        match self {
            CancelError::ReasonTooLong { .. } => "reason_too_long",
            CancelError::UnknownTask(_) => "unknown_task",
            CancelError::Finished(_) => "finished",
            CancelError::AlreadyCanceled(_) => "already_canceled",
            CancelError::Bus(_) => "bus_unavailable",
        }
    }
}

/// Cancels task `s.task_id`: publishes its one report, status `canceled`, with what had
/// finished by then, unless its report is out already; then takes it off the deadline
/// and answer-timeout watches.
pub async fn cancel(
    bus: &dyn Bus,
    state: &TaskState,
    s: CancelSubmission,
) -> Result<Canceled, CancelError> {
    let reason = s.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
    if let Some(reason) = reason {
        let chars = reason.chars().count();
        if chars > MAX_REASON_CHARS {
            return Err(CancelError::ReasonTooLong {
                chars,
                limit: MAX_REASON_CHARS,
            });
        }
    }
    let task_id =
        TaskId::parse(&s.task_id).map_err(|_| CancelError::UnknownTask(short(&s.task_id)))?;
    let task = &task_id;
    if state.is_reported(task).await? {
        return Err(finished(state, task).await?);
    }
    let plan = match state.plan(task).await? {
        Some(plan) => plan,
        None => {
            let request = match state.request(task).await? {
                Some(request) => request,
                None => match state.waiting(task).await? {
                    Some(waiting) => waiting.request,
                    None => return Err(CancelError::UnknownTask(task.to_string())),
                },
            };
            report::unplanned(request, |language| {
                chorus_heuristic::messages::canceled_before_planning(language)
            })
        }
    };
    let results = state.results(task, plan.iteration).await?;
    let canceled = report::build_canceled(&plan, &results, reason);
    let message = Message::new(
        task_id.clone(),
        Topic::final_report(),
        s.from,
        Payload::FinalReport(canceled.clone()),
    );
    let guard = once::reported(task);
    let item = [(once::published(&guard), message.clone())];
    if bus
        .publish_guarded(&guard, CANCELED, &item, state.ttl())
        .await?
        .is_none()
    {
        return Err(finished(state, task).await?);
    }
    info!(task_id = %task, from = %message.from_agent, "canceled");
    state.close(task).await?;
    state.stop_waiting(task).await?;
    Ok(Canceled {
        message,
        report: canceled,
    })
}

/// Why a task whose report is out cannot be canceled: it was, or it finished.
async fn finished(state: &TaskState, task: &TaskId) -> Result<CancelError, BusError> {
    Ok(match state.store().get(&once::reported(task)).await? {
        Some(v) if v == CANCELED => CancelError::AlreadyCanceled(task.clone()),
        _ => CancelError::Finished(task.clone()),
    })
}

/// [`cancel`] for a cancellation a client put on the bus (XADD or PUBLISH): a refusal,
/// which the client cannot be told directly, becomes one dead letter with the reason
/// and code; a task this door canceled already (a redelivered entry, one PUBLISH heard
/// by several listeners) is no error.
pub async fn cancel_from_bus(
    bus: &dyn Bus,
    state: &TaskState,
    s: CancelSubmission,
    letter: Letter<'_>,
) -> Result<FromBus, BusError> {
    let task_id = s.task_id.clone();
    let why = match cancel(bus, state, s).await {
        Ok(_) => return Ok(FromBus::Accepted),
        Err(CancelError::AlreadyCanceled(_)) => return Ok(FromBus::Duplicate),
        Err(CancelError::Bus(e)) => return Err(e),
        Err(refused) => refused,
    };
    let reason = format!("cancellation refused ({}): {why}", why.code());
    refused(bus, Topic::TASK_CANCEL, letter, &reason, &task_id).await?;
    Ok(FromBus::Refused(why.to_string()))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use chorus_bus::memory::MemoryBus;
    use chorus_bus::{BusSettings, Deadline, ReportStatus, StepOutcome, StepResult, TaskRequest};
    use serde_json::json;

    use super::*;

    fn setup() -> (Arc<MemoryBus>, TaskState) {
        let bus = MemoryBus::new(BusSettings::default());
        let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
        (Arc::new(bus), state)
    }

    fn submission(task: &TaskId, reason: Option<&str>) -> CancelSubmission {
        CancelSubmission {
            task_id: task.to_string(),
            reason: reason.map(str::to_owned),
            from: "test".to_owned(),
        }
    }

    async fn open(state: &TaskState, task: &TaskId, query: &str) {
        let request = TaskRequest {
            query: query.to_owned(),
            context: Default::default(),
        };
        state
            .open(task, &request, Deadline::after(Duration::from_secs(30)))
            .await
            .expect("open");
    }

    #[tokio::test]
    async fn a_running_task_is_canceled_once_with_what_had_finished() {
        let (bus, state) = setup();
        open(&state, &chorus_bus::TaskId::from("t1"), "(2+4)*3").await;
        let plan: chorus_bus::PlanReady = serde_json::from_value(json!({
            "query": "(2+4)*3", "context": {}, "language": "en", "planner": "heuristic",
            "plan": {"steps": [
                {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"}},
                {"id": "s2", "pool": "math", "tool": "multiply",
                 "arguments": {"a": {"$ref": "s1"}, "b": "3"}, "output": true}
            ]}
        }))
        .expect("plan");
        state
            .put_plan_once(&chorus_bus::TaskId::from("t1"), plan)
            .await
            .expect("plan");
        let sum = StepResult {
            step_id: "s1".into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: Default::default(),
            outcome: StepOutcome::Ok {
                value: json!("6"),
                text: "6".into(),
            },
            agent: "pool-math".into(),
            elapsed_us: 10,
            iteration: 1,
        };
        state
            .put_result(&chorus_bus::TaskId::from("t1"), &sum)
            .await
            .expect("result");

        let canceled = cancel(
            bus.as_ref(),
            &state,
            submission(&chorus_bus::TaskId::from("t1"), Some("changed my mind")),
        )
        .await
        .expect("canceled");
        let report = &canceled.report;
        assert_eq!(report.status, ReportStatus::Canceled);
        assert!(
            report.text.contains("canceled at your request"),
            "{}",
            report.text
        );
        assert!(report.text.contains("changed my mind"), "{}", report.text);
        let outcomes: Vec<Option<bool>> = report
            .steps
            .iter()
            .map(|s| s.outcome.as_ref().map(StepOutcome::is_ok))
            .collect();
        assert_eq!(outcomes, [Some(true), None], "s1 had finished, s2 had not");
        assert_eq!(bus.len(&Topic::final_report()), 1);
        assert!(
            state
                .is_reported(&chorus_bus::TaskId::from("t1"))
                .await
                .expect("read")
        );
        assert!(
            state.due(u64::MAX, 10).await.expect("due").is_empty(),
            "closed"
        );

        let again = cancel(
            bus.as_ref(),
            &state,
            submission(&chorus_bus::TaskId::from("t1"), None),
        )
        .await
        .expect_err("twice");
        assert_eq!(again.code(), "already_canceled");
        assert_eq!(bus.len(&Topic::final_report()), 1, "still one report");
    }

    #[tokio::test]
    async fn a_task_not_planned_yet_is_canceled_in_its_language() {
        let (bus, state) = setup();
        open(&state, &chorus_bus::TaskId::from("t2"), "tính 2+4").await;
        let canceled = cancel(
            bus.as_ref(),
            &state,
            submission(&chorus_bus::TaskId::from("t2"), None),
        )
        .await
        .expect("canceled");
        assert_eq!(canceled.report.status, ReportStatus::Canceled);
        assert_eq!(canceled.report.language, "vi");
        assert!(
            canceled.report.text.contains("đã hủy"),
            "{}",
            canceled.report.text
        );
        assert!(canceled.report.steps.is_empty());
    }

    #[tokio::test]
    async fn unknown_finished_and_badly_reasoned_cancellations_are_refused_and_publish_nothing() {
        let (bus, state) = setup();
        let unknown = cancel(
            bus.as_ref(),
            &state,
            submission(&chorus_bus::TaskId::from("nope"), None),
        )
        .await
        .expect_err("unknown");
        assert_eq!(unknown.code(), "unknown_task");
        let invalid = cancel(
            bus.as_ref(),
            &state,
            submission(&chorus_bus::TaskId::from("no spaces please"), None),
        )
        .await
        .expect_err("invalid id");
        assert_eq!(invalid.code(), "unknown_task");

        open(&state, &chorus_bus::TaskId::from("t3"), "2+4").await;
        let done = Message::new(
            "t3",
            Topic::final_report(),
            "synthesizer",
            Payload::FinalReport(FinalReport {
                query: "2+4".into(),
                status: ReportStatus::Completed,
                text: "2 + 4 = 6".into(),
                language: chorus_bus::Language::En,
                steps: Vec::new(),
                written_by: "template".into(),
                iterations: 1,
                retried: Vec::new(),
            }),
        );
        assert!(
            bus.publish_once(&once::reported(&"t3".into()), state.ttl(), &done)
                .await
                .expect("report")
        );
        let finished = cancel(
            bus.as_ref(),
            &state,
            submission(&chorus_bus::TaskId::from("t3"), None),
        )
        .await
        .expect_err("finished");
        assert_eq!(finished.code(), "finished");

        open(&state, &chorus_bus::TaskId::from("t4"), "2+4").await;
        let long = "x".repeat(MAX_REASON_CHARS + 1);
        let too_long = cancel(
            bus.as_ref(),
            &state,
            submission(&chorus_bus::TaskId::from("t4"), Some(&long)),
        )
        .await
        .expect_err("too long");
        assert_eq!(too_long.code(), "reason_too_long");
        assert!(
            !state
                .is_reported(&chorus_bus::TaskId::from("t4"))
                .await
                .expect("read")
        );
        assert_eq!(bus.len(&Topic::final_report()), 1, "only t3's report");
    }
}
