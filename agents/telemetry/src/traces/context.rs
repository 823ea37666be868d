//! W3C `traceparent` values in and out of tracing spans: what goes into an envelope or
//! an MCP request, and how a span takes one as its parent. Every function returns at
//! once when traces are off.

use opentelemetry::Context;
use opentelemetry::trace::{
    SpanContext, SpanId, TraceContextExt as _, TraceFlags, TraceId, TraceState,
};
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

use super::enabled;

/// The `traceparent` naming `span` (`00-<trace id>-<span id>-<flags>`), or `None` when
/// traces are off or the span is not exported.
pub fn traceparent_of(span: &Span) -> Option<String> {
    if !enabled() || span.is_disabled() {
        return None;
    }
    let cx = span.context();
    let sc = cx.span().span_context().clone();
    sc.is_valid().then(|| {
        format!(
            "00-{}-{}-{:02x}",
            sc.trace_id(),
            sc.span_id(),
            sc.trace_flags().to_u8()
        )
    })
}

/// The `traceparent` of the current span (see [`traceparent_of`]).
pub fn current_traceparent() -> Option<String> {
    if !enabled() {
        return None;
    }
    traceparent_of(&Span::current())
}

/// The span context a W3C `traceparent` names (a remote one); `None` when it is
/// malformed, of the reserved version `ff`, or names the invalid all-zero ids.
pub fn parse_traceparent(value: &str) -> Option<SpanContext> {
    let mut parts = value.trim().split('-');
    let (version, trace, span, flags) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let well_formed = version.len() == 2
        && trace.len() == 32
        && span.len() == 16
        && flags.len() == 2
        && !version.eq_ignore_ascii_case("ff")
        && (version != "00" || parts.next().is_none());
    if !well_formed {
        return None;
    }
    u8::from_str_radix(version, 16).ok()?;
    let trace_id = TraceId::from_hex(trace).ok()?;
    let span_id = SpanId::from_hex(span).ok()?;
    let flags = TraceFlags::new(u8::from_str_radix(flags, 16).ok()? & 1);
    let sc = SpanContext::new(trace_id, span_id, flags, true, TraceState::default());
    sc.is_valid().then_some(sc)
}

/// Makes the context `traceparent` names the parent of `span` (which must not have
/// started yet), and also links to it when `link`: what a consumer does with the
/// producer's context. Does nothing when traces are off or `traceparent` is absent or
/// malformed.
pub fn follow(span: &Span, traceparent: Option<&str>, link: bool) {
    if !enabled() {
        return;
    }
    let Some(sc) = traceparent.and_then(parse_traceparent) else {
        return;
    };
    let _ = span.set_parent(Context::new().with_remote_span_context(sc.clone()));
    if link {
        span.add_link(sc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceparent_parses_to_its_ids_and_bad_ones_do_not() {
        let sc = parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
            .expect("valid");
        assert_eq!(
            sc.trace_id().to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert_eq!(sc.span_id().to_string(), "00f067aa0ba902b7");
        assert!(sc.is_sampled() && sc.is_remote());
        for bad in [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473z-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        ] {
            assert!(parse_traceparent(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn off_gives_no_traceparent() {
        assert_eq!(current_traceparent(), None);
    }
}
