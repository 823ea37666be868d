//! A task's messages as rows of a timeline: when each was sent, the time since the
//! previous message and since the first, its topic, who sent it to whom, and a
//! summary. `chorus trace` prints these rows as a table; the web view draws them.

use chorus_bus::Message;
use serde::{Deserialize, Serialize};

use super::format::{clock, sent_us, summary};
use super::roles::{hop, short_agent};

/// One message of a task's timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// When it was sent, in microseconds since the Unix epoch.
    pub sent_us: u64,
    /// That time as `HH:MM:SS.mmm` (UTC).
    pub time: String,
    /// Milliseconds since the previous message of the task.
    pub since_prev_ms: f64,
    /// Milliseconds since the task's first message.
    pub since_start_ms: f64,
    /// The topic it was published on.
    pub topic: String,
    /// Who sent it: a process (`planner/0001`), or a role for a reply (`mcp-math`).
    pub from: String,
    /// Who receives it: roles (`pool-math`, `router,synthesizer`), or a process.
    pub to: String,
    /// One line saying what it carries (`s1 sum a=2 b=4`, `s1 = 6`, …).
    pub summary: String,
}

impl Row {
    /// The row of `msg` in a timeline that began at `first` and whose previous message
    /// was sent at `prev` (both in microseconds).
    pub fn of(msg: &Message, first: u64, prev: u64) -> Row {
        let t = sent_us(msg);
        let h = hop(msg);
        let (from, to) = if h.reply {
            (h.from, short_agent(&msg.from_agent))
        } else {
            (short_agent(&msg.from_agent), h.to.join(","))
        };
        Row {
            sent_us: t,
            time: clock(t),
            since_prev_ms: t.saturating_sub(prev) as f64 / 1000.0,
            since_start_ms: t.saturating_sub(first) as f64 / 1000.0,
            topic: msg.topic.as_str().to_owned(),
            from,
            to,
            summary: summary(msg),
        }
    }
}

/// The rows of `msgs` (one task's messages in the order they were sent).
pub fn rows(msgs: &[Message]) -> Vec<Row> {
    let first = msgs.first().map(sent_us).unwrap_or(0);
    let mut prev = first;
    msgs.iter()
        .map(|m| {
            let row = Row::of(m, first, prev);
            prev = row.sent_us;
            row
        })
        .collect()
}
