//! Progress of `chorus ask` on stderr: on a terminal, one `indicatif` bar of finished
//! steps redrawn in place; otherwise (a pipe, a log) one plain line per event.

use std::io::{IsTerminal, Write};

use chorus_bus::{Message, Payload, StepOutcome};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Shows a task's progress as its messages pass.
pub struct Progress {
    /// The bar on a terminal; `None` for plain lines.
    bar: Option<ProgressBar>,
    enabled: bool,
}

impl Progress {
    /// Progress on stderr; nothing at all when `enabled` is false.
    pub fn new(enabled: bool) -> Self {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("[{bar:20}] {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("█░");
            bar.set_style(style);
            bar
        });
        Progress { bar, enabled }
    }

    /// Takes one message of the task into account.
    pub fn event(&mut self, m: &Message) {
        let note = match &m.payload {
            Payload::PlanReady(p) => {
                if let Some(bar) = &self.bar {
                    bar.set_length(p.plan.steps.len() as u64);
                }
                format!("planned {} step(s)", p.plan.steps.len())
            }
            Payload::ToolResponse(r) => {
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                }
                match &r.outcome {
                    StepOutcome::Ok { value, .. } => {
                        let v = value
                            .as_str()
                            .map(str::to_owned)
                            .unwrap_or_else(|| value.to_string());
                        format!("{} {} = {v}", r.step_id, r.tool)
                    }
                    StepOutcome::Failed { error, .. } => {
                        format!("{} {} failed: {error}", r.step_id, r.tool)
                    }
                }
            }
            _ => return,
        };
        self.show(note);
    }

    /// Shows `note` (escaped: it holds tool names and values from outside).
    fn show(&mut self, note: String) {
        if !self.enabled {
            return;
        }
        let note = super::safe::line(&note).into_owned();
        match &self.bar {
            Some(bar) => bar.set_message(note),
            None => {
                let mut err = std::io::stderr().lock();
                let _ = writeln!(err, "· {note}");
                let _ = err.flush();
            }
        }
    }

    /// Clears the progress bar (on a terminal) before the report is printed.
    pub fn finish(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
