//! The handlers: `GET /v1/models`, `GET /v1/models/{model}` and
//! `POST /v1/chat/completions`, whose non-streaming answer is built here (the streamed
//! one in `streaming.rs`). A completion's text is the report's `text` (markdown), or the
//! task's question with its numbered options; either way `finish_reason` is `stop`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use chorus_bus::{ClarificationNeeded, FinalReport};

use super::conversation::Chat;
use super::error::OpenAiError;
use super::start::{Started, Turn, start};
use super::streaming;
use super::wire::{
    AssistantMessage, ChatCompletion, ChatRequest, Choice, ChorusInfo, MODEL, Model, ModelList,
    Usage, unix_now,
};
use crate::api::ApiState;
use crate::follow::Progress;

/// The status of a completion that is the task's question.
pub const INPUT_REQUIRED: &str = "input_required";

/// `GET /v1/models`: the one model, `chorus`.
pub async fn list_models() -> Json<ModelList> {
    Json(ModelList {
        object: "list".to_owned(),
        data: vec![Model::chorus()],
    })
}

/// `GET /v1/models/{model}`: `chorus`, or 404 `model_not_found`.
pub async fn get_model(Path(model): Path<String>) -> Result<Json<Model>, OpenAiError> {
    match model == MODEL {
        true => Ok(Json(Model::chorus())),
        false => Err(OpenAiError::UnknownModel(model)),
    }
}

/// `POST /v1/chat/completions`: the last user message is the request (or the answer to
/// the question the conversation's last reply asked); the completion is its report.
pub async fn chat_completions(
    State(api): State<ApiState>,
    body: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Response, OpenAiError> {
    let Json(body) = body.map_err(OpenAiError::from_json)?;
    let chat = Chat::read(&body)?;
    let started = start(&api, &chat).await?;
    if chat.stream {
        return Ok(streaming::respond(api, chat, started).into_response());
    }
    Ok(Json(complete(&api, &chat, started).await?).into_response())
}

/// The assistant's reply to a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The text the client is given.
    pub text: String,
    /// Whether it is the task's question (the next user message answers it).
    pub asked: bool,
    /// The report's status, or [`INPUT_REQUIRED`].
    pub status: String,
}

impl Reply {
    /// The reply that is `question`.
    pub fn question(question: &ClarificationNeeded) -> Reply {
        Reply {
            text: question_text(question),
            asked: true,
            status: INPUT_REQUIRED.to_owned(),
        }
    }

    /// The reply that is `report`, shown as `text`.
    pub fn report(report: &FinalReport, text: String) -> Reply {
        let status = serde_json::to_value(report.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        Reply {
            text,
            asked: false,
            status,
        }
    }
}

/// A question as the assistant asks it: its text, then its options numbered (an
/// answer may be the number, the label or the value).
pub fn question_text(question: &ClarificationNeeded) -> String {
    let mut text = question.question.trim_end().to_owned();
    if !question.options.is_empty() {
        text.push('\n');
        text.push_str(&chorus_heuristic::messages::numbered_options(
            &question.options,
        ));
    }
    text
}

/// Follows the task to its report or question and builds the completion.
async fn complete(
    api: &ApiState,
    chat: &Chat,
    mut started: Started,
) -> Result<ChatCompletion, OpenAiError> {
    let reply = loop {
        match started.following.next().await {
            Some(Progress::Asked { question, .. }) => break Reply::question(&question),
            Some(Progress::Report { report, .. }) => {
                break Reply::report(&report, report.text.clone());
            }
            Some(Progress::TimedOut) | None => {
                return Err(OpenAiError::NoReport(started.turn.task));
            }
            Some(_) => continue,
        }
    };
    let turn = &started.turn;
    turn.remember(api, chat, &reply.text, reply.asked).await;
    Ok(ChatCompletion {
        id: completion_id(turn),
        object: "chat.completion".to_owned(),
        created: unix_now(),
        model: MODEL.to_owned(),
        choices: vec![Choice {
            index: 0,
            message: AssistantMessage {
                role: "assistant".to_owned(),
                content: reply.text.clone(),
            },
            finish_reason: "stop".to_owned(),
            logprobs: None,
        }],
        usage: Usage::new(chat.prompt_words, &reply.text),
        chorus: ChorusInfo {
            task_id: turn.task.clone(),
            status: reply.status,
        },
    })
}

/// `chatcmpl-<task_id>`.
pub fn completion_id(turn: &Turn) -> String {
    format!("chatcmpl-{}", turn.task)
}

#[cfg(test)]
mod tests {
    use chorus_bus::AnswerOption;

    use super::*;

    fn question(options: &[(&str, &str)]) -> ClarificationNeeded {
        ClarificationNeeded {
            question: "Does \"03/04/2026\" mean 3 April 2026 or 4 March 2026?".to_owned(),
            options: options
                .iter()
                .map(|(label, value)| AnswerOption {
                    label: (*label).to_owned(),
                    value: (*value).to_owned(),
                })
                .collect(),
            part: "what weekday is 03/04/2026".to_owned(),
            language: chorus_bus::Language::En,
            number: 1,
            query: "what weekday is 03/04/2026".to_owned(),
            session_id: None,
        }
    }

    #[test]
    fn a_question_is_its_text_then_its_options_numbered() {
        let two = question(&[
            ("3 April 2026", "2026-04-03"),
            ("4 March 2026", "2026-03-04"),
        ]);
        let reply = Reply::question(&two);
        assert_eq!(
            reply.text,
            "Does \"03/04/2026\" mean 3 April 2026 or 4 March 2026?\n\n1. 3 April 2026\n2. 4 March 2026"
        );
        assert!(reply.asked);
        assert_eq!(reply.status, INPUT_REQUIRED);
        let free = question(&[]);
        assert_eq!(question_text(&free), free.question);
    }
}
