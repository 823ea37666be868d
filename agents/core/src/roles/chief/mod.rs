//! The Chief: the front door. Bare client requests read from the `task_available`
//! stream go through the one way in ([`crate::door::submit`]: the same entry always
//! yields the same task id, and is accepted once however often it is delivered); it
//! opens every task for the deadline watch, closes it when its report is out, and
//! writes the report itself when the deadline passes first. Bare answers to a task's
//! question (`clarification_answer`) go through the one way in for answers
//! ([`crate::door::answer`]); a refused one becomes one dead letter with the reason. A
//! task whose question waited past `agents.answer_timeout_ms` gets its one report,
//! status `unanswered`, from here too. Bare cancellations (`task_cancel`) go through
//! the one way in for cancellations ([`crate::door::cancel`]) the same way.
//!
//! A task the Planner paused for a question stays in the deadline watch until its
//! deadline; there the Chief sends the stored question when it never went out (under
//! the Planner's once-key for it, so it goes out once whoever sends it), then stops
//! watching the deadline, which stays paused until an answer comes. So a task whose
//! question's every publish failed (a Cluster shard out until the Planner's group gave
//! up on the request) is still asked, within its deadline, and still gets one report:
//! its answer's, or the `unanswered` one at the answer timeout. A task whose question
//! an answer settled but which the Planner has not resumed (about to, or its group gave
//! up on the answer) is kept in the deadline watch — found at its deadline or at the
//! answer timeout — with the time it had left, from then: its report comes then unless
//! the Planner resumes it first.

use std::time::Duration;

use async_trait::async_trait;
use chorus_bus::{
    ClarificationAnswer, Deadline, Delivery, FinalReport, Message, Payload, ReportStatus,
    TaskCancel, TaskId, TaskRequest, Topic, now_ms,
};
use chorus_telemetry::metrics::tasks as metrics;
use tracing::{info, warn};

use super::Ctx;
use crate::door::{
    AnswerSubmission, CancelSubmission, FromBus, Letter, Limits, Submission, SubmitError,
    answer_from_bus, cancel_from_bus, dead_letter_refused, refuse_on_bus, submit,
};
use crate::question::{DeadlineNow, TIMED_OUT};
use crate::report;
use crate::runtime::{HandleError, Handler, Shutdown};
use crate::state::once;

/// The Chief's handler for `task_available` and `final_report`.
pub struct Chief {
    ctx: Ctx,
    deadline: Duration,
    answer_timeout: Duration,
}

impl Chief {
    /// A Chief giving each task `deadline` to finish.
    pub fn new(ctx: Ctx, deadline: Duration) -> Self {
        Chief {
            ctx,
            deadline,
            answer_timeout: crate::roles::planner::Questions::default().answer_timeout,
        }
    }

    /// The same Chief, giving a question it sends itself (one the Planner's publish
    /// never got out) `answer_timeout` for its answer, from when it goes out
    /// (`agents.answer_timeout_ms`).
    pub fn with_answer_timeout(mut self, answer_timeout: Duration) -> Self {
        self.answer_timeout = answer_timeout;
        self
    }

    async fn accept(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let msg = &delivery.message;
        let Payload::TaskAvailable(request) = &msg.payload else {
            return Err(HandleError::no_payload(&delivery.topic, "request"));
        };
        if delivery.bare {
            return self.submit_bare(msg, request, &delivery.entry_id).await;
        }
        let deadline = msg
            .deadline_ms
            .unwrap_or_else(|| Deadline::after(self.deadline));
        self.ctx.state.open(&msg.task_id, request, deadline).await?;
        metrics::opened(&msg.task_id, msg.timestamp_us);
        Ok(())
    }

