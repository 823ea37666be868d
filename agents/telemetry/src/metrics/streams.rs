//! Stream lengths and pending counts, sampled: a small loop beside each role asks the
//! bus every few seconds ([`sample`]) for the length of the streams the role reads and
//! its own group's pending count on each, and sets two gauges. Reading them on every
//! message would cost a round trip; a sample costs one pipeline per period.

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::{Bus, Topic};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

use super::families;

/// How often [`sample`] reads the streams by default.
pub const SAMPLE_EVERY: Duration = Duration::from_secs(5);

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TopicLabel {
    topic: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TopicGroup {
    topic: String,
    group: String,
}

/// The stream families.
#[derive(Debug)]
pub(crate) struct StreamFamilies {
    length: Family<TopicLabel, Gauge>,
    pending: Family<TopicGroup, Gauge>,
}

impl StreamFamilies {
    pub(crate) fn register(registry: &mut Registry) -> Self {
        let me = StreamFamilies {
            length: Family::default(),
            pending: Family::default(),
        };
        registry.register(
            "chorus_stream_length",
            "Entries in a topic's stream (XLEN), sampled by each role reading the topic",
            me.length.clone(),
        );
        registry.register(
            "chorus_stream_pending",
            "Entries delivered to a consumer group and not yet acked, sampled by that group's role",
            me.pending.clone(),
        );
        me
    }
}

/// Reads the streams of `topics` once and sets the gauges: each stream's length, and
/// the pending count of `group` on it. Returns whether the bus answered.
pub async fn sample_once(bus: &dyn Bus, group: &str, topics: &[Topic]) -> bool {
    let stats = match bus.stream_stats(topics).await {
        Ok(s) => s,
        Err(e) => {
            tracing::debug!(error = %e, "sampling stream lengths failed; next period retries");
            return false;
        }
    };
    let f = &families().streams;
    for s in stats {
        let topic = s.topic.as_str().to_owned();
        f.length
            .get_or_create(&TopicLabel {
                topic: topic.clone(),
            })
            .set(i64::try_from(s.length).unwrap_or(i64::MAX));
        let pending = s
            .groups
            .iter()
            .find(|g| g.group == group)
            .map_or(0, |g| g.pending);
        f.pending
            .get_or_create(&TopicGroup {
                topic,
                group: group.to_owned(),
            })
            .set(i64::try_from(pending).unwrap_or(i64::MAX));
    }
    true
}

/// Samples `topics` for `group` every `every` until the task is dropped or aborted.
pub async fn sample(bus: Arc<dyn Bus>, group: String, topics: Vec<Topic>, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        sample_once(bus.as_ref(), &group, &topics).await;
    }
}

#[cfg(test)]
mod tests {
    use chorus_bus::{MemoryBus, Message, Payload, Subscription, TaskRequest};

    use super::*;

    #[tokio::test]
    async fn a_sample_sets_the_length_and_the_groups_pending_count() {
        let bus = MemoryBus::default();
        let topic = Topic::task_available();
        let mut sub = bus
            .subscribe(Subscription::new("sampled-role", vec![topic.clone()]))
            .await
            .expect("subscribes");
        for i in 0..3 {
            let request = TaskRequest {
                query: format!("{i}+1"),
                context: Default::default(),
            };
            let msg = Message::new(
                format!("t{i}"),
                topic.clone(),
                "test",
                Payload::TaskAvailable(request),
            );
            bus.publish(&msg).await.expect("publishes");
        }
        let got = sub.next_batch().await.expect("reads");
        assert_eq!(got.len(), 3);
        sub.ack(&[got[0].ack_token()]).await.expect("acks");
        assert!(sample_once(&bus, "sampled-role", std::slice::from_ref(&topic)).await);
        let text = super::super::render();
        assert!(
            text.contains("chorus_stream_length{topic=\"task_available\"} 3"),
            "{text}"
        );
        assert!(
            text.contains(
                "chorus_stream_pending{topic=\"task_available\",group=\"sampled-role\"} 2"
            ),
            "{text}"
        );
    }
}
