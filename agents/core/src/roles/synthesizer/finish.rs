//! The fan-in's end: once every step of an attempt is final, the verdict on it
//! ([`crate::verdict`]) — REITERATE on the stream for the Verifier, or the task's one
//! report (checked and written by the model when configured), its conversation turn
//! stored first, and FINISHED announced after it on the channel only.

use std::collections::HashMap;
use std::time::Duration;

use chorus_bus::{Deadline, Message, Payload, PlanReady, StepId, StepResult, Topic, Verdict};
use tracing::{info, warn};

use super::Synthesizer;
use super::check::MODEL_REFUSED;
use crate::llm;
use crate::report;
use crate::runtime::{HandleError, Pending};
use crate::state::once;
use crate::verdict::{self, Bounds};

/// Least time before the deadline worth another attempt.
const MIN_ATTEMPT: Duration = Duration::from_millis(250);

impl Synthesizer {
    /// What bounds a verdict on `msg`'s task now.
    pub(super) fn bounds(&self, msg: &Message) -> Bounds {
        let deadline = llm::task_deadline_ms(msg, self.limits.deadline);
        Bounds {
            max_iterations: self.max_iterations,
            time_left: Deadline::remaining(deadline) > MIN_ATTEMPT,
        }
    }

    /// When every step of `plan`'s attempt is final (`results` as the caller read them,
    /// else read here), reaches the verdict on it and acts on it; else does nothing.
    pub(super) async fn finish_if_complete(
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
        let first = self
            .ctx
            .bus
            .publish_once(&once::reported(task), ttl, &out)
            .await?;
        // The report is out (this one or an earlier one): the task's plans are not
        // needed here any more; their memory goes now, not after 1024 more plans.
        self.seen.forget(task, plan.iteration);
        if first {
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
}