    /// A bare request from the stream, through the one way in; a refused one gets its
    /// refusal report (once, under the task's acceptance key).
    async fn submit_bare(
        &self,
        msg: &Message,
        request: &TaskRequest,
        delivery_entry: &str,
    ) -> Result<(), HandleError> {
        let limits = Limits {
            deadline: Some(self.deadline),
            ..Limits::default()
        };
        let submission = Submission {
            query: request.query.clone(),
            context: request.context.clone(),
            task_id: Some(msg.task_id.to_string()),
            from: self.ctx.instance.clone(),
            once: None,
            door: Some(metrics::Door::Stream),
        };
        let state = &self.ctx.state;
        match submit(self.ctx.bus.as_ref(), Some(state), &limits, submission).await {
            Ok(_) => Ok(()),
            Err(SubmitError::Bus(e)) => Err(e.into()),
            Err(taken @ SubmitError::TaskIdTaken { .. }) => {
                // The entry id makes the key: a redelivery writes no second letter.
                let key = format!(
                    "{}:refused:{}",
                    once::accepted(&msg.task_id),
                    delivery_entry
                );
                let once = (key, state.ttl());
                let bus = self.ctx.bus.as_ref();
                dead_letter_refused(bus, "chief", &msg.task_id, request, &taken, once).await?;
                info!(task_id = %msg.task_id, reason = %taken, "refused at the door");
                Ok(())
            }
            Err(refused) => {
                let once = (once::accepted(&msg.task_id), state.ttl());
                refuse_on_bus(self.ctx.bus.as_ref(), &msg.task_id, request, &refused, once).await?;
                info!(task_id = %msg.task_id, reason = %refused, "refused at the door");
                Ok(())
            }
        }
    }

    /// A bare answer from the stream, through the one way in for answers; a refused one
    /// becomes one dead letter (its entry id makes the key) with the reason.
    async fn take_answer(
        &self,
        delivery: &Delivery,
        given: &ClarificationAnswer,
    ) -> Result<(), HandleError> {
        if !delivery.bare {
            return Ok(()); // an answer this door (or another) passed on to the Planner
        }
        let msg = &delivery.message;
        let submission = AnswerSubmission {
            task_id: msg.task_id.to_string(),
            answer: given.answer.clone(),
            question: given.question,
            from: self.ctx.instance.clone(),
        };
        let state = &self.ctx.state;
        let original = serde_json::json!({
            "task_id": msg.task_id,
            "answer": given.answer,
            "question": given.question,
        })
        .to_string();
        let letter = Letter {
            role: "chief",
            original: &original,
            entry_id: &delivery.entry_id,
            once: (
                once::answer_refused(&msg.task_id, &delivery.entry_id),
                state.ttl(),
            ),
        };
        let bus = self.ctx.bus.as_ref();
        if let FromBus::Refused(reason) = answer_from_bus(bus, state, submission, letter).await? {
            info!(task_id = %msg.task_id, %reason, "answer refused at the door");
        }
        Ok(())
    }

    /// A bare cancellation from the stream, through the one way in for cancellations; a
    /// refused one becomes one dead letter (its entry id makes the key) with the reason.
    async fn take_cancel(
        &self,
        delivery: &Delivery,
        given: &TaskCancel,
    ) -> Result<(), HandleError> {
        if !delivery.bare {
            return Ok(()); // a full envelope: a client's own record, nothing to do
        }
        let msg = &delivery.message;
        let submission = CancelSubmission {
            task_id: msg.task_id.to_string(),
            reason: given.reason.clone(),
            from: self.ctx.instance.clone(),
        };
        let state = &self.ctx.state;
        let original =
            serde_json::json!({"task_id": msg.task_id, "reason": given.reason}).to_string();
        let letter = Letter {
            role: "chief",
            original: &original,
            entry_id: &delivery.entry_id,
            once: (
                once::cancel_refused(&msg.task_id, &delivery.entry_id),
                state.ttl(),
            ),
        };
        let bus = self.ctx.bus.as_ref();
        if let FromBus::Refused(reason) = cancel_from_bus(bus, state, submission, letter).await? {
            info!(task_id = %msg.task_id, %reason, "cancellation refused at the door");
        }
        Ok(())
    }

