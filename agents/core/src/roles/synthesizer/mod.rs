//! The Synthesizer: the fan-in. It records the plan and every step result, and when
//! every step of a plan is final (succeeded or failed) reaches the verdict on that
//! attempt ([`crate::verdict`]): FINISHED — the task's one report goes out, then the
//! verdict is announced on the `verification_done` channel (Pub/Sub only: no stream
//! entry, so no role reads it and the happy path pays no hop and no consumer for it) —
//! or REITERATE, published on the stream for the Verifier, when some step
//! failed for a reason that can pass and an attempt and time are left. Plans and
//! results may arrive in any order and on any replica: each side stores first and
//! checks second, so whichever comes last sees everything. A late result of an
//! earlier attempt is ignored.
//!
//! With a model configured (`[llm]`, `synthesize` on) the report's text is the model's
//! when every number in it comes from the results, else the template's; the structured
//! steps are the same either way. The model is called once per report, streaming: its
//! pieces go onto the task's token stream (`report_tokens:<task_id>`) as they come, and
//! the report's text is exactly what that stream showed (see [`crate::token_stream`]).
//! The call is bounded by the task's deadline (less a reserve), skipped when the report
//! is already out, and made by one handler at a time: a handler that sees another one
//! writing leaves its message pending, to find the report out when it comes again (or
//! to write it, when the writer died).
//!
//! Every plan is checked here too ([`chorus_bus::Plan::validate`]), whoever published
//! it: a plan that cannot run ends its task with one `failed` report naming the problem
//! (unless the task already has a stored plan: then the second one is ignored). A plan
//! that did not come from the Planner through the Chief opens its task for the
//! deadline watch, so such a task ends in a report whatever stalls it.
//!
//! With `llm.verify` on, a verdict FINISHED on an attempt after which another one is
//! still allowed is first put to the model: it reads the request, the results and the
//! report and answers one word. REITERATE, followed by a valid plan from the model's
//! iteration advisor, becomes a verdict REITERATE carrying that plan (the Verifier
//! passes it to the Planner); FINISHED, or any failure of either call, lets the rule's
//! verdict stand and the report go out.
//!
//! Here: the handler and its settings. Beside it: what happens to a plan as it arrives
//! (`plans.rs`), the verdict and the report once every step is final (`finish.rs`), the
//! model's check (`check.rs`) and the model's text (`write.rs`).

mod check;
mod finish;
mod plans;
mod write;

use std::time::Duration;

use async_trait::async_trait;
use chorus_bus::{Delivery, Payload, PoolName};
use chorus_llm::{LlmSynthesizer, LlmVerifier};
use tracing::debug;

use super::seen::SeenPlans;
use super::{Ctx, dispatch};
use crate::llm;
use crate::runtime::{HandleError, Handler};

/// The Synthesizer's handler for `plan_ready` and every pool's results.
pub struct Synthesizer {
    ctx: Ctx,
    pools: Vec<PoolName>,
    llm: Option<LlmSynthesizer>,
    limits: llm::Limits,
    max_iterations: u32,
    verifier: Option<LlmVerifier>,
    max_steps: usize,
    seen: SeenPlans,
}

impl Synthesizer {
    /// A synthesizer for the given pools.
    pub fn new(ctx: Ctx, pools: Vec<PoolName>) -> Self {
        Synthesizer {
            ctx,
            pools,
            llm: None,
            limits: llm::Limits {
                deadline: Duration::ZERO,
                claim_idle: Duration::ZERO,
            },
            max_iterations: 1,
            verifier: None,
            max_steps: chorus_heuristic::MAX_STEPS,
            seen: SeenPlans::default(),
        }
    }

    /// The same synthesizer, accepting plans of at most `max_steps` steps.
    pub fn with_max_steps(mut self, max_steps: usize) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// The same synthesizer, putting each report to `verifier` (when given) before it
    /// goes out, while another attempt is allowed (`llm.verify`).
    pub fn with_verifier(mut self, verifier: Option<LlmVerifier>) -> Self {
        self.verifier = verifier;
        self
    }

    /// The same synthesizer, allowing up to `max_iterations` attempts per task
    /// (`agents.max_iterations`).
    pub fn with_max_iterations(mut self, max_iterations: u32) -> Self {
        self.max_iterations = max_iterations;
        self
    }

