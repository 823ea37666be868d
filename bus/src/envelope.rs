//! The envelope every message travels in, and its JSON encoding. The payload's type is
//! fixed by the topic, so decoding reads the topic first and then the payload.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::DecodeError;
use crate::ids::{Deadline, TaskId, now_us};
use crate::payload::{ClarificationAnswer, Payload, TaskCancel, TaskRequest};
use crate::topic::{Topic, TopicKind};

/// Version of the message contract; bumped on incompatible changes.
pub const CONTRACT_VERSION: u32 = 1;

pub use crate::ids::MAX_TASK_ID_LEN;

/// W3C trace context carried across processes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TraceContext {
    /// The `traceparent` header value.
    pub traceparent: String,
}

/// One message on the bus.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Message {
    /// Unique message id (UUID v7).
    pub id: Uuid,
    /// The task this message belongs to (correlation id).
    pub task_id: TaskId,
    /// The topic, which fixes the payload's type.
    pub topic: Topic,
    /// The sending agent (`chief`, `planner`, `math-3f2a…`, `client`).
    pub from_agent: String,
    /// The intended receiving role, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_agent: Option<String>,
    /// When it was created, in microseconds since the Unix epoch.
    pub timestamp_us: u64,
    /// The contract version it was written against.
    pub version: u32,
    /// Trace context, when tracing is propagated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceContext>,
    /// The task's deadline in milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<Deadline>,
    /// The payload; its type is fixed by `topic`.
    pub payload: Payload,
}

/// The envelope as it arrives, with the payload still raw.
#[derive(Deserialize)]
struct RawMessage {
    id: Uuid,
    task_id: TaskId,
    topic: String,
    from_agent: String,
    #[serde(default)]
    to_agent: Option<String>,
    timestamp_us: u64,
    version: u32,
    #[serde(default)]
    trace: Option<TraceContext>,
    #[serde(default)]
    deadline_ms: Option<Deadline>,
    payload: serde_json::Value,
}

/// A bare request from a client with no SDK: `{"query": …}` plus optional fields.
#[derive(Deserialize)]
struct BareRequest {
    #[serde(default)]
    task_id: Option<String>,
    #[serde(flatten)]
    request: TaskRequest,
}

/// A bare answer from a client with no SDK: `{"task_id": …, "answer": …}`.
#[derive(Deserialize)]
struct BareAnswer {
    task_id: String,
    #[serde(flatten)]
    answer: ClarificationAnswer,
}

/// A bare cancellation from a client with no SDK: `{"task_id": …}` (plus `reason`).
#[derive(Deserialize)]
struct BareCancel {
    task_id: String,
    #[serde(flatten)]
    cancel: TaskCancel,
}

impl Message {
    /// A new message with a fresh UUID v7 id and the current time.
    pub fn new(
        task_id: impl Into<TaskId>,
        topic: Topic,
        from_agent: impl Into<String>,
        payload: Payload,
    ) -> Self {
        Message {
            id: Uuid::now_v7(),
            task_id: task_id.into(),
            topic,
            from_agent: from_agent.into(),
            to_agent: None,
            timestamp_us: now_us(),
            version: CONTRACT_VERSION,
            trace: None,
            deadline_ms: None,
            payload,
        }
    }

    /// A reply in the same task, carrying this message's deadline and trace context.
    pub fn reply(&self, topic: Topic, from_agent: impl Into<String>, payload: Payload) -> Self {
        let mut m = Message::new(self.task_id.clone(), topic, from_agent, payload);
        m.trace = self.trace.clone();
        m.deadline_ms = self.deadline_ms;
        m
    }

    /// Sets the intended receiver.
    pub fn to(mut self, agent: impl Into<String>) -> Self {
        self.to_agent = Some(agent.into());
        self
    }

