//! A task waiting for the user's answer. When the Planner asks, the task's question
//! record (what was asked, how the answer goes back into the request, the request so
//! far and the time its deadline had left) is stored and the task joins the waiting set
//! (`chorus:waiting`, scored by when `agents.answer_timeout_ms` runs out), before the
//! question goes out. Its deadline is paused from then on, but the task stays in the
//! deadline set (`chorus:deadlines`) until that deadline: there the Chief sends the
//! stored question itself when it never went out (once, under the Planner's own
//! once-key: a Planner whose publish kept failing until its request was dead-lettered,
//! as in a Cluster shard's outage, left it unasked) and only then takes the task out of
//! the deadline set (`Chief::expire`). The Planner,
//! taking an answer, puts it back in the deadline set with the time it had left (noted
//! per question, beside the record, never by rewriting it); a timeout ends it with
//! one report, status `unanswered`. Who settles a question — the answer or the timeout —
//! is decided by one guard key per question, set atomically with what it publishes.
//! Everything lives in the store, so any replica of any role carries on a waiting task.

use std::time::Duration;

use chorus_bus::{BusError, ClarificationNeeded, Deadline, DecodeError, TaskId, TaskRequest};
use serde::{Deserialize, Serialize};

use crate::state::{DEADLINES_KEY, TaskState};

/// The sorted set of tasks waiting for an answer, scored by when the wait runs out
/// (ms since the epoch).
pub const WAITING_KEY: &str = chorus_bus::keys::WAITING;

/// The value a question's guard holds when no answer came in time.
pub const TIMED_OUT: &str = "\u{1}timed out";

/// Key of a task's question record.
use chorus_bus::keys::question as question_key;

/// Key of the deadline a task resumed with when question `number` was answered, so a
/// late look at the task's original request cannot bring back the deadline it had
/// before it waited.
use chorus_bus::keys::question_resumed as resumed_key;

/// The keys of a task's questions up to `max`, once the task's report is out: those
/// kept for the finished TTL — the last question's record and the answers that settled
/// each question, which an answer sent again reads to find its report (the OpenAI door's
/// retries; the answer door's `already_answered`) — and those deleted (resumed
/// deadlines, asked once-keys, the answers' publish markers).
pub(crate) fn keys(task: &TaskId, max: u32) -> (Vec<String>, Vec<String>) {
    let mut keep = vec![question_key(task)];
    let mut delete = Vec::new();
    for n in 1..=max {
        let answered = crate::state::once::answered(task, n);
        delete.push(resumed_key(task, n));
        delete.push(crate::state::once::asked(task, n));
        delete.push(crate::state::once::published(&answered));
        keep.push(answered);
    }
    (keep, delete)
}

/// A task's open (or last) question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    /// The question as it went out on `clarification_needed`.
    pub question: ClarificationNeeded,
    /// The planner's question: how the answer goes back into the request.
    pub asked: chorus_heuristic::Question,
    /// The request as read so far (earlier answers filled in), with its context.
    pub request: TaskRequest,
    /// How long the task's deadline had left when it asked, in milliseconds.
    pub remaining_ms: u64,
    /// When the wait for an answer runs out (ms since the epoch).
    pub answer_by_ms: u64,
}

impl Waiting {
    /// The task's deadline if it resumed now: the time it had left, from now.
    pub fn resumed_deadline(&self) -> Deadline {
        Deadline::after(Duration::from_millis(self.remaining_ms))
    }
}

impl TaskState {
    /// The task's question record, when it asked one.
    pub async fn waiting(&self, task: &TaskId) -> Result<Option<Waiting>, BusError> {
        match self.store().get(&question_key(task)).await? {
            Some(json) => Ok(Some(
                serde_json::from_str(&json).map_err(DecodeError::from)?,
            )),
            None => Ok(None),
        }
    }

