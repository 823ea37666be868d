//! How the Planner decides what to do with a request: the heuristic planner over what
//! live agents offer (waiting a while for a pool with none), then, when it cannot plan
//! and a model is configured, the model within the task's deadline; the outcome becomes
//! a plan to publish or a question to ask.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chorus_bus::{AgentHeartbeat, Language, Message, PlanReady, PlannerKind, TaskRequest};
use chorus_heuristic::{Capabilities, Conversation, PlanOutcome, Question};
use chorus_llm::{PlanFallback, PlanPath, PoolTool, plan_with_fallback};
use tracing::{Instrument, error, field, info, info_span, warn};

use super::Planner;
use crate::llm;
use crate::registry::capabilities_of;
use crate::runtime::{self, HandleError};

/// How long a read of the live registry is reused.
const CAPABILITIES_MAX_AGE: Duration = Duration::from_millis(200);

/// How often the registry is read while waiting for a pool.
const POOL_POLL: Duration = Duration::from_millis(100);

/// Time kept back from the deadline when waiting for a pool (for the steps themselves).
const POOL_WAIT_RESERVE: Duration = Duration::from_millis(500);

/// What live agents offer, as the heuristic planner and the model see it.
#[derive(Clone)]
pub(super) struct Live {
    pub(super) capabilities: Capabilities,
    tools: Vec<PoolTool>,
}

/// What the Planner does with a request: publish a plan, or ask.
#[derive(Debug, Clone)]
pub enum Decision {
    /// Publish this plan (possibly with no steps and a message).
    Plan(Box<PlanReady>),
    /// Ask the user this question, in this language.
    Ask(Box<Question>, Language),
}

impl Decision {
    /// The plan, when the decision is to publish one.
    pub fn into_plan(self) -> Option<PlanReady> {
        match self {
            Decision::Plan(ready) => Some(*ready),
            Decision::Ask(..) => None,
        }
    }
}

impl Planner {
    /// Waits until a live agent of `pool` offers tools, at most `at_most` and never
    /// within [`POOL_WAIT_RESERVE`] plus `keep_back` of the task's deadline, without
    /// holding the role's permit (the runtime keeps the delivery alive however long it
    /// takes). Returns whether it came.
    pub(super) async fn wait_for_pool(
        &self,
        msg: &Message,
        pool: &str,
        at_most: Duration,
        keep_back: Duration,
    ) -> Result<bool, HandleError> {
        let deadline = llm::task_deadline_ms(msg, self.limits.deadline);
        let left = deadline
            .remaining()
            .saturating_sub(POOL_WAIT_RESERVE)
            .saturating_sub(keep_back);
        let budget = at_most.min(left);
        let until = Instant::now() + budget;
        runtime::without_permit(async {
            loop {
                let at = Instant::now();
                let agents = self.registry.live().await?;
                if agents
                    .iter()
                    .any(|a| a.pool.as_deref() == Some(pool) && !a.tools.is_empty())
                {
                    self.remember(at, &agents).await;
                    return Ok(true);
                }
                if Instant::now() + POOL_POLL > until {
                    return Ok(false);
                }
                tokio::time::sleep(POOL_POLL).await;
            }
        })
        .await
    }
    /// The live capabilities and tools, read at most every [`CAPABILITIES_MAX_AGE`]. The
    /// read is single-flight: plans that find the cache stale while another plan reads
    /// the registry wait for that read instead of making their own (under load, every
    /// plan starting in the read's round trip would otherwise read it too).
    pub(super) async fn live(&self) -> Result<Arc<Live>, HandleError> {
        if let Some(live) = self.fresh().await {
            return Ok(live);
        }
        let _reading = self.refreshing.lock().await;
        if let Some(live) = self.fresh().await {
            return Ok(live);
        }
        let at = Instant::now();
        let agents = self.registry.live().await?;
        Ok(self.remember(at, &agents).await)
    }

    /// The cached capabilities, while younger than [`CAPABILITIES_MAX_AGE`].
    async fn fresh(&self) -> Option<Arc<Live>> {
        self.cached
            .lock()
            .await
            .as_ref()
            .filter(|(at, _)| at.elapsed() < CAPABILITIES_MAX_AGE)
            .map(|(_, live)| Arc::clone(live))
    }

