//! What the Synthesizer does with a plan as it arrives, before any result: a plan that
//! cannot run ends its task with one `failed` report (unless the task has a plan
//! already), and a plan the Chief never saw (a crafted `plan_ready`, dispatched or not)
//! opens its task for the deadline watch.

use chorus_bus::{Deadline, Message, Payload, PlanError, PlanReady, TaskRequest, Topic};
use tracing::{debug, warn};

use super::Synthesizer;
use crate::report;
use crate::runtime::HandleError;
use crate::state::once;

impl Synthesizer {
    /// Ends the task of a plan that cannot run with one `failed` report naming
    /// `problem` — unless the task has a stored plan already (the Planner's, or an
    /// earlier valid one): then this plan is ignored and that one goes on.
    pub(super) async fn refuse_plan(
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
    pub(super) async fn watch_deadline(
        &self,
        msg: &Message,
        plan: &PlanReady,
    ) -> Result<(), HandleError> {
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
}
