//! Stream lengths and consumer groups' pending counts, for metrics: one pipeline of
//! `XLEN` and `XINFO GROUPS` per topic (both in every role's ACL).

use super::conn::Connection;
use chorus_bus::bus::{GroupStats, StreamStats};
use chorus_bus::topic::Topic;
use redis::Value;

use super::reply;

/// The stats of `topics`, in order. A stream that does not exist yet makes `XINFO
/// GROUPS` fail; its topic is then read again alone, as length 0 and no groups.
pub(crate) async fn stream_stats(
    conn: &mut Connection,
    topics: &[Topic],
    cluster: bool,
) -> Result<Vec<StreamStats>, redis::RedisError> {
    if cluster {
        // One slot per pipeline: a topic at a time (metrics, not the message path).
        let mut out = Vec::with_capacity(topics.len());
        for topic in topics {
            out.push(one(conn, topic).await?);
        }
        return Ok(out);
    }
    let mut pipe = redis::pipe();
    for topic in topics {
        pipe.cmd("XLEN").arg(topic.as_str());
        pipe.cmd("XINFO").arg("GROUPS").arg(topic.as_str());
    }
    match pipe.query_async::<Vec<Value>>(conn).await {
        Ok(values) => Ok(topics
            .iter()
            .zip(values.chunks(2))
            .map(|(topic, pair)| stats_of(topic, pair))
            .collect()),
        Err(e) if is_no_such_key(&e) => {
            let mut out = Vec::with_capacity(topics.len());
            for topic in topics {
                out.push(one(conn, topic).await?);
            }
            Ok(out)
        }
        Err(e) => Err(e),
    }
}

/// One topic's stats, tolerating a missing stream.
async fn one(conn: &mut Connection, topic: &Topic) -> Result<StreamStats, redis::RedisError> {
    let mut pipe = redis::pipe();
    pipe.cmd("XLEN").arg(topic.as_str());
    pipe.cmd("XINFO").arg("GROUPS").arg(topic.as_str());
    match pipe.query_async::<Vec<Value>>(conn).await {
        Ok(values) => Ok(stats_of(topic, &values)),
        Err(e) if is_no_such_key(&e) => Ok(StreamStats {
            topic: topic.clone(),
            length: 0,
            groups: Vec::new(),
        }),
        Err(e) => Err(e),
    }
}

fn is_no_such_key(e: &redis::RedisError) -> bool {
    e.to_string().to_ascii_lowercase().contains("no such key")
}

/// A topic's stats from its `XLEN` and `XINFO GROUPS` replies.
fn stats_of(topic: &Topic, pair: &[Value]) -> StreamStats {
    let length = pair.first().and_then(reply::int).unwrap_or(0).max(0) as u64;
    let groups = pair.get(1).map(reply::groups).unwrap_or_default();
    StreamStats {
        topic: topic.clone(),
        length,
        groups: groups
            .into_iter()
            .map(|(group, pending)| GroupStats {
                group,
                pending: pending.max(0) as u64,
            })
            .collect(),
    }
}
