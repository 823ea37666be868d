//! [`submit`]: validates a request, gives it its task id and deadline, and publishes it
//! on `task_available` exactly once (under the task's `accepted` once-key, or the key
//! the door names), opening it for the deadline watch when the door keeps task state.

use std::time::Duration;

use chorus_bus::{
    Bus, BusError, Deadline, DecodeError, Language, Message, Payload, TaskContext, TaskId,
    TaskRequest, Topic,
};
use chorus_telemetry::metrics::tasks::{Door, accepted as count_accepted};

use super::context::{BadField, check as check_context};
use crate::state::{TaskState, once};

/// What a door may accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The deadline a task gets at the door; `None` leaves it to the Chief's setting
    /// (`agents.deadline_ms`), which it applies when it opens the task.
    pub deadline: Option<Duration>,
    /// Longest query, in characters.
    pub max_query_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            deadline: None,
            max_query_chars: chorus_heuristic::MAX_QUERY_CHARS,
        }
    }
}

/// A request as a door hands it in.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The request in the user's words.
    pub query: String,
    /// Reference time, time zone, language.
    pub context: TaskContext,
    /// The task id the client chose (checked here), or `None` for a fresh one.
    pub task_id: Option<String>,
    /// Who publishes the request (`from_agent`): the door's name or instance.
    pub from: String,
    /// The once-key and its lifetime guarding acceptance, when the door needs another
    /// than the task's own (the PUBLISH ingress dedupes identical payloads this way).
    pub once: Option<(String, Duration)>,
    /// The door counted in `chorus_tasks_accepted_total` when the request is accepted
    /// fresh; `None` counts nothing (the CLI's client, whose process serves no metrics).
    pub door: Option<Door>,
}

impl Submission {
    /// A submission of `query` with no context, fresh id, from `from`.
    pub fn new(query: impl Into<String>, from: impl Into<String>) -> Self {
        Submission {
            query: query.into(),
            context: TaskContext::default(),
            task_id: None,
            from: from.into(),
            once: None,
            door: None,
        }
    }
}

/// What [`submit`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Accepted {
    /// The request as published (or as it would have been, when not fresh).
    pub message: Message,
    /// False when the once-key was set already: the request was accepted before (a
    /// redelivery, a second listener, a retried call) and nothing was published now.
    pub fresh: bool,
}

/// Why a door refused a request.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The query is empty or blank.
    #[error("the query is empty")]
    EmptyQuery,
    /// The query is longer than the limit.
    #[error("the query is too long: {chars} characters, over the limit of {limit}")]
    QueryTooLong {
        /// Its length in characters.
        chars: usize,
        /// The limit.
        limit: usize,
    },
    /// The client's task id is not a valid one.
    #[error("{0}")]
    InvalidTaskId(DecodeError),
    /// A context field cannot be used.
    #[error("invalid {}: {}", .0.field, .0.reason)]
    InvalidContext(BadField),
    /// The task id was taken by another request (another query or context) within the
    /// task state's lifetime.
    #[error(
        "task id {task_id} is taken by another request; choose another id or resend the same request"
    )]
    TaskIdTaken {
        /// The id.
        task_id: TaskId,
    },
    /// The bus or the state store failed; the request may be retried.
    #[error(transparent)]
    Bus(#[from] BusError),
}

impl SubmitError {
    /// A stable code for clients (`empty_query`, `query_too_long`, `invalid_task_id`,
    /// `bus_unavailable`).
    pub fn code(&self) -> &'static str {
        match self {
            SubmitError::EmptyQuery => "empty_query",
            SubmitError::QueryTooLong { .. } => "query_too_long",
            SubmitError::InvalidTaskId(_) => "invalid_task_id",
            SubmitError::InvalidContext(_) => "invalid_context",
            SubmitError::TaskIdTaken { .. } => "task_id_taken",
            SubmitError::Bus(_) => "bus_unavailable",
        }
    }

    /// Whether the request itself is at fault (not the bus).
    pub fn is_bad_request(&self) -> bool {
        !matches!(self, SubmitError::Bus(_))
    }

    /// The refusal in the user's language (`en`, `vi`), for a report.
    pub fn message_in(&self, language: Language) -> String {
        use chorus_heuristic::messages;
        match self {
            SubmitError::EmptyQuery => messages::empty(language),
            SubmitError::QueryTooLong { chars, limit } => {
                messages::too_long(*chars, *limit, language)
            }
            other => other.to_string(),
        }
    }
}

