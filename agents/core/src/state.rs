//! Per-task state in the shared [`Store`]: the plan, step results, once-only flags and
//! deadlines. Key names live here (and, for a task's question and a session's turns, in
//! `question.rs` and `session.rs`); every write carries the state TTL, and any replica
//! of any role can carry on any task. Once a task's report is out, [`TaskState::finish`]
//! shrinks its state to the report, the report's once-key and the acceptance record,
//! kept for `bus.finished_ttl_secs`, and deletes the rest in one round trip.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chorus_bus::keys;
use chorus_bus::store::Retirement;
use chorus_bus::{
    BusError, Deadline, FinalReport, PlanReady, StepId, StepResult, Store, TaskId, TaskRequest,
};

/// The sorted set of open tasks scored by deadline (ms since the epoch).
pub const DEADLINES_KEY: &str = keys::DEADLINES;

/// What [`TaskState::record_result`] read back.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The task's plan (the latest attempt's), when stored.
    pub plan: Option<PlanReady>,
    /// Every result of the recorded result's attempt so far, by step id.
    pub results: HashMap<StepId, StepResult>,
    /// Whether the task's one report is out already.
    pub reported: bool,
}

/// Typed access to a task's state.
#[derive(Clone)]
pub struct TaskState {
    store: Arc<dyn Store>,
    ttl: Duration,
    session_ttl: Duration,
    finished_ttl: Duration,
    max_questions: u32,
}

use chorus_bus::keys::{
    plan as plan_key, report as report_key, request as request_key, results as results_key,
};

/// What [`TaskState::finish`] keeps, sets and deletes for a task whose report (`json`)
/// is out. Keys of every attempt the report counts and of every step it names are
/// deleted (a step's attempt keys exist only for attempts it ran in; deleting an absent
/// key costs nothing), and of every question up to `max_questions`.
fn retirement(
    task: &TaskId,
    report: &FinalReport,
    json: String,
    max_questions: u32,
    ttl: Duration,
) -> Retirement {
    let mut delete = vec![
        plan_key(task),
        request_key(task),
        once::planned(task),
        once::writing(task),
        once::published(&once::accepted(task)),
        once::published(&once::reported(task)),
    ];
    for n in 1..=report.iterations.max(1) {
        delete.push(results_key(task, n));
        delete.push(once::verdict(task, n));
        delete.push(once::renavigate(task, n));
        if n > 1 {
            delete.push(once::replanned(task, n));
        }
        for step in &report.steps {
            let step = step.step_id.as_str();
            delete.push(once::dispatched(task, step, n));
            delete.push(once::response(task, step, n));
            delete.push(once::result(task, step, n));
        }
    }
    let (questions, asked) = crate::question::keys(task, max_questions);
    delete.extend(asked);
    let mut keep = vec![
        once::reported(task),
        once::accepted(task),
        format!("{}{task}", chorus_bus::tokens::TOKEN_STREAM_PREFIX),
    ];
    keep.extend(questions);
    Retirement {
        set: vec![(report_key(task), json)],
        keep,
        delete,
        zrem: vec![
            (DEADLINES_KEY.to_owned(), task.to_string()),
            (crate::question::WAITING_KEY.to_owned(), task.to_string()),
        ],
        ttl,
    }
}

/// Once-keys (see [`chorus_bus::keys::once`]).
pub use chorus_bus::keys::once;

impl TaskState {
    /// State over `store`, every key expiring after `ttl`.
    pub fn new(store: Arc<dyn Store>, ttl: Duration) -> Self {
        let defaults = chorus_bus::BusSettings::default();
        TaskState {
            store,
            ttl,
            session_ttl: crate::session::DEFAULT_SESSION_TTL,
            finished_ttl: defaults.finished_ttl(),
            max_questions: crate::settings::AgentSettings::default().max_questions,
        }
    }

    /// State over `store` with the TTLs `settings` give (`bus.state_ttl_secs`,
    /// `bus.finished_ttl_secs`, `agents.session_ttl_secs`).
    pub fn for_settings(store: Arc<dyn Store>, settings: &crate::settings::Settings) -> Self {
        TaskState {
            store,
            ttl: settings.state_ttl(),
            session_ttl: settings.session_ttl(),
            finished_ttl: settings.bus.finished_ttl(),
            max_questions: settings.agents.max_questions,
        }
    }

    /// The same state with finished tasks kept for `ttl`.
    pub fn with_finished_ttl(mut self, ttl: Duration) -> Self {
        self.finished_ttl = ttl;
        self
    }

