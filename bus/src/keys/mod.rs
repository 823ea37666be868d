//! Every Redis key name Chorus uses, in one place: the state store's keys, the once-keys
//! that guard publishes, the registry, the deadline and waiting sets, and the ACL
//! patterns that grant them. Nothing else spells a key.
//!
//! Redis Cluster runs a script, a transaction or a pipeline only when every key it
//! touches hashes to one slot, and hashes only the part of a key between the first `{`
//! and the next `}` (its hash tag) when there is one. So:
//! - a task's keys share the task id's tag (`chorus:{<task id>}:plan`, its once-keys
//!   `chorus:{<task id>}:once:…`): the scripts over a task's state, and the claim of a
//!   guarded publish (a guard and every once-key it sets), touch one slot;
//! - a stream's publish-dedupe keys share the stream's tag (`chorus:sent:{<stream>}:…`;
//!   a stream's own name hashes whole, which is its tag's hash): the script that appends
//!   to a stream at most once touches one slot. Stream names stay as they are, so a
//!   `redis-cli -c` user XADDs to `task_available` as before;
//! - the sets every role shares (`chorus:deadlines`, `chorus:waiting`, the registry's
//!   index `chorus:registry`) are one key each, touched alone; so is each role's part of
//!   the registry (`chorus:registry:<group>`), which only that role's ACL user may write.
//!
//! The layout changed with Cluster support (`chorus:task:<id>:…` became
//! `chorus:{<id>}:…`): state written by an older Chorus is not read by this one.

mod partitions;

use crate::{StepId, TaskId};
pub use partitions::{
    MAX_PARTITIONS, is_partitioned, partition_of, partition_stream, partition_streams,
    partition_tag, split_partition,
};

/// The prefix of every key Chorus owns.
pub const PREFIX: &str = "chorus:";

/// The sorted set of open tasks scored by deadline (ms since the epoch).
pub const DEADLINES: &str = "chorus:deadlines";

/// The sorted set of tasks waiting for an answer, scored by when the wait runs out.
pub const WAITING: &str = "chorus:waiting";

/// The index of the live registry: a sorted set of consumer groups (`planner`,
/// `pool-math`, …), scored by the time of the group's last heartbeat (ms since the
/// epoch). Every role adds its own group (`ZADD`, a write-only right); nobody removes one.
pub const REGISTRY: &str = "chorus:registry";

/// The registry's entries of the agents of consumer group `group` (a hash: field =
/// instance, value = its entry). One key per group, so each role's ACL user writes its
/// own agents' entries and no other role's.
pub fn registry(group: &str) -> String {
    format!("{REGISTRY}:{group}")
}

/// The prefix of a task's keys: `chorus:{<task id>}:`.
pub fn task_prefix(task: &TaskId) -> String {
    format!("chorus:{{{task}}}:")
}

/// A key of `task`'s state: `chorus:{<task id>}:<rest>`.
fn task_key(task: &TaskId, rest: &str) -> String {
    format!("chorus:{{{task}}}:{rest}")
}

/// The suffix that makes a key an attempt's own: none for the first attempt (so the
/// happy path's keys are the same as before attempts existed), `:i<n>` after.
fn attempt(iteration: u32) -> String {
    match iteration {
        0 | 1 => String::new(),
        n => format!(":i{n}"),
    }
}

/// A task's `PlanReady`.
pub fn plan(task: &TaskId) -> String {
    task_key(task, "plan")
}

/// A task's step results hash for attempt `iteration` (the first attempt's key has no
/// suffix).
pub fn results(task: &TaskId, iteration: u32) -> String {
    task_key(task, &format!("results{}", attempt(iteration)))
}

/// A task's request (for the deadline report when no plan came).
pub fn request(task: &TaskId) -> String {
    task_key(task, "request")
}

/// A task's final report (for `GET /tasks/{id}`).
pub fn report(task: &TaskId) -> String {
    task_key(task, "report")
}

/// A task's question record.
pub fn question(task: &TaskId) -> String {
    task_key(task, "question")
}

/// The deadline a task resumed with when question `number` was answered.
pub fn question_resumed(task: &TaskId, number: u32) -> String {
    task_key(task, &format!("question:{number}:resumed"))
}

/// A session's turns (a hash keyed by task id), written and read through
/// `chorus_core::session` only.
pub fn session_turns(session: &str) -> String {
    format!("chorus:session:{session}:turns")
}

/// The prefix of the OpenAI door's conversation keys: `chorus:chat:<sha256 hex>`, a
/// hash touched alone (the gateway's `openai/conversation.rs` builds its keys from it).
pub const CHAT_PREFIX: &str = "chorus:chat:";

/// A conversation's key in the OpenAI door, by the hex SHA-256 of its messages.
pub fn chat(sha256_hex: &str) -> String {
    format!("{CHAT_PREFIX}{sha256_hex}")
}

/// The once-key of a bare request published on `task_available` without a task id,
/// by the FNV hash of its payload.
pub fn ingress_raw(hash: &str) -> String {
    format!("chorus:ingress:{{{hash}}}:raw")
}

