//! The report written live: the Synthesizer's one model call, streamed, relayed onto the
//! task's report token stream (`report_tokens:<task_id>`, see
//! [`chorus_bus::tokens`]) as the pieces come, within the call's budget. What it returns
//! is the report's text, so the `final_report` says exactly what the stream showed:
//! the pieces, or, when the stream ends with `replace`, the text of its last entry.
//!
//! Pieces already there are appended together (one round trip per burst); the last
//! entry is appended on its own, once every piece before it is written. When the stream
//! held entries before this writer's first (a writer that died midway), the last entry
//! says `replace`, so whoever read those sees the report's text in the end all the same.

use std::time::Duration;

use chorus_bus::{Bus, BusError, ReportToken, TaskId, TokensDone};
use chorus_llm::{LlmError, SynthEvent, SynthFallback, SynthStream, WRITTEN_BY_TEMPLATE};
use futures::{FutureExt, StreamExt};
use tokio::time::{Instant, timeout_at};

use crate::llm;

/// What the stream wrote.
#[derive(Debug)]
pub struct Streamed {
    /// The report's text: what the stream showed, after any `replace`.
    pub text: String,
    /// `llm` or `template`.
    pub written_by: &'static str,
    /// Why the model's answer was not used, when it was not.
    pub fallback: Option<SynthFallback>,
}

/// Relays `events` onto `task`'s token stream until their end, or the template when
/// `budget` runs out first (or at once when `events` is `None`: the model was not asked,
/// there was no time). Every append sets the stream's TTL to `ttl`.
pub async fn relay(
    bus: &dyn Bus,
    task: &TaskId,
    ttl: Duration,
    events: Option<SynthStream>,
    budget: Duration,
    template: String,
) -> Result<Streamed, BusError> {
    let mut out = Appender {
        bus,
        task,
        ttl,
        shown: false,
        earlier: false,
    };
    let cut_short = || Some(SynthFallback::Call(llm::deadline_timeout(budget)));
    let Some(mut events) = events else {
        return out.template(template, cut_short()).await;
    };
    let until = Instant::now() + budget;
    loop {
        let first = match timeout_at(until, events.next()).await {
            Ok(Some(event)) => event,
            // The writer went away without its end (it cannot, short of a panic).
            Ok(None) => return out.template(template, Some(LlmError::Empty.into())).await,
            Err(_) => return out.template(template, cut_short()).await,
        };
        // Whatever else is there already goes in the same append.
        let mut batch = vec![first];
        while !matches!(batch.last(), Some(SynthEvent::Done { .. })) {
            match events.next().now_or_never() {
                Some(Some(event)) => batch.push(event),
                _ => break,
            }
        }
        let mut pieces = Vec::with_capacity(batch.len());
        let mut end = None;
        for event in batch {
            match event {
                SynthEvent::Token(text) => pieces.push(ReportToken::Text(text)),
                done @ SynthEvent::Done { .. } => end = Some(done),
            }
        }
        out.pieces(&pieces).await?;
        if let Some(SynthEvent::Done {
            text,
            written_by,
            fallback,
            replace,
        }) = end
        {
            out.done(&text, written_by, replace, fallback.as_ref())
                .await?;
            return Ok(Streamed {
                text,
                written_by,
                fallback,
            });
        }
    }
}

/// Appends to one task's stream and remembers what it showed.
struct Appender<'a> {
    bus: &'a dyn Bus,
    task: &'a TaskId,
    ttl: Duration,
    /// Whether this writer appended a piece.
    shown: bool,
    /// Whether the stream held entries before this writer's first.
    earlier: bool,
}

impl Appender<'_> {
    async fn pieces(&mut self, pieces: &[ReportToken]) -> Result<(), BusError> {
        if pieces.is_empty() {
            return Ok(());
        }
        let len = self.bus.append_tokens(self.task, pieces, self.ttl).await?;
        if !self.shown {
            self.earlier = len > pieces.len();
            self.shown = true;
        }
        Ok(())
    }

    async fn done(
        &mut self,
        text: &str,
        written_by: &str,
        replace: bool,
        fallback: Option<&SynthFallback>,
    ) -> Result<(), BusError> {
        let done = ReportToken::Done(TokensDone {
            text: text.to_owned(),
            written_by: written_by.to_owned(),
            replace: replace || self.earlier,
            reason: fallback.map(SynthFallback::code),
        });
        self.bus.append_tokens(self.task, &[done], self.ttl).await?;
        Ok(())
    }

    /// Ends the stream with the template: as one piece when nothing was shown, else as
    /// the replacement of what was.
    async fn template(
        &mut self,
        template: String,
        fallback: Option<SynthFallback>,
    ) -> Result<Streamed, BusError> {
        if let Some(reason) = &fallback {
            tracing::warn!(task_id = %self.task, code = %reason.code(), reason = %reason,
                "model report stream cut short; template used");
        }
        let replace = self.shown;
        if !self.shown {
            self.pieces(&[ReportToken::Text(template.clone())]).await?;
        }
        self.done(&template, WRITTEN_BY_TEMPLATE, replace, fallback.as_ref())
            .await?;
        Ok(Streamed {
            text: template,
            written_by: WRITTEN_BY_TEMPLATE,
            fallback,
        })
    }
}
