//! The load generator of floor (b), on the bare `redis` crate: as [`super::super::load`]
//! does on the bus — `concurrency` tasks in flight, freed slots refilled in one pipeline,
//! one reader of the reports serving every task — with `XADD` (the request's envelope,
//! and the task id in a field of its own) and a blocking `XREAD` of `final_report`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chorus_bus::{Message, Payload, TaskId, TaskRequest, Topic};
use redis::aio::MultiplexedConnection;
use redis::streams::StreamReadReply;

use super::super::BenchError;
use super::super::load::LoadResult;
use super::relay_raw::{DATA_FIELD, TASK_FIELD, redis_error};

/// A `2+4` request's envelope, as the bench client publishes it.
fn request(query: &str) -> String {
    Message::new(
        TaskId::generate(),
        Topic::task_available(),
        "bench",
        Payload::TaskAvailable(TaskRequest {
            query: query.to_owned(),
            context: Default::default(),
        }),
    )
    .to_json()
}

/// The id of the last entry of `stream` now ("0-0" when it is empty): reports after it
/// are this run's.
async fn last_id(conn: &mut MultiplexedConnection, stream: &str) -> Result<String, BenchError> {
    let reply: redis::streams::StreamRangeReply = redis::cmd("XREVRANGE")
        .arg(stream)
        .arg("+")
        .arg("-")
        .arg("COUNT")
        .arg(1)
        .query_async(conn)
        .await
        .map_err(redis_error)?;
    Ok(reply
        .ids
        .first()
        .map_or_else(|| "0-0".to_owned(), |e| e.id.clone()))
}

/// Runs `tasks` tasks of `query`, `concurrency` at once; gives up when no report comes
/// for `stall`.
pub async fn run(
    conn: &mut MultiplexedConnection,
    query: &str,
    tasks: usize,
    concurrency: usize,
    stall: Duration,
) -> Result<LoadResult, BenchError> {
    let requests = Topic::task_available().as_str().to_owned();
    let reports = Topic::final_report().as_str().to_owned();
    let mut after = last_id(conn, &reports).await?;
    let concurrency = concurrency.max(1);
    let mut in_flight: HashMap<String, Instant> = HashMap::with_capacity(concurrency);
    let mut out = LoadResult {
        latencies_us: Vec::with_capacity(tasks),
        ..Default::default()
    };
    let mut sent = 0;
    let started = Instant::now();
    let mut last_progress = started;
    loop {
        let free = (concurrency - in_flight.len()).min(tasks - sent);
        if free > 0 {
            let mut pipe = redis::pipe();
            let mut ids = Vec::with_capacity(free);
            for _ in 0..free {
                let id = TaskId::generate().to_string();
                pipe.cmd("XADD")
                    .arg(&requests)
                    .arg("MAXLEN")
                    .arg("~")
                    .arg(100_000)
                    .arg("*")
                    .arg(TASK_FIELD)
                    .arg(&id)
                    .arg(DATA_FIELD)
                    .arg(request(query))
                    .ignore();
                ids.push(id);
            }
            let at = Instant::now();
            pipe.query_async::<()>(conn).await.map_err(redis_error)?;
            in_flight.extend(ids.into_iter().map(|id| (id, at)));
            sent += free;
        }
        if in_flight.is_empty() {
            break;
        }
        let reply: Option<StreamReadReply> = redis::cmd("XREAD")
            .arg("COUNT")
            .arg(1024)
            .arg("BLOCK")
            .arg(1000)
            .arg("STREAMS")
            .arg(&reports)
            .arg(&after)
            .query_async(conn)
            .await
            .map_err(redis_error)?;
        let now = Instant::now();
        for entry in reply.iter().flat_map(|r| &r.keys).flat_map(|k| &k.ids) {
            after.clone_from(&entry.id);
            let Some(task) = entry.get::<String>(TASK_FIELD) else {
                continue;
            };
            if let Some(at) = in_flight.remove(&task) {
                out.latencies_us
                    .push(now.duration_since(at).as_micros() as u64);
                last_progress = now;
            }
        }
        if last_progress.elapsed() > stall {
            return Err(BenchError::Stalled {
                done: out.latencies_us.len(),
                total: tasks,
                waited: stall,
                exited: Vec::new(),
            });
        }
    }
    out.elapsed = started.elapsed();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_a_full_envelope_of_the_query() {
        let m = Message::from_json(&request("2+4")).expect("envelope");
        assert_eq!(m.topic, Topic::task_available());
        assert!(matches!(m.payload, Payload::TaskAvailable(ref r) if r.query == "2+4"));
    }
}
