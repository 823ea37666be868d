//! The plan of the next attempt, on `renavigate_request` (the Verifier, after a verdict
//! REITERATE): the steps that failed for a reason that can pass and what depends on
//! them run again, every other result is carried over; or the plan the model's
//! iteration advisor made.

use std::time::Duration;

use chorus_bus::{Message, Payload, RenavigateRequest, Topic};
use tracing::info;

use super::Planner;
use crate::roles::dispatch;
use crate::runtime::HandleError;
use crate::state::once;
use crate::verdict;

impl Planner {
    /// Makes and publishes the plan of the attempt after `ask.iteration`: the steps
    /// that failed for a reason that can pass (read from the stored results, not taken
    /// from the message) and what depends on them run again, after their pools have a
    /// live agent (or the deadline is near); every other result is carried over. A
    /// redelivery after the new plan was stored publishes that plan (each message once);
    /// a request for an older attempt, or for a task whose report is out, does nothing.
    pub(super) async fn replan(
        &self,
        msg: &Message,
        ask: &RenavigateRequest,
    ) -> Result<(), HandleError> {
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
            // waited for up to the deadline, not just `pool_wait`, less one call
            // timeout, so that a re-run call to a server still silent fails (and the
            // report says so) before the deadline instead of racing it.
            for pool in pools {
                self.wait_for_pool(msg, pool, Duration::MAX, self.call_timeout)
                    .await?;
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
}
