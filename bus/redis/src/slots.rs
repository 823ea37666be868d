//! Commands grouped by slot. A standalone Redis takes any pipeline; a Cluster runs a
//! pipeline only when all its keys hash to one slot. So a batch of single-key commands
//! (acks on several streams, a task's retirement, per-stream stats) goes as one pipeline
//! to a standalone Redis and, on a Cluster, as one pipeline per slot, all sent at once:
//! the same one round trip of waiting.

use std::collections::BTreeMap;

use futures::future::try_join_all;
use redis::{Cmd, RedisError, Value};

use super::conn::{Connection, retry_writes};

/// Runs `cmds` (each with the key it touches) and returns their replies in order.
pub(crate) async fn query(
    conn: &Connection,
    cmds: &[(String, Cmd)],
) -> Result<Vec<Value>, RedisError> {
    if cmds.is_empty() {
        return Ok(Vec::new());
    }
    if !conn.is_cluster() {
        let mut pipe = redis::pipe();
        for (_, cmd) in cmds {
            pipe.add_command(cmd.clone());
        }
        return retry_writes(|| async { pipe.query_async(&mut conn.clone()).await }).await;
    }
    let mut by_slot: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
    for (i, (key, _)) in cmds.iter().enumerate() {
        by_slot
            .entry(chorus_bus::keys::slot(key))
            .or_default()
            .push(i);
    }
    let runs = by_slot.into_values().map(|indices| async move {
        let mut pipe = redis::pipe();
        for &i in &indices {
            pipe.add_command(cmds[i].1.clone());
        }
        let values: Vec<Value> =
            retry_writes(|| async { pipe.query_async(&mut conn.clone()).await }).await?;
        Ok::<_, RedisError>(indices.into_iter().zip(values).collect::<Vec<_>>())
    });
    let mut out = vec![Value::Nil; cmds.len()];
    for (i, value) in try_join_all(runs).await?.into_iter().flatten() {
        out[i] = value;
    }
    Ok(out)
}

/// Runs `cmds` like [`query`], dropping the replies.
pub(crate) async fn exec(conn: &Connection, cmds: &[(String, Cmd)]) -> Result<(), RedisError> {
    query(conn, cmds).await.map(|_| ())
}