/// Checks `s` against `limits` (query, task id, context), gives it its task id and
/// (when the limits say) its deadline, publishes it once on `task_available` and, when
/// `state` is given and it was fresh, opens it for the deadline watch (so a client
/// polling the HTTP API finds it at once; the Chief opens every request it sees in any
/// case). A fresh acceptance is counted for the submission's door, here and nowhere
/// else.
///
/// A task id is an idempotency key. With `state` (the doors where clients choose ids:
/// HTTP, a bare XADD or PUBLISH), the acceptance key holds the request's fingerprint:
/// the same id with the same request is the same task (`fresh: false`, nothing runs
/// twice); with another request it is [`SubmitError::TaskIdTaken`], for as long as the
/// key lives (the task state's TTL, `bus.state_ttl_secs`).
pub async fn submit(
    bus: &dyn Bus,
    state: Option<&TaskState>,
    limits: &Limits,
    s: Submission,
) -> Result<Accepted, SubmitError> {
    if s.query.trim().is_empty() {
        return Err(SubmitError::EmptyQuery);
    }
    let chars = s.query.chars().count();
    if chars > limits.max_query_chars {
        return Err(SubmitError::QueryTooLong {
            chars,
            limit: limits.max_query_chars,
        });
    }
    let task_id = match &s.task_id {
        Some(id) => TaskId::parse(id).map_err(SubmitError::InvalidTaskId)?,
        None => TaskId::generate(),
    };
    check_context(&s.context).map_err(SubmitError::InvalidContext)?;
    let door = s.door;
    let request = TaskRequest {
        query: s.query,
        context: s.context,
    };
    let fingerprint = serde_json::to_string(&request)
        .map_err(|e| SubmitError::Bus(DecodeError::from(e).into()))?;
    let mut message = Message::new(
        task_id.clone(),
        Topic::task_available(),
        s.from,
        Payload::TaskAvailable(request),
    );
    message.deadline_ms = limits.deadline.map(Deadline::after);
    let state_ttl = state.map(TaskState::ttl);
    let (key, ttl) = match s.once {
        Some(once) => once,
        None => (
            once::accepted(&task_id),
            state_ttl.unwrap_or(DEFAULT_ONCE_TTL),
        ),
    };
    let fresh = match state {
        Some(state) => accept_once(bus, state, &key, ttl, &fingerprint, &message).await?,
        None => bus.publish_once(&key, ttl, &message).await?,
    };
    if let (true, Some(state), Some(deadline), Payload::TaskAvailable(request)) =
        (fresh, state, message.deadline_ms, &message.payload)
    {
        state.open(&task_id, request, deadline).await?;
    }
    if fresh {
        tracing::info!(task_id = %task_id, from = %message.from_agent, "accepted");
        if let Some(door) = door {
            count_accepted(door);
        }
    }
    Ok(Accepted { message, fresh })
}

/// Publishes `message` under `key` holding `fingerprint`; when the key is taken, the
/// request is the same task if the fingerprints agree, else refused.
async fn accept_once(
    bus: &dyn Bus,
    state: &TaskState,
    key: &str,
    ttl: Duration,
    fingerprint: &str,
    message: &Message,
) -> Result<bool, SubmitError> {
    let item = [(once::published(key), message.clone())];
    if bus
        .publish_guarded(key, fingerprint, &item, ttl)
        .await?
        .is_some()
    {
        return Ok(true);
    }
    match state.store().get(key).await? {
        // Accepted by a door that keeps no fingerprint (ids it generated itself).
        Some(stored) if stored != fingerprint && stored != "1" => Err(SubmitError::TaskIdTaken {
            task_id: message.task_id.clone(),
        }),
        _ => Ok(false),
    }
}

/// How long a door without task state keeps a task's acceptance key (the bus's default
/// state TTL, `bus.state_ttl_secs`).
const DEFAULT_ONCE_TTL: Duration = Duration::from_secs(86_400);

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chorus_bus::BusSettings;
    use chorus_bus::memory::MemoryBus;

    use super::*;

    fn setup() -> (Arc<MemoryBus>, TaskState) {
        let bus = MemoryBus::new(BusSettings::default());
        let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
        (Arc::new(bus), state)
    }

    #[tokio::test]
    async fn a_request_is_accepted_once_with_its_deadline_and_its_id_is_an_idempotency_key() {
        let (bus, state) = setup();
        let limits = Limits {
            deadline: Some(Duration::from_secs(5)),
            ..Limits::default()
        };
        let mut first = Submission::new("2+4", "http");
        first.task_id = Some("h-1".into());
        let mut other = first.clone();
        other.query = "3+3".into();
        let accepted = submit(bus.as_ref(), Some(&state), &limits, first.clone())
            .await
            .expect("first");
        assert!(accepted.fresh);
        assert_eq!(accepted.message.task_id, "h-1");
        let deadline = accepted.message.deadline_ms.expect("deadline");
        assert!(deadline.remaining() > Duration::from_secs(4));
        let again = submit(bus.as_ref(), Some(&state), &limits, first)
            .await
            .expect("same");
        assert!(!again.fresh);
        let taken = submit(bus.as_ref(), Some(&state), &limits, other)
            .await
            .expect_err("taken");
        assert_eq!(taken.code(), "task_id_taken");
        assert!(taken.to_string().contains("h-1"), "{taken}");
        assert_eq!(bus.len(&Topic::task_available()), 1);
        assert_eq!(
            state
                .request(&chorus_bus::TaskId::from("h-1"))
                .await
                .expect("read")
                .expect("open")
                .query,
            "2+4"
        );
    }

    #[tokio::test]
    async fn bad_requests_are_refused_with_a_code_and_nothing_is_published() {
        let (bus, state) = setup();
        let limits = Limits::default();
        let cases: Vec<(Submission, &str)> = vec![
            (Submission::new(" \t ", "cli"), "empty_query"),
            (Submission::new("1+".repeat(600), "cli"), "query_too_long"),
            (
                Submission {
                    task_id: Some("no spaces allowed".into()),
                    ..Submission::new("2+4", "cli")
                },
                "invalid_task_id",
            ),
            (
                Submission {
                    context: TaskContext {
                        timezone: Some("Mars/Olympus".into()),
                        ..TaskContext::default()
                    },
                    ..Submission::new("what day is it", "cli")
                },
                "invalid_context",
            ),
        ];
        for (s, code) in cases {
            let err = submit(bus.as_ref(), Some(&state), &limits, s)
                .await
                .expect_err("refused");
            assert_eq!(err.code(), code, "{err}");
            assert!(err.is_bad_request());
        }
        let long = SubmitError::QueryTooLong {
            chars: 1200,
            limit: 1000,
        };
        assert!(long.to_string().contains("too long"), "{long}");
        assert!(long.message_in(Language::En).contains("too long"));
        assert_eq!(bus.len(&Topic::task_available()), 0);
    }
}