    /// Encodes the message as JSON.
    pub fn to_json(&self) -> String {
        // A Message holds only JSON-representable data (strings, numbers, maps with
        // string keys), so serialization cannot fail.
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"encode_error\":\"{e}\"}}"))
    }

    /// Encodes the message for a transport: its topic must be one Chorus knows, and the
    /// encoding at most `limit` bytes. Every transport encodes through here.
    pub fn encode_within(&self, limit: usize) -> Result<String, DecodeError> {
        self.topic.kind()?;
        let data = self.to_json();
        if data.len() > limit {
            return Err(DecodeError::TooLarge {
                size: data.len(),
                limit,
            });
        }
        Ok(data)
    }

    /// Decodes a full envelope, checking its payload against its topic.
    pub fn from_json(data: &str) -> Result<Self, DecodeError> {
        let raw: RawMessage = serde_json::from_str(data)?;
        let topic = Topic::parse(&raw.topic)?;
        let payload = decode_payload(&topic, raw.payload)?;
        TaskId::parse(&raw.task_id)?;
        Ok(Message {
            id: raw.id,
            task_id: raw.task_id,
            topic,
            from_agent: raw.from_agent,
            to_agent: raw.to_agent,
            timestamp_us: raw.timestamp_us,
            version: raw.version,
            trace: raw.trace,
            deadline_ms: raw.deadline_ms,
            payload,
        })
    }

    /// Decodes what arrived on `topic`: a full envelope, or a client's bare payload —
    /// on `task_available` a `{"query": …}` request, on `clarification_answer` a
    /// `{"task_id": …, "answer": …}` answer — normalised into an envelope from `client`.
    /// `entry_id` (the stream entry id, when there is one) makes the normalised ids
    /// deterministic, so a redelivered bare entry keeps its message and task id.
    pub fn decode_on(
        topic: &Topic,
        data: &str,
        entry_id: Option<&str>,
    ) -> Result<Decoded, DecodeError> {
        let value: serde_json::Value = serde_json::from_str(data)?;
        let is_envelope = value.get("payload").is_some() && value.get("topic").is_some();
        if is_envelope {
            let msg = Message::from_json(data)?;
            if &msg.topic != topic {
                return Err(DecodeError::TopicMismatch {
                    claimed: msg.topic.to_string(),
                    actual: topic.to_string(),
                });
            }
            return Ok(Decoded::Envelope(msg));
        }
        let id = match entry_id {
            Some(e) => id_from_entry(topic.as_str(), e),
            None => Uuid::now_v7(),
        };
        let (task_id, payload) = match topic.kind()? {
            TopicKind::TaskAvailable => {
                let bare: BareRequest = serde_json::from_value(value)?;
                let task_id = match bare.task_id {
                    Some(t) => TaskId::parse(&t)?,
                    None => TaskId::from(id),
                };
                (task_id, Payload::TaskAvailable(bare.request))
            }
            TopicKind::ClarificationAnswer => {
                let bare: BareAnswer = serde_json::from_value(value)?;
                (
                    TaskId::parse(&bare.task_id)?,
                    Payload::ClarificationAnswer(bare.answer),
                )
            }
            TopicKind::TaskCancel => {
                let bare: BareCancel = serde_json::from_value(value)?;
                (
                    TaskId::parse(&bare.task_id)?,
                    Payload::TaskCancel(bare.cancel),
                )
            }
            _ => {
                return Err(DecodeError::Json(format!(
                    "expected a message envelope with topic and payload on {topic}"
                )));
            }
        };
        let mut msg = Message::new(task_id, topic.clone(), "client", payload);
        msg.id = id;
        Ok(Decoded::Bare(msg))
    }
}

/// What [`Message::decode_on`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum Decoded {
    /// A full envelope.
    Envelope(Message),
    /// A bare client request, normalised into an envelope not yet published.
    Bare(Message),
}

impl Decoded {
    /// The message, normalised or not.
    pub fn message(&self) -> &Message {
        match self {
            Decoded::Envelope(m) | Decoded::Bare(m) => m,
        }
    }

    /// Takes the message out.
    pub fn into_message(self) -> Message {
        match self {
            Decoded::Envelope(m) | Decoded::Bare(m) => m,
        }
    }
}

