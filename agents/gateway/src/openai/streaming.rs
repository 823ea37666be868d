//! A streamed chat completion (`"stream": true`): Server-Sent Events of
//! `data: {chat.completion.chunk}` — first the role, then the content in pieces, then
//! an empty delta with `finish_reason: "stop"`, then (with
//! `stream_options.include_usage`) a chunk with the usage and no choices, then
//! `data: [DONE]`.
//!
//! The content comes as the report is written: with a model writing reports, each piece
//! of its token stream is a chunk, live; a `replace` (the model's answer refused midway,
//! or the published report saying otherwise) cannot take back what a client has shown,
//! so it comes as more content after a rule ([`REPLACED`]). Without a model the report
//! comes whole, and is sent a line per chunk. A question is the content, like a report.
//! When no report comes in time, the stream ends with `data: {"error": …}` (OpenAI's
//! way; the SDKs raise it) and no `[DONE]`.

use std::convert::Infallible;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::completions::{Reply, completion_id};
use super::conversation::Chat;
use super::error::OpenAiError;
use super::start::Started;
use super::wire::{ChatCompletionChunk, ChorusInfo, ChunkChoice, Delta, MODEL, Usage, unix_now};
use crate::api::ApiState;
use crate::follow::Progress;

/// What comes before the text that replaces what a client was shown.
pub const REPLACED: &str = "\n\n---\n\n";

type Tx = mpsc::Sender<Result<Event, Infallible>>;

/// Streams the completion of the started task.
pub fn respond(
    api: ApiState,
    chat: Chat,
    started: Started,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(run(api, chat, started, tx));
    Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::default())
}

/// The chunks of one completion.
struct Chunks {
    id: String,
    created: u64,
    tx: Tx,
}

impl Chunks {
    /// Sends a chunk; false when the client went away.
    async fn send(
        &self,
        choices: Vec<ChunkChoice>,
        usage: Option<Usage>,
        chorus: Option<ChorusInfo>,
    ) -> bool {
        let chunk = ChatCompletionChunk {
            id: self.id.clone(),
            object: "chat.completion.chunk".to_owned(),
            created: self.created,
            model: MODEL.to_owned(),
            choices,
            usage,
            chorus,
        };
        let event = Event::default()
            .json_data(&chunk)
            .unwrap_or_else(|e| Event::default().data(e.to_string()));
        self.tx.send(Ok(event)).await.is_ok()
    }

    /// Sends a delta of the choice.
    async fn delta(&self, delta: Delta) -> bool {
        let choice = ChunkChoice {
            index: 0,
            delta,
            finish_reason: None,
        };
        self.send(vec![choice], None, None).await
    }

    /// Sends a piece of the content.
    async fn content(&self, text: &str) -> bool {
        self.delta(Delta {
            content: Some(text.to_owned()),
            ..Delta::default()
        })
        .await
    }

    /// Sends raw data (`[DONE]`, an error).
    async fn data(&self, data: &str) -> bool {
        self.tx.send(Ok(Event::default().data(data))).await.is_ok()
    }
}

/// Follows the task and streams what it says; returns when done or the client left.
async fn run(api: ApiState, chat: Chat, mut started: Started, tx: Tx) {
    let chunks = Chunks {
        id: completion_id(&started.turn),
        created: unix_now(),
        tx,
    };
    let role = Delta {
        role: Some("assistant".to_owned()),
        content: Some(String::new()),
    };
    if !chunks.delta(role).await {
        return;
    }
    // The content sent so far: what the client will send back as this reply.
    let mut sent = String::new();
    let reply = loop {
        let piece = match started.following.next().await {
            Some(Progress::Token(text)) => text,
            Some(Progress::Replaced(r)) if sent.is_empty() => r.text,
            Some(Progress::Replaced(r)) => format!("{REPLACED}{}", r.text),
            Some(Progress::Asked { question, .. }) => {
                let reply = Reply::question(&question);
                if !chunks.content(&reply.text).await {
                    return;
                }
                break reply;
            }
            Some(Progress::Report { report, .. }) => {
                if sent.is_empty() {
                    for line in report.text.split_inclusive('\n') {
                        if !chunks.content(line).await {
                            return;
                        }
                    }
                    sent.push_str(&report.text);
                }
                break Reply::report(&report, sent);
            }
            Some(Progress::TimedOut) | None => {
                let error = OpenAiError::NoReport(started.turn.task.clone()).body();
                let _ = chunks.data(&error.to_string()).await;
                return;
            }
            Some(Progress::Accepted | Progress::Planned { .. } | Progress::Step { .. }) => {
                continue;
            }
        };
        if !chunks.content(&piece).await {
            return;
        }
        sent.push_str(&piece);
    };
    let turn = started.turn;
    drop(started.following);
    turn.remember(&api, &chat, &reply.text, reply.asked).await;
    let stop = ChunkChoice {
        index: 0,
        delta: Delta::default(),
        finish_reason: Some("stop".to_owned()),
    };
    let chorus = ChorusInfo {
        task_id: turn.task.clone(),
        status: reply.status.clone(),
    };
    if !chunks.send(vec![stop], None, Some(chorus)).await {
        return;
    }
    if chat.include_usage {
        let usage = Usage::new(chat.prompt_words, &reply.text);
        if !chunks.send(Vec::new(), Some(usage), None).await {
            return;
        }
    }
    let _ = chunks.data("[DONE]").await;
}
