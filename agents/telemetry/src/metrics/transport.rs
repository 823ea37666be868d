//! What the transport did that no handler saw, read from [`chorus_bus::counts`] when
//! scraped: entries claimed from an idle consumer (`chorus_claims_total`) and entries
//! dead-lettered at intake (`chorus_intake_dead_letters_total`, by reason:
//! `undecodable`, `too_many_deliveries`), per role and topic.

use chorus_bus::counts::{TransportEvent, snapshot};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;

/// Encodes the transport's counts on each scrape.
#[derive(Debug)]
pub(crate) struct TransportCounts;

impl Collector for TransportCounts {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let counts = snapshot();
        let mut claims = encoder.encode_descriptor(
            "chorus_claims",
            "Entries a role's consumer claimed after they idled past bus.claim_idle_ms",
            None,
            MetricType::Counter,
        )?;
        for c in counts.iter().filter(|c| c.event == TransportEvent::Claimed) {
            let labels = [("role", c.role.as_str()), ("topic", c.topic.as_str())];
            ConstCounter::new(c.count).encode(claims.encode_family(&labels)?)?;
        }
        let mut dead = encoder.encode_descriptor(
            "chorus_intake_dead_letters",
            "Entries the transport dead-lettered before any handler saw them, by reason",
            None,
            MetricType::Counter,
        )?;
        for c in &counts {
            let reason = match c.event {
                TransportEvent::Claimed => continue,
                TransportEvent::Undecodable => "undecodable",
                TransportEvent::TooManyDeliveries => "too_many_deliveries",
            };
            let labels = [
                ("role", c.role.as_str()),
                ("topic", c.topic.as_str()),
                ("reason", reason),
            ];
            ConstCounter::new(c.count).encode(dead.encode_family(&labels)?)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use chorus_bus::Topic;
    use chorus_bus::counts::record;

    #[test]
    fn claims_and_intake_dead_letters_are_counters_by_role_and_topic() {
        let topic = Topic::plan_ready();
        record("transport-test", &topic, super::TransportEvent::Claimed, 3);
        record(
            "transport-test",
            &topic,
            super::TransportEvent::Undecodable,
            1,
        );
        let text = crate::metrics::render();
        let has = |line: &str| text.lines().any(|l| l == line);
        assert!(
            has(r#"chorus_claims_total{role="transport-test",topic="plan_ready"} 3"#),
            "{text}"
        );
        assert!(
            has(concat!(
                r#"chorus_intake_dead_letters_total{role="transport-test","#,
                r#"topic="plan_ready",reason="undecodable"} 1"#
            )),
            "{text}"
        );
    }
}
