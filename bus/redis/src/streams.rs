//! Topics to streams under `bus.partitions`. With one partition (the default) a topic
//! is one stream named as the topic, as before partitions existed. With N > 1 a
//! partitioned topic (`keys::is_partitioned`) is N streams, `<topic>:{<tag of k>}`, and
//! a message goes to the partition its task id hashes to (`keys::partition_of`); every
//! name comes from `chorus_bus::keys`.
//!
//! Readers group streams by slot: a blocking XREADGROUP or XREAD on a Cluster names
//! streams of one slot, and every topic's partition k shares partition k's tag, so a
//! role reads partition k of all its topics with one blocking command on one
//! connection (one per partition, plus one per client-facing stream it reads).

use std::collections::BTreeMap;

use chorus_bus::envelope::Message;
use chorus_bus::keys;
use chorus_bus::topic::Topic;

/// One stream of a topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stream {
    /// The topic.
    pub(crate) topic: Topic,
    /// Its partition (0 when the topic has one stream).
    pub(crate) partition: u32,
    /// The stream's key.
    pub(crate) name: String,
}

/// Every stream of `topics` under `partitions`, topic by topic, partition by partition.
pub(crate) fn of_topics(topics: &[Topic], partitions: u32) -> Vec<Stream> {
    let mut out = Vec::new();
    for topic in topics {
        for (partition, name) in keys::partition_streams(topic.as_str(), partitions)
            .into_iter()
            .enumerate()
        {
            out.push(Stream {
                topic: topic.clone(),
                partition: partition as u32,
                name,
            });
        }
    }
    out
}

/// The partition `msg` goes to under `partitions` (0 for a topic with one stream).
pub(crate) fn partition_of(msg: &Message, partitions: u32) -> u32 {
    if keys::is_partitioned(msg.topic.as_str()) {
        keys::partition_of(&msg.task_id, partitions)
    } else {
        0
    }
}

/// The stream `msg` goes to under `partitions`.
pub(crate) fn of_message(msg: &Message, partitions: u32) -> String {
    keys::partition_stream(
        msg.topic.as_str(),
        partition_of(msg, partitions),
        partitions,
    )
}

/// The stream of `topic`'s partition `partition` under `partitions`.
pub(crate) fn name(topic: &Topic, partition: u32, partitions: u32) -> String {
    keys::partition_stream(topic.as_str(), partition, partitions)
}

/// `streams` grouped by slot (on a Cluster, what one blocking read may name), in the
/// order of their first stream.
pub(crate) fn by_slot(streams: &[Stream]) -> Vec<Vec<Stream>> {
    let mut groups: BTreeMap<u16, usize> = BTreeMap::new();
    let mut out: Vec<Vec<Stream>> = Vec::new();
    for stream in streams {
        let slot = keys::slot(&stream.name);
        match groups.get(&slot) {
            Some(&i) => out[i].push(stream.clone()),
            None => {
                groups.insert(slot, out.len());
                out.push(vec![stream.clone()]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_partition_reads_each_topic_by_its_name() {
        let topics = [Topic::plan_ready(), Topic::pool_task("math")];
        let streams = of_topics(&topics, 1);
        let names: Vec<&str> = streams.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["plan_ready", "math_task"]);
    }

    #[test]
    fn a_role_reads_each_partition_of_its_topics_with_one_command() {
        let topics = [
            Topic::plan_ready(),
            Topic::pool_result("math"),
            Topic::task_cancel(),
        ];
        let streams = of_topics(&topics, 3);
        assert_eq!(streams.len(), 7);
        let groups = by_slot(&streams);
        // Partitions 0, 1, 2 (two topics each) and `task_cancel` alone.
        assert_eq!(groups.len(), 4, "{groups:?}");
        for group in &groups {
            let partitions: Vec<u32> = group.iter().map(|s| s.partition).collect();
            assert!(partitions.windows(2).all(|w| w[0] == w[1]), "{group:?}");
        }
    }
}
