//! Conversations: the turns of a session (`context.session_id`) in the store, so a
//! follow-up ("now multiply that by 3") can use an earlier answer. A turn is written by
//! whoever writes the task's report, before the report goes out, so a client that has
//! seen the report and sends a follow-up always finds it. Turns are a hash keyed by task
//! id (writing one twice is harmless) that expires `agents.session_ttl_secs` after the
//! last turn.

use std::time::Duration;

use chorus_bus::{BusError, DecodeError, FinalReport, StepOutcome, TaskId, now_ms};
use serde::{Deserialize, Serialize};

use crate::state::TaskState;

/// Key of a session's turns.
use chorus_bus::keys::session_turns as turns_key;

/// One answered request of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// The task.
    pub task_id: TaskId,
    /// When the report was written (ms since the epoch); turns are ordered by it.
    pub at_ms: u64,
    /// The request as planned.
    pub query: String,
    /// The output values that succeeded, in plan order (numbers as decimal strings,
    /// dates as ISO dates).
    pub answers: Vec<String>,
    /// The report (its steps are the plan with every outcome).
    pub report: FinalReport,
}

impl Turn {
    /// The request as it was understood: the one part its steps answered, when they
    /// answered one (a follow-up "and for 5 people?" was planned as the question before
    /// it with the count replaced; "ngày đó là thứ mấy" with the date put in), else the
    /// request as written. The next follow-up replaces a part of this.
    pub fn understood(&self) -> String {
        let mut parts = self.report.steps.iter().map(|s| s.part.as_str());
        match parts.next() {
            Some(first) if !first.is_empty() && parts.all(|p| p == first) => first.to_owned(),
            _ => self.query.clone(),
        }
    }
}

/// What a follow-up may refer to ([`TaskState::recall`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recall {
    /// The answers of the latest turns that have any, oldest first.
    pub answers: Vec<String>,
    /// The requests of the latest turns as they were understood ([`Turn::understood`]),
    /// oldest first.
    pub questions: Vec<String>,
}

/// The values a report answered with: its output steps that succeeded, in plan order.
pub fn answers_of(report: &FinalReport) -> Vec<String> {
    report
        .steps
        .iter()
        .filter(|s| s.output)
        .filter_map(|s| match &s.outcome {
            Some(StepOutcome::Ok { value, .. }) => Some(
                value
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| value.to_string()),
            ),
            _ => None,
        })
        .collect()
}

impl TaskState {
    /// Records `report` as the turn of `task` in `session`.
    pub async fn put_turn(
        &self,
        session: &str,
        task: &TaskId,
        report: &FinalReport,
    ) -> Result<(), BusError> {
        let turn = Turn {
            task_id: task.clone(),
            at_ms: now_ms(),
            query: report.query.clone(),
            answers: answers_of(report),
            report: report.clone(),
        };
        self.copy_turn(session, &turn).await
    }

    /// Writes `turn` into `session` as it is (its task's field of the session's turns):
    /// how a report becomes a turn, and how a conversation that branches copies the
    /// turns it keeps (the OpenAI door).
    pub async fn copy_turn(&self, session: &str, turn: &Turn) -> Result<(), BusError> {
        let json = serde_json::to_string(turn).map_err(DecodeError::from)?;
        self.store()
            .hset(
                &turns_key(session),
                &turn.task_id,
                &json,
                self.session_ttl(),
            )
            .await
    }

    /// Every turn of `session`, oldest first.
    pub async fn turns(&self, session: &str) -> Result<Vec<Turn>, BusError> {
        let mut turns: Vec<Turn> = self
            .store()
            .hgetall(&turns_key(session))
            .await?
            .into_iter()
            .filter_map(|(_, json)| serde_json::from_str(&json).ok())
            .collect();
        turns.sort_by_key(|t| t.at_ms);
        Ok(turns)
    }

    /// The answers of the session's latest turns that have any, oldest first: the last
    /// [`RECALLED_TURNS`] such turns, so a follow-up can refer to the last number even
    /// when the turn after it answered with a weekday.
    pub async fn last_answers(&self, session: &str) -> Result<Vec<String>, BusError> {
        Ok(self.recall(session).await?.answers)
    }

    /// What a follow-up in `session` may refer to, from one read of its turns: the
    /// answers of its latest turns that have any (as [`TaskState::last_answers`]) and
    /// the requests of its last [`RECALLED_TURNS`] turns, oldest first (an ellipsis —
    /// "and in Lima?" — is the last request with one part replaced).
    pub async fn recall(&self, session: &str) -> Result<Recall, BusError> {
        let turns = self.turns(session).await?;
        let questions: Vec<String> = turns
            .iter()
            .rev()
            .take(RECALLED_TURNS)
            .map(Turn::understood)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let mut recent: Vec<Vec<String>> = turns
            .into_iter()
            .rev()
            .filter(|t| !t.answers.is_empty())
            .take(RECALLED_TURNS)
            .map(|t| t.answers)
            .collect();
        recent.reverse();
        Ok(Recall {
            answers: recent.into_iter().flatten().collect(),
            questions,
        })
    }

    /// Records the report as its session's turn when the task belongs to one (the
    /// context the plan carries); nothing otherwise.
    pub async fn record_turn(
        &self,
        session: Option<&str>,
        task: &TaskId,
        report: &FinalReport,
    ) -> Result<(), BusError> {
        match session {
            Some(session) => self.put_turn(session, task, report).await,
            None => Ok(()),
        }
    }
}

/// How many of a session's latest answered turns a follow-up may refer to.
pub const RECALLED_TURNS: usize = 3;

/// How long a session's turns are kept when no setting says (`agents.session_ttl_secs`).
pub const DEFAULT_SESSION_TTL: Duration = Duration::from_secs(3_600);
