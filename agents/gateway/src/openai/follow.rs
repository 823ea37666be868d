//! Follows a task to its report exactly as `POST /chat/stream` does: the same follower
//! (`stream::Follow`: the hub's progress, the task's question, the model's token stream
//! with its `replace`s, the deadline and the answer timeout) runs for the task, and its
//! Server-Sent Events are read back here as [`Progress`] — what the OpenAI endpoint
//! needs of them: the report's text as it is written, the question, the report.

use std::sync::Arc;

use axum::body::BodyDataStream;
use axum::response::IntoResponse;
use axum::response::sse::Sse;
use chorus_bus::{ClarificationNeeded, FinalReport, Message, TaskId};
use futures::StreamExt;
use serde::Deserialize;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;
use tokio_stream::wrappers::ReceiverStream;

use crate::ApiState;
use crate::stream::Follow;

/// What happened to the task, as far as a chat completion cares.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// The next piece of the report, as a model writes it.
    Token(String),
    /// The pieces shown so far are superseded by this whole text (the model's answer
    /// was refused midway, or the published report says otherwise).
    Replace(String),
    /// The task asks the user; it waits for the answer.
    Question(ClarificationNeeded),
    /// The task's report.
    Report(Box<FinalReport>),
    /// No report came within the deadline (or the follower stopped).
    TimedOut,
}

/// A task being followed. Dropping it stops the follower.
pub struct Following {
    events: BodyDataStream,
    buffer: String,
    follower: JoinHandle<()>,
}

impl Drop for Following {
    fn drop(&mut self) {
        // After a question the follower would wait the answer timeout for nothing.
        self.follower.abort();
    }
}

/// The `text` of a `token` or `replace` event.
#[derive(Deserialize)]
struct Text {
    text: String,
}

impl Following {
    /// Starts following `task` with `progress`, a hub receiver taken before the task was
    /// submitted or answered (so nothing is missed). `asked` is the number of the last
    /// question already answered (0: none), and `report` the task's report when it is
    /// out already.
    pub fn start(
        api: &ApiState,
        task: TaskId,
        progress: broadcast::Receiver<Arc<Message>>,
        asked: u32,
        report: Option<FinalReport>,
    ) -> Following {
        let (follow, rx) = Follow::new(api, task, report, asked);
        let follower = tokio::spawn(follow.run(progress, None));
        let events = Sse::new(ReceiverStream::new(rx))
            .into_response()
            .into_body()
            .into_data_stream();
        Following {
            events,
            buffer: String::new(),
            follower,
        }
    }

    /// The next progress that matters (the plan and the steps do not); after a
    /// [`Progress::Question`], [`Progress::Report`] or [`Progress::TimedOut`] there is
    /// no more.
    pub async fn next(&mut self) -> Progress {
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                if let Some(progress) = read_event(&block) {
                    return progress;
                }
            }
            match self.events.next().await {
                Some(Ok(bytes)) => self.buffer.push_str(&String::from_utf8_lossy(&bytes)),
                Some(Err(e)) => {
                    tracing::warn!(error = %e, "reading the task's progress failed");
                    return Progress::TimedOut;
                }
                None => return Progress::TimedOut,
            }
        }
    }
}

/// One Server-Sent Event of the follower (`event: name`, `data: json`) as progress;
/// `None` for the events a completion does not show (`accepted`, `plan`, `step`).
fn read_event(block: &str) -> Option<Progress> {
    let mut name = "message";
    let mut data = String::new();
    for line in block.lines() {
        if let Some(v) = line.strip_prefix("event:") {
            name = v.trim();
        } else if let Some(v) = line.strip_prefix("data:") {
            data.push_str(v.strip_prefix(' ').unwrap_or(v));
        }
    }
    let parsed = match name {
        "token" => serde_json::from_str::<Text>(&data).map(|t| Progress::Token(t.text)),
        "replace" => serde_json::from_str::<Text>(&data).map(|t| Progress::Replace(t.text)),
        "question" => serde_json::from_str(&data).map(Progress::Question),
        "report" => serde_json::from_str(&data).map(|r| Progress::Report(Box::new(r))),
        "error" => return Some(Progress::TimedOut),
        _ => return None,
    };
    Some(parsed.unwrap_or_else(|e| {
        tracing::warn!(event = name, error = %e, "unreadable progress event");
        Progress::TimedOut
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_followers_events_read_as_progress() {
        assert_eq!(
            read_event("event: token\ndata: {\"text\":\"2 + 4 \"}\n\n"),
            Some(Progress::Token("2 + 4 ".into()))
        );
        let replace = "event: replace\ndata: {\"text\":\"6\",\"written_by\":\"template\",\"reason\":\"superseded\"}\n\n";
        assert_eq!(read_event(replace), Some(Progress::Replace("6".into())));
        let question = "event: question\ndata: {\"task_id\":\"t-1\",\"question\":\"which number?\",\"part\":\"divide 10 by\",\"language\":\"en\",\"number\":2,\"query\":\"divide 10 by\"}\n\n";
        match read_event(question) {
            Some(Progress::Question(q)) => {
                assert_eq!((q.question.as_str(), q.number), ("which number?", 2));
            }
            other => panic!("a question: {other:?}"),
        }
        assert_eq!(read_event("event: plan\ndata: {}\n\n"), None);
        assert_eq!(
            read_event("event: accepted\ndata: {\"task_id\":\"t\"}\n\n"),
            None
        );
        assert_eq!(
            read_event("event: error\ndata: {\"error\":\"no report\"}\n\n"),
            Some(Progress::TimedOut)
        );
        assert_eq!(
            read_event("event: report\ndata: {}\n\n"),
            Some(Progress::TimedOut)
        );
    }
}