    /// How long a finished task's report and records are kept after the report.
    pub fn finished_ttl(&self) -> Duration {
        self.finished_ttl
    }

    /// The TTL of task state.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// How long a session's turns are kept after its last turn.
    pub fn session_ttl(&self) -> Duration {
        self.session_ttl
    }

    /// The underlying store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Stores `plan` unless the task has one already, and returns the stored plan (this
    /// one, or the one stored first).
    pub async fn put_plan_once(
        &self,
        task: &TaskId,
        plan: PlanReady,
    ) -> Result<PlanReady, BusError> {
        let json = serde_json::to_string(&plan).map_err(chorus_bus::DecodeError::from)?;
        if self.store.set_nx(&plan_key(task), &json, self.ttl).await? {
            return Ok(plan);
        }
        Ok(self.plan(task).await?.unwrap_or(plan))
    }

    /// The key `plan` is stored under and its stored form, for storing it together with
    /// its first messages (`Bus::publish_guarded`).
    pub fn plan_entry(
        &self,
        task: &TaskId,
        plan: &PlanReady,
    ) -> Result<(String, String), BusError> {
        let json = serde_json::to_string(plan).map_err(chorus_bus::DecodeError::from)?;
        Ok((plan_key(task), json))
    }

    /// The plan, when one was stored.
    pub async fn plan(&self, task: &TaskId) -> Result<Option<PlanReady>, BusError> {
        match self.store.get(&plan_key(task)).await? {
            Some(json) => Ok(Some(
                serde_json::from_str(&json).map_err(chorus_bus::DecodeError::from)?,
            )),
            None => Ok(None),
        }
    }

    /// Replaces the stored plan by the plan of a later attempt (the Planner's re-plan;
    /// the new plan is the same whoever makes it, so a racing replica writes the same).
    pub async fn replace_plan(&self, task: &TaskId, plan: &PlanReady) -> Result<(), BusError> {
        let json = serde_json::to_string(plan).map_err(chorus_bus::DecodeError::from)?;
        self.store.set(&plan_key(task), &json, self.ttl).await
    }

    /// Records a step result once per attempt (the first result of a step in its
    /// attempt wins).
    pub async fn put_result(&self, task: &TaskId, result: &StepResult) -> Result<bool, BusError> {
        let json = serde_json::to_string(result).map_err(chorus_bus::DecodeError::from)?;
        self.store
            .hset_nx(
                &results_key(task, result.iteration),
                &result.step_id,
                &json,
                self.ttl,
            )
            .await
    }

    /// Records a step result once (in its attempt's results) and, in the same round
    /// trip, reads the task's plan, every result of that attempt so far (this one
    /// included) and whether the task's report is out (finished, timed out or
    /// canceled: then nothing more goes out, and nothing is recorded, so a late result
    /// does not bring back the results [`TaskState::finish`] deleted). The plan read may
    /// be a later attempt's: the caller compares.
    pub async fn record_result(
        &self,
        task: &TaskId,
        result: &StepResult,
    ) -> Result<Recorded, BusError> {
        let json = serde_json::to_string(result).map_err(chorus_bus::DecodeError::from)?;
        let read = self
            .store
            .hset_nx_and_read_unless(
                &once::reported(task),
                &results_key(task, result.iteration),
                &result.step_id,
                &json,
                self.ttl,
                &[&plan_key(task)],
            )
            .await?;
        let Some(read) = read else {
            return Ok(Recorded {
                plan: None,
                results: HashMap::new(),
                reported: true,
            });
        };
        let plan = match read.others.into_iter().next().flatten() {
            Some(json) => Some(serde_json::from_str(&json).map_err(chorus_bus::DecodeError::from)?),
            None => None,
        };
        let results = read
            .hash
            .into_iter()
            .filter_map(|(k, v)| serde_json::from_str(&v).ok().map(|r| (StepId::from(k), r)))
            .collect();
        Ok(Recorded {
            plan,
            results,
            reported: false,
        })
    }

    /// Every recorded result of attempt `iteration` by step id (unreadable entries
    /// skipped).
    pub async fn results(
        &self,
        task: &TaskId,
        iteration: u32,
    ) -> Result<HashMap<StepId, StepResult>, BusError> {
        let fields = self.store.hgetall(&results_key(task, iteration)).await?;
        Ok(fields
            .into_iter()
            .filter_map(|(k, v)| serde_json::from_str(&v).ok().map(|r| (StepId::from(k), r)))
            .collect())
    }