/// The once-key of the dead letter for junk of hash `hash` on `channel`.
pub fn ingress_dead(channel: &str, hash: &str) -> String {
    format!("chorus:ingress:{{{hash}}}:dead:{channel}")
}

/// The key that says the publish guarded by once-key `once` reached `stream` (Cluster:
/// a claimed publish is appended by a second script, on the stream's slot, at most
/// once): `chorus:sent:{<stream>}:<once>` for a stream named as its topic, and
/// `chorus:sent:{<tag>}:<topic>:<once>` for a partition's stream `<topic>:{<tag>}`
/// (see [`partition_stream`]), in the partition's slot.
pub fn sent(stream: &str, once: &str) -> String {
    match split_partition(stream) {
        Some((topic, tag)) => format!("chorus:sent:{{{tag}}}:{topic}:{once}"),
        None => format!("chorus:sent:{{{stream}}}:{once}"),
    }
}

/// Where a Cluster publish-once keeps the message once-key `once` guards until it is
/// appended (see `chorus-bus-redis`'s `claim.rs`): in the once-key's slot, whether or
/// not the once-key has a hash tag.
pub fn outbox(once: &str) -> String {
    if hash_tag(once) == once {
        format!("{{{once}}}:out")
    } else {
        format!("{once}:out")
    }
}

/// Once-keys: set atomically together with the one publish they guard. A step's keys
/// are its attempt's own, so a step re-run in attempt n + 1 goes out again.
pub mod once {
    use super::{StepId, TaskId, attempt, task_key};

    /// The marker of the one message published under guard `guard` (a guarded publish's
    /// item): shares the guard's slot.
    pub fn published(guard: &str) -> String {
        format!("{guard}:published")
    }
    /// The task was accepted (normalised) by the Chief.
    pub fn accepted(task: &TaskId) -> String {
        task_key(task, "once:accepted")
    }
    /// The task was planned.
    pub fn planned(task: &TaskId) -> String {
        task_key(task, "once:planned")
    }
    /// The plan of attempt `iteration` (> 1) went out after a re-plan.
    pub fn replanned(task: &TaskId, iteration: u32) -> String {
        task_key(task, &format!("once:planned{}", attempt(iteration)))
    }
    /// The step was dispatched to its pool (or failed because of a dependency) in
    /// attempt `iteration`.
    pub fn dispatched(task: &TaskId, step: &StepId, iteration: u32) -> String {
        task_key(task, &format!("once:dispatch:{step}{}", attempt(iteration)))
    }
    /// The step's tool_response event of attempt `iteration` was published.
    pub fn response(task: &TaskId, step: &StepId, iteration: u32) -> String {
        task_key(task, &format!("once:response:{step}{}", attempt(iteration)))
    }
    /// The once-key of message `i` of a [`crate::Bus::publish_all_once`] under `key`,
    /// where a transport keeps one per message (in `key`'s slot: it shares its tag).
    pub fn part(key: &str, i: usize) -> String {
        format!("{key}:{i}")
    }
    /// The step's result of attempt `iteration` was published.
    pub fn result(task: &TaskId, step: &StepId, iteration: u32) -> String {
        task_key(task, &format!("once:result:{step}{}", attempt(iteration)))
    }
    /// The verdict on attempt `iteration` was published.
    pub fn verdict(task: &TaskId, iteration: u32) -> String {
        task_key(task, &format!("once:verdict:{iteration}"))
    }
    /// The re-plan of attempt `iteration` was asked for.
    pub fn renavigate(task: &TaskId, iteration: u32) -> String {
        task_key(task, &format!("once:renavigate:{iteration}"))
    }
    /// Question `number` of the task went out on `clarification_needed`.
    pub fn asked(task: &TaskId, number: u32) -> String {
        task_key(task, &format!("once:asked:{number}"))
    }
    /// The guard of question `number`: holds the answer that settled it (or the
    /// timeout's marker).
    pub fn answered(task: &TaskId, number: u32) -> String {
        task_key(task, &format!("once:answer:{number}"))
    }
    /// The dead letter of a refused answer read from stream entry `entry` was written.
    pub fn answer_refused(task: &TaskId, entry: &str) -> String {
        task_key(task, &format!("once:answer-refused:{entry}"))
    }
    /// The dead letter of a refused cancellation read from stream entry `entry` was
    /// written.
    pub fn cancel_refused(task: &TaskId, entry: &str) -> String {
        task_key(task, &format!("once:cancel-refused:{entry}"))
    }
    /// The task's one final report was published.
    pub fn reported(task: &TaskId) -> String {
        task_key(task, "once:final")
    }
    /// A Synthesizer is writing the task's report with the model.
    pub fn writing(task: &TaskId) -> String {
        task_key(task, "once:writing")
    }
}

