//! PUBLISH ingress: a client with no SDK may `PUBLISH task_available '{"query":…}'`.
//! Listeners (one per Chief replica) SUBSCRIBE to that channel, ignore full envelopes
//! (the bus's own mirror, so nothing loops), normalise bare requests and XADD them to
//! the `task_available` stream through `publish_once`, so however many replicas listen,
//! one PUBLISH makes one stream entry. The dedupe key is the request's `task_id` when
//! given, else a hash of the raw payload: identical bare payloads published within
//! `ingress_dedupe_ms` are one task.

use std::future::Future;
use std::time::Duration;

use futures::StreamExt;

use super::RedisBus;
use super::publish::{fnv1a64, preview};
use crate::error::{RedisBusError, bus_err};
use chorus_bus::bus::Bus;
use chorus_bus::dead_letter::{DeadLetterInfo, dead_letter_message};
use chorus_bus::envelope::{Decoded, Message};
use chorus_bus::error::{BusError, DecodeError};
use chorus_bus::topic::Topic;

/// Prefix of the ingress dedupe keys (`chorus:ingress:task:<task_id>`,
/// `chorus:ingress:raw:<hash>`, `chorus:ingress:dead:<hash>`).
pub const INGRESS_KEY_PREFIX: &str = "chorus:ingress:";

/// The role named in dead letters written by the ingress.
const INGRESS_ROLE: &str = "ingress";

/// What one ingress payload became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ingested {
    /// A full envelope (the mirror of a stream entry): ignored.
    Mirror,
    /// A bare request, appended to the stream by this listener.
    Published,
    /// A bare request another listener already appended.
    Duplicate,
    /// Invalid: a dead letter was written (once) with the reason.
    DeadLettered(String),
}

impl RedisBus {
    /// Runs the PUBLISH ingress until `shutdown` completes, resubscribing by itself after
    /// connection losses (pausing up to a second between attempts).
    pub async fn run_publish_ingress(&self, shutdown: impl Future<Output = ()>) {
        tokio::pin!(shutdown);
        let mut pause = Duration::from_millis(50);
        loop {
            tokio::select! {
                () = &mut shutdown => return,
                result = self.ingress_session() => {
                    match result {
                        Ok(()) => tracing::warn!("ingress subscription ended; resubscribing"),
                        Err(e) => tracing::warn!(error = %e, "ingress subscription failed; resubscribing"),
                    }
                }
            }
            tokio::select! {
                () = &mut shutdown => return,
                () = tokio::time::sleep(pause) => {}
            }
            pause = (pause * 2).min(Duration::from_secs(1));
        }
    }

    /// One subscription, until the connection ends.
    async fn ingress_session(&self) -> Result<(), BusError> {
        let settings = self.settings();
        let mut pubsub = tokio::time::timeout(
            settings.connect_timeout(),
            self.shared.client.get_async_pubsub(),
        )
        .await
        .map_err(|_| RedisBusError::Timeout("connecting for the ingress subscription"))?
        .map_err(bus_err)?;
        pubsub
            .subscribe(Topic::TASK_AVAILABLE)
            .await
            .map_err(bus_err)?;
        tracing::info!("ingress listening on channel {}", Topic::TASK_AVAILABLE);
        let mut messages = pubsub.on_message();
        while let Some(msg) = messages.next().await {
            let raw = String::from_utf8_lossy(msg.get_payload_bytes()).into_owned();
            match self.ingest(&raw).await {
                Ok(outcome) => tracing::debug!(?outcome, "ingress payload handled"),
                Err(e) => {
                    tracing::warn!(error = %e, payload = preview(&raw), "ingress payload failed")
                }
            }
        }
        Ok(())
    }

    /// Handles one payload published on the `task_available` channel.
    pub async fn ingest(&self, raw: &str) -> Result<Ingested, BusError> {
        let settings = self.settings();
        let ttl = Duration::from_millis(settings.ingress_dedupe_ms);
        let topic = Topic::task_available();
        let hash = format!("{:016x}", fnv1a64(raw.as_bytes()));
        let decoded = if raw.len() > settings.max_message_bytes {
            Err(DecodeError::TooLarge {
                size: raw.len(),
                limit: settings.max_message_bytes,
            })
        } else {
            Message::decode_on(&topic, raw, None)
        };
        match decoded {
            Ok(Decoded::Envelope(_)) => Ok(Ingested::Mirror),
            Ok(Decoded::Bare(msg)) => {
                let key = match task_id_given(raw) {
                    true => format!("{INGRESS_KEY_PREFIX}task:{}", msg.task_id),
                    false => format!("{INGRESS_KEY_PREFIX}raw:{hash}"),
                };
                if self.publish_once(&key, ttl, &msg).await? {
                    Ok(Ingested::Published)
                } else {
                    Ok(Ingested::Duplicate)
                }
            }
            Err(e) if looks_like_envelope(raw) && !matches!(e, DecodeError::TooLarge { .. }) => {
                // A broken envelope on the mirror channel was not published by us as a
                // request; its stream entry (if any) is dead-lettered by consumers.
                Ok(Ingested::Mirror)
            }
            Err(e) => {
                let reason = format!("invalid ingress request: {e}");
                let dl = dead_letter_message(&DeadLetterInfo {
                    topic: Topic::TASK_AVAILABLE,
                    entry_id: "",
                    role: INGRESS_ROLE,
                    deliveries: 1,
                    reason: &reason,
                    original: raw,
                    task_id: None,
                });
                let key = format!("{INGRESS_KEY_PREFIX}dead:{hash}");
                self.publish_once(&key, ttl, &dl).await?;
                Ok(Ingested::DeadLettered(reason))
            }
        }
    }
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
