//! How a chat request enters Chorus, and what it leaves behind.
//!
//! The conversation before the request is looked up (`sessions.rs`):
//! - its reply was a task's question, still open: the request is the ANSWER, handed to
//!   the one way in for answers (`door::answer`), and the completion is that task's
//!   report (or its next question); the same answer sent again gets that report, and
//!   a question left unanswered until its timeout gets the task's `unanswered` report;
//! - otherwise, found: a new task through the one way in (`ApiState::submit`) in a fresh
//!   session holding a copy of the found session's turns, so a follow-up can use the
//!   earlier answers and a diverging branch sees none of another branch's turns (a
//!   question answered otherwise in another branch — an edited answer — leaves its
//!   task's turn out: the edited message is a new request);
//! - not found (a first message, or a history Chorus never produced): a new task in a
//!   fresh session.
//!
//! Whatever the reply, it is recorded ([`Turn::remember`]) before the client sees
//! its end, so the next request of the conversation always finds it.

use chorus_bus::{FinalReport, TaskContext, TaskId};
use chorus_core::door::{self, AnswerError, AnswerSubmission};
use chorus_core::question::TIMED_OUT;

use super::conversation::Chat;
use super::error::OpenAiError;
use super::sessions::{self, Found, Record};
use crate::api::ApiState;
use crate::follow::{self, Follower, Listening};

/// A request that went in: the task that answers it, and that task being followed.
pub struct Started {
    /// The task answering the request, and its session.
    pub turn: Turn,
    /// The task, followed to its report or question.
    pub(crate) following: Follower,
}

/// The task that answers a request, and its session.
#[derive(Debug, Clone)]
pub struct Turn {
    /// The task.
    pub task: TaskId,
    /// The task's session.
    pub session: String,
}

/// What a waiting task made of the request as its answer.
enum Attempt {
    /// It answers this task: follow it (`asked`: the question answered; `report`: when
    /// the task is done already, a retry of the same answer).
    Follow {
        task: TaskId,
        asked: u32,
        report: Option<FinalReport>,
    },
    /// The task's question was settled by no answer (the timeout, a cancellation): its
    /// report is the reply, unless another waiting task takes the answer.
    TooLate { task: TaskId, report: FinalReport },
    /// Not this task (answered with another text, unknown, …).
    Skip,
}

/// Starts the task that answers `chat`: an answer to a waiting task, or a new request.
pub async fn start(api: &ApiState, chat: &Chat) -> Result<Started, OpenAiError> {
    // Listen before anything goes in, so no progress is missed.
    let progress = follow::listen(api).await?;
    let found = match chat.history_key() {
        Some(key) => sessions::find(&api.state, &key).await?,
        None => Found::default(),
    };
    let mut too_late = None;
    for record in &found.waiting {
        match attempt(api, chat, record).await? {
            Attempt::Follow {
                task,
                asked,
                report,
            } => {
                let following = follower(api, task.clone(), progress, asked, report);
                return Ok(started(task, record, following));
            }
            Attempt::TooLate { task, report } => {
                too_late.get_or_insert((task, report, record));
            }
            Attempt::Skip => {}
        }
    }
    if let Some((task, report, record)) = too_late {
        let following = follower(api, task.clone(), progress, 0, Some(report));
        return Ok(started(task, record, following));
    }
    // No waiting task takes it: a new request. The tasks whose question this
    // conversation asked were answered elsewhere (an edited answer): not this branch's.
    let answered_elsewhere: Vec<&str> = found
        .waiting
        .iter()
        .filter_map(|r| r.waiting.as_deref())
        .collect();
    let session = match found.session() {
        Some(from) => sessions::branch(&api.state, from, &answered_elsewhere).await?,
        None => sessions::fresh(),
    };
    let context = TaskContext {
        session_id: Some(session.clone()),
        ..TaskContext::default()
    };
    let accepted = api.submit(chat.request.clone(), context, None).await?;
    let task = accepted.message.task_id;
    let following = follower(api, task.clone(), progress, 0, None);
    Ok(Started {
        turn: Turn { task, session },
        following,
    })
}