    /// The same synthesizer, letting `llm` (when given) write the report's text, each
    /// call ending before the task's deadline and within `limits`.
    pub fn with_llm(mut self, llm: Option<LlmSynthesizer>, limits: llm::Limits) -> Self {
        self.llm = llm;
        self.limits = limits;
        self
    }
}

impl Synthesizer {
    /// Whether `result` is every result of its attempt — the one step of a plan this
    /// replica saw — and the verdict on it is FINISHED, with no model to write or check
    /// the report. Then the report can go out without recording the result: a result
    /// is recorded for the fan-in (none to wait for here) and for a report the deadline
    /// would write meanwhile (none: this report is written now, and whichever report
    /// comes first is the one), and retired with the task once its report is out.
    fn finishes_alone(&self, msg: &chorus_bus::Message, result: &chorus_bus::StepResult) -> bool {
        if self.llm.is_some() || self.verifier.is_some() {
            return false;
        }
        let Some(plan) = self.seen.lone_step(&msg.task_id, result) else {
            return false;
        };
        let results = [(result.step_id.clone(), result.clone())].into();
        crate::verdict::judge(&plan, &results, self.bounds(msg)).verdict
            == chorus_bus::Verdict::Finished
    }
}

#[async_trait]
impl Handler for Synthesizer {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let msg = &delivery.message;
        let task = &msg.task_id;
        let state = &self.ctx.state;
        if let Payload::PlanReady(plan) = &msg.payload
            && let Err(problem) = plan.plan.validate(self.max_steps)
        {
            return self.refuse_plan(msg, plan, &problem).await;
        }
        match &msg.payload {
            // The Planner stored the plan, and the failures of steps on pools nobody
            // serves, before publishing it; a plan from another publisher is opened
            // here too (stored, and its task opened for the deadline watch), so
            // whichever of Router and Synthesizer comes first sees it whole.
            // Then, when some step runs, its results drive the report (each result is
            // stored and checked against the stored plan); only a plan with nothing to
            // run is finished here.
            // A plan that says it dispatched its first wave may still come from another
            // publisher than the Planner (a crafted `plan_ready` whose steps never went
            // out): its task is opened for the deadline watch unless the Chief opened
            // it, so it ends in a report all the same (`plan_checks.rs`; a round trip
            // per task, kept for that guarantee).
            Payload::PlanReady(plan) if plan.dispatched => {
                self.watch_deadline(msg, plan).await?;
                self.seen.insert(task, plan);
                if plan
                    .plan
                    .steps
                    .iter()
                    .any(|s| self.pools.iter().any(|p| *p == s.pool))
                {
                    return Ok(());
                }
                self.finish_if_complete(msg, plan, None).await
            }
            Payload::PlanReady(plan) => {
                self.watch_deadline(msg, plan).await?;
                let (plan, _) = dispatch::open_plan(state, task, plan.clone(), &self.pools).await?;
                self.seen.insert(task, &plan);
                self.finish_if_complete(msg, &plan, None).await
            }
            Payload::StepResult(result)
                if delivery.deliveries == 1 && self.finishes_alone(msg, result) =>
            {
                // The one step of a plan seen here, and the verdict on it FINISHED: the
                // report goes out now (once), nothing to record or read first. (A
                // redelivery goes the long way, which finds a report out and does
                // nothing.)
                let Some(plan) = self.seen.lone_step(task, result) else {
                    return Ok(());
                };
                let results = [(result.step_id.clone(), result.clone())].into();
                self.finish_if_complete(msg, &plan, Some(results)).await
            }
            Payload::StepResult(result) => {
                // Store first, read second, in one round trip.
                let recorded = state.record_result(task, result).await?;
                match recorded.plan {
                    // Its report is out (finished, timed out, canceled): nothing to do.
                    _ if recorded.reported => Ok(()),
                    Some(plan) if plan.iteration == result.iteration => {
                        self.finish_if_complete(msg, &plan, Some(recorded.results))
                            .await
                    }
                    Some(plan) => {
                        debug!(
                            step_id = %result.step_id,
                            attempt = result.iteration,
                            current = plan.iteration,
                            "result of another attempt ignored"
                        );
                        Ok(())
                    }
                    None => Ok(()),
                }
            }
            _ => Err(HandleError::not_handled("synthesizer", &delivery.topic)),
        }
    }
}
