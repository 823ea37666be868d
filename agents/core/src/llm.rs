//! Glue between the roles and `chorus-llm`: builds the model planner and report writer
//! once at start (only when `[llm]` is configured), turns the live registry into the
//! tools a model may plan with, and bounds every model call by the task's deadline.
//!
//! Without a model configured nothing here is used and every role behaves as before:
//! the heuristic planner plans, the template writes the report.

use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chorus_bus::{AgentHeartbeat, Deadline, Message};
use chorus_llm::{LlmError, LlmPlanner, LlmSettings, LlmSynthesizer, LlmVerifier, PoolTool};

/// The share of a task's remaining time a model plan may take: the steps and the report
/// need the rest.
pub const PLAN_SHARE: u32 = 2;

/// Time kept back from a task's deadline when the report is written, so the report
/// reaches the Chief before the Chief's deadline watcher writes its own.
pub const REPORT_RESERVE: Duration = Duration::from_millis(250);

/// Below this much time, the model is not asked at all (the call could not finish).
pub const MIN_MODEL_BUDGET: Duration = Duration::from_millis(50);

/// Most model calls one process makes at once (the Planner's plans, the Synthesizer's
/// reports and checks together). A model call waits outside the role's in-flight
/// permits ([`model_call`]), so this, not `agents.max_in_flight`, bounds them: 256, what
/// the in-flight limit's old default allowed.
pub const MAX_MODEL_CALLS: usize = 256;

/// The places of [`MAX_MODEL_CALLS`].
static MODEL_CALLS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(MAX_MODEL_CALLS);

/// Runs `call` — a model call, bounded by the caller's timeout when wrapped in one —
/// without holding the role's in-flight permit ([`crate::runtime::without_permit`]): a
/// slow model never holds back the deliveries a role could handle meanwhile. At most
/// [`MAX_MODEL_CALLS`] run at once; the others wait for a place (inside the caller's
/// timeout, when the caller wraps this in one). The future is boxed: a handler's future
/// (itself boxed for every delivery, whether or not a model is configured) then holds
/// a pointer, not the model call's state in each of the layers around it.
pub fn model_call<'a, F>(call: F) -> Pin<Box<dyn Future<Output = F::Output> + Send + 'a>>
where
    F: Future + Send + 'a,
    F::Output: Send,
{
    Box::pin(crate::runtime::without_permit(async move {
        let _place = MODEL_CALLS.acquire().await;
        call.await
    }))
}

