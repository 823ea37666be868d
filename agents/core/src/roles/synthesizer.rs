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

use std::collections::HashMap;

use std::time::Duration;

use async_trait::async_trait;
use chorus_bus::{
    Deadline, Delivery, FinalReport, Message, Payload, PlanError, PlanReady, StepId, StepResult,
    TaskRequest, Topic, Verdict,
};
use chorus_llm::{Judgement, LlmSynthesizer, LlmVerifier, stream_or_template};
use tracing::{debug, info, warn};

use super::{Ctx, dispatch};
use crate::llm;
use crate::registry::Registry;
use crate::report;
use crate::runtime::{HandleError, Handler, Pending};
use crate::state::once;
use crate::token_stream;
use crate::verdict::{self, Bounds};
use chorus_bus::PoolName;

/// Least time before the deadline worth another attempt.
const MIN_ATTEMPT: Duration = Duration::from_millis(250);

/// The Synthesizer's handler for `plan_ready` and every pool's results.
pub struct Synthesizer {
    ctx: Ctx,
    pools: Vec<PoolName>,
    llm: Option<LlmSynthesizer>,
    limits: llm::Limits,
    max_iterations: u32,
    verifier: Option<LlmVerifier>,
    max_steps: usize,
}

/// Why a model check asked for another attempt, as the verdict's reason.
const MODEL_REFUSED: &str = "the model judged that the report does not answer the request";

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
        }
    }

    /// The same synthesizer, accepting plans of at most `max_steps` steps.
    pub fn with_max_steps(mut self, max_steps: usize) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// Ends the task of a plan that cannot run with one `failed` report naming
    /// `problem` — unless the task has a stored plan already (the Planner's, or an
    /// earlier valid one): then this plan is ignored and that one goes on.
    async fn refuse_plan(
        &self,
        msg: &Message,
        plan: &PlanReady,
        problem: &PlanError,
    ) -> Result<(), HandleError> {
        let task = &msg.task_id;
        if self.ctx.state.plan(task).await?.is_some() {
            warn!(task_id = %task, %problem, "an invalid plan for a task that has one ignored");
            return Ok(());
        }
        let report = report::invalid_plan(plan, problem);
        let out = msg
            .reply(
                Topic::final_report(),
                &self.ctx.instance,
                Payload::FinalReport(report),
            )
            .to("chief");
        let ttl = self.ctx.state.ttl();
        if self
            .ctx
            .bus
            .publish_once(&once::reported(task), ttl, &out)
            .await?
        {
            warn!(task_id = %task, %problem, "plan refused; failed report written");
        }
        Ok(())
    }

    /// Opens the task of a plan for the deadline watch unless the Chief did (with the
    /// envelope's deadline, or the task deadline from now).
    async fn watch_deadline(&self, msg: &Message, plan: &PlanReady) -> Result<(), HandleError> {
        let deadline = msg
            .deadline_ms
            .unwrap_or_else(|| Deadline::after(self.limits.deadline));
        let request = TaskRequest {
            query: plan.query.clone(),
            context: plan.context.clone(),
        };
        if self
            .ctx
            .state
            .open_unless_known(&msg.task_id, &request, deadline)
            .await?
        {
            debug!(task_id = %msg.task_id, "plan from outside the Chief: deadline watch opened");
        }
        Ok(())
    }

    /// The same synthesizer, putting each report to `verifier` (when given) before it
    /// goes out, while another attempt is allowed (`llm.verify`).
    pub fn with_verifier(mut self, verifier: Option<LlmVerifier>) -> Self {
        self.verifier = verifier;
        self
    }

    /// Asks the model whether `report` answers the request and, when it says
    /// REITERATE, for a new plan checked against the live tools. Returns that plan; `None`
    /// (the rule's verdict stands) when no check is configured, the model answers
    /// FINISHED, or anything fails — each call within the task's deadline.
    async fn model_check(
        &self,
        msg: &Message,
        plan: &PlanReady,
        report: &FinalReport,
    ) -> Option<chorus_bus::Plan> {
        let model = self.verifier.as_ref()?;
        let deadline = llm::task_deadline_ms(msg, self.limits.deadline);
        let budget = || {
            llm::plan_budget(
                model.settings(),
                llm::remaining(Some(deadline)),
                &self.limits,
            )
        };
        let judge = model.judge(&plan.query, &report.steps, &report.text);
        match tokio::time::timeout(budget(), judge).await {
            Ok(Ok(Judgement::Reiterate)) => {}
            Ok(Ok(Judgement::Finished)) => {
                info!(iteration = plan.iteration, "model check: FINISHED");
                return None;
            }
            Ok(Err(e)) => {
                warn!(code = %e.code(), reason = %e, "model check failed; the rule's verdict stands");
                return None;
            }
            Err(_) => {
                warn!("model check ran out of time; the rule's verdict stands");
                return None;
            }
        }
        let live = Registry::new(self.ctx.state.clone()).live().await.ok()?;
        let tools = llm::pool_tools(&live);
        let advise = model.advise(
            &plan.query,
            &plan.context,
            plan.language,
            &tools,
            &report.steps,
            MODEL_REFUSED,
        );
        match tokio::time::timeout(budget(), advise).await {
            Ok(Ok(next)) => {
                info!(
                    iteration = plan.iteration,
                    steps = next.steps.len(),
                    "model check: REITERATE with a new plan"
                );
                Some(next)
            }
            Ok(Err(e)) => {
                warn!(code = %e.code(), reason = %e, "model check said REITERATE but advised no usable plan; the rule's verdict stands");
                None
            }
            Err(_) => {
                warn!("the model's advice ran out of time; the rule's verdict stands");
                None
            }
        }
    }

    /// The same synthesizer, allowing up to `max_iterations` attempts per task
    /// (`agents.max_iterations`).
    pub fn with_max_iterations(mut self, max_iterations: u32) -> Self {
        self.max_iterations = max_iterations;
        self
    }

    /// What bounds a verdict on `msg`'s task now.
    fn bounds(&self, msg: &Message) -> Bounds {
        let deadline = llm::task_deadline_ms(msg, self.limits.deadline);
        Bounds {
            max_iterations: self.max_iterations,
            time_left: Deadline::remaining(deadline) > MIN_ATTEMPT,
        }
    }

    /// The same synthesizer, letting `llm` (when given) write the report's text, each
    /// call ending before the task's deadline and within `limits`.
    pub fn with_llm(mut self, llm: Option<LlmSynthesizer>, limits: llm::Limits) -> Self {
        self.llm = llm;
        self.limits = limits;
        self
    }

    async fn finish_if_complete(
        &self,
        msg: &Message,
        plan: &PlanReady,
        results: Option<HashMap<StepId, StepResult>>,
    ) -> Result<(), HandleError> {
        let task = &msg.task_id;
        let results = match results {
            Some(r) => r,
            None if plan.plan.steps.is_empty() => Default::default(),
            None => self.ctx.state.results(task, plan.iteration).await?,
        };
        if !report::complete(plan, &results) {
            return Ok(());
        }
        let bounds = self.bounds(msg);
        let judged = verdict::judge(plan, &results, bounds);
        let ttl = self.ctx.state.ttl();
        let verdict_key = once::verdict(task, plan.iteration);
        if judged.verdict == Verdict::Reiterate {
            let out = msg
                .reply(
                    Topic::verification_done(),
                    &self.ctx.instance,
                    Payload::VerificationDone(judged),
                )
                .to("verifier");
            if self.ctx.bus.publish_once(&verdict_key, ttl, &out).await? {
                info!(iteration = plan.iteration, "verdict REITERATE");
            }
            return Ok(());
        }
        let mut report = report::build_stopped(plan, &results, &judged.reasons);
        if self.verifier.is_some()
            && plan.iteration < bounds.max_iterations
            && bounds.time_left
            && plan.unplanned.is_none()
            && !report.steps.is_empty()
        {
            if self.ctx.state.is_reported(task).await? {
                return Ok(()); // already out
            }
            if let Some(next) = self.model_check(msg, plan, &report).await {
                let again = chorus_bus::VerificationDone {
                    iteration: plan.iteration,
                    verdict: Verdict::Reiterate,
                    reasons: vec![MODEL_REFUSED.to_owned()],
                    failed_steps: Vec::new(),
                    plan: Some(next),
                };
                let out = msg
                    .reply(
                        Topic::verification_done(),
                        &self.ctx.instance,
                        Payload::VerificationDone(again),
                    )
                    .to("verifier");
                if self.ctx.bus.publish_once(&verdict_key, ttl, &out).await? {
                    info!(
                        iteration = plan.iteration,
                        "verdict REITERATE (model check)"
                    );
                }
                return Ok(());
            }
        }
        if let Some(model) = &self.llm
            && !report.steps.is_empty()
        {
            if self.ctx.state.is_reported(task).await? {
                return Ok(()); // already out: no model call for nothing
            }
            let store = self.ctx.state.store();
            let budget = llm::report_budget(
                model.settings(),
                llm::remaining(Some(llm::task_deadline_ms(msg, self.limits.deadline))),
                &self.limits,
            );
            let hold = llm::writing_hold(budget, &self.limits);
            if !store
                .set_nx(&once::writing(task), &self.ctx.instance, hold)
                .await?
            {
                return Err(HandleError::Transient(Pending::Busy(
                    "another synthesizer is writing this report",
                )));
            }
            self.write_with(model, msg, plan, &mut report, budget)
                .await?;
        }
        let status = report.status;
        // A conversation's turn is stored before its report goes out, so a follow-up
        // sent on seeing the report finds it.
        let session = plan.context.session_id.as_deref();
        self.ctx.state.record_turn(session, task, &report).await?;
        let me = &self.ctx.instance;
        let out = msg
            .reply(Topic::final_report(), me, Payload::FinalReport(report))
            .to("chief");
        let finished = msg.reply(
            Topic::verification_done(),
            me,
            Payload::VerificationDone(judged),
        );
        if self
            .ctx
            .bus
            .publish_once(&once::reported(task), ttl, &out)
            .await?
        {
            info!(?status, iteration = plan.iteration, "final report written");
            // The verdict FINISHED is shown on the channel only (no stream entry, no
            // consumer): the report already says it all, and the happy path pays one
            // PUBLISH for it. Lost if this process dies right here; nothing acts on it.
            if let Err(e) = self.ctx.bus.announce(&finished).await {
                warn!(error = %e, "could not announce the verdict FINISHED");
            }
        }
        Ok(())
    }

    /// Writes the text of `report` with the model's stream onto the task's token stream
    /// (the template's when the model's answer is refused or `budget` runs out), and logs
    /// who wrote it.
    async fn write_with(
        &self,
        model: &LlmSynthesizer,
        msg: &Message,
        plan: &PlanReady,
        report: &mut FinalReport,
        budget: Duration,
    ) -> Result<(), HandleError> {
        let events = (budget >= llm::MIN_MODEL_BUDGET).then(|| {
            stream_or_template(
                Some(model.clone()),
                plan.query.clone(),
                plan.language,
                report.steps.clone(),
                report.status,
                plan.unplanned.clone(),
            )
        });
        let template = std::mem::take(&mut report.text);
        let ttl = self.ctx.state.ttl();
        let written =
            token_stream::relay(&*self.ctx.bus, &msg.task_id, ttl, events, budget, template)
                .await?;
        report.text = written.text;
        report.written_by = written.written_by.to_owned();
        let written_by = written.written_by;
        match written.fallback {
            Some(reason) => warn!(task_id = %msg.task_id, written_by, code = %reason.code(),
                reason = %reason, "model report not used; template published"),
            None => info!(task_id = %msg.task_id, written_by, "report written"),
        }
        Ok(())
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
            // here too, so whichever of Router and Synthesizer comes first sees it whole.
            // Then, when some step runs, its results drive the report (each result is
            // stored and checked against the stored plan); only a plan with nothing to
            // run is finished here.
            Payload::PlanReady(plan) if plan.dispatched => {
                self.watch_deadline(msg, plan).await?;
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
                self.finish_if_complete(msg, &plan, None).await
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