/// ACL key patterns (Redis glob syntax, where `{` and `}` are plain characters).
pub mod patterns {
    /// Every key of every task.
    pub const TASKS: &str = "chorus:{*";
    /// The once-keys of steps' results and tool events (what a pool agent sets).
    pub const POOL_ONCE: &[&str] = &["chorus:{*}:once:response:*", "chorus:{*}:once:result:*"];
    /// The once-keys a client sets: acceptance, answers, the report of a cancellation.
    pub const CLIENT_ONCE: &[&str] = &[
        "chorus:{*}:once:accepted*",
        "chorus:{*}:once:answer:*",
        "chorus:{*}:once:final*",
    ];
    /// A task's question record (a client reads it to answer).
    pub const QUESTION: &str = "chorus:{*}:question";
    /// A task's report (a client reads it to find a task ended).
    pub const REPORT: &str = "chorus:{*}:report";
    /// Every session's turns.
    pub const SESSIONS: &str = "chorus:session:*";
    /// The ingress dedupe keys.
    pub const INGRESS: &str = "chorus:ingress:*";
    /// Every group's entries in the registry (see [`super::registry`]).
    pub const REGISTRY_ENTRIES: &str = "chorus:registry:*";
    /// Every key Chorus owns.
    pub const ALL: &str = "chorus:*";

    /// The publish-dedupe keys of `stream` (see [`super::sent`]).
    pub fn sent(stream: &str) -> String {
        match super::split_partition(stream) {
            Some((topic, tag)) => format!("chorus:sent:{{{tag}}}:{topic}:*"),
            None => format!("chorus:sent:{{{stream}}}:*"),
        }
    }

    /// The streams of `topic`, whatever `bus.partitions` is: its own name, and for a
    /// partitioned topic every `<topic>:{p…}` partition (see
    /// [`super::partition_stream`]).
    pub fn streams(topic: &str) -> Vec<String> {
        let mut out = vec![topic.to_owned()];
        if super::is_partitioned(topic) {
            out.push(format!("{topic}:{{p*"));
        }
        out
    }

    /// The publish-dedupe keys of every stream of `topic` (see [`streams`]).
    pub fn sents(topic: &str) -> Vec<String> {
        let mut out = vec![sent(topic)];
        if super::is_partitioned(topic) {
            out.push(format!("chorus:sent:{{p*}}:{topic}:*"));
        }
        out
    }
}

/// The part of `key` Redis Cluster hashes: the text between the first `{` and the next
/// `}` when it is not empty, else the whole key.
pub fn hash_tag(key: &str) -> &str {
    if let Some(open) = key.find('{')
        && let Some(len) = key[open + 1..].find('}')
        && len > 0
    {
        return &key[open + 1..open + 1 + len];
    }
    key
}

/// The Cluster slot of `key` (CRC16/XMODEM of its hash tag, modulo 16384).
pub fn slot(key: &str) -> u16 {
    let mut crc: u16 = 0;
    for &byte in hash_tag(key).as_bytes() {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc % 16384
}

/// The Markdown table of the key layout for docs/topics.md, generated from this module.
pub fn table_markdown() -> String {
    let t = &TaskId::from("<task>");
    let rows: Vec<(String, &str)> = vec![
        (plan(t), "the task's plan (latest attempt)"),
        (
            results(t, 1),
            "step results of attempt 1 (`…:results:i<n>` after)",
        ),
        (request(t), "the request, for the deadline report"),
        (report(t), "the final report, kept `bus.finished_ttl_secs`"),
        (question(t), "the open (or last) question"),
        (
            question_resumed(t, 1),
            "the deadline the task resumed with after answer 1",
        ),
        (
            format!("{}once:…", task_prefix(t)),
            "once-keys: set with the one publish they guard",
        ),
        (
            outbox(&once::planned(t)),
            "Cluster only: the message a once-key guards, until appended",
        ),
        (
            sent("<stream>", "<once-key>"),
            "Cluster only: the claimed publish reached the stream",
        ),
        (
            partition_stream("plan_ready", 1, 3),
            "`bus.partitions` = 3: partition 1 of `plan_ready` (every partitioned topic's partition 1 shares the tag)",
        ),
        (
            sent(&partition_stream("plan_ready", 1, 3), "<once-key>"),
            "Cluster, `bus.partitions` > 1: the claimed publish reached that partition",
        ),
        (DEADLINES.to_owned(), "open tasks by deadline"),
        (WAITING.to_owned(), "tasks waiting for an answer"),
        (
            REGISTRY.to_owned(),
            "the live registry's index: the groups that beat, by last beat",
        ),
        (
            registry("<group>"),
            "the live registry: a group's agents (written by that group's user only)",
        ),
        (session_turns("<session>"), "a session's turns"),
        (chat("<sha256>"), "an OpenAI-door conversation"),
        (ingress_raw("<hash>"), "a bare request accepted once"),
        (
            ingress_dead("<channel>", "<hash>"),
            "junk dead-lettered once per channel",
        ),
        (
            crate::tokens::token_stream_key(t),
            "the report's token stream",
        ),
    ];
    let mut out = String::from("| key | what | slot shared with |\n|---|---|---|\n");
    for (key, what) in rows {
        let tag = hash_tag(&key);
        let shared = if tag == key {
            "none (touched alone)".to_owned()
        } else {
            format!("every key tagged `{{{tag}}}`")
        };
        out.push_str(&format!("| `{key}` | {what} | {shared} |\n"));
    }
    out
}

#[cfg(test)]
mod tests;