/// The model could not be set up at start (a bad prompt directory, base URL or key).
#[derive(Debug, thiserror::Error)]
pub enum LlmInitError {
    /// `llm.prompt_dir` could not be read.
    #[error("llm.prompt_dir: {0}")]
    Prompts(#[from] std::io::Error),
    /// The client could not be made from the settings.
    #[error("llm: {0}")]
    Client(#[from] LlmError),
}

/// The model planner, when `settings` configure a model; `None` otherwise.
pub fn planner(settings: &LlmSettings) -> Result<Option<LlmPlanner>, LlmInitError> {
    if !settings.is_active() {
        return Ok(None);
    }
    let planner = LlmPlanner::new(settings, settings.prompts()?)?;
    tracing::info!(model = %settings.model, base_url = %settings.base_url, "model planning on");
    Ok(Some(planner))
}

/// Whether `settings` have a model write the reports: a model configured and
/// `synthesize` on. The Synthesizer then streams each report onto its token stream, and
/// the HTTP gateway relays it.
pub fn writes_reports(settings: &LlmSettings) -> bool {
    settings.is_active() && settings.synthesize
}

/// The model report writer, when `settings` configure a model and `synthesize` is on;
/// `None` otherwise.
pub fn synthesizer(settings: &LlmSettings) -> Result<Option<LlmSynthesizer>, LlmInitError> {
    if !writes_reports(settings) {
        return Ok(None);
    }
    let synth = LlmSynthesizer::new(settings, settings.prompts()?)?;
    tracing::info!(model = %settings.model, base_url = %settings.base_url, "model report writing on");
    Ok(Some(synth))
}

/// The model report checker and iteration advisor, when `settings` configure a model
/// and `verify` is on; `None` otherwise.
pub fn verifier(settings: &LlmSettings) -> Result<Option<LlmVerifier>, LlmInitError> {
    if !(settings.is_active() && settings.verify) {
        return Ok(None);
    }
    let verifier = LlmVerifier::new(settings, settings.prompts()?)?;
    tracing::info!(model = %settings.model, base_url = %settings.base_url, "model report checking on");
    Ok(Some(verifier))
}

/// Every tool live pool agents offer, once per (pool, tool) however many replicas list
/// it, in a stable order.
pub fn pool_tools(live: &[AgentHeartbeat]) -> Vec<PoolTool> {
    let mut seen = BTreeSet::new();
    let mut tools = Vec::new();
    for agent in live {
        let Some(pool) = &agent.pool else { continue };
        for tool in PoolTool::from_pool(pool, &agent.tools) {
            if seen.insert((tool.pool.clone(), tool.name.clone())) {
                tools.push(tool);
            }
        }
    }
    tools.sort_by(|a, b| (&a.pool, &a.name).cmp(&(&b.pool, &b.name)));
    tools
}

/// The task's deadline (milliseconds since the epoch) as seen from `msg`: its own
/// `deadline_ms`, else `msg`'s time plus the configured task deadline. (A client
/// publishing a full envelope without a deadline gets one from the Chief's state, which
/// does not travel on the messages; this is the same value or an earlier one when `msg`
/// is the request, a later one when it is a result.)
pub fn task_deadline_ms(msg: &Message, deadline: Duration) -> Deadline {
    msg.deadline_ms
        .unwrap_or_else(|| Deadline::after_from(msg.timestamp_us / 1000, deadline))
}

/// Time left before `deadline`, `None` without one.
pub fn remaining(deadline: Option<Deadline>) -> Option<Duration> {
    deadline.map(Deadline::remaining)
}

/// What bounds a model call besides the model's own timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The task deadline (`agents.deadline_ms`), counted from a message's time when its
    /// envelope carries no deadline.
    pub deadline: Duration,
    /// The bus's `claim_idle_ms`. It does not bound a model call: the runtime keeps a
    /// long handler's message alive (`keep_alive_loop`), so only the writing hold of a
    /// report ([`writing_hold`]) is sized from it.
    pub claim_idle: Duration,
}

impl Limits {
    /// The limits in `settings`.
    pub fn of(settings: &crate::settings::Settings) -> Self {
        Limits {
            deadline: settings.deadline(),
            claim_idle: settings.bus.claim_idle(),
        }
    }
}

/// How long a model plan may take: the model's own `timeout_ms`, and at most
/// 1/[`PLAN_SHARE`] of the task's remaining time (the steps and the report need the
/// rest). The first time the deadline cuts a plan below `timeout_ms`, one `warn` line
/// says so and what to raise.
pub fn plan_budget(
    settings: &LlmSettings,
    remaining: Option<Duration>,
    _limits: &Limits,
) -> Duration {
    let own = settings.timeout();
    let Some(share) = remaining.map(|r| r / PLAN_SHARE) else {
        return own;
    };
    if share < own {
        warn_cut_once(&PLAN_CUT, "plan", own, share);
    }
    own.min(share)
}

/// How long a model report may take: the model's own `timeout_ms`, and the task's
/// remaining time less [`REPORT_RESERVE`].
pub fn report_budget(
    settings: &LlmSettings,
    remaining: Option<Duration>,
    _limits: &Limits,
) -> Duration {
    let own = settings.timeout();
    let Some(left) = remaining.map(|r| r.saturating_sub(REPORT_RESERVE)) else {
        return own;
    };
    if left < own {
        warn_cut_once(&REPORT_CUT, "report", own, left);
    }
    own.min(left)
}

static PLAN_CUT: AtomicBool = AtomicBool::new(false);
static REPORT_CUT: AtomicBool = AtomicBool::new(false);

/// Says once per process, at `warn`, that the task deadline cut a model call's budget
/// below `llm.timeout_ms` — so a user who raised `timeout_ms` learns what else to raise.
fn warn_cut_once(flag: &AtomicBool, call: &str, own: Duration, cut: Duration) {
    if !flag.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            call,
            timeout_ms = own.as_millis() as u64,
            budget_ms = cut.as_millis() as u64,
            "the task deadline leaves a model {call} less than llm.timeout_ms; raise agents.deadline_ms for a slow model (said once)"
        );
    }
}

/// How long a Synthesizer holds the right to write a report whose model call has
/// `budget`: the budget and half of what is left of the claim idle time, so the holder
/// has time to publish, and a message redelivered because the holder died (after the
/// claim idle time) finds the hold gone. A budget longer than the claim idle time (a
/// slow local model) is the hold itself: a redelivery before it ends finds the hold
/// taken and leaves the message pending, to come again.
pub fn writing_hold(budget: Duration, limits: &Limits) -> Duration {
    budget + limits.claim_idle.saturating_sub(budget) / 2
}

