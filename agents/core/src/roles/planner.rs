//! The Planner: turns each accepted request into a plan (a DAG of steps) and publishes
//! it once. The heuristic planner always runs first; when a model is configured
//! (`[llm]`) and the heuristic cannot plan the query, the model is asked for a plan with
//! the tools live agents offer, bounded by the task's deadline, and any failure falls
//! back to the heuristic answer. What cannot be planned still gets a `plan_ready`, with
//! no steps and a message saying what Chorus can do, so the task always reaches its
//! report. A request whose pool has no live agent waits for one (`agents.pool_wait_ms`,
//! within the deadline) before being told the pool is down; a re-plan waits for the
//! failed steps' pools up to the deadline.
//!
//! When a request is missing something or reads two ways, it asks instead
//! (`clarification_needed`, see [`ask`]) and plans once the answer comes
//! (`clarification_answer`). A request of a conversation (`context.session_id`) is
//! planned with the session's last answers, so a follow-up can refer to them.
//!
//! On `renavigate_request` (the Verifier, after a verdict REITERATE on attempt n) it
//! makes the plan of attempt n + 1: the same steps, where only those that failed for a
//! reason that can pass and what depends on them run again; every other result is
//! carried over, not recomputed. When the request carries a plan (the model's
//! iteration advisor, after a model check said REITERATE), attempt n + 1 runs that plan.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use chorus_bus::{
    AgentHeartbeat, Delivery, Language, Message, Payload, PlanReady, PlannerKind,
    RenavigateRequest, TaskRequest, Topic,
};
use chorus_heuristic::{Capabilities, Conversation, PlanOutcome, Question};
use chorus_llm::{LlmPlanner, PlanFallback, PlanPath, PoolTool, plan_with_fallback};
use tokio::sync::Mutex;
use tracing::{Instrument, field, info, info_span, warn};

mod ask;

use super::{Ctx, dispatch};
use crate::llm;
use crate::registry::{Registry, capabilities_of};
use crate::runtime::{self, HandleError, Handler};
use crate::state::once;
use crate::verdict;

/// How long a read of the live registry is reused.
const CAPABILITIES_MAX_AGE: Duration = Duration::from_millis(200);

/// How often the registry is read while waiting for a pool.
const POOL_POLL: Duration = Duration::from_millis(100);

/// Time kept back from the deadline when waiting for a pool (for the steps themselves).
const POOL_WAIT_RESERVE: Duration = Duration::from_millis(500);

/// What live agents offer, as the heuristic planner and the model see it.
#[derive(Clone)]
struct Live {
    capabilities: Capabilities,
    tools: Vec<PoolTool>,
}

/// The Planner's handler for `task_available`.
pub struct Planner {
    ctx: Ctx,
    registry: Registry,
    pools: Vec<String>,
    llm: Option<LlmPlanner>,
    limits: llm::Limits,
    pool_wait: Duration,
    questions: Questions,
    cached: Mutex<Option<(Instant, Arc<Live>)>>,
}

/// How the Planner asks: at most `max` questions per task, each waited for up to
/// `answer_timeout` (`agents.max_questions`, `agents.answer_timeout_ms`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Questions {
    /// Most questions about one task.
    pub max: u32,
    /// How long a question waits for its answer.
    pub answer_timeout: Duration,
}

impl Default for Questions {
    fn default() -> Self {
        Questions {
            max: 3,
            answer_timeout: Duration::from_secs(300),
        }
    }
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
    /// A planner planning with the tools live agents offer in `registry`, dispatching
    /// the first wave of steps to `pools` (the configured ones).
    pub fn new(ctx: Ctx, registry: Registry, pools: Vec<String>) -> Self {
        Planner {
            ctx,
            registry,
            pools,
            llm: None,
            limits: llm::Limits {
                deadline: Duration::ZERO,
                claim_idle: Duration::ZERO,
            },
            pool_wait: Duration::ZERO,
            questions: Questions::default(),
            cached: Mutex::new(None),
        }
    }

