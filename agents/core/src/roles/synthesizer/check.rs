//! The model's check of a report before it goes out (`llm.verify`): one word on whether
//! the report answers the request and, on REITERATE, a new plan from its iteration
//! advisor. Any failure lets the rule's verdict stand.

use chorus_bus::{FinalReport, Message, PlanReady};
use chorus_llm::Judgement;
use tracing::{info, warn};

use super::Synthesizer;
use crate::llm;
use crate::registry::Registry;

/// Why a model check asked for another attempt, as the verdict's reason.
pub(super) const MODEL_REFUSED: &str =
    "the model judged that the report does not answer the request";

impl Synthesizer {
    /// Asks the model whether `report` answers the request and, when it says
    /// REITERATE, for a new plan checked against the live tools. Returns that plan; `None`
    /// (the rule's verdict stands) when no check is configured, the model answers
    /// FINISHED, or anything fails — each call within the task's deadline.
    pub(super) async fn model_check(
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
        let judge = llm::model_call(model.judge(&plan.query, &report.steps, &report.text));
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
        let advise = llm::model_call(model.advise(
            &plan.query,
            &plan.context,
            plan.language,
            &tools,
            &report.steps,
            MODEL_REFUSED,
        ));
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
}
