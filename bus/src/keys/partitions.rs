//! How a topic is spread over `bus.partitions` streams: which topics are, the partition
//! of a task, and each partition's hash tag and stream name.

use super::slot;
use crate::TaskId;

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
