//! The loop every role runs: read a batch, handle each delivery in its own task (bounded
//! by a semaphore, so one slow message never holds back another), ack what was handled,
//! dead-letter what can never be handled, and leave the rest pending for redelivery.
//! Deliveries still being handled are kept alive (their idle time reset every third of
//! the claim idle time), so a handler that waits — for a pool to come back, for a slow
//! tool — is not taken for dead and its message handed to another replica. A handler
//! waiting on something outside its role (a pool with no live agent, an MCP server
//! between attempts, a model) gives its permit back meanwhile ([`without_permit`]), so
//! one pool being down or a slow model never stops a role from reading, and the permits
//! (`agents.max_in_flight`) bound the work a process holds, not the waits.

mod deliveries;
mod shutdown;

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use chorus_bus::{AckToken, Bus, BusError, DecodeError, Delivery, Subscription, Topic};
use chorus_telemetry::metrics::roles::{Handled, RoleMetrics};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tracing::{Instrument, debug, info_span, warn};

pub use deliveries::ACK_LINGER;
use deliveries::{InFlight, ack_loop, keep_alive_loop};
pub use shutdown::{Shutdown, ShutdownTrigger, stop_signal};

/// Why a handler did not finish a delivery.
#[derive(Debug, thiserror::Error)]
pub enum HandleError {
    /// The message can never be handled (bad content): dead-letter it with the reason.
    #[error("permanent: {0}")]
    Permanent(#[from] Refusal),
    /// A transient failure (Redis unreachable, another replica busy with the same
    /// work): leave it pending to be redelivered.
    #[error("transient: {0}")]
    Transient(#[source] Pending),
}

/// Why a message is left pending for redelivery.
#[derive(Debug, thiserror::Error)]
pub enum Pending {
    /// The bus or the store failed.
    #[error(transparent)]
    Bus(BusError),
    /// Another replica holds this piece of work for now (e.g. it is writing the
    /// report); the redelivery finds it done, or takes it over.
    #[error("{0}")]
    Busy(&'static str),
}

/// Why a message can never be handled.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The role does not take this topic (the topology routed it elsewhere).
    #[error("the {role} does not handle {topic}")]
    NotHandled {
        /// The role's name.
        role: &'static str,
        /// The topic it arrived on.
        topic: Topic,
    },
    /// The payload is not the one the role needs from this topic.
    #[error("{topic} carries no {expected}")]
    NoPayload {
        /// The topic it arrived on.
        topic: Topic,
        /// What the role needed (`request`, `step`).
        expected: &'static str,
    },
    /// State or a message the handler read does not decode.
    #[error("{0}")]
    Undecodable(#[from] DecodeError),
}

impl HandleError {
    /// The role does not take messages on `topic`.
    pub fn not_handled(role: &'static str, topic: &Topic) -> Self {
        Refusal::NotHandled {
            role,
            topic: topic.clone(),
        }
        .into()
    }

    /// The message on `topic` lacks the `expected` payload.
    pub fn no_payload(topic: &Topic, expected: &'static str) -> Self {
        Refusal::NoPayload {
            topic: topic.clone(),
            expected,
        }
        .into()
    }
}

impl From<BusError> for HandleError {
    fn from(e: BusError) -> Self {
        match e {
            BusError::Decode(d) => HandleError::Permanent(Refusal::Undecodable(d)),
            other => HandleError::Transient(Pending::Bus(other)),
        }
    }
}

/// What a role does with one delivery. Must be idempotent: a delivery can arrive again.
#[async_trait]
pub trait Handler: Send + Sync + 'static {
    /// Handles one delivery; its effects must be written before this returns `Ok`.
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError>;
}

/// The permit a delivery's handler holds, where [`without_permit`] can find it.
struct PermitSlot {
    permits: Arc<Semaphore>,
    held: Mutex<Option<OwnedSemaphorePermit>>,
}

tokio::task_local! {
    static PERMIT: Arc<PermitSlot>;
}

/// Runs `wait` — a wait on something outside the role, such as a pool coming back —
/// without holding the runtime loop's permit, so the loop reads and handles other
/// deliveries meanwhile; the permit is taken again before this returns. Waits are
/// bounded by the caller (by the task's deadline), which bounds how many pile up. Outside
/// a runtime loop's handler it just runs `wait`.
pub async fn without_permit<F: Future>(wait: F) -> F::Output {
    let Ok(slot) = PERMIT.try_with(Arc::clone) else {
        return wait.await;
    };
    let given_back = slot
        .held
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if given_back.is_none() {
        return wait.await;
    }
    drop(given_back);
    let out = wait.await;
    if let Ok(permit) = slot.permits.clone().acquire_owned().await {
        *slot.held.lock().unwrap_or_else(PoisonError::into_inner) = Some(permit);
    }
    out
}

/// Runs `handler` on `sub` until shutdown, with at most `max_in_flight` deliveries in
/// progress at once (back-pressure: no new batch is read while all permits are taken).
/// Bare client requests reach the handler only when `takes_bare` (the topology's word
/// for the role); other roles ack them unseen, as the Chief turns them into tasks.
/// Handled deliveries are acked by a separate task as soon as they finish (batched with
/// whatever else finished meanwhile); permanent failures are dead-lettered. Deliveries
/// taken and not finished are kept alive by another task (`keep_alive_loop`).
pub async fn run_loop(
    bus: Arc<dyn Bus>,
    sub: Subscription,
    handler: Arc<dyn Handler>,
    max_in_flight: usize,
    takes_bare: bool,
    mut shutdown: Shutdown,
) -> Result<(), chorus_bus::BusError> {
    let role = sub.role.clone();
    let sub_consumer = sub.consumer.clone();
    let metrics = RoleMetrics::new(&role, &sub.topics);
    let mut subscriber = bus.subscribe(sub).await?;
    let permits = Arc::new(Semaphore::new(max_in_flight.max(1)));
    let (ack_tx, ack_rx) = mpsc::unbounded_channel::<AckToken>();
    let (failed_tx, mut failed_rx) = mpsc::unbounded_channel::<(Delivery, String)>();
    let acker = tokio::spawn(ack_loop(bus.clone(), role.clone(), ack_rx));
    let in_flight = InFlight::default();
    let keeper = tokio::spawn(keep_alive_loop(
        bus.clone(),
        role.clone(),
        sub_consumer,
        in_flight.clone(),
    ));
    loop {
        let batch = tokio::select! {
            b = subscriber.next_batch() => b,
            _ = shutdown.requested() => break,
        };
        dead_letter_failed(&mut *subscriber, &mut failed_rx).await;
        let batch = match batch {
            Ok(b) => b,
            Err(e) => {
                warn!(%role, error = %e, "reading the bus failed; retrying");
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                continue;
            }
        };
        for delivery in batch {
            if delivery.bare && !takes_bare {
                let _ = ack_tx.send(delivery.ack_token());
                continue;
            }
            // Kept alive from here (a delivery may wait for a permit) until it is done.
            let taken = in_flight.take(delivery.ack_token());
            let sent_us = delivery.message.timestamp_us;
            let handling = metrics.received(&delivery.topic, delivery.deliveries, sent_us);
            let Ok(permit) = permits.clone().acquire_owned().await else {
                break;
            };
            let handler = handler.clone();
            let (acks, failed) = (ack_tx.clone(), failed_tx.clone());
            // Traces on: the CONSUMER span `process <topic>`, child of the producer's.
            let span = chorus_telemetry::traces::spans::process(&role, &delivery)
                .unwrap_or_else(|| {
                    info_span!("handle", %role, task_id = %delivery.message.task_id,
                        topic = %delivery.topic, entry = %delivery.entry_id, n = delivery.deliveries)
                });
            let slot = Arc::new(PermitSlot {
                permits: permits.clone(),
                held: Mutex::new(Some(permit)),
            });
            tokio::spawn(
                async move {
                    let handled = PERMIT.scope(slot.clone(), handler.handle(&delivery)).await;
                    handling.finished(handled_as(&handled));
                    match handled {
                        Ok(()) => {
                            let _ = acks.send(delivery.ack_token());
                        }
                        Err(HandleError::Permanent(refusal)) => {
                            let span = tracing::Span::current();
                            chorus_telemetry::traces::spans::failed(&span, "dead_lettered");
                            warn!(reason = %refusal, "cannot be handled; dead-lettering");
                            let _ = failed.send((delivery, refusal.to_string()));
                        }
                        Err(HandleError::Transient(cause)) => {
                            debug!(reason = %cause, "left pending for redelivery");
                        }
                    }
                    drop(taken);
                    drop(slot); // and the permit it holds
                }
                .instrument(span),
            );
        }
    }
    // Let in-flight handlers finish, then flush their acks and dead letters.
    let _ = permits.acquire_many(max_in_flight.max(1) as u32).await;
    keeper.abort();
    drop(ack_tx);
    let _ = acker.await;
    dead_letter_failed(&mut *subscriber, &mut failed_rx).await;
    Ok(())
}

/// How a handler's result is counted in the metrics.
fn handled_as(handled: &Result<(), HandleError>) -> Handled {
    match handled {
        Ok(()) => Handled::Ok,
        Err(HandleError::Permanent(_)) => Handled::Refused,
        Err(HandleError::Transient(_)) => Handled::Pending,
    }
}

/// Dead-letters deliveries whose handler failed permanently.
async fn dead_letter_failed(
    subscriber: &mut dyn chorus_bus::Subscriber,
    failed: &mut mpsc::UnboundedReceiver<(Delivery, String)>,
) {
    while let Ok((delivery, reason)) = failed.try_recv() {
        if let Err(e) = subscriber.dead_letter(&delivery, &reason).await {
            warn!(error = %e, "dead-lettering failed; the entry stays pending");
        }
    }
}