/// The error a call cut short by the deadline falls back with.
pub fn deadline_timeout(budget: Duration) -> LlmError {
    LlmError::Timeout(budget.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::ToolInfo;

    fn agent(pool: Option<&str>, tools: &[&str]) -> AgentHeartbeat {
        AgentHeartbeat {
            role: "pool".into(),
            instance: format!("{pool:?}-{}", tools.len()),
            pool: pool.map(chorus_bus::PoolName::from),
            tools: tools
                .iter()
                .map(|t| ToolInfo {
                    name: (*t).into(),
                    description: String::new(),
                    input_schema: serde_json::json!({"type": "object"}),
                })
                .collect(),
            ttl_ms: 3000,
        }
    }

    #[test]
    fn replicas_offer_each_tool_once_and_roles_without_a_pool_none() {
        let live = [
            agent(Some("math"), &["sum", "multiply"]),
            agent(Some("math"), &["sum", "multiply"]),
            agent(Some("date"), &["weekday"]),
            agent(None, &[]),
        ];
        let names: Vec<(chorus_bus::PoolName, String)> = pool_tools(&live)
            .into_iter()
            .map(|t| (t.pool, t.name))
            .collect();
        assert_eq!(
            names,
            vec![
                ("date".into(), "weekday".into()),
                ("math".into(), "multiply".into()),
                ("math".into(), "sum".into()),
            ]
        );
    }

    #[test]
    fn a_model_call_gets_its_timeout_and_its_share_of_the_deadline_and_nothing_else() {
        let s = LlmSettings {
            timeout_ms: 2_000,
            ..LlmSettings::new("http://127.0.0.1:1/v1", "m")
        };
        let roomy = Limits {
            deadline: Duration::from_secs(10),
            claim_idle: Duration::from_secs(60),
        };
        assert_eq!(plan_budget(&s, None, &roomy), Duration::from_secs(2));
        assert_eq!(
            plan_budget(&s, Some(Duration::from_secs(10)), &roomy),
            Duration::from_secs(2)
        );
        assert_eq!(
            plan_budget(&s, Some(Duration::from_secs(1)), &roomy),
            Duration::from_millis(500)
        );
        assert_eq!(
            report_budget(&s, Some(Duration::from_millis(1_000)), &roomy),
            Duration::from_millis(750)
        );
        assert_eq!(
            report_budget(&s, Some(Duration::from_millis(100)), &roomy),
            Duration::ZERO
        );
        // A slow local model: timeout_ms far above the claim idle time is what it says;
        // the runtime keeps the handler's message alive meanwhile.
        let slow = LlmSettings {
            timeout_ms: 60_000,
            ..s.clone()
        };
        let quick_claims = Limits {
            claim_idle: Duration::from_millis(5_000),
            ..roomy
        };
        assert_eq!(
            plan_budget(&slow, Some(Duration::from_secs(300)), &quick_claims),
            Duration::from_secs(60)
        );
        assert_eq!(
            report_budget(&slow, Some(Duration::from_secs(300)), &quick_claims),
            Duration::from_secs(60)
        );
        assert_eq!(
            report_budget(&s, Some(Duration::from_secs(10)), &quick_claims),
            Duration::from_secs(2)
        );
        assert_eq!(
            writing_hold(
                Duration::from_millis(900),
                &Limits {
                    claim_idle: Duration::from_millis(1_000),
                    ..roomy
                }
            ),
            Duration::from_millis(950)
        );
        assert_eq!(
            writing_hold(Duration::from_secs(60), &quick_claims),
            Duration::from_secs(60)
        );
    }

    #[test]
    fn a_message_without_a_deadline_gets_the_configured_one_from_its_time() {
        let mut msg = Message::new(
            "t1",
            chorus_bus::Topic::task_available(),
            "cli",
            chorus_bus::Payload::TaskAvailable(chorus_bus::TaskRequest {
                query: "2+4".into(),
                context: Default::default(),
            }),
        );
        msg.timestamp_us = 5_000_000;
        assert_eq!(task_deadline_ms(&msg, Duration::from_secs(10)), 15_000);
        msg.deadline_ms = Some(Deadline::from_millis(7_000));
        assert_eq!(task_deadline_ms(&msg, Duration::from_secs(10)), 7_000);
    }

    #[test]
    fn no_model_is_built_without_a_base_url_and_a_model() {
        assert!(matches!(planner(&LlmSettings::default()), Ok(None)));
        assert!(matches!(synthesizer(&LlmSettings::default()), Ok(None)));
        let no_synth = LlmSettings {
            synthesize: false,
            ..LlmSettings::new("http://127.0.0.1:1/v1", "m")
        };
        assert!(matches!(synthesizer(&no_synth), Ok(None)));
        assert!(matches!(planner(&no_synth), Ok(Some(_))));
    }
}
