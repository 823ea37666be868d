//! The loop every role runs: read a batch, handle each delivery in its own task (bounded
//! by a semaphore, so one slow message never holds back another), ack what was handled,
//! dead-letter what can never be handled, and leave the rest pending for redelivery.
//! Deliveries still being handled are kept alive (their idle time reset every third of
//! the claim idle time), so a handler that waits — for a pool to come back, for a slow
//! tool — is not taken for dead and its message handed to another replica. A handler
//! waiting on something outside its role gives its permit back meanwhile
//! ([`without_permit`]), so one pool being down never stops a role from reading.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use chorus_bus::{AckToken, Bus, BusError, DecodeError, Delivery, Subscription, Topic};
use chorus_telemetry::metrics::roles::{Handled, RoleMetrics};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tracing::{Instrument, debug, info_span, warn};

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

/// A shutdown signal shared by every loop of a process.
#[derive(Clone)]
pub struct Shutdown {
    rx: watch::Receiver<bool>,
}

/// Triggers a [`Shutdown`].
pub struct ShutdownTrigger {
    tx: watch::Sender<bool>,
}

impl Shutdown {
    /// A new signal and its trigger.
    pub fn new() -> (ShutdownTrigger, Shutdown) {
        let (tx, rx) = watch::channel(false);
        (ShutdownTrigger { tx }, Shutdown { rx })
    }

    /// Whether shutdown was requested.
    pub fn is_requested(&self) -> bool {
        *self.rx.borrow()
    }

    /// Resolves when shutdown is requested.
    pub async fn requested(&mut self) {
        while !*self.rx.borrow() {
            if self.rx.changed().await.is_err() {
                return;
            }
        }
    }
}

impl ShutdownTrigger {
    /// Requests shutdown of every loop holding the signal.
    pub fn trigger(&self) {
        let _ = self.tx.send(true);
    }
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

/// The deliveries a loop has taken and not finished, with when each was taken.
#[derive(Clone, Default)]
struct InFlight(Arc<Mutex<HashMap<AckToken, Instant>>>);

/// A delivery in [`InFlight`]; dropping it (the handler is done) removes it.
struct Taken {
    set: InFlight,
    token: AckToken,
}

impl InFlight {
    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<AckToken, Instant>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `token` as taken now.
    fn take(&self, token: AckToken) -> Taken {
        self.entries().insert(token.clone(), Instant::now());
        Taken {
            set: self.clone(),
            token,
        }
    }

    /// The deliveries taken at least `age` ago.
    fn older_than(&self, age: Duration) -> Vec<AckToken> {
        self.entries()
            .iter()
            .filter(|(_, at)| at.elapsed() >= age)
            .map(|(t, _)| t.clone())
            .collect()
    }
}

impl Drop for Taken {
    fn drop(&mut self) {
        self.set.entries().remove(&self.token);
    }
}

/// Every third of the claim idle time, resets the idle time of the deliveries taken at
/// least that long ago and not finished, in one pipelined call (nothing is sent while
/// every handler is quick). A failed call is logged; the next tick tries again.
async fn keep_alive_loop(bus: Arc<dyn Bus>, role: String, consumer: String, in_flight: InFlight) {
    let period = (bus.claim_idle() / 3).max(Duration::from_millis(10));
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let long = in_flight.older_than(period);
        if long.is_empty() {
            continue;
        }
        debug!(%role, n = long.len(), "keeping long-running deliveries alive");
        if let Err(e) = bus.keep_alive(&role, &consumer, &long).await {
            warn!(%role, error = %e, n = long.len(), "keep-alive failed; retrying next tick");
        }
    }
}

/// Longest a finished delivery waits for others to be acked with it. An ack is one
/// XACK per stream, whatever the number of entries it names; at one task in flight each
/// role finishes a delivery every few milliseconds, so acking each at once cost one
/// command per hop (8 of a task's commands). A delivery waiting here has its effects
/// written already: a crash meanwhile redelivers it, and its handler, idempotent, finds
/// them done (at-least-once, effects once, as for any crash before an ack).
pub const ACK_LINGER: Duration = Duration::from_millis(50);