    /// Caches what `agents` (read at `at`) offer, unless a read started later is
    /// cached already: a slow read from before a pool came back never hides it.
    async fn remember(&self, at: Instant, agents: &[AgentHeartbeat]) -> Arc<Live> {
        let live = Arc::new(Live {
            capabilities: capabilities_of(agents),
            tools: llm::pool_tools(agents),
        });
        let mut cached = self.cached.lock().await;
        if cached.as_ref().is_none_or(|(t, _)| *t <= at) {
            *cached = Some((at, Arc::clone(&live)));
        }
        live
    }

    /// The conversation `request` belongs to: the session's last answers, and its last
    /// requests (for an ellipsis), read only when it names a session.
    async fn conversation(
        &self,
        request: &TaskRequest,
    ) -> Result<(Conversation, Vec<String>), HandleError> {
        match request.context.session_id.as_deref() {
            Some(session) => {
                let recall = self.ctx.state.recall(session).await?;
                let conversation = Conversation {
                    session: true,
                    answers: recall.answers,
                };
                Ok((conversation, recall.questions))
            }
            None => Ok((Conversation::none(), Vec::new())),
        }
    }

    /// What to do with `request`: its plan (and the way it was made: the heuristic
    /// planner alone without a model; with one, [`plan_with_fallback`] bounded by the
    /// task's deadline), or a question.
    pub(super) async fn plan(
        &self,
        msg: &Message,
        request: &TaskRequest,
    ) -> Result<Decision, HandleError> {
        let (conversation, questions) = self.conversation(request).await?;
        let heuristic = |caps: &Capabilities| {
            let plan = || {
                chorus_heuristic::plan_turn(
                    &request.query,
                    &request.context,
                    caps,
                    &conversation,
                    &questions,
                )
            };
            guarded(plan, request, caps).unwrap_or_else(|outcome| {
                error!(task_id = %msg.task_id, "the heuristic planner panicked on this request");
                outcome
            })
        };
        let mut live = self.live().await?;
        let mut outcome = heuristic(&live.capabilities);
        if let PlanOutcome::Unplannable {
            pool_down: Some(pool),
            ..
        } = &outcome
        {
            info!(task_id = %msg.task_id, %pool, "no live agent in the pool; waiting for one");
            if self
                .wait_for_pool(msg, pool, self.pool_wait, Duration::ZERO)
                .await?
            {
                live = self.live().await?;
                outcome = heuristic(&live.capabilities);
            }
        }
        let Some(model) = &self.llm else {
            return Ok(decide(request, outcome));
        };
        let deadline_ms = llm::task_deadline_ms(msg, self.limits.deadline);
        let budget = llm::plan_budget(
            model.settings(),
            llm::remaining(Some(deadline_ms)),
            &self.limits,
        );
        let span = info_span!("plan", path = field::Empty, fallback = field::Empty);
        let (outcome, path) = if budget < llm::MIN_MODEL_BUDGET {
            // Too close to the deadline for a model call: the heuristic alone.
            heuristic_past_deadline(outcome, budget)
        } else {
            let call = plan_with_fallback(
                Some(model),
                &request.query,
                &request.context,
                &live.tools,
                &conversation,
                &questions,
            );
            // Outside the role's permit: a slow model holds back no other request.
            match tokio::time::timeout(budget, llm::model_call(call))
                .instrument(span.clone())
                .await
            {
                Ok(done) => done,
                Err(_) => heuristic_past_deadline(outcome, budget),
            }
        };
        span.record("path", path.label());
        if let PlanPath::FellBack(reason) = &path {
            span.record("fallback", field::display(reason));
            warn!(parent: &span, task_id = %msg.task_id, path = %path.label(), reason = %reason,
                "model plan not used; heuristic answer published");
        } else {
            info!(parent: &span, task_id = %msg.task_id, path = %path.label(), "plan path");
        }
        let mut decision = decide(request, outcome);
        if let Decision::Plan(ready) = &mut decision {
            ready.planner = path.planner_kind();
        }
        Ok(decision)
    }
}

