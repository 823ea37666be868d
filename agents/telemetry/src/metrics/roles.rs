//! What every role's runtime loop counts: deliveries and redeliveries by role and topic,
//! the per-hop latency (a consumer's receive time minus the envelope's time), how long
//! handling took and how it ended, dead letters, and work in flight.
//!
//! A loop makes one [`RoleMetrics`] for its subscription: the handles of every
//! (role, topic) pair are looked up once there, so a delivery costs a few atomic adds
//! and two histogram observations, and no label is built.

use std::sync::Arc;
use std::time::Instant;

use chorus_bus::{Topic, now_us};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

use super::{families, latency_histogram};

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RoleLabel {
    role: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RoleTopic {
    role: String,
    topic: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RoleTopicResult {
    role: String,
    topic: String,
    result: &'static str,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// The runtime families.
#[derive(Debug)]
pub(crate) struct RoleFamilies {
    deliveries: Family<RoleTopic, Counter>,
    redeliveries: Family<RoleTopic, Counter>,
    dead_letters: Family<RoleTopic, Counter>,
    handled: Family<RoleTopicResult, Counter>,
    hop: HistogramFamily<RoleTopic>,
    handling: HistogramFamily<RoleTopic>,
    in_flight: Family<RoleLabel, Gauge>,
}

impl RoleFamilies {
    pub(crate) fn register(registry: &mut Registry) -> Self {
        let me = RoleFamilies {
            deliveries: Family::default(),
            redeliveries: Family::default(),
            dead_letters: Family::default(),
            handled: Family::default(),
            hop: Family::new_with_constructor(latency_histogram),
            handling: Family::new_with_constructor(latency_histogram),
            in_flight: Family::default(),
        };
        registry.register(
            "chorus_deliveries",
            "Stream entries handed to a role's handler, by role (consumer group) and topic",
            me.deliveries.clone(),
        );
        registry.register(
            "chorus_redeliveries",
            "Deliveries with a delivery count above 1: entries claimed after idling past \
             bus.claim_idle_ms (a replica died, or a handler left them pending)",
            me.redeliveries.clone(),
        );
        registry.register(
            "chorus_dead_letters",
            "Deliveries a role's handler refused for good and dead-lettered",
            me.dead_letters.clone(),
        );
        registry.register(
            "chorus_handled",
            "Deliveries handled, by result: ok (acked), refused (dead-lettered), \
             pending (a transient failure, left for redelivery)",
            me.handled.clone(),
        );
        registry.register_with_unit(
            "chorus_hop_latency",
            "Per-hop latency: when a role received an entry minus its envelope's timestamp",
            Unit::Seconds,
            me.hop.clone(),
        );
        registry.register_with_unit(
            "chorus_handle_duration",
            "How long a role's handler took with one delivery",
            Unit::Seconds,
            me.handling.clone(),
        );
        registry.register(
            "chorus_in_flight",
            "Deliveries a role's process is handling now",
            me.in_flight.clone(),
        );
        me
    }
}

/// How a handler finished a delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handled {
    /// Handled; it will be acked.
    Ok,
    /// Refused for good; it is dead-lettered.
    Refused,
    /// A transient failure; it stays pending for redelivery.
    Pending,
}

/// The handles of one (role, topic) pair.
#[derive(Debug)]
struct TopicHandles {
    topic: Topic,
    deliveries: Counter,
    redeliveries: Counter,
    dead_letters: Counter,
    ok: Counter,
    refused: Counter,
    pending: Counter,
    hop: Histogram,
    handling: Histogram,
}

impl TopicHandles {
    fn new(role: &str, topic: &Topic) -> Self {
        let f = &families().roles;
        let label = RoleTopic {
            role: role.to_owned(),
            topic: topic.as_str().to_owned(),
        };
        let result = |result| {
            f.handled.get_or_create_owned(&RoleTopicResult {
                role: label.role.clone(),
                topic: label.topic.clone(),
                result,
            })
        };
        TopicHandles {
            topic: topic.clone(),
            deliveries: f.deliveries.get_or_create_owned(&label),
            redeliveries: f.redeliveries.get_or_create_owned(&label),
            dead_letters: f.dead_letters.get_or_create_owned(&label),
            ok: result("ok"),
            refused: result("refused"),
            pending: result("pending"),
            hop: f.hop.get_or_create_owned(&label),
            handling: f.handling.get_or_create_owned(&label),
        }
    }
}

/// One role's runtime metrics, with the handles of its topics looked up once.
#[derive(Debug, Clone)]
pub struct RoleMetrics {
    role: String,
    in_flight: Gauge,
    topics: Arc<[Arc<TopicHandles>]>,
}

impl RoleMetrics {
    /// The metrics of `role` (its consumer group) reading `topics`.
    pub fn new(role: &str, topics: &[Topic]) -> Self {
        let in_flight = families().roles.in_flight.get_or_create_owned(&RoleLabel {
            role: role.to_owned(),
        });
        RoleMetrics {
            role: role.to_owned(),
            in_flight,
            topics: topics
                .iter()
                .map(|t| Arc::new(TopicHandles::new(role, t)))
                .collect(),
        }
    }

    /// A delivery on `topic` arrived (its `deliveries`-th time), its envelope written at
    /// `sent_us` (µs since the epoch); the returned [`Handling`] is finished when the
    /// handler is done (dropping it unfinished only ends the in-flight count).
    pub fn received(&self, topic: &Topic, deliveries: u64, sent_us: u64) -> Handling {
        let handles = match self.topics.iter().find(|h| h.topic == *topic) {
            Some(h) => h.clone(),
            None => Arc::new(TopicHandles::new(&self.role, topic)),
        };
        handles.deliveries.inc();
        if deliveries > 1 {
            handles.redeliveries.inc();
        } else {
            // A redelivery's envelope time says how long it waited, not the hop.
            let hop_us = now_us().saturating_sub(sent_us);
            handles.hop.observe(hop_us as f64 / 1e6);
        }
        self.in_flight.inc();
        Handling {
            handles,
            in_flight: self.in_flight.clone(),
            started: Instant::now(),
        }
    }
}

/// One delivery being handled.
#[derive(Debug)]
pub struct Handling {
    handles: Arc<TopicHandles>,
    in_flight: Gauge,
    started: Instant,
}

impl Handling {
    /// The handler finished with `result`: observes its duration and counts the result.
    pub fn finished(self, result: Handled) {
        let h = &self.handles;
        h.handling.observe(self.started.elapsed().as_secs_f64());
        match result {
            Handled::Ok => h.ok.inc(),
            Handled::Refused => {
                h.dead_letters.inc();
                h.refused.inc()
            }
            Handled::Pending => h.pending.inc(),
        };
    }
}

/// A door wrote the one dead letter of a client's payload on `topic` that it refused
/// (an answer or cancellation for an unknown task, a request reusing a taken task id,
/// an unreadable PUBLISH): counted in `chorus_dead_letters_total` under `role` (`chief`
/// for a stream entry, `ingress` for a PUBLISH), like a handler's refusal.
pub fn door_dead_letter(role: &str, topic: &str) {
    families()
        .roles
        .dead_letters
        .get_or_create(&RoleTopic {
            role: role.to_owned(),
            topic: topic.to_owned(),
        })
        .inc();
}

impl Drop for Handling {
    fn drop(&mut self) {
        self.in_flight.dec();
    }
}
