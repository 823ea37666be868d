//! Finding one task's messages: the last `scan` entries of every topic a task touches
//! (never a key scan), filtered by task id and put in the order they were sent.

use std::collections::BTreeSet;

use chorus_bus::{Bus, BusError, Message, Payload, TaskId, Topic};

use super::format::sent_us;
use chorus_bus::PoolName;

/// The topics a task's messages travel on: the fixed topics but `agent_heartbeat`,
/// then each pool's task and result topics for `pools`.
pub fn topics(pools: &[PoolName]) -> Vec<Topic> {
    let mut topics: Vec<Topic> = Topic::FIXED
        .iter()
        .filter(|t| **t != Topic::AGENT_HEARTBEAT)
        .filter_map(|t| Topic::parse(t).ok())
        .collect();
    for pool in pools {
        topics.push(Topic::pool_task(pool));
        topics.push(Topic::pool_result(pool));
    }
    topics
}

/// The task's messages from the last `scan` entries of every topic of [`topics`] for
/// `pools` and for any pool its plan names, in the order they were sent.
pub async fn collect(
    bus: &dyn Bus,
    task_id: &TaskId,
    pools: &[PoolName],
    scan: usize,
) -> Result<Vec<Message>, BusError> {
    let mut pending = topics(pools);
    let mut read: BTreeSet<String> = BTreeSet::new();
    let mut found = Vec::new();
    let mut known: Vec<PoolName> = pools.to_vec();
    loop {
        for topic in pending.drain(..) {
            if !read.insert(topic.as_str().to_owned()) {
                continue;
            }
            let msgs = bus.recent(&topic, scan).await?;
            found.extend(msgs.into_iter().filter(|m| m.task_id == *task_id));
        }
        // The plan may name pools this process has no settings for: read theirs too.
        for m in &found {
            if let Payload::PlanReady(p) = &m.payload {
                for s in &p.plan.steps {
                    if !known.iter().any(|p| *p == s.pool) {
                        known.push(PoolName::from(&s.pool));
                        pending.push(Topic::pool_task(&s.pool));
                        pending.push(Topic::pool_result(&s.pool));
                    }
                }
            }
        }
        if pending.iter().all(|t| read.contains(t.as_str())) {
            break;
        }
    }
    found.sort_by_key(sent_us);
    Ok(found)
}
