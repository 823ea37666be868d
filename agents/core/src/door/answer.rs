//! [`answer`]: the one way in for answers to a task's question. Every door — a bare
//! `XADD`/`PUBLISH` on `clarification_answer` (the Chief), `POST /tasks/{id}/answer`,
//! `chorus ask` on a terminal — hands the answer here: it is checked against the task's
//! open question, settles it exactly once (the question's guard key is set atomically
//! with the publish, so a second answer, or an answer racing the timeout, loses), and
//! goes to the Planner as a full envelope carrying the resumed deadline. The Planner,
//! not the door, puts the task back in the deadline watch when it takes the answer: it
//! is the one that may pause the task again for a next question, so the two never race
//! (a door resuming late would undo that pause).

use chorus_bus::dead_letter::{DeadLetterInfo, dead_letter_message, truncate_utf8};
use chorus_bus::{Bus, BusError, ClarificationAnswer, Message, Payload, TaskId, Topic};
use chorus_heuristic::question::MAX_ANSWER_CHARS;

use crate::question::{TIMED_OUT, Waiting};
use crate::state::{TaskState, once};

/// An answer as a door hands it in.
#[derive(Debug, Clone)]
pub struct AnswerSubmission {
    /// The task whose question it answers.
    pub task_id: String,
    /// The answer text.
    pub answer: String,
    /// The question it answers, when the client says (`None`: the open one).
    pub question: Option<u32>,
    /// Who passes it on (`from_agent`): the door's name or instance.
    pub from: String,
}

/// What [`answer`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    /// The answer as passed on to the Planner.
    pub message: Message,
    /// The question it settled.
    pub number: u32,
}

/// Why an answer was refused. Each refusal leaves the task as it was.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// The answer is empty or blank.
    #[error("the answer is empty")]
    Empty,
    /// The answer is longer than the limit.
    #[error("the answer is too long: {chars} characters, over the limit of {limit}")]
    TooLong {
        /// Its length in characters.
        chars: usize,
        /// The limit.
        limit: usize,
    },
    /// No such task (never accepted, or expired).
    #[error("no task {0:?} (unknown, or expired)")]
    UnknownTask(String),
    /// The task has its report already (answered, failed, timed out or canceled).
    #[error("task {0} is finished; its report is out")]
    Finished(TaskId),
    /// The task asked nothing.
    #[error("task {0} asked no question")]
    NothingAsked(TaskId),
    /// The question was answered already.
    #[error("question {number} of task {task_id} was answered already")]
    AlreadyAnswered {
        /// The task.
        task_id: TaskId,
        /// The question.
        number: u32,
        /// Whether the answer that settled it is this very text: a redelivery of the
        /// same entry, or one PUBLISH heard by several listeners (not an error on the
        /// bus; still a 409 over HTTP, where a client sent it twice).
        same: bool,
    },
    /// The client named a question the task has not asked (yet).
    #[error("task {task_id} has no question {given}; its open question is {open}")]
    NoSuchQuestion {
        /// The task.
        task_id: TaskId,
        /// The question the client named.
        given: u32,
        /// The open one.
        open: u32,
    },
    /// The bus or the state store failed; the answer may be sent again.
    #[error(transparent)]
    Bus(#[from] BusError),
}

impl AnswerError {
    /// A stable code for clients.
    pub fn code(&self) -> &'static str {
        match self {
            AnswerError::Empty => "empty_answer",
            AnswerError::TooLong { .. } => "answer_too_long",
            AnswerError::UnknownTask(_) => "unknown_task",
            AnswerError::Finished(_) => "task_finished",
            AnswerError::NothingAsked(_) => "nothing_asked",
            AnswerError::AlreadyAnswered { .. } => "already_answered",
            AnswerError::NoSuchQuestion { .. } => "no_such_question",
            AnswerError::Bus(_) => "bus_unavailable",
        }
    }
}

