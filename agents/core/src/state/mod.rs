//! Per-task state in the shared [`Store`]: the plan, step results, once-only flags and
//! deadlines. Key names live here (and, for a task's question and a session's turns, in
//! `question.rs` and `session.rs`); every write carries the state TTL, and any replica
//! of any role can carry on any task. Once a task's report is out, [`TaskState::finish`]
//! shrinks its state to the report, the report's once-key and the acceptance record,
//! kept for `bus.finished_ttl_secs`, and deletes the rest in one round trip.//!
//! Retiring a finished task (what stays, what goes) is `retire.rs`.

mod retire;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chorus_bus::keys;
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