    /// Stores the request and its deadline, opening the task for the deadline watch, in
    /// one step — unless its report is out (a late or redelivered request must not bring
    /// back the state [`TaskState::finish`] deleted, nor a deadline).
    pub async fn open(
        &self,
        task: &TaskId,
        request: &TaskRequest,
        deadline: Deadline,
    ) -> Result<(), BusError> {
        let json = serde_json::to_string(request).map_err(chorus_bus::DecodeError::from)?;
        self.store
            .set_and_zadd_unless(
                &once::reported(task),
                &request_key(task),
                &json,
                self.ttl,
                DEADLINES_KEY,
                task,
                deadline.score(),
            )
            .await
            .map(|_| ())
    }

    /// The request as the Chief stored it; once the task is finished (its request key
    /// deleted), the request its acceptance record holds (doors that keep task state
    /// store the request there as its fingerprint), so a finished task is still known.
    pub async fn request(&self, task: &TaskId) -> Result<Option<TaskRequest>, BusError> {
        let json = match self.store.get(&request_key(task)).await? {
            Some(json) => json,
            None => match self.store.get(&once::accepted(task)).await? {
                Some(json) => json,
                None => return Ok(None),
            },
        };
        Ok(serde_json::from_str(&json).ok())
    }

    /// Tasks whose deadline is at or before `now_ms`, at most `limit`.
    pub async fn due(&self, now_ms: u64, limit: usize) -> Result<Vec<TaskId>, BusError> {
        let due = self
            .store
            .zrange_to(
                DEADLINES_KEY,
                i64::try_from(now_ms).unwrap_or(i64::MAX),
                limit,
            )
            .await?;
        Ok(due.into_iter().map(TaskId::from).collect())
    }

    /// Stores the task's final report (for clients that poll), for the finished TTL
    /// like every record of a finished task (a door storing it before or after the
    /// Chief's [`TaskState::finish`] gives it the same lifetime).
    pub async fn put_report(&self, task: &TaskId, report: &FinalReport) -> Result<(), BusError> {
        let json = serde_json::to_string(report).map_err(chorus_bus::DecodeError::from)?;
        self.store
            .set(&report_key(task), &json, self.finished_ttl)
            .await
    }

    /// The task's final report, once it is out.
    pub async fn report(&self, task: &TaskId) -> Result<Option<FinalReport>, BusError> {
        match self.store.get(&report_key(task)).await? {
            Some(json) => Ok(serde_json::from_str(&json).ok()),
            None => Ok(None),
        }
    }

    /// Whether the task's one final report was published (by whoever wrote it).
    pub async fn is_reported(&self, task: &TaskId) -> Result<bool, BusError> {
        Ok(self.store.get(&once::reported(task)).await?.is_some())
    }

    /// Closes the task for the deadline watch (its report is out).
    pub async fn close(&self, task: &TaskId) -> Result<(), BusError> {
        self.store.zrem(DEADLINES_KEY, task).await.map(|_| ())
    }

    /// Stores the task's final report and shrinks its state to what is still needed,
    /// in one round trip: the report (for clients that poll), the report's once-key
    /// (what late deliveries, cancellations and answers read to find the task finished)
    /// and the acceptance record (the same task id is still the same task), each kept
    /// for the finished TTL; the task leaves the deadline and waiting sets; its plan,
    /// request, results, question records and every other once-key are deleted. A
    /// session's turns are the session's, and keep their own TTL.
    pub async fn finish(&self, task: &TaskId, report: &FinalReport) -> Result<(), BusError> {
        let json = serde_json::to_string(report).map_err(chorus_bus::DecodeError::from)?;
        self.store
            .retire(&retirement(
                task,
                report,
                json,
                self.max_questions,
                self.finished_ttl,
            ))
            .await
    }

    /// Opens a task nobody opened (a plan published straight onto `plan_ready`, not
    /// through the Chief) for the deadline watch, so that it ends in a report whatever
    /// stalls it; a task the Chief opened (its request is stored) is left as it is.
    /// Returns whether it was opened here.
    pub async fn open_unless_known(
        &self,
        task: &TaskId,
        request: &TaskRequest,
        deadline: Deadline,
    ) -> Result<bool, BusError> {
        if self.store.get(&request_key(task)).await?.is_some() {
            return Ok(false);
        }
        self.open(task, request, deadline).await?;
        Ok(true)
    }
}

#[cfg(test)]
mod retention_tests {
    use chorus_bus::memory::MemoryBus;
    use chorus_bus::{Bus, BusSettings, Message, Payload, StepOutcome, Topic};
    use serde_json::json;

    use super::*;
    use crate::door::{CancelError, CancelSubmission, Limits, Submission, cancel, submit};