    /// Stores `waiting` and pauses the task: into the waiting set until
    /// `waiting.answer_by_ms`. It stays in the deadline set, so that at its deadline the
    /// Chief makes sure the question went out before it stops watching it (a question
    /// whose every publish failed would otherwise leave the task waiting, unasked, for
    /// the answer timeout). Each write is idempotent, so a redelivered Planner repeats
    /// them harmlessly.
    pub async fn pause(&self, task: &TaskId, waiting: &Waiting) -> Result<(), BusError> {
        let json = serde_json::to_string(waiting).map_err(DecodeError::from)?;
        let store = self.store();
        store.set(&question_key(task), &json, self.ttl()).await?;
        self.keep_waiting(task, waiting.answer_by_ms).await
    }

    /// Puts the task in the waiting set until `answer_by_ms` (ms since the epoch),
    /// where the answer timeout finds it.
    pub async fn keep_waiting(&self, task: &TaskId, answer_by_ms: u64) -> Result<(), BusError> {
        let by = i64::try_from(answer_by_ms).unwrap_or(i64::MAX);
        self.store().zadd(WAITING_KEY, task, by).await
    }

    /// Resumes a task paused on question `number`: the deadline it resumes with is
    /// noted for that question, and it is back in the deadline set with it, out of the
    /// waiting set.
    pub async fn unpause(
        &self,
        task: &TaskId,
        number: u32,
        deadline: Deadline,
    ) -> Result<(), BusError> {
        let store = self.store();
        let ms = deadline.as_millis().to_string();
        store
            .set(&resumed_key(task, number), &ms, self.ttl())
            .await?;
        store.zadd(DEADLINES_KEY, task, deadline.score()).await?;
        store.zrem(WAITING_KEY, task).await.map(|_| ())
    }

    /// Puts the task back in the deadline set with `deadline` (no record change).
    pub async fn unpause_deadline(
        &self,
        task: &TaskId,
        deadline: Deadline,
    ) -> Result<(), BusError> {
        self.store()
            .zadd(DEADLINES_KEY, task, deadline.score())
            .await
    }

    /// Takes the task out of the waiting set (its question is settled).
    pub async fn stop_waiting(&self, task: &TaskId) -> Result<(), BusError> {
        self.store().zrem(WAITING_KEY, task).await.map(|_| ())
    }

    /// Tasks whose wait for an answer ran out at or before `now_ms`, at most `limit`.
    pub async fn unanswered(&self, now_ms: u64, limit: usize) -> Result<Vec<TaskId>, BusError> {
        let max = i64::try_from(now_ms).unwrap_or(i64::MAX);
        let waiting = self.store().zrange_to(WAITING_KEY, max, limit).await?;
        Ok(waiting.into_iter().map(TaskId::from).collect())
    }

    /// What settled question `number` of the task: the answer, [`TIMED_OUT`], or `None`
    /// while it is open.
    pub async fn settled(&self, task: &TaskId, number: u32) -> Result<Option<String>, BusError> {
        self.store()
            .get(&crate::state::once::answered(task, number))
            .await
    }

    /// The question the task is paused on: asked, and settled by neither an answer nor
    /// the answer timeout.
    pub async fn open_question(
        &self,
        task: &TaskId,
    ) -> Result<Option<ClarificationNeeded>, BusError> {
        match self.waiting(task).await? {
            Some(w) => self.still_open(task, w).await,
            None => Ok(None),
        }
    }

    /// The question of `w` (the task's record, read already) while no answer or
    /// timeout has settled it.
    pub async fn still_open(
        &self,
        task: &TaskId,
        w: Waiting,
    ) -> Result<Option<ClarificationNeeded>, BusError> {
        let open = self.settled(task, w.question.number).await?.is_none();
        Ok(open.then_some(w.question))
    }

    /// What a task's deadline is now, as its question record says: paused on an open
    /// question, resumed with a new deadline by an answer, answered but not resumed
    /// yet, or the one it was opened with (it never asked, or no answer came in time).
    pub async fn deadline_now(&self, task: &TaskId) -> Result<DeadlineNow, BusError> {
        let Some(w) = self.waiting(task).await? else {
            return Ok(DeadlineNow::AsOpened);
        };
        let number = w.question.number;
        let Some(settled) = self.settled(task, number).await? else {
            return Ok(DeadlineNow::Paused);
        };
        let resumed = self.store().get(&resumed_key(task, number)).await?;
        Ok(match resumed.and_then(|ms| ms.parse().ok()) {
            Some(ms) => DeadlineNow::Resumed(Deadline::from_millis(ms)),
            None if settled != TIMED_OUT => DeadlineNow::Answered {
                number,
                remaining: Duration::from_millis(w.remaining_ms),
            },
            None => DeadlineNow::AsOpened,
        })
    }
}

