//! The Verifier: acts on the verdicts. A verdict REITERATE on attempt n (some step
//! failed for a reason that can pass, and an attempt and time are left) becomes one
//! `renavigate_request` asking the Planner to re-plan the failed steps; FINISHED needs
//! nothing (its report went out with it). Verdicts themselves are reached at the
//! fan-in ([`crate::verdict`]), so a task whose steps all succeed never waits for this
//! role.

use async_trait::async_trait;
use chorus_bus::{Delivery, Payload, RenavigateRequest, Topic, Verdict};
use tracing::{debug, info};

use super::Ctx;
use crate::runtime::{HandleError, Handler};
use crate::state::once;

/// The Verifier's handler for `verification_done`.
pub struct Verifier {
    ctx: Ctx,
}

impl Verifier {
    /// A verifier.
    pub fn new(ctx: Ctx) -> Self {
        Verifier { ctx }
    }
}

#[async_trait]
impl Handler for Verifier {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let msg = &delivery.message;
        let Payload::VerificationDone(done) = &msg.payload else {
            return Err(HandleError::no_payload(&delivery.topic, "verdict"));
        };
        if done.verdict == Verdict::Finished {
            return Ok(());
        }
        let task = &msg.task_id;
        if self.ctx.state.is_reported(task).await? {
            // The deadline passed meanwhile and the Chief wrote the report.
            debug!(task_id = %task, "report already out; no re-plan");
            return Ok(());
        }
        let reason = done.reasons.join("; ");
        let ask = RenavigateRequest {
            iteration: done.iteration,
            failed_steps: done.failed_steps.clone(),
            reason,
            plan: done.plan.clone(),
        };
        let out = msg
            .reply(
                Topic::renavigate_request(),
                &self.ctx.instance,
                Payload::RenavigateRequest(ask),
            )
            .to("planner");
        let key = once::renavigate(task, done.iteration);
        if self
            .ctx
            .bus
            .publish_once(&key, self.ctx.state.ttl(), &out)
            .await?
        {
            info!(task_id = %task, iteration = done.iteration, "re-plan asked");
        }
        Ok(())
    }
}