    fn result(step: &str) -> StepResult {
        StepResult {
            step_id: step.into(),
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
        }
    }

    #[tokio::test]
    async fn a_finished_task_keeps_its_report_and_records_for_the_finished_ttl_only() {
        let bus = MemoryBus::new(BusSettings::default());
        let store = bus.store();
        let finished = Duration::from_secs(30);
        let state = TaskState::new(Arc::new(store.clone()), Duration::from_secs(86_400))
            .with_finished_ttl(finished);
        let mut s = Submission::new("2+4", "test");
        s.task_id = Some("t1".into());
        let limits = Limits {
            deadline: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        assert!(
            submit(&bus, Some(&state), &limits, s.clone())
                .await
                .expect("submit")
                .fresh
        );
        let plan: PlanReady = serde_json::from_value(json!({
            "query": "2+4", "context": {}, "language": "en", "planner": "heuristic",
            "plan": {"steps": [
                {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"},
                 "output": true}
            ]}
        }))
        .expect("plan");
        state
            .put_plan_once(&chorus_bus::TaskId::from("t1"), plan.clone())
            .await
            .expect("plan");
        let ttl = state.ttl();
        let step = Message::new(
            "t1",
            Topic::pool_task("math"),
            "test",
            Payload::PlanReady(plan.clone()),
        );
        for key in [
            once::planned("t1"),
            once::dispatched("t1", "s1", 1),
            once::result("t1", "s1", 1),
            once::verdict("t1", 1),
        ] {
            assert!(bus.publish_once(&key, ttl, &step).await.expect("once"));
        }
        let recorded = state
            .record_result(&chorus_bus::TaskId::from("t1"), &result("s1"))
            .await
            .expect("record");
        assert!(!recorded.reported);
        let report = crate::report::build(&plan, &recorded.results);
        let out = Message::new(
            "t1",
            Topic::final_report(),
            "test",
            Payload::FinalReport(report.clone()),
        );
        assert!(
            bus.publish_once(&once::reported("t1"), ttl, &out)
                .await
                .expect("report")
        );
        let before = store.keys_with_ttl(&keys::task_prefix("t1"));
        assert!(before.len() >= 9, "{before:?}");

        state
            .finish(&chorus_bus::TaskId::from("t1"), &report)
            .await
            .expect("finish");

        let left = store.keys_with_ttl(&keys::task_prefix("t1"));
        let names: Vec<&str> = left.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "chorus:{t1}:once:accepted",
                "chorus:{t1}:once:final",
                "chorus:{t1}:report"
            ]
        );
        assert!(
            left.iter().all(|(_, t)| t.is_some_and(|t| t <= finished)),
            "{left:?}"
        );
        assert!(state.due(u64::MAX, 10).await.expect("due").is_empty());
        assert_eq!(
            state
                .report(&chorus_bus::TaskId::from("t1"))
                .await
                .expect("read"),
            Some(report)
        );
        // The same id with the same request is still the same task, refused with another.
        assert!(
            !submit(&bus, Some(&state), &limits, s.clone())
                .await
                .expect("again")
                .fresh
        );
        let mut other = s.clone();
        other.query = "7*7".into();
        assert!(submit(&bus, Some(&state), &limits, other).await.is_err());
        // The request is still known, from the acceptance record.
        let request = TaskRequest {
            query: "2+4".into(),
            context: Default::default(),
        };
        assert_eq!(
            state
                .request(&chorus_bus::TaskId::from("t1"))
                .await
                .expect("read"),
            Some(request.clone())
        );
        // A late request opens nothing again; a late result sees the report out.
        state
            .open(
                &chorus_bus::TaskId::from("t1"),
                &request,
                Deadline::after(Duration::ZERO),
            )
            .await
            .expect("open");
        let keys_now: Vec<String> = store
            .keys_with_ttl(&keys::task_prefix("t1"))
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys_now, names, "no request key came back");
        assert!(state.due(u64::MAX, 10).await.expect("due").is_empty());
        assert!(
            state
                .record_result(&chorus_bus::TaskId::from("t1"), &result("s1"))
                .await
                .expect("late")
                .reported
        );
        let names_after: Vec<String> = store
            .keys_with_ttl(&keys::task_prefix("t1"))
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(names_after, names, "nothing came back");
        // A cancellation is refused as finished.
        let c = CancelSubmission {
            task_id: "t1".into(),
            reason: None,
            from: "test".into(),
        };
        assert!(matches!(
            cancel(&bus, &state, c).await,
            Err(CancelError::Finished(_))
        ));
    }
}