    /// Ends a task whose question got no answer in time with one report, status
    /// `unanswered`, repeating the question, unless an answer settled it first (the
    /// question's guard decides). A task answered but never resumed goes back to the
    /// deadline watch.
    async fn unanswered(&self, task: &TaskId) -> Result<(), chorus_bus::BusError> {
        let state = &self.ctx.state;
        let Some(waiting) = state.waiting(task).await? else {
            return state.stop_waiting(task).await;
        };
        let q = &waiting.question;
        let report = FinalReport {
            query: waiting.request.query.clone(),
            status: ReportStatus::Unanswered,
            text: chorus_heuristic::messages::unanswered(&q.question, &q.options, q.language),
            language: q.language,
            steps: Vec::new(),
            written_by: "template".to_owned(),
            iterations: 1,
            retried: Vec::new(),
        };
        let msg = Message::new(
            task,
            Topic::final_report(),
            &self.ctx.instance,
            Payload::FinalReport(report.clone()),
        );
        let guard = once::answered(task, q.number);
        let item = [(once::reported(task), msg)];
        if self
            .ctx
            .bus
            .publish_guarded(&guard, TIMED_OUT, &item, state.ttl())
            .await?
            .is_some()
        {
            info!(task_id = %task, question = q.number, "no answer in time; unanswered report written");
            // Only when the timeout won (an answer racing it writes the task's real
            // turn); after the report, which is harmless here: the turn has no answers
            // a follow-up could use.
            let session = waiting.request.context.session_id.as_deref();
            state.record_turn(session, task, &report).await?;
        } else if let DeadlineNow::Answered { number, remaining } = state.deadline_now(task).await?
            && !state.is_reported(task).await?
        {
            // Answered, but never resumed: the Planner's group gave up on the answer
            // (every delivery failed) before it put the task back in the deadline
            // watch.
            warn!(task_id = %task, question = number, "answered but never resumed; back in the deadline watch");
            return self.resume_watch(task, number, remaining).await;
        }
        state.stop_waiting(task).await
    }

    /// Puts a task whose question an answer settled, but which the Planner has not
    /// resumed, back in the deadline watch with the time it had left, from now (no
    /// earlier than the deadline the Planner resumes it with): its report is written
    /// then, unless the Planner resumes it first — then the Planner's deadline holds.
    async fn resume_watch(
        &self,
        task: &TaskId,
        number: u32,
        remaining: Duration,
    ) -> Result<(), chorus_bus::BusError> {
        let deadline = Deadline::after(remaining);
        self.ctx.state.unpause(task, number, deadline).await
    }

