//! Deliveries between taken and acked: those in flight kept alive while their handler
//! runs, and finished ones acked in batches.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use chorus_bus::{AckToken, Bus};
use tokio::sync::mpsc;
use tracing::{debug, warn};

/// The deliveries a loop has taken and not finished, with when each was taken.
#[derive(Clone, Default)]
pub(super) struct InFlight(Arc<Mutex<HashMap<AckToken, Instant>>>);

/// A delivery in [`InFlight`]; dropping it (the handler is done) removes it.
pub(super) struct Taken {
    set: InFlight,
    token: AckToken,
}

impl InFlight {
    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<AckToken, Instant>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `token` as taken now.
    pub(super) fn take(&self, token: AckToken) -> Taken {
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
pub(super) async fn keep_alive_loop(
    bus: Arc<dyn Bus>,
    role: String,
    consumer: String,
    in_flight: InFlight,
) {
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
pub(super) async fn ack_loop(
    bus: Arc<dyn Bus>,
    role: String,
    mut rx: mpsc::UnboundedReceiver<AckToken>,
) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::Topic;

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
