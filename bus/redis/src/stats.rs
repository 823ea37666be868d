//! Stream lengths and consumer groups' pending counts, for metrics: one pipeline of
//! `XLEN` and `XINFO GROUPS` per stream (both in every role's ACL). A topic spread over
//! partitions (`bus.partitions`) adds up its streams' lengths and pending counts.

use std::collections::BTreeMap;

use super::conn::Connection;
use super::streams::{self, Stream};
use chorus_bus::bus::{GroupStats, StreamStats};
use chorus_bus::topic::Topic;
use redis::Value;

use super::reply;

/// The stats of `topics`, in order. A stream that does not exist yet makes `XINFO
/// GROUPS` fail; its stream is then read again alone, as length 0 and no groups.
pub(crate) async fn stream_stats(
    conn: &Connection,
    topics: &[Topic],
    partitions: u32,
) -> Result<Vec<StreamStats>, redis::RedisError> {
    let streams = streams::of_topics(topics, partitions);
    let mut conn = conn.clone();
    let per_stream = if conn.is_cluster() {
        // One slot per pipeline: a stream at a time (metrics, not the message path).
        let mut out = Vec::with_capacity(streams.len());
        for stream in &streams {
            out.push(one(&mut conn, stream).await?);
        }
        out
    } else {
        let mut pipe = redis::pipe();
        for stream in &streams {
            pipe.cmd("XLEN").arg(&stream.name);
            pipe.cmd("XINFO").arg("GROUPS").arg(&stream.name);
        }
        match pipe.query_async::<Vec<Value>>(&mut conn).await {
            Ok(values) => values.chunks(2).map(counts_of).collect::<Vec<_>>(),
            Err(e) if is_no_such_key(&e) => {
                let mut out = Vec::with_capacity(streams.len());
                for stream in &streams {
                    out.push(one(&mut conn, stream).await?);
                }
                out
            }
            Err(e) => return Err(e),
        }
    };
    Ok(topics
        .iter()
        .map(|topic| {
            let mut length = 0;
            let mut groups: BTreeMap<String, u64> = BTreeMap::new();
            let mut order: Vec<String> = Vec::new();
            for (stream, (len, pending)) in streams.iter().zip(&per_stream) {
                if &stream.topic != topic {
                    continue;
                }
                length += len;
                for (group, n) in pending {
                    if !groups.contains_key(group) {
                        order.push(group.clone());
                    }
                    *groups.entry(group.clone()).or_default() += n;
                }
            }
            StreamStats {
                topic: topic.clone(),
                length,
                groups: order
                    .into_iter()
                    .map(|group| GroupStats {
                        pending: groups[&group],
                        group,
                    })
                    .collect(),
            }
        })
        .collect())
}

/// A stream's length and per-group pending counts.
type Counts = (u64, Vec<(String, u64)>);

/// One stream's counts, tolerating a missing stream.
async fn one(conn: &mut Connection, stream: &Stream) -> Result<Counts, redis::RedisError> {
    let mut pipe = redis::pipe();
    pipe.cmd("XLEN").arg(&stream.name);
    pipe.cmd("XINFO").arg("GROUPS").arg(&stream.name);
    match pipe.query_async::<Vec<Value>>(conn).await {
        Ok(values) => Ok(counts_of(&values)),
        Err(e) if is_no_such_key(&e) => Ok((0, Vec::new())),
        Err(e) => Err(e),
    }
}

fn is_no_such_key(e: &redis::RedisError) -> bool {
    e.to_string().to_ascii_lowercase().contains("no such key")
}

/// A stream's counts from its `XLEN` and `XINFO GROUPS` replies.
fn counts_of(pair: &[Value]) -> Counts {
    let length = pair.first().and_then(reply::int).unwrap_or(0).max(0) as u64;
    let groups = pair.get(1).map(reply::groups).unwrap_or_default();
    (
        length,
        groups
            .into_iter()
            .map(|(group, pending)| (group, pending.max(0) as u64))
            .collect(),
    )
}
