//! The PUBLISH door: a client with no SDK may `PUBLISH task_available '{"query":…}'`,
//! and answer a task's question with `PUBLISH clarification_answer '{"task_id": …,
//! "answer": …}'` (through [`super::answer`]; a refused answer becomes one dead letter),
//! and cancel a task with `PUBLISH task_cancel '{"task_id": …}'` (through
//! [`super::cancel`], likewise).
//! Every Chief replica listens on the channel (through [`Bus::ingress`]); a bare request
//! goes through [`submit`] under a once-key, so however many replicas listen, one
//! PUBLISH makes one task: the key is the task's own `accepted` key when the request
//! names its `task_id`, else a hash of the raw payload (identical bare payloads
//! published within `bus.ingress_dedupe_ms` are one task). Full envelopes on the
//! channel are the bus's own mirror and are ignored, so nothing loops. What cannot be
//! read becomes one dead letter; a request the door refuses gets a refusal report.

use std::future::Future;
use std::time::Duration;

use chorus_bus::dead_letter::{DeadLetterInfo, dead_letter_message, truncate_utf8};
use chorus_bus::envelope::Decoded;
use chorus_bus::{Bus, BusError, BusSettings, DecodeError, Message, Payload, Topic};
use chorus_telemetry::metrics::tasks::Door;

use super::answer::{AnswerSubmission, FromBus, Letter, answer_from_bus};
use super::cancel::{CancelSubmission, cancel_from_bus};
use super::refusal::{dead_letter_refused, refuse_on_bus};
use super::submit::{Limits, Submission, SubmitError, submit};
use crate::state::{TaskState, once};

/// The role named in dead letters written by the ingress.
const INGRESS_ROLE: &str = "ingress";

/// What one ingress payload became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ingested {
    /// A full envelope (the mirror of a stream entry): ignored.
    Mirror,
    /// A bare request, submitted by this listener.
    Published,
    /// A bare request another listener (or an earlier PUBLISH) already submitted.
    Duplicate,
    /// A bare request the door refused; a refusal report was written (once).
    Refused(String),
    /// Invalid: a dead letter was written (once) with the reason.
    DeadLettered(String),
}

/// Runs the PUBLISH door on `bus` until `shutdown` completes — requests on
/// `task_available` and, with `state`, answers on `clarification_answer` — subscribing
/// again by itself after connection losses (pausing up to a second between attempts).
pub async fn run_publish_ingress(
    bus: &dyn Bus,
    state: Option<&TaskState>,
    settings: &BusSettings,
    limits: &Limits,
    shutdown: impl Future<Output = ()>,
) {
    let shutdown = futures::FutureExt::shared(Box::pin(shutdown));
    let requests = listen(
        bus,
        Topic::task_available(),
        shutdown.clone(),
        |raw| async move { ingest(bus, state, settings, limits, &raw).await },
    );
    match state {
        Some(state) => {
            let answers = listen(
                bus,
                Topic::clarification_answer(),
                shutdown.clone(),
                |raw| async move { ingest_answer(bus, state, settings, &raw).await },
            );
            let cancels = listen(bus, Topic::task_cancel(), shutdown, |raw| async move {
                ingest_cancel(bus, state, settings, &raw).await
            });
            tokio::join!(requests, answers, cancels);
        }
        None => requests.await,
    }
}

