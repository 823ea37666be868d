//! A task's report token stream: the report's text as the Synthesizer writes it with a
//! model, piece by piece, so that any client can show it live, and that the HTTP
//! gateway relays without asking the model again.
//!
//! On Redis it is the stream `report_tokens:<task_id>` (read it with
//! `XREAD STREAMS report_tokens:<task_id> 0`), capped near [`TOKEN_STREAM_MAXLEN`]
//! entries and expiring with the task's state. Each entry is one [`ReportToken`] as
//! plain fields (see [`ReportToken::fields`]):
//!
//! - a piece of text: `text <piece>`, to append to what is shown;
//! - the end, once: `done true written_by <llm|template> replace <true|false> text <the
//!   whole report>` and, when the model's answer was not used, `reason <code>`. When
//!   `replace` is true the pieces shown so far are to be replaced by `text`; either way
//!   `text` is the report's text, exactly the `text` of the task's `final_report`.
//!
//! No model, no stream: without a model the report goes out on `final_report` alone.

use std::time::Duration;

use async_trait::async_trait;

use crate::error::BusError;
use crate::ids::TaskId;

/// The prefix of a task's token stream key: `report_tokens:<task_id>`.
pub const TOKEN_STREAM_PREFIX: &str = "report_tokens:";

/// Most entries a token stream keeps (trimmed approximately, oldest first, on Redis). A
/// report is at most `llm.max_tokens` pieces plus its end, far below it: the cap only
/// bounds a runaway writer.
pub const TOKEN_STREAM_MAXLEN: usize = 4096;

/// The key of `task`'s token stream.
pub fn token_stream_key(task: &TaskId) -> String {
    format!("{TOKEN_STREAM_PREFIX}{task}")
}

/// One entry of a token stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportToken {
    /// More text, to append to what is shown.
    Text(String),
    /// The end of the report.
    Done(TokensDone),
}

/// The last entry of a token stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokensDone {
    /// The whole report text (the `final_report`'s `text`).
    pub text: String,
    /// Who wrote it: `llm` or `template`.
    pub written_by: String,
    /// Whether the pieces shown so far are to be replaced by [`TokensDone::text`].
    pub replace: bool,
    /// Why the model's answer was not used (a fallback code such as `ungrounded`).
    pub reason: Option<String>,
}

impl ReportToken {
    /// The entry's fields, in the order they are written.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        match self {
            ReportToken::Text(text) => vec![("text", text.clone())],
            ReportToken::Done(done) => {
                let mut fields = vec![
                    ("done", "true".to_owned()),
                    ("written_by", done.written_by.clone()),
                    ("replace", done.replace.to_string()),
                ];
                if let Some(reason) = &done.reason {
                    fields.push(("reason", reason.clone()));
                }
                fields.push(("text", done.text.clone()));
                fields
            }
        }
    }

    /// The entry with these fields; `None` when it has no `text` (not a token entry).
    pub fn from_fields<'a>(fields: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<Self> {
        let (mut text, mut done, mut written_by, mut replace, mut reason) =
            (None, false, String::new(), false, None);
        for (name, value) in fields {
            match name {
                "text" => text = Some(value.to_owned()),
                "done" => done = flag(value),
                "written_by" => written_by = value.to_owned(),
                "replace" => replace = flag(value),
                "reason" => reason = Some(value.to_owned()),
                _ => {}
            }
        }
        let text = text?;
        Some(if done {
            ReportToken::Done(TokensDone {
                text,
                written_by,
                replace,
                reason,
            })
        } else {
            ReportToken::Text(text)
        })
    }
}

/// `true` or `1` (as a client writing by hand might) is true.
fn flag(value: &str) -> bool {
    matches!(value, "true" | "1")
}

/// A reader of one task's token stream, from its first entry on.
#[async_trait]
pub trait TokenReader: Send {
    /// The entries after the last one returned (the first ones on the first call),
    /// waiting at most `wait` for one to come; empty when none came. A zero `wait` only
    /// reads what is there.
    async fn next(&mut self, wait: Duration) -> Result<Vec<ReportToken>, BusError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_their_fields() {
        let entries = [
            ReportToken::Text("2+4 is ".into()),
            ReportToken::Done(TokensDone {
                text: "2+4 is 6.".into(),
                written_by: "llm".into(),
                replace: false,
                reason: None,
            }),
            ReportToken::Done(TokensDone {
                text: "template".into(),
                written_by: "template".into(),
                replace: true,
                reason: Some("ungrounded".into()),
            }),
        ];
        for entry in entries {
            let fields = entry.fields();
            let back = ReportToken::from_fields(fields.iter().map(|(k, v)| (*k, v.as_str())));
            assert_eq!(back, Some(entry));
        }
        assert_eq!(ReportToken::from_fields([("data", "{}")]), None);
        assert_eq!(
            token_stream_key(&TaskId::from("t-1")),
            "report_tokens:t-1".to_owned()
        );
    }
}