    /// Writes the report of every task whose deadline passed, once. Runs until shutdown.
    pub async fn watch_deadlines(&self, tick: Duration, mut shutdown: Shutdown) {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(tick) => {}
                _ = shutdown.requested() => return,
            }
            self.check_deadlines().await;
        }
    }

    /// One look at the deadlines and the answer timeouts: each task whose deadline
    /// passed gets its report (or, paused on a question, has its question sent when it
    /// never went out), each whose question waited too long its `unanswered` report.
    /// What fails is logged and found again at the next look.
    pub async fn check_deadlines(&self) {
        let due = match self.ctx.state.due(now_ms(), 256).await {
            Ok(d) => d,
            Err(e) => {
                warn!(error = %e, "reading deadlines failed");
                return;
            }
        };
        for task in due {
            if let Err(e) = self.expire(&task).await {
                warn!(task_id = %task, error = %e, "deadline report failed; will retry");
            }
        }
        let waited = match self.ctx.state.unanswered(now_ms(), 256).await {
            Ok(d) => d,
            Err(e) => {
                warn!(error = %e, "reading answer timeouts failed");
                return;
            }
        };
        for task in waited {
            if let Err(e) = self.unanswered(&task).await {
                warn!(task_id = %task, error = %e, "unanswered report failed; will retry");
            }
        }
    }

    /// A task paused on a question when its deadline came: the question goes out (once,
    /// under the key the Planner sends it with; nothing is sent when it went out
    /// already), the task waits for its answer (from now, when the question went out
    /// only now), and the deadline watch lets it go — unless an answer resumed the task
    /// meanwhile, whose deadline is kept.
    async fn paused(&self, task: &TaskId) -> Result<(), chorus_bus::BusError> {
        let state = &self.ctx.state;
        if let Some(waiting) = state.waiting(task).await?
            && state
                .settled(task, waiting.question.number)
                .await?
                .is_none()
        {
            let number = waiting.question.number;
            let msg = Message::new(
                task,
                Topic::clarification_needed(),
                &self.ctx.instance,
                Payload::ClarificationNeeded(waiting.question.clone()),
            );
            let sent = self
                .ctx
                .bus
                .publish_once(&once::asked(task, number), state.ttl(), &msg)
                .await?;
            let answer_by = match sent {
                true => {
                    warn!(task_id = %task, question = number, "the question never went out; sent at the task's deadline");
                    let from_now = u64::try_from(self.answer_timeout.as_millis())
                        .unwrap_or(u64::MAX)
                        .saturating_add(now_ms());
                    waiting.answer_by_ms.max(from_now)
                }
                false => waiting.answer_by_ms,
            };
            state.keep_waiting(task, answer_by).await?;
        }
        state.close(task).await?;
        // An answer that came between the first read and the close keeps the task in
        // the deadline watch: with the deadline it resumed with, or, not resumed yet,
        // with the time it had left.
        match state.deadline_now(task).await? {
            DeadlineNow::Resumed(deadline) => state.unpause_deadline(task, deadline).await,
            DeadlineNow::Answered { number, remaining } => {
                self.resume_watch(task, number, remaining).await
            }
            DeadlineNow::Paused | DeadlineNow::AsOpened => Ok(()),
        }
    }

    async fn expire(&self, task: &TaskId) -> Result<(), chorus_bus::BusError> {
        let state = &self.ctx.state;
        match state.deadline_now(task).await? {
            // Waiting for the user: the deadline is paused; the answer or the answer
            // timeout ends the wait, once the question is out.
            DeadlineNow::Paused => return self.paused(task).await,
            // Answered: a late look at the request brought back its old deadline.
            DeadlineNow::Resumed(deadline) if !deadline.passed() => {
                return state.unpause_deadline(task, deadline).await;
            }
            // Answered before its deadline, but not resumed yet: the Planner may be
            // about to (it was killed, its answer is redelivered), or its group gave
            // up on the answer; either way the deadline runs from the answer, not
            // from the request.
            DeadlineNow::Answered { number, remaining } => {
                return self.resume_watch(task, number, remaining).await;
            }
            DeadlineNow::Resumed(_) | DeadlineNow::AsOpened => {}
        }
        let stored = state.plan(task).await?;
        let planned = stored.is_some();
        let plan = match stored {
            Some(p) => p,
            None => {
                let request = state.request(task).await?.unwrap_or(TaskRequest {
                    query: String::new(),
                    context: Default::default(),
                });
                report::unplanned(request, |_| {
                    "planning did not finish before the deadline".to_owned()
                })
            }
        };
        let results = state.results(task, plan.iteration).await?;
        let mut final_report = report::build(&plan, &results);
        if !planned || !report::complete(&plan, &results) {
            final_report.status = chorus_bus::ReportStatus::DeadlineExceeded;
        }
        let session = plan.context.session_id.as_deref();
        state.record_turn(session, task, &final_report).await?;
        let msg = Message::new(
            task,
            Topic::final_report(),
            &self.ctx.instance,
            Payload::FinalReport(final_report),
        );
        if self
            .ctx
            .bus
            .publish_once(&once::reported(task), state.ttl(), &msg)
            .await?
        {
            info!(task_id = %task, "deadline passed; partial report written");
        }
        state.close(task).await
    }
}

#[async_trait]
impl Handler for Chief {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        match &delivery.message.payload {
            Payload::TaskAvailable(_) => self.accept(delivery).await,
            Payload::ClarificationAnswer(given) => self.take_answer(delivery, given).await,
            Payload::TaskCancel(given) => self.take_cancel(delivery, given).await,
            Payload::FinalReport(report) => {
                // The report is stored and the rest of the task's state shrunk to what
                // is still needed (report, its once-key, the acceptance record), in one
                // round trip; it also leaves the deadline watch.
                let task = &delivery.message.task_id;
                self.ctx.state.finish(task, report).await?;
                metrics::reported(task, report.status);
                Ok(())
            }
            _ => Err(HandleError::not_handled("chief", &delivery.topic)),
        }
    }
}

#[cfg(test)]
mod tests;
