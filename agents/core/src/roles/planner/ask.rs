//! The Planner's questions: asking (`clarification_needed`, the task paused), asking
//! again after an answer that did not settle it (up to `agents.max_questions`, then a
//! refusal), and planning once an answer settles it (`clarification_answer`, as the
//! one way in for answers passed it on).

use chorus_bus::{
    ClarificationAnswer, ClarificationNeeded, Delivery, Language, Message, Payload, PlanReady,
    TaskRequest, Topic, now_ms,
};
use chorus_heuristic::{Question, messages};
use tracing::info;

use super::{Decision, Planner, plan_ready};
use crate::llm;
use crate::question::Waiting;
use crate::runtime::HandleError;
use crate::state::once;

impl Planner {
    /// Asks `question` (number `number`) about `request` and pauses the task: the
    /// question record is stored and the deadline paused before the question goes out
    /// (once), so an answer always finds the task waiting.
    pub(super) async fn ask(
        &self,
        msg: &Message,
        request: &TaskRequest,
        question: Question,
        language: Language,
        number: u32,
    ) -> Result<(), HandleError> {
        let task = &msg.task_id;
        let state = &self.ctx.state;
        if state.is_reported(task).await? {
            return Ok(()); // the deadline passed while planning: the report is out
        }
        let remaining = llm::task_deadline_ms(msg, self.limits.deadline).remaining();
        let wire = ClarificationNeeded {
            question: question.text.clone(),
            options: question.options.clone(),
            part: question.part.clone(),
            language,
            number,
            query: request.query.clone(),
            session_id: request.context.session_id.clone(),
        };
        let answer_timeout =
            u64::try_from(self.questions.answer_timeout.as_millis()).unwrap_or(u64::MAX);
        let waiting = Waiting {
            question: wire.clone(),
            asked: question,
            request: request.clone(),
            remaining_ms: u64::try_from(remaining.as_millis()).unwrap_or(u64::MAX),
            answer_by_ms: now_ms().saturating_add(answer_timeout),
        };
        state.pause(task, &waiting).await?;
        self.publish_question(msg, wire).await?;
        info!(task_id = %task, question = number, "asked; the task waits for an answer");
        Ok(())
    }

    /// Publishes a question once (its `asked` key).
    async fn publish_question(
        &self,
        msg: &Message,
        question: ClarificationNeeded,
    ) -> Result<(), HandleError> {
        let key = once::asked(&msg.task_id, question.number);
        let mut out = msg.reply(
            Topic::clarification_needed(),
            &self.ctx.instance,
            Payload::ClarificationNeeded(question),
        );
        out.deadline_ms = None; // paused: the deadline resumes with the answer
        self.ctx
            .bus
            .publish_once(&key, self.ctx.state.ttl(), &out)
            .await?;
        Ok(())
    }

    /// On a redelivery of a task's request: when the task asked a question, its
    /// request is never planned afresh — the question (when nothing settled it yet) goes
    /// out again (once; a Planner killed between pausing the task and asking leaves it
    /// unasked), and an answered one belongs to the answer's path. Returns whether the
    /// task asked.
    pub(super) async fn ask_again_if_asked(&self, msg: &Message) -> Result<bool, HandleError> {
        let state = &self.ctx.state;
        let Some(waiting) = state.waiting(&msg.task_id).await? else {
            return Ok(false);
        };
        if state
            .settled(&msg.task_id, waiting.question.number)
            .await?
            .is_none()
        {
            self.publish_question(msg, waiting.question).await?;
        }
        Ok(true)
    }

    /// Plans a task with the answer to its question: the request as read so far with
    /// the answer filled in. An answer that does not settle it, or a request that still
    /// needs something, is asked about again while questions are left; then the task is
    /// refused with a message saying what Chorus can do. A stale answer (its question
    /// is not the task's latest) does nothing.
    pub(super) async fn resume(
        &self,
        delivery: &Delivery,
        answer: &ClarificationAnswer,
    ) -> Result<(), HandleError> {
        if delivery.bare {
            return Ok(()); // the Chief passes client answers on through the one way in
        }
        let msg = &delivery.message;
        let task = &msg.task_id;
        let state = &self.ctx.state;
        let Some(waiting) = state.waiting(task).await? else {
            return Ok(()); // expired, or never asked
        };
        let number = answer.question.unwrap_or(waiting.question.number);
        if waiting.question.number == number + 1 {
            // Redelivered after the next question was stored: make sure it went out.
            self.publish_question(msg, waiting.question).await?;
            return Ok(());
        }
        if waiting.question.number != number || state.is_reported(task).await? {
            return Ok(());
        }
        if let Some(deadline) = msg.deadline_ms {
            state.unpause(task, number, deadline).await?;
        }
        let language = waiting.question.language;
        let request = match chorus_heuristic::resume(
            &waiting.request.query,
            &waiting.asked,
            &answer.answer,
        ) {
            Ok(query) => TaskRequest {
                query,
                context: waiting.request.context.clone(),
            },
            Err(_) => {
                let mut again = waiting.asked.clone();
                again.text = format!(
                    "{} {}",
                    messages::not_settled(&answer.answer, language),
                    waiting.asked.text
                );
                return self
                    .ask_or_refuse(msg, &waiting.request, again, language, number)
                    .await;
            }
        };
        info!(task_id = %task, question = number, "answer settles the question; planning");
        match self.plan(msg, &request).await? {
            Decision::Plan(ready) => self.publish_plan(msg, *ready).await,
            Decision::Ask(question, language) => {
                self.ask_or_refuse(msg, &request, *question, language, number)
                    .await
            }
        }
    }

    /// Asks `question` as question `asked + 1`, or, when `agents.max_questions` were
    /// asked already, publishes a plan with no steps refusing the request.
    async fn ask_or_refuse(
        &self,
        msg: &Message,
        request: &TaskRequest,
        question: Question,
        language: Language,
        asked: u32,
    ) -> Result<(), HandleError> {
        if asked < self.questions.max {
            return self.ask(msg, request, question, language, asked + 1).await;
        }
        let live = self.live().await?;
        let reason = messages::unsettled_after(asked, &question.text, language);
        let ready: PlanReady = plan_ready(
            request,
            chorus_heuristic::PlanOutcome::Unplannable {
                message: messages::with_capabilities(&reason, language, &live.capabilities),
                language,
                pool_down: None,
            },
        );
        self.publish_plan(msg, ready).await
    }
}
