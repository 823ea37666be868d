//! `POST /tasks/{id}/answer`: the answer to the question a task asked (it waits in
//! state `input_required`), handed to the one way in for answers
//! (`chorus_agents::door::answer`), which checks it against the task's open question
//! and settles that question once. 202 when it does; each refusal is the JSON error of
//! the gateway with the door's code and status.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chorus_agents::door::{AnswerSubmission, answer as answer_door};
use serde::{Deserialize, Serialize};

use super::{ApiError, ApiState};

/// The body of `POST /tasks/{id}/answer`.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
pub struct NewAnswer {
    /// The answer in the user's words (at most 1000 characters). For a question with
    /// options, the option's label, its value or its number (1, 2, …) picks it.
    pub answer: String,
    /// The question it answers (the `number` of the task's `question`); absent: the
    /// open one. Naming a question answered before is `already_answered`, one not
    /// asked (yet) `no_such_question`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<u32>,
}

/// The answer to `POST /tasks/{id}/answer`: the answer settled this question and is on
/// its way to the Planner; the task goes on (follow it with `GET /tasks/{id}`, or the
/// stream that showed the question).
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
pub struct AnswerAccepted {
    /// The task's id.
    pub task_id: String,
    /// The question the answer settled.
    pub question: u32,
}

/// Answers a task's question: 202 when the answer settled it.
pub async fn answer(
    State(api): State<ApiState>,
    Path(id): Path<String>,
    body: Result<Json<NewAnswer>, JsonRejection>,
) -> Result<(StatusCode, Json<AnswerAccepted>), ApiError> {
    let Json(body) = body.map_err(ApiError::from_json)?;
    let submission = AnswerSubmission {
        task_id: id,
        answer: body.answer,
        question: body.question,
        from: api.instance.clone(),
    };
    let answered = answer_door(api.bus.as_ref(), &api.state, submission)
        .await
        .map_err(ApiError::from_answer)?;
    let accepted = AnswerAccepted {
        task_id: answered.message.task_id.to_string(),
        question: answered.number,
    };
    Ok((StatusCode::ACCEPTED, Json(accepted)))
}