/// Listens on `topic`'s channel until `shutdown`, handing each payload to `handle`.
async fn listen<F, Fut>(bus: &dyn Bus, topic: Topic, shutdown: impl Future<Output = ()>, handle: F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = Result<Ingested, BusError>>,
{
    tokio::pin!(shutdown);
    let mut pause = Duration::from_millis(50);
    loop {
        let session = async {
            let mut feed = bus.ingress(&topic).await?;
            pause = Duration::from_millis(50);
            while let Some(raw) = feed.next().await {
                match handle(raw.clone()).await {
                    Ok(outcome) => tracing::debug!(?outcome, "ingress payload handled"),
                    Err(e) => tracing::warn!(error = %e, payload = truncate_utf8(&raw, 200),
                        "ingress payload failed"),
                }
            }
            Ok::<(), BusError>(())
        };
        tokio::select! {
            () = &mut shutdown => return,
            result = session => match result {
                Ok(()) => tracing::warn!("ingress subscription ended; subscribing again"),
                Err(e) => tracing::warn!(error = %e, "ingress subscription failed; subscribing again"),
            },
        }
        tokio::select! {
            () = &mut shutdown => return,
            () = tokio::time::sleep(pause) => {}
        }
        pause = (pause * 2).min(Duration::from_secs(1));
    }
}

/// The once-key of the dead letter for a payload of hash `hash` on `topic`'s channel.
/// (junk is dead-lettered once per channel it was published on).
fn dead_key(topic: &Topic, hash: &str) -> String {
    chorus_bus::keys::ingress_dead(topic.as_str(), hash)
}

/// Handles one payload published on the `task_available` channel; with `state`, a
/// reused task id is checked against the request that took it.
pub async fn ingest(
    bus: &dyn Bus,
    state: Option<&TaskState>,
    settings: &BusSettings,
    limits: &Limits,
    raw: &str,
) -> Result<Ingested, BusError> {
    let ttl = Duration::from_millis(settings.ingress_dedupe_ms);
    let topic = Topic::task_available();
    let hash = format!("{:016x}", fnv1a64(raw.as_bytes()));
    match decode(&topic, settings, raw) {
        Ok(Decoded::Envelope(_)) => Ok(Ingested::Mirror),
        Ok(Decoded::Bare(msg)) => {
            let Payload::TaskAvailable(request) = msg.payload else {
                return Ok(Ingested::Mirror);
            };
            let given = task_id_given(raw);
            let once_key = match given {
                true => (once::accepted(&msg.task_id), settings.state_ttl()),
                false => (chorus_bus::keys::ingress_raw(&hash), ttl),
            };
            let submission = Submission {
                query: request.query.clone(),
                context: request.context.clone(),
                task_id: given.then(|| msg.task_id.to_string()),
                from: "client".to_owned(),
                once: Some(once_key.clone()),
                door: Some(Door::Publish),
            };
            match submit(bus, state, limits, submission).await {
                Ok(accepted) if accepted.fresh => Ok(Ingested::Published),
                Ok(_) => Ok(Ingested::Duplicate),
                Err(SubmitError::Bus(e)) => Err(e),
                Err(taken @ SubmitError::TaskIdTaken { .. }) => {
                    let reason = taken.to_string();
                    let key = dead_key(&topic, &hash);
                    dead_letter_refused(
                        bus,
                        INGRESS_ROLE,
                        &msg.task_id,
                        &request,
                        &taken,
                        (key, ttl),
                    )
                    .await?;
                    Ok(Ingested::DeadLettered(reason))
                }
                Err(refused) => {
                    let reason = refused.to_string();
                    refuse_on_bus(bus, &msg.task_id, &request, &refused, once_key).await?;
                    Ok(Ingested::Refused(reason))
                }
            }
        }
        Err(e) if looks_like_envelope(raw) && !matches!(e, DecodeError::TooLarge { .. }) => {
            // A broken envelope on the mirror channel was not published by us as a
            // request; its stream entry (if any) is dead-lettered by consumers.
            Ok(Ingested::Mirror)
        }
        Err(e) => {
            let reason = format!("invalid ingress request: {e}");
            let key = dead_key(&topic, &hash);
            dead_letter_raw(bus, &topic, reason, raw, (key, ttl)).await
        }
    }
}

/// Handles one payload published on the `clarification_answer` channel: a bare
/// `{"task_id": …, "answer": …}` goes through the one way in for answers; what it
/// refuses, or what cannot be read, becomes one dead letter with the reason.
pub async fn ingest_answer(
    bus: &dyn Bus,
    state: &TaskState,
    settings: &BusSettings,
    raw: &str,
) -> Result<Ingested, BusError> {
    let topic = Topic::clarification_answer();
    ingest_to_door(
        bus,
        settings,
        topic,
        "answer",
        raw,
        |msg, letter| async move {
            let Payload::ClarificationAnswer(given) = msg.payload else {
                return Ok(None);
            };
            let submission = AnswerSubmission {
                task_id: msg.task_id.to_string(),
                answer: given.answer,
                question: given.question,
                from: "client".to_owned(),
            };
            answer_from_bus(bus, state, submission, letter)
                .await
                .map(Some)
        },
    )
    .await
}

/// Handles one payload published on the `task_cancel` channel: a bare
/// `{"task_id": …}` goes through the one way in for cancellations; what it refuses, or
/// what cannot be read, becomes one dead letter with the reason.
pub async fn ingest_cancel(
    bus: &dyn Bus,
    state: &TaskState,
    settings: &BusSettings,
    raw: &str,
) -> Result<Ingested, BusError> {
    let topic = Topic::task_cancel();
    ingest_to_door(
        bus,
        settings,
        topic,
        "cancellation",
        raw,
        |msg, letter| async move {
            let Payload::TaskCancel(given) = msg.payload else {
                return Ok(None);
            };
            let submission = CancelSubmission {
                task_id: msg.task_id.to_string(),
                reason: given.reason,
                from: "client".to_owned(),
            };
            cancel_from_bus(bus, state, submission, letter)
                .await
                .map(Some)
        },
    )
    .await
}

/// A bare payload on `topic`'s channel (a `what`: answer, cancellation) handed to its
/// door (`None`: not that topic's payload, taken for the mirror); what cannot be read
/// becomes one dead letter, and the door's refusals likewise (under the same key, a
/// hash of the payload, so several listeners write one letter).
async fn ingest_to_door<'a, F, Fut>(
    bus: &dyn Bus,
    settings: &BusSettings,
    topic: Topic,
    what: &str,
    raw: &'a str,
    door: F,
) -> Result<Ingested, BusError>
where
    F: FnOnce(Message, Letter<'a>) -> Fut,
    Fut: Future<Output = Result<Option<FromBus>, BusError>>,
{
    let ttl = Duration::from_millis(settings.ingress_dedupe_ms);
    let hash = format!("{:016x}", fnv1a64(raw.as_bytes()));
    let key = dead_key(&topic, &hash);
    let msg = match decode(&topic, settings, raw) {
        Ok(Decoded::Envelope(_)) => return Ok(Ingested::Mirror),
        Ok(Decoded::Bare(msg)) => msg,
        Err(e) if looks_like_envelope(raw) && !matches!(e, DecodeError::TooLarge { .. }) => {
            return Ok(Ingested::Mirror);
        }
        Err(e) => {
            let reason = format!("invalid {what}: {e}");
            return dead_letter_raw(bus, &topic, reason, raw, (key, ttl)).await;
        }
    };
    let letter = Letter {
        role: INGRESS_ROLE,
        original: raw,
        entry_id: "",
        once: (key, ttl),
    };
    Ok(match door(msg, letter).await? {
        None => Ingested::Mirror,
        Some(FromBus::Accepted) => Ingested::Published,
        Some(FromBus::Duplicate) => Ingested::Duplicate,
        Some(FromBus::Refused(reason)) => Ingested::DeadLettered(reason),
    })
}

/// What a payload published on `topic`'s channel is: a full envelope (the mirror), a
/// client's bare payload, or an error (too large, not JSON of either form).
fn decode(topic: &Topic, settings: &BusSettings, raw: &str) -> Result<Decoded, DecodeError> {
    if raw.len() > settings.max_message_bytes {
        return Err(DecodeError::TooLarge {
            size: raw.len(),
            limit: settings.max_message_bytes,
        });
    }
    Message::decode_on(topic, raw, None)
}

/// Publishes, under `once`, the dead letter of a payload published on `topic`'s channel
/// that could not be read.
async fn dead_letter_raw(
    bus: &dyn Bus,
    topic: &Topic,
    reason: String,
    raw: &str,
    once: (String, Duration),
) -> Result<Ingested, BusError> {
    let dl = dead_letter_message(&DeadLetterInfo {
        topic: topic.as_str(),
        entry_id: "",
        role: INGRESS_ROLE,
        deliveries: 1,
        reason: &reason,
        original: raw,
        task_id: None,
    });
    super::refusal::publish_letter(bus, INGRESS_ROLE, topic.as_str(), once, &dl).await?;
    Ok(Ingested::DeadLettered(reason))
}

/// FNV-1a, 64 bits: the same payload hashes alike in every listener, whatever its
/// version or platform (std's hashers promise neither).
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Whether the raw JSON carries its own `task_id`.
fn task_id_given(raw: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(raw)
        .ok()
        .is_some_and(|v| v.get("task_id").is_some_and(|t| t.is_string()))
}

/// Whether the raw JSON has the envelope's `topic` and `payload` fields.
fn looks_like_envelope(raw: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(raw)
        .ok()
        .is_some_and(|v| v.get("topic").is_some() && v.get("payload").is_some())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chorus_bus::memory::MemoryBus;

    use super::*;

    #[test]
    fn the_dedupe_hash_is_the_published_fnv1a() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[tokio::test]
    async fn a_bare_publish_on_the_memory_bus_becomes_one_task_and_a_blank_one_a_refusal() {
        let settings = BusSettings::default();
        let bus = Arc::new(MemoryBus::new(settings.clone()));
        let limits = Limits::default();
        let raw = r#"{"query":"2+4"}"#;
        let first = ingest(bus.as_ref(), None, &settings, &limits, raw).await;
        assert_eq!(first.expect("ingest"), Ingested::Published);
        let second = ingest(bus.as_ref(), None, &settings, &limits, raw).await;
        assert_eq!(second.expect("ingest"), Ingested::Duplicate);
        assert_eq!(bus.len(&Topic::task_available()), 1);
        let blank = ingest(
            bus.as_ref(),
            None,
            &settings,
            &limits,
            r#"{"query":"  ","task_id":"b-1"}"#,
        )
        .await
        .expect("ingest");
        assert!(
            matches!(blank, Ingested::Refused(ref r) if r.contains("empty")),
            "{blank:?}"
        );
        let reports = bus
            .recent(&Topic::final_report(), 10)
            .await
            .expect("recent");
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].task_id, "b-1");
        let Payload::FinalReport(report) = &reports[0].payload else {
            panic!("not a report")
        };
        assert!(report.text.contains("empty"), "{}", report.text);
    }

    #[tokio::test]
    async fn the_same_junk_on_two_channels_is_two_dead_letters_and_once_on_each() {
        let settings = BusSettings::default();
        let bus = Arc::new(MemoryBus::new(settings.clone()));
        let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
        let limits = Limits::default();
        let junk = "not json at all";
        for _ in 0..2 {
            let request = ingest(bus.as_ref(), Some(&state), &settings, &limits, junk).await;
            assert!(
                matches!(request, Ok(Ingested::DeadLettered(_))),
                "{request:?}"
            );
            let answer = ingest_answer(bus.as_ref(), &state, &settings, junk).await;
            assert!(
                matches!(answer, Ok(Ingested::DeadLettered(_))),
                "{answer:?}"
            );
        }
        let letters = bus.recent(&Topic::dead_letter(), 10).await.expect("recent");
        let mut topics: Vec<String> = letters
            .iter()
            .map(|m| match &m.payload {
                Payload::DeadLetter(d) => d.topic.clone(),
                _ => String::new(),
            })
            .collect();
        topics.sort();
        assert_eq!(topics, ["clarification_answer", "task_available"]);
        // Each counted once in chorus_dead_letters_total, under the ingress.
        let text = chorus_telemetry::metrics::render();
        for topic in ["task_available", "clarification_answer"] {
            let line = format!("chorus_dead_letters_total{{role=\"ingress\",topic=\"{topic}\"}} 1");
            assert!(text.contains(&line), "{line} in\n{text}");
        }
    }
}