/// Checks `s` against its task's open question and, when it settles it, passes it on
/// to the Planner (once), with the task's deadline resumed in its envelope.
pub async fn answer(
    bus: &dyn Bus,
    state: &TaskState,
    s: AnswerSubmission,
) -> Result<Answered, AnswerError> {
    if s.answer.trim().is_empty() {
        return Err(AnswerError::Empty);
    }
    let chars = s.answer.chars().count();
    if chars > MAX_ANSWER_CHARS {
        return Err(AnswerError::TooLong {
            chars,
            limit: MAX_ANSWER_CHARS,
        });
    }
    let task_id =
        TaskId::parse(&s.task_id).map_err(|_| AnswerError::UnknownTask(short(&s.task_id)))?;
    let task = &task_id;
    if state.is_reported(task).await? || state.report(task).await?.is_some() {
        return Err(AnswerError::Finished(task.clone()));
    }
    let Some(waiting) = state.waiting(task).await? else {
        return Err(match state.request(task).await? {
            Some(_) => AnswerError::NothingAsked(task.clone()),
            None => AnswerError::UnknownTask(task.to_string()),
        });
    };
    let open = waiting.question.number;
    match s.question {
        Some(given) if given < open => {
            return Err(AnswerError::AlreadyAnswered {
                task_id: task.clone(),
                number: given,
                same: false,
            });
        }
        Some(given) if given > open => {
            return Err(AnswerError::NoSuchQuestion {
                task_id: task.clone(),
                given,
                open,
            });
        }
        _ => {}
    }
    let message = passed_on(&task_id, &s, &waiting);
    let guard = once::answered(task, open);
    let item = [(once::published(&guard), message.clone())];
    if bus
        .publish_guarded(&guard, &s.answer, &item, state.ttl())
        .await?
        .is_none()
    {
        return Err(match state.settled(task, open).await? {
            Some(t) if t == TIMED_OUT => AnswerError::Finished(task.clone()),
            settled => AnswerError::AlreadyAnswered {
                task_id: task.clone(),
                number: open,
                same: settled.as_deref() == Some(s.answer.as_str()),
            },
        });
    }
    tracing::info!(task_id = %task, question = open, from = %message.from_agent, "answer accepted");
    Ok(Answered {
        message,
        number: open,
    })
}

/// The answer as the Planner receives it: the question it settles and the task's
/// deadline resumed with the time it had left.
fn passed_on(task_id: &TaskId, s: &AnswerSubmission, waiting: &Waiting) -> Message {
    let payload = Payload::ClarificationAnswer(ClarificationAnswer {
        answer: s.answer.trim().to_owned(),
        question: Some(waiting.question.number),
    });
    let mut message = Message::new(
        task_id.clone(),
        Topic::clarification_answer(),
        s.from.clone(),
        payload,
    );
    message.deadline_ms = Some(waiting.resumed_deadline());
    message
}

/// A client's id as an error message may repeat it (at most 80 bytes).
pub(super) fn short(s: &str) -> String {
    truncate_utf8(s, 80).to_owned()
}

/// Where the one dead letter of an answer refused on the bus goes: who refuses it (the
/// role), what the client sent, its stream entry (empty for a PUBLISH), and the
/// once-key and lifetime that make it one letter however often the answer is heard.
#[derive(Debug, Clone)]
pub struct Letter<'a> {
    /// The role named in the letter.
    pub role: &'a str,
    /// What the client sent.
    pub original: &'a str,
    /// The stream entry id, or empty.
    pub entry_id: &'a str,
    /// The letter's once-key and its lifetime.
    pub once: (String, std::time::Duration),
}

/// What an answer from the bus became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FromBus {
    /// It settled the question and went on to the Planner.
    Accepted,
    /// The same text settled the question already (a redelivered entry, one PUBLISH
    /// heard by several listeners): not an error.
    Duplicate,
    /// The door refused it: one dead letter with this reason.
    Refused(String),
}

/// [`answer`] for an answer a client put on the bus (XADD or PUBLISH): a refusal, which
/// the client cannot be told directly, becomes one dead letter with the reason and code.
pub async fn answer_from_bus(
    bus: &dyn Bus,
    state: &TaskState,
    s: AnswerSubmission,
    letter: Letter<'_>,
) -> Result<FromBus, BusError> {
    let task_id = s.task_id.clone();
    let why = match answer(bus, state, s).await {
        Ok(_) => return Ok(FromBus::Accepted),
        Err(AnswerError::AlreadyAnswered { same: true, .. }) => return Ok(FromBus::Duplicate),
        Err(AnswerError::Bus(e)) => return Err(e),
        Err(refused) => refused,
    };
    let reason = format!("answer refused ({}): {why}", why.code());
    refused(bus, Topic::CLARIFICATION_ANSWER, letter, &reason, &task_id).await?;
    Ok(FromBus::Refused(why.to_string()))
}

/// Writes the one dead letter of a client's payload on `topic` that a door refused for
/// `reason`.
pub(super) async fn refused(
    bus: &dyn Bus,
    topic: &str,
    letter: Letter<'_>,
    reason: &str,
    task_id: &str,
) -> Result<(), BusError> {
    let dead = dead_letter_message(&DeadLetterInfo {
        topic,
        entry_id: letter.entry_id,
        role: letter.role,
        deliveries: 1,
        reason,
        original: letter.original,
        task_id: Some(task_id),
    });
    super::refusal::publish_letter(bus, letter.role, topic, letter.once, &dead)
        .await
        .map(|_| ())
}
