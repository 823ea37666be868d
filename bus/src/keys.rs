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

use crate::{StepId, TaskId};

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

/// Most partitions a topic may be spread over (`bus.partitions`).
pub const MAX_PARTITIONS: u16 = 64;

/// Whether a topic of this name is spread over `bus.partitions` streams: every topic
/// but the client-facing ones (`task_available`, `clarification_answer`,
/// `task_cancel`, `final_report`, which keep one stream that `redis-cli -c` users
/// XADD to and XREAD), `dead_letter` (read by operators, few entries, often no task)
/// and `agent_heartbeat` (no task; one entry per process per beat).
pub fn is_partitioned(topic: &str) -> bool {
    !matches!(
        topic,
        crate::Topic::TASK_AVAILABLE
            | crate::Topic::CLARIFICATION_ANSWER
            | crate::Topic::TASK_CANCEL
            | crate::Topic::FINAL_REPORT
            | crate::Topic::DEAD_LETTER
            | crate::Topic::AGENT_HEARTBEAT
    )
}

/// The partition of `task` among `partitions` (0 when there is one): FNV-1a of the task
/// id, modulo `partitions`. Stable across processes, versions and machines.
pub fn partition_of(task: &TaskId, partitions: u32) -> u32 {
    if partitions <= 1 {
        return 0;
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in task.as_str().as_bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    (hash % u64::from(partitions)) as u32
}

/// The hash tag of partition `k` of `n`: `p<k>of<n>.<i>`, the first `i` (from 0) whose
/// slot falls in the middle half of the `k`-th of `n` equal slot ranges. With the even
/// split `redis-cli --cluster create` makes over M primaries and `n` a multiple of M
/// (or equal to it), partitions `k` and `k'` in different ranges land on different
/// primaries, and the `n` partitions spread evenly over them; the middle half keeps
/// that true when a split is off by a slot or two.
pub fn partition_tag(k: u32, n: u32) -> String {
    let n = n.max(1);
    let width = 16384.0 / f64::from(n);
    let lo = width * f64::from(k) + width / 4.0;
    let hi = width * f64::from(k) + width * 3.0 / 4.0;
    (0u32..)
        .map(|i| format!("p{k}of{n}.{i}"))
        .find(|tag| {
            let s = f64::from(slot(tag));
            s >= lo && s < hi
        })
        .unwrap_or_default()
}

/// The stream of partition `k` of `topic` spread over `n`: the topic's own name when
/// `n` is 1 or the topic is not partitioned (the same names as before partitions
/// existed), else `<topic>:{<partition tag>}`. Every topic's partition `k` shares one
/// tag, so one slot: a role reads partition `k` of all its topics with one blocking
/// XREADGROUP.
pub fn partition_stream(topic: &str, k: u32, n: u32) -> String {
    if n <= 1 || !is_partitioned(topic) {
        return topic.to_owned();
    }
    format!("{topic}:{{{}}}", partition_tag(k, n))
}

/// Every stream of `topic` spread over `n`, by partition (one when it is not spread).
pub fn partition_streams(topic: &str, n: u32) -> Vec<String> {
    if n <= 1 || !is_partitioned(topic) {
        return vec![topic.to_owned()];
    }
    (0..n).map(|k| partition_stream(topic, k, n)).collect()
}

/// A partition's stream name split into its topic and its tag; `None` for a stream
/// named as its topic.
pub fn split_partition(stream: &str) -> Option<(&str, &str)> {
    let (topic, rest) = stream.split_once(":{")?;
    let tag = rest.strip_suffix('}')?;
    (!tag.is_empty() && !tag.contains(['{', '}'])).then_some((topic, tag))
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
mod tests {
    use super::*;

    #[test]
    fn slots_match_the_cluster_specification() {
        // Values from the Redis Cluster specification and `CLUSTER KEYSLOT`.
        assert_eq!(slot("123456789"), 0x31C3);
        assert_eq!(slot("foo"), 12182);
        assert_eq!(slot("{user1000}.following"), slot("{user1000}.followers"));
        assert_eq!(slot("foo{}{bar}"), slot("foo{}{bar}"));
        assert_ne!(hash_tag("foo{}{bar}"), "bar");
        assert_eq!(hash_tag("foo{{bar}}zap"), "{bar");
        assert_eq!(hash_tag("foo{bar}{zap}"), "bar");
    }

    #[test]
    fn every_key_of_a_task_shares_the_task_slot() {
        let task = &TaskId::from("0194-abc");
        let want = slot(task);
        let keys = [
            plan(task),
            results(task, 1),
            results(task, 3),
            request(task),
            report(task),
            question(task),
            question_resumed(task, 2),
            once::accepted(task),
            once::published(&once::accepted(task)),
            once::planned(task),
            once::replanned(task, 2),
            once::dispatched(task, &"s1".into(), 1),
            once::response(task, &"s1".into(), 2),
            once::result(task, &"s1".into(), 1),
            once::verdict(task, 1),
            once::renavigate(task, 1),
            once::asked(task, 1),
            once::answered(task, 1),
            once::published(&once::answered(task, 1)),
            once::answer_refused(task, "1-0"),
            once::cancel_refused(task, "1-0"),
            once::reported(task),
            once::published(&once::reported(task)),
            once::writing(task),
        ];
        for key in keys {
            assert_eq!(slot(&key), want, "{key}");
            assert!(key.starts_with(&task_prefix(task)), "{key}");
        }
    }

    #[test]
    fn a_streams_dedupe_keys_share_the_streams_slot() {
        for stream in ["task_available", "plan_ready", "math_task", "final_report"] {
            let key = sent(stream, &once::planned(&"t1".into()));
            assert_eq!(slot(&key), slot(stream), "{key}");
        }
    }

    #[test]
    fn one_partition_keeps_every_stream_name() {
        for topic in ["plan_ready", "math_task", "task_available", "dead_letter"] {
            assert_eq!(partition_stream(topic, 0, 1), topic);
            assert_eq!(partition_streams(topic, 1), vec![topic.to_owned()]);
            assert_eq!(
                sent(topic, "chorus:{t}:once:planned"),
                format!("chorus:sent:{{{topic}}}:chorus:{{t}}:once:planned")
            );
        }
        assert_eq!(partition_of(&"any".into(), 1), 0);
    }

    #[test]
    fn client_facing_topics_are_never_partitioned() {
        for topic in [
            "task_available",
            "clarification_answer",
            "task_cancel",
            "final_report",
            "dead_letter",
            "agent_heartbeat",
        ] {
            assert_eq!(partition_streams(topic, 6), vec![topic.to_owned()]);
        }
        assert_eq!(partition_streams("math_task", 6).len(), 6);
    }

    #[test]
    fn partition_k_lands_in_the_kth_slot_range_shared_by_every_topic() {
        for n in [2u32, 3, 4, 6, 8, 64] {
            let width = 16384 / n;
            for k in 0..n {
                let streams: Vec<String> = ["plan_ready", "math_task", "tool_response"]
                    .iter()
                    .map(|t| partition_stream(t, k, n))
                    .collect();
                let s = u32::from(slot(&streams[0]));
                assert!(s >= k * width && s < (k + 1) * width, "{n} {k} {s}");
                for stream in &streams {
                    assert_eq!(slot(stream), slot(&streams[0]), "{stream}");
                    let key = sent(stream, &once::planned(&"t1".into()));
                    assert_eq!(slot(&key), slot(stream), "{key}");
                    let (topic, tag) = split_partition(stream).expect("partitioned");
                    assert!(
                        stream.starts_with(topic) && tag.starts_with('p'),
                        "{stream}"
                    );
                }
            }
        }
        assert_eq!(
            partition_stream("plan_ready", 1, 3),
            format!("plan_ready:{{{}}}", partition_tag(1, 3))
        );
    }

    #[test]
    fn tasks_spread_over_the_partitions() {
        let mut counts = [0u32; 6];
        for i in 0..6000 {
            let task = TaskId::from(format!("0194e1c2-{i:08x}").as_str());
            counts[partition_of(&task, 6) as usize] += 1;
        }
        for c in counts {
            assert!((800..1200).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn acl_patterns_cover_every_partition() {
        let glob = |pattern: &str, key: &str| {
            // Enough of Redis's glob for these patterns: `*` only.
            let parts: Vec<&str> = pattern.split('*').collect();
            let mut rest = key;
            for (i, part) in parts.iter().enumerate() {
                match rest.find(part) {
                    Some(0) => rest = &rest[part.len()..],
                    Some(at) if i > 0 => rest = &rest[at + part.len()..],
                    _ => return false,
                }
            }
            parts.last().is_some_and(|p| p.is_empty()) || rest.is_empty()
        };
        for n in [1, 3, 6] {
            for stream in partition_streams("math_task", n) {
                assert!(
                    patterns::streams("math_task")
                        .iter()
                        .any(|p| glob(p, &stream)),
                    "{stream}"
                );
                let key = sent(&stream, "chorus:{t}:once:dispatch:s1");
                assert!(
                    patterns::sents("math_task").iter().any(|p| glob(p, &key)),
                    "{key}"
                );
                assert!(
                    !patterns::sents("date_task").iter().any(|p| glob(p, &key)),
                    "{key}"
                );
            }
        }
    }

    #[test]
    fn an_outbox_shares_its_once_keys_slot() {
        for key in [
            once::planned(&"t1".into()),
            "chorus:plain".to_owned(),
            ingress_raw("ab"),
        ] {
            assert_eq!(slot(&outbox(&key)), slot(&key), "{key}");
        }
    }

    #[test]
    fn an_ingress_key_and_its_publish_marker_share_a_slot() {
        let raw = ingress_raw("00ff");
        assert_eq!(slot(&raw), slot(&once::published(&raw)));
        let dead = ingress_dead("task_available", "00ff");
        assert_eq!(slot(&dead), slot(&once::published(&dead)));
    }
}
