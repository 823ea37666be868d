//! Floor (b): a role that does no work, on the bare `redis` crate, doing the least a
//! hand-over through a consumer group takes: one blocking `XREADGROUP` for a batch, then
//! one pipeline with an `XADD` per entry it sends on and the `XACK` of what it read
//! (after the `XADD`s, so an entry is acked only once what it caused is written).
//!
//! Entries carry the task id in a field of their own (`t`) beside the envelope a real
//! run wrote for that hop (`data`, sent as is), so nothing is parsed. Same streams, same
//! readers per stream, same entries per task as (a) and as Chorus (`plan_ready`, the
//! step, `tool_request`, `tool_response`, the result, the report); no Pub/Sub mirror, no
//! once-key, no task state, no lingering acks, no claims of a dead consumer's entries:
//! at-least-once delivery through a consumer group, nothing more.

use std::collections::BTreeMap;

use chorus_bus::{BusSettings, Topic};
use redis::aio::MultiplexedConnection;
use redis::streams::StreamReadReply;
use redis::{AsyncConnectionConfig, Value};

use super::super::BenchError;
use super::envelopes::Envelopes;
use super::mcp::Poster;

/// The field holding the task id.
pub const TASK_FIELD: &str = "t";
/// The field holding the envelope.
pub const DATA_FIELD: &str = "data";
/// Entries read per `XREADGROUP` (the bus's default `batch_count`).
const COUNT: usize = 64;
/// How long a read blocks, in ms (the bus's default `block_ms`).
const BLOCK_MS: u64 = 1000;

/// A Redis error as the floor reports it.
pub fn redis_error(e: redis::RedisError) -> BenchError {
    BenchError::Redis(e.to_string())
}

/// A connection to `url` with `TCP_NODELAY` (made as the bus makes its clients) and no
/// response timeout (reads block).
pub async fn connect(url: &str) -> Result<MultiplexedConnection, BenchError> {
    let settings = BusSettings {
        redis_url: url.to_owned(),
        ..BusSettings::default()
    };
    let client = chorus_bus_redis::client(&settings)?;
    client
        .get_multiplexed_async_connection_with_config(
            &AsyncConnectionConfig::new().set_response_timeout(None),
        )
        .await
        .map_err(redis_error)
}

/// What a role reads, and what it sends on for an entry of each stream.
struct Hops {
    reads: Vec<String>,
    /// stream read → the streams it causes an entry on, with that entry's envelope.
    sends: BTreeMap<String, Vec<(String, String)>>,
    /// Whether an entry of this stream is a step whose tool is called first.
    calls: Option<String>,
}

/// The hand-overs of `role` on a one-step `2+4` task.
fn hops(role: &str, e: &Envelopes) -> Result<Hops, BenchError> {
    let name = |t: &Topic| t.as_str().to_owned();
    let entry = |m: &chorus_bus::Message| (name(&m.topic), m.to_json());
    let (requests, plans) = (name(&Topic::task_available()), name(&e.plan_ready.topic));
    let (steps, results) = (name(&e.pool_task.topic), name(&e.pool_result.topic));
    let reports = name(&Topic::final_report());
    let mut sends = BTreeMap::new();
    let mut calls = None;
    let reads = match role {
        "chief" => vec![requests, reports],
        "planner" => {
            sends.insert(
                requests.clone(),
                vec![entry(&e.plan_ready), entry(&e.pool_task)],
            );
            vec![requests]
        }
        "router" => vec![plans, results],
        "pool" => {
            sends.insert(
                steps.clone(),
                vec![
                    entry(&e.tool_request),
                    entry(&e.tool_response),
                    entry(&e.pool_result),
                ],
            );
            calls = Some(steps.clone());
            vec![steps]
        }
        "synthesizer" => {
            sends.insert(results.clone(), vec![entry(&e.final_report)]);
            vec![plans, results]
        }
        other => return Err(BenchError::Args(format!("no relay for role {other:?}"))),
    };
    Ok(Hops {
        reads,
        sends,
        calls,
    })
}

