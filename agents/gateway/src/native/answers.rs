//! `POST /tasks/{id}/answer`: the answer to the question a task asked (it waits in
//! state `input_required`), handed to the one way in for answers
//! (`chorus_core::door::answer`), which checks it against the task's open question
//! and settles that question once. 202 when it does; each refusal is the JSON error of
//! the gateway with the door's code and the status `errors` gives it.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chorus_core::door::{AnswerSubmission, answer as answer_door};

use super::errors::ApiError;
use super::wire::{AnswerAccepted, NewAnswer};
use crate::api::ApiState;

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
        task_id: answered.message.task_id,
        question: answered.number,
    };
    Ok((StatusCode::ACCEPTED, Json(accepted)))
}
