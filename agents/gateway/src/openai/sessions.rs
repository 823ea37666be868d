//! The conversations Chorus answered, in the store, so that the history a client sends
//! back finds its session (OpenAI clients send the whole conversation and no id).
//!
//! After each completion, the conversation including the reply is recorded under its
//! key (`chorus:chat:<sha256>`, see `conversation.rs`), a hash with the state TTL
//! (`bus.state_ttl_secs`). Its field `latest` holds the session of a reply that was a
//! report; a reply that was a question is recorded under `waiting:<task_id>`, with the
//! task that waits for its answer. Two people who had the very same conversation share
//! its key: a report's sessions are then alike (same requests, same answers), so the
//! latest one serves, while each waiting task keeps its own field and an answer goes to
//! one whose question is still open.
//!
//! A new request never adds to the session it was found in: it gets a fresh session
//! whose turns are first copied from it ([`branch`]), so two conversations that share a
//! beginning and then diverge never see each other's later turns.

use chorus_bus::{BusError, DecodeError, TaskId, now_ms};
use chorus_core::state::TaskState;
use serde::{Deserialize, Serialize};

/// The field of a conversation's record that holds the session of a report.
const LATEST: &str = "latest";

/// At most this many of a session's latest turns are copied into a branch (a follow-up
/// refers to the last three answered ones: `chorus_core::session::RECALLED_TURNS`).
pub const MAX_COPIED_TURNS: usize = 32;

/// The field of a conversation's record for a reply that was `task`'s question.
fn waiting_field(task: &TaskId) -> String {
    format!("waiting:{task}")
}

/// What a conversation's reply left behind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The session the reply's task belonged to.
    pub session: String,
    /// The task waiting for the answer, when the reply was its question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
    /// When it was recorded (ms since the epoch).
    pub at_ms: u64,
}

/// What the store knows of a conversation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// The session of its latest reply that was a report.
    pub latest: Option<Record>,
    /// The tasks whose question was its reply, newest first.
    pub waiting: Vec<Record>,
}

impl Found {
    /// The session the conversation continues from: the newest record's.
    pub fn session(&self) -> Option<&str> {
        self.latest
            .iter()
            .chain(self.waiting.iter())
            .max_by_key(|r| r.at_ms)
            .map(|r| r.session.as_str())
    }
}

/// What the store knows of the conversation named `key` (nothing for a conversation
/// Chorus never answered, or one older than the state TTL).
pub async fn find(state: &TaskState, key: &str) -> Result<Found, BusError> {
    let mut found = Found::default();
    for (field, json) in state.store().hgetall(key).await? {
        let Ok(record) = serde_json::from_str::<Record>(&json) else {
            tracing::warn!(key, field, "unreadable conversation record; ignored");
            continue;
        };
        match field == LATEST {
            true => found.latest = Some(record),
            false => found.waiting.push(record),
        }
    }
    found.waiting.sort_by_key(|r| std::cmp::Reverse(r.at_ms));
    Ok(found)
}

/// Records that the conversation named `key` ended with a reply of a task of
/// `session`: a report, or (`waiting`) that task's question.
pub async fn remember(
    state: &TaskState,
    key: &str,
    session: &str,
    waiting: Option<&TaskId>,
) -> Result<(), BusError> {
    let record = Record {
        session: session.to_owned(),
        waiting: waiting.map(TaskId::to_string),
        at_ms: now_ms(),
    };
    let json = serde_json::to_string(&record).map_err(DecodeError::from)?;
    let field = waiting.map_or_else(|| LATEST.to_owned(), waiting_field);
    state.store().hset(key, &field, &json, state.ttl()).await
}

/// A new session id.
pub fn fresh() -> String {
    format!("chat-{}", uuid::Uuid::now_v7().simple())
}

