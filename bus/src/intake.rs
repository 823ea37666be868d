//! What a transport does with one read stream entry: deliver it, or dead-letter it
//! (undecodable, too large, or delivered too often). Shared by both transports so their
//! semantics cannot drift apart.

use crate::bus::{Delivery, Subscription};
use crate::counts::{self, TransportEvent};
use crate::dead_letter::{DeadLetterInfo, dead_letter_message};
use crate::envelope::{Decoded, Message};
use crate::error::DecodeError;
use crate::topic::{Topic, TopicKind};

/// The fate of one read entry.
#[derive(Debug)]
pub enum Intake {
    /// Hand it to the handler.
    Deliver(Box<Delivery>),
    /// Publish this dead letter, then ack the entry.
    DeadLetter(Box<Message>),
    /// Ack the entry and only log why (a dead letter that itself cannot be handled is
    /// not dead-lettered again, so nothing loops).
    Drop(String),
    /// Ack the entry quietly: a client's unreadable entry, which the door's group
    /// dead-letters.
    LeaveToDoor(String),
}

/// One entry as read from a stream.
#[derive(Debug, Clone, Copy)]
pub struct RawEntry<'a> {
    /// The stream.
    pub topic: &'a Topic,
    /// Its entry id.
    pub entry_id: &'a str,
    /// The topic's partition it was read from (0 when the topic has one stream).
    pub partition: u32,
    /// Its `data` field, when it has one.
    pub data: Option<&'a str>,
    /// Deliveries so far, this one included.
    pub deliveries: u64,
}

/// Decides what happens to `entry`, read through `sub`.
pub fn intake(
    entry: RawEntry<'_>,
    sub: &Subscription,
    max_deliveries: u64,
    max_message_bytes: usize,
) -> Intake {
    let role = sub.role.as_str();
    let decoded = match entry.data {
        None => Err("the entry has no `data` field".to_owned()),
        Some(d) if d.len() > max_message_bytes => Err(DecodeError::TooLarge {
            size: d.len(),
            limit: max_message_bytes,
        }
        .to_string()),
        Some(d) => {
            Message::decode_on(entry.topic, d, Some(entry.entry_id)).map_err(|e| e.to_string())
        }
    };
    let (reason, task_id) = match decoded {
        Ok(d) if entry.deliveries <= max_deliveries => {
            let bare = matches!(d, Decoded::Bare(_));
            return Intake::Deliver(Box::new(Delivery {
                topic: entry.topic.clone(),
                entry_id: entry.entry_id.to_owned(),
                partition: entry.partition,
                deliveries: entry.deliveries,
                message: d.into_message(),
                bare,
            }));
        }
        Ok(d) => (
            format!(
                "delivered {} times, more than max_deliveries = {max_deliveries}",
                entry.deliveries
            ),
            Some(d.into_message().task_id),
        ),
        Err(e) => {
            let reason = format!("undecodable entry: {e}");
            let bare_form = matches!(
                entry.topic.kind(),
                Ok(TopicKind::TaskAvailable
                    | TopicKind::ClarificationAnswer
                    | TopicKind::TaskCancel)
            );
            if bare_form && !sub.door {
                // Clients write these topics: the door's group dead-letters what it
                // cannot read, once; the other groups only ack it.
                return Intake::LeaveToDoor(reason);
            }
            (reason, None)
        }
    };
    if matches!(entry.topic.kind(), Ok(TopicKind::DeadLetter)) {
        return Intake::Drop(reason);
    }
    // Only an entry that decoded has a task id: it was delivered too often.
    let event = match task_id {
        Some(_) => TransportEvent::TooManyDeliveries,
        None => TransportEvent::Undecodable,
    };
    counts::record(role, entry.topic, event, 1);
    Intake::DeadLetter(Box::new(dead_letter_message(&DeadLetterInfo {
        topic: entry.topic.as_str(),
        entry_id: entry.entry_id,
        role,
        deliveries: entry.deliveries,
        reason: &reason,
        original: entry.data.unwrap_or(""),
        task_id: task_id.as_deref(),
    })))
}

/// The dead letter for a delivery a handler gave up on.
pub fn handler_dead_letter(delivery: &Delivery, role: &str, reason: &str) -> Message {
    dead_letter_message(&DeadLetterInfo {
        topic: delivery.topic.as_str(),
        entry_id: &delivery.entry_id,
        role,
        deliveries: delivery.deliveries,
        reason,
        original: &delivery.message.to_json(),
        task_id: Some(&delivery.message.task_id),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fate(topic: &str, door: bool) -> &'static str {
        let topic = Topic::parse(topic).expect("topic");
        let entry = RawEntry {
            topic: &topic,
            entry_id: "1-0",
            partition: 0,
            data: Some("{not json"),
            deliveries: 1,
        };
        let sub = Subscription::new("role", vec![topic.clone()]).as_door(door);
        match intake(entry, &sub, 5, 1024) {
            Intake::Deliver(_) => "deliver",
            Intake::DeadLetter(_) => "dead letter",
            Intake::Drop(_) => "drop",
            Intake::LeaveToDoor(_) => "leave to the door",
        }
    }

    #[test]
    fn an_unreadable_client_entry_is_dead_lettered_by_the_door_only() {
        for topic in ["task_available", "clarification_answer"] {
            assert_eq!(fate(topic, true), "dead letter", "{topic}");
            assert_eq!(fate(topic, false), "leave to the door", "{topic}");
        }
        // Topics only roles write: every group that cannot read an entry says so.
        assert_eq!(fate("plan_ready", false), "dead letter");
        assert_eq!(fate("dead_letter", true), "drop");
    }
}