/// Runs the bare relay of `role` on `url` (calling the tool at `mcp_url` for a pool's
/// step) until the process is stopped.
pub async fn run(role: &str, url: &str, mcp_url: &str) -> Result<(), BenchError> {
    let envelopes = Envelopes::load()?;
    let hops = hops(role, &envelopes)?;
    let poster = match hops.calls {
        Some(_) => Some(Poster::new(mcp_url, envelopes.call_params())?),
        None => None,
    };
    let mut conn = connect(url).await?;
    let group = if role == "pool" { "pool-math" } else { role };
    let consumer = format!("{group}-{}", uuid::Uuid::now_v7());
    for stream in &hops.reads {
        // From the stream's start: entries written before the group existed are read.
        let made: Result<Value, _> = redis::cmd("XGROUP")
            .arg("CREATE")
            .arg(stream)
            .arg(group)
            .arg("0")
            .arg("MKSTREAM")
            .query_async(&mut conn)
            .await;
        if let Err(e) = made
            && e.code() != Some("BUSYGROUP")
        {
            return Err(redis_error(e));
        }
    }
    loop {
        let mut read = redis::cmd("XREADGROUP");
        read.arg("GROUP")
            .arg(group)
            .arg(&consumer)
            .arg("COUNT")
            .arg(COUNT)
            .arg("BLOCK")
            .arg(BLOCK_MS)
            .arg("STREAMS");
        for stream in &hops.reads {
            read.arg(stream);
        }
        for _ in &hops.reads {
            read.arg(">");
        }
        let reply: Option<StreamReadReply> =
            read.query_async(&mut conn).await.map_err(redis_error)?;
        let Some(reply) = reply else { continue };
        let mut pipe = redis::pipe();
        let mut calls = Vec::new();
        for key in &reply.keys {
            let sends = hops.sends.get(&key.key);
            for entry in &key.ids {
                let Some(task) = entry.get::<String>(TASK_FIELD) else {
                    continue;
                };
                if hops.calls.as_deref() == Some(key.key.as_str())
                    && let Some(p) = &poster
                {
                    calls.push(p.call());
                }
                for (stream, data) in sends.into_iter().flatten() {
                    pipe.cmd("XADD")
                        .arg(stream)
                        .arg("MAXLEN")
                        .arg("~")
                        .arg(100_000)
                        .arg("*")
                        .arg(TASK_FIELD)
                        .arg(&task)
                        .arg(DATA_FIELD)
                        .arg(data)
                        .ignore();
                }
            }
        }
        for called in futures::future::join_all(calls).await {
            called.map_err(|reason| BenchError::Redis(format!("MCP call: {reason}")))?;
        }
        for key in &reply.keys {
            let mut ack = redis::cmd("XACK");
            ack.arg(&key.key).arg(group);
            for entry in &key.ids {
                ack.arg(&entry.id);
            }
            pipe.add_command(ack).ignore();
        }
        pipe.query_async::<()>(&mut conn)
            .await
            .map_err(redis_error)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_planner_sends_the_plan_and_the_step_for_a_request() {
        let e = Envelopes::load().expect("fixture");
        let h = hops("planner", &e).expect("planner");
        assert_eq!(h.reads, vec!["task_available".to_owned()]);
        let sent: Vec<&str> = h.sends["task_available"]
            .iter()
            .map(|(s, _)| s.as_str())
            .collect();
        assert_eq!(sent, vec!["plan_ready", "math_task"]);
        assert!(h.calls.is_none());
    }

    #[test]
    fn the_pool_calls_the_tool_and_the_router_only_reads() {
        let e = Envelopes::load().expect("fixture");
        let pool = hops("pool", &e).expect("pool");
        assert_eq!(pool.calls.as_deref(), Some("math_task"));
        assert_eq!(pool.sends["math_task"].len(), 3);
        let router = hops("router", &e).expect("router");
        assert!(router.sends.is_empty());
        assert_eq!(router.reads.len(), 2);
        assert!(hops("verifier", &e).is_err());
    }
}