/// A new session holding a copy of `from`'s latest turns (at most
/// [`MAX_COPIED_TURNS`], each as it was, so their order stays), for a request that
/// continues the conversation of `from` without adding to it. The turns of the tasks
/// `excluding` names are left out: tasks whose question this conversation asked but
/// another conversation answered (the user edited the answer), whose reports belong to
/// that other branch.
pub async fn branch(state: &TaskState, from: &str, excluding: &[&str]) -> Result<String, BusError> {
    let session = fresh();
    let mut turns = state.turns(from).await?;
    turns.retain(|t| !excluding.contains(&t.task_id.as_str()));
    let skip = turns.len().saturating_sub(MAX_COPIED_TURNS);
    for turn in turns.into_iter().skip(skip) {
        state.copy_turn(&session, &turn).await?;
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use chorus_bus::{FinalReport, MemoryStore, ReportStatus};
    use chorus_core::session::Turn;

    use super::*;

    fn state() -> TaskState {
        TaskState::new(Arc::new(MemoryStore::default()), Duration::from_secs(60))
    }

    /// Stores `record` as the field `field` of `key`.
    async fn put(state: &TaskState, key: &str, field: &str, record: &Record) {
        let json = serde_json::to_string(record).expect("json");
        state
            .store()
            .hset(key, field, &json, state.ttl())
            .await
            .expect("hset");
    }

    /// Stores a turn of `session` answering `query`, written at `at_ms`.
    async fn turn(state: &TaskState, session: &str, task: &str, query: &str, at_ms: u64) {
        let report = FinalReport {
            query: query.to_owned(),
            status: ReportStatus::Completed,
            text: format!("{query}\n"),
            language: chorus_bus::Language::En,
            steps: Vec::new(),
            written_by: "template".to_owned(),
            iterations: 1,
            retried: Vec::new(),
        };
        let turn = Turn {
            task_id: task.into(),
            at_ms,
            query: query.to_owned(),
            answers: Vec::new(),
            report,
        };
        state.copy_turn(session, &turn).await.expect("hset");
    }

    fn record(session: &str, waiting: Option<&str>, at_ms: u64) -> Record {
        Record {
            session: session.to_owned(),
            waiting: waiting.map(str::to_owned),
            at_ms,
        }
    }

    #[tokio::test]
    async fn a_conversation_finds_its_report_session_and_each_waiting_task_newest_first() {
        let state = state();
        let key = "chorus:chat:k";
        assert_eq!(find(&state, key).await.expect("find"), Found::default());
        put(&state, key, LATEST, &record("s-old", None, 10)).await;
        put(&state, key, "waiting:t-1", &record("s-1", Some("t-1"), 20)).await;
        put(&state, key, "waiting:t-2", &record("s-2", Some("t-2"), 30)).await;
        let found = find(&state, key).await.expect("find");
        assert_eq!(found.latest, Some(record("s-old", None, 10)));
        let waiting: Vec<_> = found.waiting.iter().map(|r| r.waiting.as_deref()).collect();
        assert_eq!(waiting, [Some("t-2"), Some("t-1")]);
        assert_eq!(found.session(), Some("s-2"));

        // A newer report of the same conversation replaces the latest session only.
        remember(&state, key, "s-new", None)
            .await
            .expect("remember");
        remember(&state, key, "s-3", Some(&"t-3".into()))
            .await
            .expect("remember waiting");
        let found = find(&state, key).await.expect("find");
        assert_eq!(found.latest.map(|r| r.session), Some("s-new".to_owned()));
        assert_eq!(found.waiting.len(), 3);
        assert_eq!(found.waiting[0].waiting.as_deref(), Some("t-3"));
    }

    #[tokio::test]
    async fn a_branch_copies_the_turns_in_order_and_the_source_gets_nothing_new() {
        let state = state();
        turn(&state, "s-a", "t-2", "3+4", 200).await;
        turn(&state, "s-a", "t-1", "2+4", 100).await;
        let branch = branch(&state, "s-a", &[]).await.expect("branch");
        assert!(branch.starts_with("chat-") && branch != "s-a", "{branch}");
        let queries = |turns: Vec<Turn>| turns.into_iter().map(|t| t.query).collect::<Vec<_>>();
        assert_eq!(
            queries(state.turns(&branch).await.expect("turns")),
            ["2+4", "3+4"]
        );
        turn(&state, &branch, "t-3", "4+4", 300).await;
        assert_eq!(
            queries(state.turns("s-a").await.expect("source")),
            ["2+4", "3+4"]
        );
        assert_eq!(state.turns(&branch).await.expect("branch").len(), 3);
        let empty = super::branch(&state, "s-none", &[])
            .await
            .expect("empty branch");
        assert!(state.turns(&empty).await.expect("turns").is_empty());
        let without = super::branch(&state, "s-a", &["t-2"])
            .await
            .expect("excluding");
        assert_eq!(
            queries(state.turns(&without).await.expect("turns")),
            ["2+4"]
        );
    }

    #[tokio::test]
    async fn a_branch_copies_at_most_the_latest_turns() {
        let state = state();
        for i in 0..MAX_COPIED_TURNS as u64 + 3 {
            turn(&state, "s-long", &format!("t-{i}"), &format!("{i}+1"), i).await;
        }
        let branch = branch(&state, "s-long", &[]).await.expect("branch");
        let turns = state.turns(&branch).await.expect("turns");
        assert_eq!(turns.len(), MAX_COPIED_TURNS);
        assert_eq!(turns[0].query, "3+1");
    }
}
