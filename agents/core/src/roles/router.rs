//! The Router: dispatches every step whose inputs are ready, as soon as they are ready.
//! The Planner publishes its plans together with their first wave (the steps that need
//! no other step's result: one hop fewer on the critical path, see
//! docs/architecture.md), so here each result releases the steps waiting on it, with
//! references replaced by values; a plan published by anyone else is dispatched here
//! from the start. A failed step fails its dependents with the reason, and the other
//! branches run on.
//!
//! Every plan is checked here before anything of it goes out, whoever published it
//! ([`chorus_bus::Plan::validate`]: step ids, references, cycles, the step limit, pool
//! and tool names): an invalid plan is not dispatched at all, and the Synthesizer,
//! which checks it the same way, ends its task with one `failed` report naming the
//! problem.
//!
//! A result that no step of its plan takes as an input releases nothing: the Router
//! knows it without touching Redis when it has seen the plan (`super::seen`), and does
//! nothing for it (the Synthesizer records every result for the fan-in and the report).

use std::collections::HashMap;

use async_trait::async_trait;
use chorus_bus::{Delivery, Message, Payload, PlanReady, StepId, StepResult};
use tracing::{debug, warn};

use super::seen::SeenPlans;
use super::{Ctx, dispatch};
use crate::runtime::{HandleError, Handler};
use chorus_bus::PoolName;

/// The Router's handler for `plan_ready` and every pool's results.
pub struct Router {
    ctx: Ctx,
    pools: Vec<PoolName>,
    max_steps: usize,
    seen: SeenPlans,
}

impl Router {
    /// A router for the given pools, running plans of at most
    /// [`chorus_heuristic::MAX_STEPS`] steps.
    pub fn new(ctx: Ctx, pools: Vec<PoolName>) -> Self {
        Router {
            ctx,
            pools,
            max_steps: chorus_heuristic::MAX_STEPS,
            seen: SeenPlans::default(),
        }
    }

    /// The same router, running plans of at most `max_steps` steps.
    pub fn with_max_steps(mut self, max_steps: usize) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// Dispatches (once) every step of `plan` that is ready and has no result yet, all
    /// in one round trip, so independent steps leave together.
    async fn advance(
        &self,
        msg: &Message,
        plan: &PlanReady,
        results: &HashMap<StepId, StepResult>,
    ) -> Result<(), HandleError> {
        let out = dispatch::next_steps(msg, &self.ctx.instance, plan, results, &self.pools);
        if out.is_empty() {
            return Ok(());
        }
        let sent = self
            .ctx
            .bus
            .publish_once_many(&out, self.ctx.state.ttl())
            .await?;
        for ((_, m), sent) in out.iter().zip(sent) {
            if sent {
                debug!(topic = %m.topic, "dispatched");
            }
        }
        Ok(())
    }
}

#[async_trait]
impl Handler for Router {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let msg = &delivery.message;
        // Nothing of a plan that cannot run goes out; the Synthesizer reports it.
        if let Payload::PlanReady(plan) = &msg.payload
            && let Err(problem) = plan.plan.validate(self.max_steps)
        {
            warn!(task_id = %msg.task_id, %problem, "plan refused: nothing of it is dispatched");
            return Ok(());
        }
        match &msg.payload {
            // The Planner stored it and sent its first wave: nothing to do until results.
            Payload::PlanReady(plan) if plan.dispatched => {
                self.seen.insert(&msg.task_id, plan);
                Ok(())
            }
            // A plan from another publisher: stored and dispatched here. On a
            // redelivery, steps already dispatched are refused by their once-keys.
            Payload::PlanReady(plan) => {
                let (plan, results) =
                    dispatch::open_plan(&self.ctx.state, &msg.task_id, plan.clone(), &self.pools)
                        .await?;
                self.seen.insert(&msg.task_id, &plan);
                self.advance(msg, &plan, &results).await
            }
            // No step waits for it: nothing to record or release here.
            Payload::StepResult(result)
                if self.seen.releases_nothing(&msg.task_id, result) == Some(true) =>
            {
                Ok(())
            }
            // Store first, read second (one round trip): whichever replica stores the
            // last input of a step sees all of them.
            Payload::StepResult(result) => {
                let recorded = self.ctx.state.record_result(&msg.task_id, result).await?;
                match recorded.plan {
                    // The task's report is out (finished, timed out or canceled): no
                    // further step goes out.
                    _ if recorded.reported => Ok(()),
                    // A late result of an earlier attempt releases nothing.
                    Some(plan) if plan.iteration == result.iteration => {
                        self.advance(msg, &plan, &recorded.results).await
                    }
                    Some(_) => Ok(()),
                    // The Planner stores the plan before any step goes out; a result
                    // without one belongs to an expired or foreign task.
                    None => Ok(()),
                }
            }
            _ => Err(HandleError::not_handled("router", &delivery.topic)),
        }
    }
}
