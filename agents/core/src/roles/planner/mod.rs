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
//! iteration advisor, after a model check said REITERATE), attempt n + 1 runs that plan.//!
//! The parts: how a request becomes a plan or a question (`decide`: the live tools, the
//! heuristic planner and the model), asking and resuming (`ask`), and the plan of the
//! next attempt (`replan`); this file holds the handler and the publishing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use chorus_bus::{Delivery, Message, Payload, PlanReady, TaskRequest, Topic};
use chorus_llm::LlmPlanner;
use tokio::sync::Mutex;
use tracing::info;

mod ask;
mod decide;
mod replan;

pub use decide::{Decision, decide, plan_ready};

use super::{Ctx, dispatch};
use crate::llm;
use crate::registry::Registry;
use crate::runtime::{HandleError, Handler};
use crate::state::once;
use chorus_bus::PoolName;
use decide::Live;

/// The Planner's handler for `task_available`.
pub struct Planner {
    ctx: Ctx,
    registry: Registry,
    pools: Vec<PoolName>,
    llm: Option<LlmPlanner>,
    limits: llm::Limits,
    pool_wait: Duration,
    /// The pool agents' call timeout (`agents.mcp_call_timeout_ms`): a re-plan's wait
    /// for a pool keeps it back from the deadline, for the call that follows.
    call_timeout: Duration,
    questions: Questions,
    cached: Mutex<Option<(Instant, Arc<Live>)>>,
    /// Held while one plan reads the registry for everyone (`Planner::live`).
    refreshing: Mutex<()>,
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

impl Planner {
    /// A planner planning with the tools live agents offer in `registry`, dispatching
    /// the first wave of steps to `pools` (the configured ones).
    pub fn new(ctx: Ctx, registry: Registry, pools: Vec<PoolName>) -> Self {
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
            call_timeout: Duration::ZERO,
            questions: Questions::default(),
            cached: Mutex::new(None),
            refreshing: Mutex::new(()),
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

    /// The same planner, keeping the pool agents' `call_timeout` back from the deadline
    /// when a re-plan waits for the failed steps' pools, so that the re-run call ends
    /// before the deadline.
    pub fn with_call_timeout(mut self, call_timeout: Duration) -> Self {
        self.call_timeout = call_timeout;
        self
    }

    /// The same planner, asking `llm` (when given) for what the heuristic cannot plan,
    /// each call within half the task's remaining time and `limits`.
    pub fn with_llm(mut self, llm: Option<LlmPlanner>, limits: llm::Limits) -> Self {
        self.llm = llm;
        self.limits = limits;
        self
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
            partition: 0,
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