/// The heuristic `outcome` when the model call was cut short by the deadline (or not
/// made for lack of time). When the heuristic is certain the model was never needed.
fn heuristic_past_deadline(outcome: PlanOutcome, budget: Duration) -> (PlanOutcome, PlanPath) {
    let path = match &outcome {
        PlanOutcome::Unplannable { .. }
        | PlanOutcome::Planned {
            unplanned: Some(_), ..
        } => PlanPath::FellBack(PlanFallback::Call(llm::deadline_timeout(budget))),
        _ => PlanPath::Heuristic,
    };
    (outcome, path)
}

/// What to do with a planner outcome: ask its question, or publish it as `plan_ready`.
pub fn decide(request: &TaskRequest, outcome: PlanOutcome) -> Decision {
    match outcome {
        PlanOutcome::Question { language, question } => Decision::Ask(question, language),
        other => Decision::Plan(Box::new(plan_ready(request, other))),
    }
}

/// Turns a planner outcome into the `plan_ready` payload (a question becomes a plan
/// with no steps and the question as its message, for callers that cannot ask).
pub fn plan_ready(request: &chorus_bus::TaskRequest, outcome: PlanOutcome) -> PlanReady {
    let (plan, language, unplanned, reply) = match outcome {
        PlanOutcome::Planned {
            plan,
            language,
            unplanned,
        } => (plan, language, unplanned, None),
        PlanOutcome::Question { language, question } => {
            (Default::default(), language, Some(question.text), None)
        }
        PlanOutcome::Unplannable {
            language, message, ..
        } => (Default::default(), language, Some(message), None),
        PlanOutcome::Capabilities { language, message } => {
            (Default::default(), language, None, Some(message))
        }
    };
    PlanReady {
        query: request.query.clone(),
        context: request.context.clone(),
        language,
        plan,
        planner: PlannerKind::Heuristic,
        unplanned,
        reply,
        dispatched: false,
        iteration: 1,
        retried: Vec::new(),
    }
}

/// `plan`'s outcome, or — when it panics — `Err` with the outcome of a request not
/// understood ([`not_understood`]). A planner bug on some wording must not leave the
/// task without its report (a panic would be redelivered until dead-lettered): it is
/// answered at once, and the caller logs it.
fn guarded(
    plan: impl FnOnce() -> PlanOutcome,
    request: &TaskRequest,
    caps: &Capabilities,
) -> Result<PlanOutcome, PlanOutcome> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(plan))
        .map_err(|_| not_understood(request, caps))
}

/// The outcome for a request the heuristic planner failed on (it panicked): the whole
/// request not understood, in its language, with what Chorus can do.
fn not_understood(request: &TaskRequest, caps: &Capabilities) -> PlanOutcome {
    let language =
        chorus_heuristic::detect_language(&request.query, request.context.language.as_deref());
    let part = chorus_heuristic::PartError::NotUnderstood(request.query.clone());
    let reason = chorus_heuristic::messages::part_error(&part, language);
    PlanOutcome::Unplannable {
        language,
        message: chorus_heuristic::messages::with_capabilities(&reason, language, caps),
        pool_down: None,
    }
}

#[cfg(test)]
mod guard_tests {
    use super::*;

    fn request(query: &str) -> TaskRequest {
        serde_json::from_value(serde_json::json!({ "query": query })).expect("a request")
    }

    #[test]
    fn a_panic_in_planning_is_a_request_not_understood() {
        let caps = Capabilities::default();
        let req = request("tính giùm cái này");
        let outcome = guarded(|| panic!("a planner bug"), &req, &caps).unwrap_err();
        let PlanOutcome::Unplannable {
            language,
            message,
            pool_down,
        } = outcome
        else {
            panic!("not unplannable: {outcome:?}");
        };
        assert!(language.is_vi(), "{language:?}");
        assert!(
            message.starts_with("Tôi không hiểu \"tính giùm cái này\""),
            "{message}"
        );
        assert_eq!(pool_down, None);
    }

    #[test]
    fn a_plan_that_does_not_panic_is_kept() {
        let caps = Capabilities::default();
        let req = request("2+4");
        let kept = guarded(
            || chorus_heuristic::plan("2+4", &req.context, &caps),
            &req,
            &caps,
        );
        assert!(kept.is_ok());
    }
}
