//! Prometheus metrics: one registry per process holding every `chorus_` family, in base
//! units (seconds), encoded as OpenMetrics text for `/metrics`.
//!
//! Families are created once, on first use, and every process registers all of them,
//! so a scrape shows the same names whichever role runs (series appear as they are
//! touched). Label values are bounded by construction: roles, topics, pools, tools,
//! statuses, outcomes — never a task id or a message id. Tool names come from plans, so
//! they are capped ([`labels`]): past a limit, a new one is counted as `other`.
//!
//! The hot path (one delivery) touches atomics through handles cached per role and topic
//! ([`roles::RoleMetrics`]); no label is built per message.

pub mod labels;
pub mod model;
pub mod roles;
pub mod streams;
pub mod tasks;
pub mod tools;
mod transport;

use std::sync::OnceLock;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The content type of [`render`]'s text (OpenMetrics 1.0, which Prometheus scrapes).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Every family of the process, registered once in its registry.
#[derive(Debug)]
pub(crate) struct Families {
    registry: Registry,
    pub(crate) tasks: tasks::TaskFamilies,
    pub(crate) roles: roles::RoleFamilies,
    pub(crate) streams: streams::StreamFamilies,
    pub(crate) tools: tools::ToolFamilies,
    pub(crate) model: model::ModelFamilies,
}

/// The process-wide families (made and registered on first use).
pub(crate) fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let mut registry = Registry::default();
        let tasks = tasks::TaskFamilies::register(&mut registry);
        let roles = roles::RoleFamilies::register(&mut registry);
        let streams = streams::StreamFamilies::register(&mut registry);
        let tools = tools::ToolFamilies::register(&mut registry);
        let model = model::ModelFamilies::register(&mut registry);
        registry.register_collector(Box::new(transport::TransportCounts));
        Families {
            registry,
            tasks,
            roles,
            streams,
            tools,
            model,
        }
    })
}

/// The process's metrics as OpenMetrics text (ending in `# EOF`), for `/metrics`.
pub fn render() -> String {
    let mut out = String::with_capacity(16 * 1024);
    // Writing into a String cannot fail; an encoder error would leave a partial text.
    if let Err(e) = encode(&mut out, &families().registry) {
        tracing::warn!(error = %e, "encoding metrics failed");
    }
    out
}

/// Buckets of latency histograms, in seconds: 100 µs to about 15 s, each 2.5 times the
/// one before (a hop is sub-millisecond, a task with a model call seconds).
pub(crate) fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.000_1, 2.5, 14))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use chorus_bus::{ReportStatus, Topic};

    use super::*;

    /// Every sample line's metric name, without labels and value.
    fn sample_names(text: &str) -> Vec<&str> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .filter_map(|l| l.split(['{', ' ']).next())
            .collect()
    }

    #[test]
    fn every_family_is_named_chorus_and_the_text_ends_in_eof() {
        tasks::accepted(tasks::Door::Http);
        let text = render();
        assert!(text.ends_with("# EOF\n"), "{text}");
        let names = sample_names(&text);
        assert!(!names.is_empty());
        for name in names {
            assert!(name.starts_with("chorus_"), "{name} in {text}");
        }
        for line in text.lines().filter(|l| l.starts_with("# TYPE")) {
            let name = line.split(' ').nth(2).unwrap_or_default();
            assert!(name.starts_with("chorus_"), "{line}");
        }
    }

    #[test]
    fn values_move_and_no_task_or_message_id_is_a_label() {
        let topic = Topic::pool_task("math");
        let role = roles::RoleMetrics::new("pool-math", std::slice::from_ref(&topic));
        let sent_us = chorus_bus::now_us().saturating_sub(2_000);
        let handling = role.received(&topic, 2, sent_us);
        handling.finished(roles::Handled::Ok);
        tasks::finished(ReportStatus::Completed, None);
        let failed = chorus_bus::StepOutcome::failed("division by zero");
        tools::step(
            &"math".into(),
            "divide",
            &failed,
            Duration::from_micros(250),
        );
        let text = render();
        let line = |prefix: &str| {
            text.lines()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("no {prefix} in {text}"))
                .to_owned()
        };
        assert!(
            line(r#"chorus_deliveries_total{role="pool-math",topic="math_task"}"#).ends_with(" 1")
        );
        assert!(
            line(r#"chorus_redeliveries_total{role="pool-math",topic="math_task"}"#)
                .ends_with(" 1")
        );
        assert!(line(r#"chorus_tasks_finished_total{status="completed"}"#).ends_with(" 1"));
        assert!(
            line(r#"chorus_steps_total{pool="math",tool="divide",outcome="failed"}"#)
                .ends_with(" 1")
        );
        assert!(line(r#"chorus_in_flight{role="pool-math"}"#).ends_with(" 0"));
        for label in ["task_id", "message_id", "entry"] {
            assert!(
                !text.contains(&format!("{label}=")),
                "{label} is a label in {text}"
            );
        }
    }
}
