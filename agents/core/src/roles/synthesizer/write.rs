//! The report's text written by the model (`[llm]`, `synthesize` on): one streaming call
//! whose pieces go onto the task's token stream as they come ([`crate::token_stream`]);
//! the template's text when the model's answer is refused or the time runs out.

use std::time::Duration;

use chorus_bus::{FinalReport, Message, PlanReady};
use chorus_llm::{LlmSynthesizer, stream_or_template};
use tracing::{info, warn};

use super::Synthesizer;
use crate::llm;
use crate::runtime::HandleError;
use crate::token_stream;

impl Synthesizer {
    /// Writes the text of `report` with the model's stream onto the task's token stream
    /// (the template's when the model's answer is refused or `budget` runs out), and logs
    /// who wrote it.
    pub(super) async fn write_with(
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
        // Outside the role's permit (bounded by `budget`): a slow model holds back no
        // other delivery.
        let written = llm::model_call(token_stream::relay(
            &*self.ctx.bus,
            &msg.task_id,
            ttl,
            events,
            budget,
            template,
        ))
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
