//! Consumer groups: created at the stream's start (with the stream when missing) and
//! re-created when a restarted server lost them; consumers of dead processes (long idle,
//! nothing pending) are removed so identities do not pile up.

use std::time::Duration;

use redis::aio::ConnectionLike;

use super::reply;
use crate::streams::Stream;
use chorus_bus::bus::Subscription;

/// Creates `role`'s group on each stream (`XGROUP CREATE … 0 MKSTREAM`); an existing
/// group is kept as it is.
pub(crate) async fn ensure_groups(
    conn: &mut impl ConnectionLike,
    streams: &[Stream],
    role: &str,
) -> Result<(), redis::RedisError> {
    for stream in streams {
        let created = redis::cmd("XGROUP")
            .arg("CREATE")
            .arg(&stream.name)
            .arg(role)
            .arg("0")
            .arg("MKSTREAM")
            .exec_async(conn)
            .await;
        match created {
            Ok(()) => {}
            Err(e) if is_busygroup(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Whether `e` says the group already exists.
pub(crate) fn is_busygroup(e: &redis::RedisError) -> bool {
    e.code() == Some("BUSYGROUP") || e.to_string().contains("BUSYGROUP")
}

/// Whether `e` says the group (or its stream) does not exist.
pub(crate) fn is_nogroup(e: &redis::RedisError) -> bool {
    e.code() == Some("NOGROUP") || e.to_string().contains("NOGROUP")
}

/// Deletes consumers of `sub.role` on its streams that have nothing pending and have
/// been idle longer than `stale`; returns how many were deleted.
pub(crate) async fn remove_stale_consumers(
    conn: &mut impl ConnectionLike,
    sub: &Subscription,
    streams: &[Stream],
    stale: Duration,
    cluster: bool,
) -> Result<usize, redis::RedisError> {
    let stale_ms = i64::try_from(stale.as_millis()).unwrap_or(i64::MAX);
    let mut infos: Vec<redis::Value> = Vec::with_capacity(streams.len());
    // One command per stream, in one pipeline on a standalone Redis; one at a time on
    // a Cluster (a pipeline there touches one slot; this runs once per subscription).
    if cluster {
        for stream in streams {
            infos.push(
                redis::cmd("XINFO")
                    .arg("CONSUMERS")
                    .arg(&stream.name)
                    .arg(&sub.role)
                    .query_async(conn)
                    .await?,
            );
        }
    } else {
        let mut pipe = redis::pipe();
        for stream in streams {
            pipe.cmd("XINFO")
                .arg("CONSUMERS")
                .arg(&stream.name)
                .arg(&sub.role);
        }
        infos = pipe.query_async(conn).await?;
    }
    let mut delete = Vec::new();
    let mut deleted = 0;
    for (stream, info) in streams.iter().zip(&infos) {
        for c in reply::consumers(info) {
            if c.pending == 0 && c.idle_ms > stale_ms && c.name != sub.consumer {
                let mut cmd = redis::cmd("XGROUP");
                cmd.arg("DELCONSUMER")
                    .arg(&stream.name)
                    .arg(&sub.role)
                    .arg(&c.name);
                delete.push(cmd);
                deleted += 1;
            }
        }
    }
    if deleted > 0 {
        for cmd in delete {
            cmd.exec_async(conn).await?;
        }
        tracing::info!(role = %sub.role, deleted, "removed stale consumers");
    }
    Ok(deleted)
}