    /// The same planner, asking at most `questions.max` questions per task, each
    /// waited for up to `questions.answer_timeout`.
    pub fn with_questions(mut self, questions: Questions) -> Self {
        self.questions = questions;
        self
    }

    /// The same planner, waiting up to `pool_wait` (within the task's deadline) for the
    /// pool of a new request when it has no live agent.
    pub fn with_pool_wait(mut self, pool_wait: Duration) -> Self {
        self.pool_wait = pool_wait;
        self
    }

    /// Waits until a live agent of `pool` offers tools, at most `at_most` and never
    /// within [`POOL_WAIT_RESERVE`] of the task's deadline, without holding the role's
    /// permit (the runtime keeps the delivery alive however long it takes). Returns
    /// whether it came.
    async fn wait_for_pool(
        &self,
        msg: &Message,
        pool: &str,
        at_most: Duration,
    ) -> Result<bool, HandleError> {
        let deadline = llm::task_deadline_ms(msg, self.limits.deadline);
        let budget = at_most.min(deadline.remaining().saturating_sub(POOL_WAIT_RESERVE));
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

    /// The same planner, asking `llm` (when given) for what the heuristic cannot plan,
    /// each call within half the task's remaining time and `limits`.
    pub fn with_llm(mut self, llm: Option<LlmPlanner>, limits: llm::Limits) -> Self {
        self.llm = llm;
        self.limits = limits;
        self
    }

    /// The live capabilities and tools, read at most every [`CAPABILITIES_MAX_AGE`].
    async fn live(&self) -> Result<Arc<Live>, HandleError> {
        if let Some((at, live)) = self.cached.lock().await.as_ref()
            && at.elapsed() < CAPABILITIES_MAX_AGE
        {
            return Ok(Arc::clone(live));
        }
        let at = Instant::now();
        let agents = self.registry.live().await?;
        Ok(self.remember(at, &agents).await)
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
    async fn plan(&self, msg: &Message, request: &TaskRequest) -> Result<Decision, HandleError> {
        let (conversation, questions) = self.conversation(request).await?;
        let heuristic = |caps: &Capabilities| {
            chorus_heuristic::plan_turn(
                &request.query,
                &request.context,
                caps,
                &conversation,
                &questions,
            )
        };
        let mut live = self.live().await?;
        let mut outcome = heuristic(&live.capabilities);
        if let PlanOutcome::Unplannable {
            pool_down: Some(pool),
            ..
        } = &outcome
        {
            info!(task_id = %msg.task_id, %pool, "no live agent in the pool; waiting for one");
            if self.wait_for_pool(msg, pool, self.pool_wait).await? {
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
        let call = plan_with_fallback(
            Some(model),
            &request.query,
            &request.context,
            &live.tools,
            &conversation,
            &questions,
        );
        let (outcome, path) = if budget < llm::MIN_MODEL_BUDGET {
            // Too close to the deadline for a model call: the heuristic alone.
            heuristic_past_deadline(outcome, budget)
        } else {
            match tokio::time::timeout(budget, call)
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
        PlanOutcome::Question { language, question } => {
            Decision::Ask(question, crate::language::of_heuristic(&language))
        }
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
        language: crate::language::of_heuristic(&language),
        plan,
        planner: PlannerKind::Heuristic,
        unplanned,
        reply,
        dispatched: false,
        iteration: 1,
        retried: Vec::new(),
    }
}

#[async_trait]
impl Handler for Planner {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let msg = &delivery.message;
        match &msg.payload {
            Payload::TaskAvailable(request) => self.plan_task(delivery, request).await,
            Payload::RenavigateRequest(ask) => self.replan(msg, ask).await,
            Payload::ClarificationAnswer(answer) => self.resume(delivery, answer).await,
            _ => Err(HandleError::not_handled("planner", &delivery.topic)),
        }
    }
}

impl Planner {
    /// Plans a new task and publishes the plan with its first wave.
    async fn plan_task(
        &self,
        delivery: &Delivery,
        request: &TaskRequest,
    ) -> Result<(), HandleError> {
        let msg = &delivery.message;
        let task = &msg.task_id;
        // A redelivery whose plan is stored carries on with that plan: no second model
        // call, and what already went out is refused by its once-key. One whose report
        // is out (its state retired) does nothing: planning again would bring state back.
        if delivery.deliveries > 1 {
            if self.ctx.state.is_reported(task).await? {
                return Ok(());
            }
            if let Some(stored) = self.ctx.state.plan(task).await? {
                self.publish(msg, stored, false).await?;
                return Ok(());
            }
            if self.ask_again_if_asked(msg).await? {
                return Ok(());
            }
        }
        let ready = match self.plan(msg, request).await? {
            Decision::Plan(ready) => *ready,
            Decision::Ask(question, language) => {
                return self.ask(msg, request, *question, language, 1).await;
            }
        };
        self.publish_plan(msg, ready).await
    }

    /// Publishes a new task's plan (stored in the same step) with its first wave; when
    /// a racing replica stored another plan first, that one goes out.
    async fn publish_plan(&self, msg: &Message, ready: PlanReady) -> Result<(), HandleError> {
        let task = &msg.task_id;
        info!(
            steps = ready.plan.steps.len(),
            planned = ready.unplanned.is_none(),
            planner = ?ready.planner,
            "planned"
        );
        if !self.publish(msg, ready, true).await? {
            // A replica racing on the same task (a redelivery to a slow but live one)
            // stored its plan first: carry on with that one.
            if let Some(stored) = self.ctx.state.plan(task).await? {
                self.publish(msg, stored, false).await?;
            }
        }
        Ok(())
    }

    /// Makes and publishes the plan of the attempt after `ask.iteration`: the steps
    /// that failed for a reason that can pass (read from the stored results, not taken
    /// from the message) and what depends on them run again, after their pools have a
    /// live agent (or the deadline is near); every other result is carried over. A
    /// redelivery after the new plan was stored publishes that plan (each message once);
    /// a request for an older attempt, or for a task whose report is out, does nothing.
    async fn replan(&self, msg: &Message, ask: &RenavigateRequest) -> Result<(), HandleError> {
        let task = &msg.task_id;
        let state = &self.ctx.state;
        let Some(plan) = state.plan(task).await? else {
            return Ok(()); // expired or foreign
        };
        if state.is_reported(task).await? {
            return Ok(());
        }
        let next = ask.iteration + 1;
        let plan = if plan.iteration == ask.iteration
            && let Some(advised) = &ask.plan
        {
            // The model's iteration advisor suggested a whole new plan (checked against
            // the live tools when it was made): attempt n + 1 runs it from scratch.
            let next_plan = verdict::advised_attempt(&plan, advised.clone(), &ask.reason);
            state.replace_plan(task, &next_plan).await?;
            next_plan
        } else if plan.iteration == ask.iteration {
            let results = state.results(task, ask.iteration).await?;
            let failed = verdict::failed_for_now(&plan, &results);
            if failed.is_empty() {
                return Ok(());
            }
            let mut pools: Vec<&str> = failed.iter().map(|f| f.pool.as_str()).collect();
            pools.sort_unstable();
            pools.dedup();
            // The failed steps have no other way to their answers: their pools are
            // waited for up to the deadline, not just `pool_wait`.
            for pool in pools {
                self.wait_for_pool(msg, pool, Duration::MAX).await?;
            }
            let again = verdict::rerun(&plan, &failed);
            for kept in verdict::kept(&results, &again, next) {
                state.put_result(task, &kept).await?;
            }
            let next_plan = verdict::next_attempt(&plan, &failed);
            state.replace_plan(task, &next_plan).await?;
            next_plan
        } else if plan.iteration == next {
            plan
        } else {
            return Ok(());
        };
        let results = state.results(task, next).await?;
        let me = &self.ctx.instance;
        let out = msg.reply(Topic::plan_ready(), me, Payload::PlanReady(plan.clone()));
        let mut batch = dispatch::next_steps(&out, me, &plan, &results, &self.pools);
        let steps = batch.len();
        batch.insert(0, (once::replanned(task, next), out));
        self.ctx.bus.publish_once_many(&batch, state.ttl()).await?;
        info!(task_id = %task, iteration = next, steps, "re-planned");
        Ok(())
    }

    /// Publishes `plan_ready` and the plan's first wave (every step that needs no other
    /// step's result) in one round trip; the Router sends the rest as results come in.
    /// With `store`, the plan is stored in the same atomic step, unless the task has a
    /// plan already: then nothing is published and this returns false. Failures of steps
    /// on pools nobody serves are recorded first.
    async fn publish(
        &self,
        msg: &Message,
        mut plan: PlanReady,
        store: bool,
    ) -> Result<bool, HandleError> {
        let task = &msg.task_id;
        let state = &self.ctx.state;
        let results = dispatch::record_unserved(state, task, &plan, &self.pools).await?;
        plan.dispatched = true;
        let stored = match store {
            true => Some(state.plan_entry(task, &plan)?),
            false => None,
        };
        let me = &self.ctx.instance;
        let mut out = msg.reply(Topic::plan_ready(), me, Payload::PlanReady(plan));
        if out.deadline_ms.is_none() {
            // The deadline travels with the plan and every step after it (a client may
            // publish a full envelope without one), so pool agents waiting for a server
            // and the report writer keep to it.
            out.deadline_ms = Some(llm::task_deadline_ms(msg, self.limits.deadline));
        }
        let first_wave = match &out.payload {
            Payload::PlanReady(plan) => dispatch::next_steps(&out, me, plan, &results, &self.pools),
            _ => Vec::new(),
        };
        let mut batch = Vec::with_capacity(1 + first_wave.len());
        batch.push((once::planned(task), out));
        batch.extend(first_wave);
        let bus = &self.ctx.bus;
        match stored {
            Some((key, value)) => Ok(bus
                .publish_guarded(&key, &value, &batch, state.ttl())
                .await?
                .is_some()),
            None => {
                bus.publish_once_many(&batch, state.ttl()).await?;
                Ok(true)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::memory::MemoryBus;
    use chorus_bus::{AgentHeartbeat, Bus, BusSettings, ToolInfo};
    use serde_json::json;

    use crate::state::TaskState;

    /// A planner on the memory bus, with a live math agent offering `sum` and `multiply`
    /// when `math_live`.
    async fn planner(math_live: bool) -> (Planner, Arc<MemoryBus>, TaskState) {
        let bus = MemoryBus::new(BusSettings::default());
        let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
        let bus = Arc::new(bus);
        let registry = Registry::new(state.clone());
        if math_live {
            let tool = |name: &str| ToolInfo {
                name: name.into(),
                description: String::new(),
                input_schema: json!({"type": "object"}),
            };
            registry
                .beat(&AgentHeartbeat {
                    role: "pool-math".into(),
                    instance: "pool-math-1".into(),
                    pool: Some("math".into()),
                    tools: vec![tool("sum"), tool("multiply")],
                    ttl_ms: 60_000,
                })
                .await
                .expect("beat");
        }
        let ctx = Ctx::new(bus.clone(), state.clone(), "planner");
        let planner = Planner::new(ctx, registry, vec!["math".into(), "date".into()]);
        (planner, bus, state)
    }

    fn delivery(task: &str, query: &str, deliveries: u64) -> Delivery {
        let request = TaskRequest {
            query: query.into(),
            context: Default::default(),
        };
        Delivery {
            topic: Topic::task_available(),
            entry_id: "1-0".into(),
            deliveries,
            message: Message::new(
                task,
                Topic::task_available(),
                "client",
                Payload::TaskAvailable(request),
            ),
            bare: false,
        }
    }

    /// The step count of the one `plan_ready` published (which must say it was
    /// dispatched), and the math steps sent (`"<id> <tool>"`), oldest first.
    async fn plan_and_first_wave(bus: &MemoryBus) -> (usize, Vec<String>) {
        let plans = bus.recent(&Topic::plan_ready(), 100).await.expect("recent");
        let [plan] = plans.as_slice() else {
            panic!("{} plan_ready messages", plans.len())
        };
        let Payload::PlanReady(plan) = &plan.payload else {
            panic!("not a plan")
        };
        assert!(plan.dispatched);
        let steps = bus
            .recent(&Topic::pool_task("math"), 100)
            .await
            .expect("recent");
        let steps = steps
            .iter()
            .filter_map(|m| match &m.payload {
                Payload::StepTask(t) => Some(format!("{} {}", t.step_id, t.tool)),
                _ => None,
            })
            .collect();
        (plan.plan.steps.len(), steps)
    }

    #[tokio::test]
    async fn the_plan_goes_out_with_its_first_wave_and_is_stored_first() {
        let (planner, bus, state) = planner(true).await;
        planner
            .handle(&delivery("t1", "(2+4)*3", 1))
            .await
            .expect("handled");
        assert_eq!(plan_and_first_wave(&bus).await, (2, vec!["s1 sum".into()]));
        let stored = state
            .plan(&chorus_bus::TaskId::from("t1"))
            .await
            .expect("read")
            .expect("stored");
        assert_eq!(stored.plan.steps[1].tool, "multiply");
    }

    #[tokio::test]
    async fn when_a_racing_replica_stored_its_plan_first_that_plan_goes_out() {
        let (planner, bus, state) = planner(true).await;
        let request = TaskRequest {
            query: "2+4".into(),
            context: Default::default(),
        };
        let theirs = planner
            .plan(&delivery("t3", "2+4", 1).message, &request)
            .await
            .expect("plan")
            .into_plan()
            .expect("a plan");
        state
            .put_plan_once(&chorus_bus::TaskId::from("t3"), theirs)
            .await
            .expect("store");
        // This replica plans "(2+4)*3" (two steps) on its first delivery, but the task
        // already has a one-step plan: that one is published, once.
        planner
            .handle(&delivery("t3", "(2+4)*3", 1))
            .await
            .expect("handled");
        assert_eq!(plan_and_first_wave(&bus).await, (1, vec!["s1 sum".into()]));
        assert_eq!(
            state
                .plan(&chorus_bus::TaskId::from("t3"))
                .await
                .expect("read")
                .expect("plan")
                .plan
                .steps
                .len(),
            1
        );
    }

    #[tokio::test]
    async fn a_redelivered_task_carries_on_with_its_stored_plan_and_sends_nothing_twice() {
        // The live registry is empty now, so planning afresh would answer "the math pool
        // is down"; the stored plan (made while it was up) is the one that goes on.
        let (planner, bus, state) = planner(false).await;
        let (with_math, _, _) = self::planner(true).await;
        let first = with_math
            .plan(
                &delivery("t2", "2+4", 1).message,
                &TaskRequest {
                    query: "2+4".into(),
                    context: Default::default(),
                },
            )
            .await
            .expect("plan")
            .into_plan()
            .expect("a plan");
        state
            .put_plan_once(&chorus_bus::TaskId::from("t2"), first)
            .await
            .expect("store");
        for _ in 0..2 {
            planner
                .handle(&delivery("t2", "2+4", 2))
                .await
                .expect("handled");
        }
        assert_eq!(plan_and_first_wave(&bus).await, (1, vec!["s1 sum".into()]));
    }
}