/// A task's deadline as its question record says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadlineNow {
    /// It never asked (or its record expired): the deadline it was opened with.
    AsOpened,
    /// Waiting for an answer: no deadline runs.
    Paused,
    /// An answer resumed it with this deadline.
    Resumed(Deadline),
    /// An answer settled question `number`, but the Planner has not resumed the task
    /// yet (it is about to, or its group gave up on the answer); the task had
    /// `remaining` left when it asked, so the deadline it resumes with ends at most
    /// that long from now.
    Answered {
        /// The question the answer settled.
        number: u32,
        /// The time the task had left when it asked.
        remaining: Duration,
    },
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chorus_bus::memory::MemoryBus;
    use chorus_bus::{BusSettings, TaskContext};

    use super::*;
    use crate::state::once;

    fn waiting() -> Waiting {
        let asked =
            chorus_heuristic::question::missing_operand("divide 10 by", chorus_bus::Language::En);
        Waiting {
            question: ClarificationNeeded {
                question: asked.text.clone(),
                options: Vec::new(),
                part: asked.part.clone(),
                language: chorus_bus::Language::En,
                number: 1,
                query: "divide 10 by".into(),
                session_id: None,
            },
            asked,
            request: TaskRequest {
                query: "divide 10 by".into(),
                context: TaskContext::default(),
            },
            remaining_ms: 9_000,
            answer_by_ms: chorus_bus::now_ms() + 60_000,
        }
    }

    #[tokio::test]
    async fn a_paused_task_waits_and_an_answer_brings_it_back_with_what_it_had_left() {
        let bus = MemoryBus::new(BusSettings::default());
        let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
        let store = state.store().clone();
        assert_eq!(
            state
                .deadline_now(&chorus_bus::TaskId::from("t"))
                .await
                .expect("read"),
            DeadlineNow::AsOpened
        );
        store.zadd(DEADLINES_KEY, "t", 1).await.expect("open");
        let w = waiting();
        state
            .pause(&chorus_bus::TaskId::from("t"), &w)
            .await
            .expect("pause");
        assert_eq!(
            state
                .deadline_now(&chorus_bus::TaskId::from("t"))
                .await
                .expect("read"),
            DeadlineNow::Paused
        );
        // Still in the deadline set: at its deadline the Chief makes sure the question
        // went out, then stops watching it.
        assert_eq!(state.due(u64::MAX, 10).await.expect("due"), ["t"]);
        assert_eq!(state.unanswered(u64::MAX, 10).await.expect("due"), ["t"]);
        // The answer settles question 1 and resumes the task with 9 s from now.
        store
            .set(
                &once::answered(&"t".into(), 1),
                "4",
                Duration::from_secs(60),
            )
            .await
            .expect("settle");
        let resumed = w.resumed_deadline();
        state
            .unpause(&chorus_bus::TaskId::from("t"), 1, resumed)
            .await
            .expect("unpause");
        assert_eq!(
            state
                .deadline_now(&chorus_bus::TaskId::from("t"))
                .await
                .expect("read"),
            DeadlineNow::Resumed(resumed)
        );
        assert!(resumed.remaining() > Duration::from_secs(8));
        assert!(
            state
                .unanswered(u64::MAX, 10)
                .await
                .expect("due")
                .is_empty()
        );
        assert_eq!(state.due(u64::MAX, 10).await.expect("due"), ["t"]);
        assert_eq!(
            state
                .settled(&chorus_bus::TaskId::from("t"), 1)
                .await
                .expect("read")
                .as_deref(),
            Some("4")
        );
    }
}
