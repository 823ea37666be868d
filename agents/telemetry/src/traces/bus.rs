//! A [`Bus`] that opens a PRODUCER span `publish <topic>` for every message it
//! publishes and stamps the message's `traceparent` with it, so the consumer's
//! `process <topic>` span is its child (one trace per task) and links to it. Everything
//! else is handed to the wrapped bus unchanged. [`traced`] wraps a bus only when traces
//! are on: off, the bus is the one given.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use chorus_bus::tokens::{ReportToken, TokenReader};
use chorus_bus::{
    AckToken, Bus, BusError, IngressFeed, Message, StreamStats, Subscriber, Subscription, TaskId,
    Topic, TraceContext, Watcher,
};
use opentelemetry::trace::TraceContextExt as _;
use tracing::{Instrument as _, Span};
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

use super::{enabled, follow, parse_traceparent, spans, traceparent_of};

/// `bus`, wrapped in a [`TracedBus`] when traces are on.
pub fn traced(bus: Arc<dyn Bus>) -> Arc<dyn Bus> {
    if enabled() {
        Arc::new(TracedBus { inner: bus })
    } else {
        bus
    }
}

/// The decorator: see the module's documentation.
pub struct TracedBus {
    inner: Arc<dyn Bus>,
}

/// The publish span of `msg` and the message stamped with it. The span is a child of
/// the current span, unless the message carries a context of another trace (or the
/// current span has none): then of the message's context, so a message always stays
/// in its task's trace.
fn stamp(msg: &Message) -> (Span, Option<Message>) {
    let span = spans::publish(msg);
    if span.is_none() {
        return (span, None);
    }
    if let Some(carried) = msg.trace.as_ref() {
        let carried_trace = parse_traceparent(&carried.traceparent).map(|sc| sc.trace_id());
        let current = Span::current().context();
        let current_trace = current.span().span_context().trace_id();
        if carried_trace.is_some_and(|t| t != current_trace) {
            follow(&span, Some(&carried.traceparent), false);
        }
    }
    let stamped = traceparent_of(&span).map(|traceparent| {
        let mut m = msg.clone();
        m.trace = Some(TraceContext { traceparent });
        m
    });
    (span, stamped)
}

/// Stamps every message of `items` (each with its own publish span, all entered while
/// the batch is sent).
fn stamp_all<'a>(msgs: impl Iterator<Item = &'a Message>) -> (Vec<Span>, Vec<Option<Message>>) {
    msgs.map(stamp).unzip()
}

/// The batch's messages, stamped where a span was made.
fn pick<'a>(original: &'a Message, stamped: &'a Option<Message>) -> &'a Message {
    stamped.as_ref().unwrap_or(original)
}

#[async_trait]
impl Bus for TracedBus {
    async fn publish(&self, msg: &Message) -> Result<String, BusError> {
        let (span, stamped) = stamp(msg);
        self.inner
            .publish(pick(msg, &stamped))
            .instrument(span)
            .await
    }

    async fn announce(&self, msg: &Message) -> Result<(), BusError> {
        let (span, stamped) = stamp(msg);
        self.inner
            .announce(pick(msg, &stamped))
            .instrument(span)
            .await
    }

    async fn publish_many(&self, msgs: &[Message]) -> Result<(), BusError> {
        let (_spans, stamped) = stamp_all(msgs.iter());
        let out: Vec<Message> = msgs
            .iter()
            .zip(&stamped)
            .map(|(m, s)| pick(m, s).clone())
            .collect();
        self.inner.publish_many(&out).await
    }

    async fn publish_once(
        &self,
        key: &str,
        ttl: Duration,
        msg: &Message,
    ) -> Result<bool, BusError> {
        let (span, stamped) = stamp(msg);
        self.inner
            .publish_once(key, ttl, pick(msg, &stamped))
            .instrument(span)
            .await
    }

    async fn publish_once_many(
        &self,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Vec<bool>, BusError> {
        let (_spans, stamped) = stamp_all(items.iter().map(|(_, m)| m));
        let out = restamped(items, &stamped);
        self.inner.publish_once_many(&out, ttl).await
    }

    async fn publish_all_once(
        &self,
        key: &str,
        ttl: Duration,
        msgs: &[Message],
    ) -> Result<bool, BusError> {
        let (_spans, stamped) = stamp_all(msgs.iter());
        let out: Vec<Message> = msgs
            .iter()
            .zip(&stamped)
            .map(|(m, s)| pick(m, s).clone())
            .collect();
        self.inner.publish_all_once(key, ttl, &out).await
    }

    async fn publish_guarded(
        &self,
        guard: &str,
        value: &str,
        items: &[(String, Message)],
        ttl: Duration,
    ) -> Result<Option<Vec<bool>>, BusError> {
        let (_spans, stamped) = stamp_all(items.iter().map(|(_, m)| m));
        let out = restamped(items, &stamped);
        self.inner.publish_guarded(guard, value, &out, ttl).await
    }

    async fn subscribe(&self, sub: Subscription) -> Result<Box<dyn Subscriber>, BusError> {
        self.inner.subscribe(sub).await
    }

    async fn watch(&self, topics: &[Topic]) -> Result<Box<dyn Watcher>, BusError> {
        self.inner.watch(topics).await
    }

    async fn ingress(&self, topic: &Topic) -> Result<Box<dyn IngressFeed>, BusError> {
        self.inner.ingress(topic).await
    }

    async fn ack(&self, role: &str, tokens: &[AckToken]) -> Result<(), BusError> {
        self.inner.ack(role, tokens).await
    }

    async fn keep_alive(
        &self,
        role: &str,
        consumer: &str,
        tokens: &[AckToken],
    ) -> Result<(), BusError> {
        self.inner.keep_alive(role, consumer, tokens).await
    }

    fn claim_idle(&self) -> Duration {
        self.inner.claim_idle()
    }

    async fn recent(&self, topic: &Topic, count: usize) -> Result<Vec<Message>, BusError> {
        self.inner.recent(topic, count).await
    }

    async fn stream_stats(&self, topics: &[Topic]) -> Result<Vec<StreamStats>, BusError> {
        self.inner.stream_stats(topics).await
    }

    async fn append_tokens(
        &self,
        task: &TaskId,
        tokens: &[ReportToken],
        ttl: Duration,
    ) -> Result<usize, BusError> {
        self.inner.append_tokens(task, tokens, ttl).await
    }

    async fn read_tokens(&self, task: &TaskId) -> Result<Box<dyn TokenReader>, BusError> {
        self.inner.read_tokens(task).await
    }
}

/// `items` with each message replaced by its stamped copy, where there is one.
fn restamped(items: &[(String, Message)], stamped: &[Option<Message>]) -> Vec<(String, Message)> {
    items
        .iter()
        .zip(stamped)
        .map(|((key, m), s)| (key.clone(), pick(m, s).clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::MemoryBus;

    #[test]
    fn off_the_bus_is_not_wrapped() {
        let bus: Arc<dyn Bus> = Arc::new(MemoryBus::new(chorus_bus::BusSettings::default()));
        let same = traced(bus.clone());
        assert!(Arc::ptr_eq(&bus, &same));
    }
}
