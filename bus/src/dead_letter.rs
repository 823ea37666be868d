//! Building `dead_letter` messages, shared by both transports so a dead letter looks the
//! same whichever bus wrote it.

use crate::envelope::Message;
use crate::payload::{DeadLetter, Payload};
use crate::topic::Topic;

/// Most bytes of the original entry kept in a dead letter.
pub const MAX_ORIGINAL_BYTES: usize = 16 * 1024;

/// The agent name dead letters are sent from.
pub const DEAD_LETTER_SENDER: &str = "bus";

/// What is known about an entry being dead-lettered.
#[derive(Debug, Clone)]
pub struct DeadLetterInfo<'a> {
    /// The stream it was read from.
    pub topic: &'a str,
    /// Its entry id.
    pub entry_id: &'a str,
    /// The consumer group that gave up on it.
    pub role: &'a str,
    /// How many times it was delivered.
    pub deliveries: u64,
    /// Why it is dead-lettered.
    pub reason: &'a str,
    /// The entry's raw `data` field (empty when missing).
    pub original: &'a str,
    /// The task id, when the entry decoded far enough to have one.
    pub task_id: Option<&'a str>,
}

/// The `dead_letter` message for an entry. The task id is the entry's own when known (so
/// a task's dead letters can be found), else one read from the raw JSON, else a fresh id.
pub fn dead_letter_message(info: &DeadLetterInfo<'_>) -> Message {
    let task_id = info
        .task_id
        .map(str::to_owned)
        .or_else(|| task_id_from_raw(info.original))
        .unwrap_or_else(|| format!("dead-{}", uuid::Uuid::now_v7()));
    Message::new(
        task_id,
        Topic::dead_letter(),
        DEAD_LETTER_SENDER,
        Payload::DeadLetter(DeadLetter {
            topic: info.topic.to_owned(),
            entry_id: info.entry_id.to_owned(),
            role: info.role.to_owned(),
            deliveries: info.deliveries,
            reason: truncate_utf8(info.reason, 2048).to_owned(),
            original: truncate_utf8(info.original, MAX_ORIGINAL_BYTES).to_owned(),
        }),
    )
}

/// A valid-looking `task_id` string field of a raw JSON object, if any.
fn task_id_from_raw(raw: &str) -> Option<String> {
    if raw.len() > MAX_ORIGINAL_BYTES * 64 {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(raw).ok()?;
    let id = value.get("task_id")?.as_str()?;
    let ok = !id.is_empty()
        && id.len() <= crate::envelope::MAX_TASK_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'));
    ok.then(|| id.to_owned())
}

/// The longest prefix of `s` of at most `max` bytes that ends on a char boundary.
pub fn truncate_utf8(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_letter_keeps_the_task_id_of_its_raw_entry_and_truncates_it() {
        let original = format!(r#"{{"task_id":"t-9","junk":"{}"}}"#, "é".repeat(20_000));
        let msg = dead_letter_message(&DeadLetterInfo {
            topic: "math_task",
            entry_id: "1-0",
            role: "math",
            deliveries: 6,
            reason: "boom",
            original: &original,
            task_id: None,
        });
        assert_eq!(msg.task_id, "t-9");
        let Payload::DeadLetter(dl) = &msg.payload else {
            panic!("payload")
        };
        assert!(dl.original.len() <= MAX_ORIGINAL_BYTES);
        assert_eq!(dl.reason, "boom");
        assert_eq!(dl.deliveries, 6);
        let round = Message::from_json(&msg.to_json()).expect("decodes");
        assert_eq!(round, msg);
    }
}
