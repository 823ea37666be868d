//! The live report: once every step of the plan has its result (or the report came
//! first), the pieces the Synthesizer writes onto the task's token stream
//! (`report_tokens:<task_id>`, its one model call) are relayed as [`Progress::Token`]s,
//! and a [`Progress::Replaced`] when the model's answer was refused midway; before the
//! report goes out, what the client was shown is made to say what it says.

use std::time::Duration;

use chorus_bus::{FinalReport, ReportStatus, ReportToken, TokenReader};
use chorus_core::report;
use tokio::time::{Instant, timeout_at};

use super::{Follower, Progress, Replacement};

/// Longest wait for the next tokens before looking for the report again.
const TOKEN_WAIT: Duration = Duration::from_millis(200);

/// The `reason` of a [`Progress::Replaced`] sent because the report says other than the
/// tokens.
const SUPERSEDED: &str = "superseded";

/// Where the live report is.
pub(super) enum Writing {
    /// Not yet: the steps are not all final.
    NotStarted,
    /// The task's token stream is being relayed.
    Relaying(Box<dyn TokenReader>),
    /// Relayed, or nothing to relay (no model, or no tokens asked for).
    Done,
}

impl Follower {
    /// Reads the next tokens within `until` and queues them (with the progress that
    /// came meanwhile); the relaying ends with the last entry, or when the report is in
    /// hand and nothing more is there.
    pub(super) async fn read_tokens(&mut self, until: Instant) {
        let Writing::Relaying(reader) = &mut self.writing else {
            return;
        };
        // With the report in hand every token is written: read what is there.
        let wait = match self.report.is_some() {
            true => Duration::ZERO,
            false => TOKEN_WAIT,
        };
        match timeout_at(until, reader.next(wait)).await {
            Ok(Ok(entries)) => {
                let drained = wait.is_zero() && entries.is_empty();
                self.relay(entries);
                if drained {
                    self.writing = Writing::Done;
                }
                self.notice_progress().await;
            }
            Ok(Err(e)) => {
                tracing::warn!(task_id = %self.task, error = %e,
                    "reading the report's tokens failed; the report will say it all");
                self.writing = Writing::Done;
            }
            Err(_) => self.timed_out().await,
        }
    }

    /// Starts relaying the report's tokens once every step of the plan has its result.
    pub(super) async fn start_when_final(&mut self) {
        let (Writing::NotStarted, Some(plan)) = (&self.writing, &self.plan) else {
            return;
        };
        if plan.plan.steps.is_empty() || !report::complete(plan, &self.results) {
            return;
        }
        self.relay_tokens().await;
    }

    /// The report came first: its tokens are all on the stream already, unless it has no
    /// steps or is a deadline report (then its text comes as one token).
    pub(super) async fn start_from_report(&mut self, r: &FinalReport) {
        let finished = r.steps.iter().all(|s| s.outcome.is_some());
        if !r.steps.is_empty() && finished && r.status != ReportStatus::DeadlineExceeded {
            self.relay_tokens().await;
        } else {
            self.writing = Writing::Done;
        }
    }

    /// Starts reading the task's token stream from its first entry.
    async fn relay_tokens(&mut self) {
        self.writing = match self.bus.read_tokens(&self.task).await {
            Ok(reader) => Writing::Relaying(reader),
            Err(e) => {
                tracing::warn!(task_id = %self.task, error = %e,
                    "cannot read the report's tokens; the report will say it all");
                Writing::Done
            }
        };
    }

    /// Queues token stream entries; the last entry ends the relaying.
    fn relay(&mut self, entries: Vec<ReportToken>) {
        for entry in entries {
            match entry {
                ReportToken::Text(text) => {
                    self.shown.get_or_insert_default().push_str(&text);
                    self.queue.push_back(Progress::Token(text));
                }
                ReportToken::Done(done) => {
                    self.writing = Writing::Done;
                    if done.replace {
                        self.shown = Some(done.text.clone());
                        self.queue.push_back(Progress::Replaced(Replacement {
                            text: done.text,
                            written_by: done.written_by,
                            reason: done.reason,
                        }));
                    }
                    return;
                }
            }
        }
    }

    /// Makes what the client was shown by tokens say what `report` says: its text as one
    /// token when nothing was shown, a replacement when the shown text differs.
    pub(super) fn settle_shown(&mut self, report: &FinalReport) {
        if !self.tokens {
            return;
        }
        match &self.shown {
            None => self.queue.push_back(Progress::Token(report.text.clone())),
            Some(shown) if *shown != report.text => {
                tracing::warn!(task_id = %self.task, written_by = %report.written_by,
                    "the report differs from the tokens shown; replaced");
                self.queue.push_back(Progress::Replaced(Replacement {
                    text: report.text.clone(),
                    written_by: report.written_by.clone(),
                    reason: Some(SUPERSEDED.to_owned()),
                }));
            }
            Some(_) => {}
        }
    }
}
