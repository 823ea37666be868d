//! Progress of `chorus ask` on stderr: on a terminal, one line redrawn in place with a
//! bar of finished steps; otherwise (a pipe, a log) one plain line per event.

use std::io::{IsTerminal, Write};

use chorus_bus::{Message, Payload, StepOutcome};

/// Shows a task's progress as its messages pass.
pub struct Progress {
    terminal: bool,
    enabled: bool,
    steps: usize,
    done: usize,
    last: String,
}

impl Progress {
    /// Progress on stderr; nothing at all when `enabled` is false.
    pub fn new(enabled: bool) -> Self {
        Progress {
            terminal: std::io::stderr().is_terminal(),
            enabled,
            steps: 0,
            done: 0,
            last: String::new(),
        }
    }

    /// Takes one message of the task into account.
    pub fn event(&mut self, m: &Message) {
        let note = match &m.payload {
            Payload::PlanReady(p) => {
                self.steps = p.plan.steps.len();
                format!("planned {} step(s)", self.steps)
            }
            Payload::ToolResponse(r) => {
                self.done += 1;
                match &r.outcome {
                    StepOutcome::Ok { value, .. } => {
                        let v = value
                            .as_str()
                            .map(str::to_owned)
                            .unwrap_or_else(|| value.to_string());
                        format!("{} {} = {v}", r.step_id, r.tool)
                    }
                    StepOutcome::Failed { error } => {
                        format!("{} {} failed: {error}", r.step_id, r.tool)
                    }
                }
            }
            _ => return,
        };
        self.show(&note);
    }

    fn show(&mut self, note: &str) {
        if !self.enabled {
            return;
        }
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let width = 20;
            let filled = (self.done * width)
                .checked_div(self.steps)
                .unwrap_or(0)
                .min(width);
            let bar = format!("{}{}", "█".repeat(filled), "░".repeat(width - filled));
            let _ = write!(err, "\r\x1b[2K[{bar}] {}/{} {note}", self.done, self.steps);
        } else {
            let _ = writeln!(err, "· {note}");
        }
        let _ = err.flush();
        self.last = note.to_owned();
    }

    /// Clears the progress line (on a terminal) before the report is printed.
    pub fn finish(&mut self) {
        if self.enabled && self.terminal && !self.last.is_empty() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}
