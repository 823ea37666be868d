//! Model metrics: calls to the configured chat model by role (planner, synthesizer,
//! verifier), kind (`complete`, `stream`) and outcome, their duration, and the tokens
//! the model reported using (input and output), when it reports them.

use std::time::{Duration, Instant};

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

use super::{families, latency_histogram};

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Call {
    role: &'static str,
    kind: &'static str,
    outcome: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RoleKind {
    role: &'static str,
    kind: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Tokens {
    role: &'static str,
    kind: &'static str,
    direction: &'static str,
}

/// The model families.
#[derive(Debug)]
pub(crate) struct ModelFamilies {
    calls: Family<Call, Counter>,
    duration: Family<RoleKind, Histogram, fn() -> Histogram>,
    tokens: Family<Tokens, Counter>,
}

impl ModelFamilies {
    pub(crate) fn register(registry: &mut Registry) -> Self {
        let me = ModelFamilies {
            calls: Family::default(),
            duration: Family::new_with_constructor(latency_histogram),
            tokens: Family::default(),
        };
        registry.register(
            "chorus_model_calls",
            "Calls to the chat model, by role, kind (complete, stream) and outcome (ok, error)",
            me.calls.clone(),
        );
        registry.register_with_unit(
            "chorus_model_call_duration",
            "How long a model call took (a stream: until its last chunk)",
            Unit::Seconds,
            me.duration.clone(),
        );
        registry.register(
            "chorus_model_tokens",
            "Tokens the model reported, by role, kind and direction (input, output)",
            me.tokens.clone(),
        );
        me
    }
}

/// What one model call used, as the model reported it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Prompt tokens.
    pub input: u64,
    /// Completion tokens.
    pub output: u64,
}

/// `role` made a model call of `kind`, which took `took` and succeeded when `ok`,
/// using `usage` when the model said.
pub fn call(
    role: &'static str,
    kind: &'static str,
    ok: bool,
    took: Duration,
    usage: Option<Usage>,
) {
    let f = &families().model;
    let outcome = if ok { "ok" } else { "error" };
    f.calls
        .get_or_create(&Call {
            role,
            kind,
            outcome,
        })
        .inc();
    f.duration
        .get_or_create(&RoleKind { role, kind })
        .observe(took.as_secs_f64());
    if let Some(u) = usage {
        for (direction, n) in [("input", u.input), ("output", u.output)] {
            f.tokens
                .get_or_create(&Tokens {
                    role,
                    kind,
                    direction,
                })
                .inc_by(n);
        }
    }
}

/// One model call being made: counted when dropped, as `ok` if [`ModelCall::succeeded`]
/// was called and as `error` otherwise (an early return, a timeout, a stream cut).
#[derive(Debug)]
pub struct ModelCall {
    role: &'static str,
    kind: &'static str,
    started: Instant,
    usage: Option<Usage>,
    ok: bool,
}

impl ModelCall {
    /// A call of `kind` (`complete`, `stream`) by `role`, starting now.
    pub fn start(role: &'static str, kind: &'static str) -> Self {
        ModelCall {
            role,
            kind,
            started: Instant::now(),
            usage: None,
            ok: false,
        }
    }

    /// The model reported `input` and `output` tokens (a stream may report in any chunk).
    pub fn used(&mut self, input: Option<u64>, output: Option<u64>) {
        if input.is_none() && output.is_none() {
            return;
        }
        let u = self.usage.get_or_insert_with(Usage::default);
        u.input += input.unwrap_or(0);
        u.output += output.unwrap_or(0);
    }

    /// The call gave its answer.
    pub fn succeeded(&mut self) {
        self.ok = true;
    }
}

impl Drop for ModelCall {
    fn drop(&mut self) {
        call(
            self.role,
            self.kind,
            self.ok,
            self.started.elapsed(),
            self.usage,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_dropped_unfinished_counts_as_an_error_and_tokens_add_up() {
        {
            let mut ok = ModelCall::start("model-test", "stream");
            ok.used(Some(12), None);
            ok.used(None, Some(30));
            ok.succeeded();
        }
        drop(ModelCall::start("model-test", "stream"));
        let text = crate::metrics::render();
        let has = |line: &str| text.lines().any(|l| l == line);
        let calls = r#"chorus_model_calls_total{role="model-test",kind="stream",outcome="#;
        assert!(has(&format!(r#"{calls}"ok"}} 1"#)), "{text}");
        assert!(has(&format!(r#"{calls}"error"}} 1"#)), "{text}");
        let tokens = r#"chorus_model_tokens_total{role="model-test",kind="stream",direction="#;
        assert!(has(&format!(r#"{tokens}"input"}} 12"#)), "{text}");
        assert!(has(&format!(r#"{tokens}"output"}} 30"#)), "{text}");
    }
}