/// Follows `task` on `progress`: `asked` is the number of the last question already
/// answered (0: none), and `report` the task's report when it is out already.
fn follower(
    api: &ApiState,
    task: TaskId,
    progress: Listening,
    asked: u32,
    report: Option<FinalReport>,
) -> Follower {
    let follower = Follower::new(api, task, progress).answered(asked);
    match report {
        Some(report) => follower.reported(report),
        None => follower,
    }
}

fn started(task: TaskId, record: &Record, following: Follower) -> Started {
    let session = record.session.clone();
    Started {
        turn: Turn { task, session },
        following,
    }
}

/// Offers the request as the answer to the question of `record`'s waiting task.
async fn attempt(api: &ApiState, chat: &Chat, record: &Record) -> Result<Attempt, OpenAiError> {
    let Some(waiting) = &record.waiting else {
        return Ok(Attempt::Skip);
    };
    let submission = AnswerSubmission {
        task_id: waiting.clone(),
        answer: chat.request.clone(),
        question: None,
        from: api.instance.clone(),
    };
    let state = &api.state;
    match door::answer(api.bus.as_ref(), state, submission).await {
        Ok(answered) => Ok(Attempt::Follow {
            task: answered.message.task_id,
            asked: answered.number,
            report: None,
        }),
        // The same answer settled it: this request was sent before (a retry).
        Err(AnswerError::AlreadyAnswered {
            same: true, number, ..
        }) => Ok(Attempt::Follow {
            task: TaskId::parse(waiting).map_err(chorus_bus::BusError::from)?,
            asked: number,
            report: report_of(api, &TaskId::from(waiting), &record.session).await?,
        }),
        Err(AnswerError::Finished(_)) => finished(api, chat, record, waiting).await,
        Err(e @ (AnswerError::Empty | AnswerError::TooLong { .. } | AnswerError::Bus(_))) => {
            Err(e.into())
        }
        Err(other) => {
            tracing::debug!(task_id = %waiting, reason = %other, "not this waiting task");
            Ok(Attempt::Skip)
        }
    }
}

/// A waiting task that is finished: its report is the reply when this very answer
/// settled its question (a retry) or none did (timed out, canceled).
async fn finished(
    api: &ApiState,
    chat: &Chat,
    record: &Record,
    waiting: &str,
) -> Result<Attempt, OpenAiError> {
    let state = &api.state;
    let stored = TaskId::from(waiting);
    let Some(report) = report_of(api, &stored, &record.session).await? else {
        return Ok(Attempt::Skip);
    };
    let task = TaskId::parse(waiting).map_err(chorus_bus::BusError::from)?;
    let Some(question) = state.waiting(&stored).await? else {
        return Ok(Attempt::Skip);
    };
    let number = question.question.number;
    Ok(match state.settled(&stored, number).await? {
        Some(answer) if answer == chat.request => Attempt::Follow {
            task,
            asked: number,
            report: Some(report),
        },
        Some(answer) if answer != TIMED_OUT => Attempt::Skip,
        _ => Attempt::TooLate { task, report },
    })
}

/// The report of `task` of `session`, when it is out: as the Chief stored it, or as the
/// session's turn (written before the report goes out, so it is there even when the
/// Chief has not stored the report yet).
async fn report_of(
    api: &ApiState,
    task: &TaskId,
    session: &str,
) -> Result<Option<FinalReport>, OpenAiError> {
    if let Some(report) = api.state.report(task).await? {
        return Ok(Some(report));
    }
    let turns = api.state.turns(session).await?;
    Ok(turns
        .into_iter()
        .find(|t| t.task_id == *task)
        .map(|t| t.report))
}

impl Turn {
    /// Records that the conversation of `chat` went on with `reply` (the text the client
    /// was given), from this task: its question when `asked`. A failure is logged, not
    /// returned: the reply stands, and the next request of the conversation then starts
    /// a fresh session.
    pub async fn remember(&self, api: &ApiState, chat: &Chat, reply: &str, asked: bool) {
        let key = chat.key_after(reply);
        let waiting = asked.then_some(&self.task);
        if let Err(e) = sessions::remember(&api.state, &key, &self.session, waiting).await {
            tracing::warn!(task_id = %self.task, error = %e,
                "could not record the conversation; its next request starts afresh");
        }
    }
}