/// A UUID v7 derived from a stream entry id (`<ms>-<seq>`) and the stream's name, so the
/// same entry always normalises to the same id.
fn id_from_entry(stream: &str, entry_id: &str) -> Uuid {
    let (ms, seq) = entry_id.split_once('-').unwrap_or((entry_id, "0"));
    let ms: u64 = ms.parse().unwrap_or(0);
    let seq: u64 = seq.parse().unwrap_or(0);
    let mut tail = [0u8; 10];
    tail[..8].copy_from_slice(&seq.to_be_bytes());
    let h = stream
        .bytes()
        .fold(0u16, |h, b| h.wrapping_mul(31).wrapping_add(u16::from(b)));
    tail[8..].copy_from_slice(&h.to_be_bytes());
    uuid::Builder::from_unix_timestamp_millis(ms, &tail).into_uuid()
}

/// Decodes a payload by its topic's kind.
pub fn decode_payload(topic: &Topic, value: serde_json::Value) -> Result<Payload, DecodeError> {
    use serde_json::from_value as v;
    Ok(match topic.kind()? {
        TopicKind::TaskAvailable => Payload::TaskAvailable(v(value)?),
        TopicKind::PlanReady => Payload::PlanReady(v(value)?),
        TopicKind::PoolTask => Payload::StepTask(v(value)?),
        TopicKind::PoolResult => Payload::StepResult(v(value)?),
        TopicKind::ToolRequest => Payload::ToolRequest(v(value)?),
        TopicKind::ToolResponse => Payload::ToolResponse(v(value)?),
        TopicKind::FinalReport => Payload::FinalReport(v(value)?),
        TopicKind::ClarificationNeeded => Payload::ClarificationNeeded(v(value)?),
        TopicKind::ClarificationAnswer => Payload::ClarificationAnswer(v(value)?),
        TopicKind::TaskCancel => Payload::TaskCancel(v(value)?),
        TopicKind::RenavigateRequest => Payload::RenavigateRequest(v(value)?),
        TopicKind::VerificationDone => Payload::VerificationDone(v(value)?),
        TopicKind::DeadLetter => Payload::DeadLetter(v(value)?),
        TopicKind::AgentHeartbeat => Payload::AgentHeartbeat(v(value)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_query_is_normalised_with_a_deterministic_id() {
        let topic = Topic::task_available();
        let a = Message::decode_on(&topic, r#"{"query":"2+4"}"#, Some("1700000000000-7"))
            .expect("bare");
        let b = Message::decode_on(&topic, r#"{"query":"2+4"}"#, Some("1700000000000-7"))
            .expect("bare");
        assert!(matches!(a, Decoded::Bare(_)));
        assert_eq!(a.message().task_id, b.message().task_id);
        assert_eq!(a.message().id.get_version_num(), 7);
        let Payload::TaskAvailable(req) = &a.message().payload else {
            panic!("payload")
        };
        assert_eq!(req.query, "2+4");
    }

    #[test]
    fn a_payload_that_does_not_fit_its_topic_names_the_missing_field() {
        let msg = Message::new(
            "t1",
            Topic::task_available(),
            "x",
            Payload::TaskAvailable(TaskRequest {
                query: "q".into(),
                context: Default::default(),
            }),
        );
        let json = msg.to_json().replace("task_available", "plan_ready");
        let err = Message::from_json(&json).expect_err("mismatch");
        assert!(err.to_string().contains("missing field"), "{err}");
    }

    #[test]
    fn an_envelope_on_the_wrong_stream_is_refused() {
        let msg = Message::new(
            "t1",
            Topic::task_available(),
            "x",
            Payload::TaskAvailable(TaskRequest {
                query: "q".into(),
                context: Default::default(),
            }),
        );
        let err =
            Message::decode_on(&Topic::final_report(), &msg.to_json(), None).expect_err("mismatch");
        assert!(matches!(err, DecodeError::TopicMismatch { .. }));
    }
}
