//! Tool metrics from both ends of an MCP call: the pool agent counts its steps by pool,
//! tool and outcome and times each call ([`step`]); a tool server counts the calls it
//! served by tool and outcome and times them ([`served`]). Tool names are capped
//! ([`super::labels`]).

use std::sync::OnceLock;
use std::time::Duration;

use chorus_bus::{PoolName, StepOutcome};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

use super::labels::Capped;
use super::{families, latency_histogram};

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PoolTool {
    pool: String,
    tool: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PoolToolOutcome {
    pool: String,
    tool: String,
    outcome: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ServerTool {
    server: String,
    tool: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ServerToolOutcome {
    server: String,
    tool: String,
    outcome: &'static str,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// The tool families.
#[derive(Debug)]
pub(crate) struct ToolFamilies {
    steps: Family<PoolToolOutcome, Counter>,
    mcp_call: HistogramFamily<PoolTool>,
    served: Family<ServerToolOutcome, Counter>,
    serving: HistogramFamily<ServerTool>,
}

impl ToolFamilies {
    pub(crate) fn register(registry: &mut Registry) -> Self {
        let me = ToolFamilies {
            steps: Family::default(),
            mcp_call: Family::new_with_constructor(latency_histogram),
            served: Family::default(),
            serving: Family::new_with_constructor(latency_histogram),
        };
        registry.register(
            "chorus_steps",
            "Steps a pool agent ran, by pool, tool and outcome (ok, failed, transient)",
            me.steps.clone(),
        );
        registry.register_with_unit(
            "chorus_mcp_call_duration",
            "How long a pool agent's MCP tool call took, retries included",
            Unit::Seconds,
            me.mcp_call.clone(),
        );
        registry.register(
            "chorus_mcp_tool_calls",
            "Tool calls an MCP server served, by server, tool and outcome (ok, error)",
            me.served.clone(),
        );
        registry.register_with_unit(
            "chorus_mcp_tool_duration",
            "How long an MCP server's tool took to answer a call",
            Unit::Seconds,
            me.serving.clone(),
        );
        me
    }
}

/// The tool names seen, capped.
fn tool_names() -> &'static Capped {
    static NAMES: OnceLock<Capped> = OnceLock::new();
    NAMES.get_or_init(Capped::new)
}

/// The outcome label of a step: `ok`, `failed` (cannot pass), `transient` (may pass).
pub fn outcome_label(outcome: &StepOutcome) -> &'static str {
    match outcome {
        StepOutcome::Ok { .. } => "ok",
        StepOutcome::Failed {
            transient: true, ..
        } => "transient",
        StepOutcome::Failed { .. } => "failed",
    }
}

/// A pool agent of `pool` ran a step of `tool` ending in `outcome`; the call took `took`.
pub fn step(pool: &PoolName, tool: &str, outcome: &StepOutcome, took: Duration) {
    let f = &families().tools;
    let tool = tool_names().bound(tool);
    f.steps
        .get_or_create(&PoolToolOutcome {
            pool: pool.as_str().to_owned(),
            tool: tool.to_owned(),
            outcome: outcome_label(outcome),
        })
        .inc();
    f.mcp_call
        .get_or_create(&PoolTool {
            pool: pool.as_str().to_owned(),
            tool: tool.to_owned(),
        })
        .observe(took.as_secs_f64());
}

/// MCP server `server` answered a call of `tool` (`None`: a tool it does not have),
/// as a tool error when `is_error`, in `took`.
pub fn served(server: &str, tool: Option<&str>, is_error: bool, took: Duration) {
    let f = &families().tools;
    let tool = tool.unwrap_or("unknown");
    f.served
        .get_or_create(&ServerToolOutcome {
            server: server.to_owned(),
            tool: tool.to_owned(),
            outcome: if is_error { "error" } else { "ok" },
        })
        .inc();
    f.serving
        .get_or_create(&ServerTool {
            server: server.to_owned(),
            tool: tool.to_owned(),
        })
        .observe(took.as_secs_f64());
}