/// Most deliveries acked in one call.
const ACK_BATCH: usize = 1024;

/// How long finished deliveries wait for others: [`ACK_LINGER`], less when the claim
/// idle time is short (a tenth of it), so that a finished delivery is acked long before
/// another replica could claim it (it is no longer kept alive once finished).
fn ack_linger(claim_idle: Duration) -> Duration {
    ACK_LINGER.min(claim_idle / 10)
}

/// Acks finished deliveries: waits for one, then for up to the linger time (see
/// [`ack_linger`]) for more, and acks them together in one pipelined call (one XACK per
/// stream). Ends when every sender is gone, acking what it holds first.
async fn ack_loop(bus: Arc<dyn Bus>, role: String, mut rx: mpsc::UnboundedReceiver<AckToken>) {
    let linger = ack_linger(bus.claim_idle());
    while let Some(batch) = next_acks(&mut rx, linger).await {
        if let Err(e) = bus.ack(&role, &batch).await {
            warn!(%role, error = %e, n = batch.len(), "ack failed; entries will be redelivered and deduplicated");
        }
    }
}

/// The next deliveries to ack together: waits for one, then takes what else finishes
/// within `linger` of it (at most [`ACK_BATCH`]); `None` once every sender is gone and
/// nothing is left.
async fn next_acks(
    rx: &mut mpsc::UnboundedReceiver<AckToken>,
    linger: Duration,
) -> Option<Vec<AckToken>> {
    let mut batch = vec![rx.recv().await?];
    let until = tokio::time::Instant::now() + linger;
    while batch.len() < ACK_BATCH {
        match tokio::time::timeout_at(until, rx.recv()).await {
            Ok(Some(more)) => batch.push(more),
            Ok(None) | Err(_) => break,
        }
    }
    Some(batch)
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

/// Resolves on Ctrl-C or SIGTERM: how every `chorus` command is asked to stop.
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(n: u32) -> AckToken {
        AckToken {
            topic: Topic::final_report(),
            entry_id: format!("{n}-0"),
            partition: 0,
        }
    }

    fn ids(batch: &[AckToken]) -> Vec<&str> {
        batch.iter().map(|t| t.entry_id.as_str()).collect()
    }

    #[tokio::test(start_paused = true)]
    async fn deliveries_finished_within_the_linger_are_acked_together_and_later_ones_apart() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let sender = tokio::spawn(async move {
            for n in 1..=3 {
                tx.send(token(n)).expect("send");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            tx.send(token(4)).expect("send");
        });
        let linger = Duration::from_millis(50);
        let first = next_acks(&mut rx, linger).await.expect("a batch");
        assert_eq!(ids(&first), ["1-0", "2-0", "3-0"]);
        let second = next_acks(&mut rx, linger).await.expect("a batch");
        assert_eq!(ids(&second), ["4-0"]);
        sender.await.expect("sender");
        assert!(
            next_acks(&mut rx, linger).await.is_none(),
            "every sender gone"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn what_is_held_is_acked_when_the_loop_is_told_to_end() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        tx.send(token(1)).expect("send");
        tx.send(token(2)).expect("send");
        drop(tx);
        let held = next_acks(&mut rx, Duration::from_secs(3600))
            .await
            .expect("a batch");
        assert_eq!(ids(&held), ["1-0", "2-0"]);
    }

    #[test]
    fn the_linger_stays_well_below_a_short_claim_idle_time() {
        assert_eq!(ack_linger(Duration::from_secs(5)), ACK_LINGER);
        assert_eq!(
            ack_linger(Duration::from_millis(100)),
            Duration::from_millis(10)
        );
    }
}
