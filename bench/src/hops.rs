//! Per-hop latency from message timestamps. Every envelope carries `timestamp_us`, set
//! when its sender built it, so the time between two of a task's messages on successive
//! topics is the time the hop in between took (read, handle, state writes, publish).
//! All processes run on one machine, so their clocks agree.
//!
//! A task's stages: its request (`task_available`), its plan (`plan_ready`), the first
//! step dispatched (`<pool>_task`), the first tool call started (`tool_request`), the
//! last tool call finished (`tool_response`), the last step result (`<pool>_result`),
//! the report (`final_report`), and the moment the client saw the report. For a
//! one-step plan each stage is one message; for a fan-out the first/last rule makes the
//! hops add up to the end-to-end time along the critical path.

use std::collections::{HashMap, HashSet};

use chorus_bus::{Bus, Message, PoolName, Topic, TopicKind};
use chorus_core::topology::{Role, Topology};

use super::BenchError;
use super::stats::Percentiles;

/// The stage topics in order; `pool`'s topics stand for every pool's.
fn stage_topics(pool: &str) -> [Topic; 7] {
    [
        Topic::task_available(),
        Topic::plan_ready(),
        Topic::pool_task(pool),
        Topic::tool_request(),
        Topic::tool_response(),
        Topic::pool_result(pool),
        Topic::final_report(),
    ]
}

/// How a stage topic is named in a hop's label.
fn stage_name(topic: &Topic) -> &str {
    match topic.kind() {
        Ok(TopicKind::TaskAvailable) => "request",
        Ok(TopicKind::PoolTask) => "step task",
        Ok(TopicKind::PoolResult) => "step result",
        _ => topic.as_str(),
    }
}

/// Who does the work of the hop from a message on `from` to one on `to`, from the
/// topology table: the roles that write `to` and read or write `from` (the Planner
/// writes `plan_ready` and the first steps, the Router later steps on reading results);
/// a message answered outside the roles is answered by its outside reader (the MCP
/// server answers a `tool_request`); after the last stage, its reader (the client).
fn worker(topology: &Topology, from: &Topic, to: Option<&Topic>) -> String {
    let outside = |topic: &Topic| match Topology::outside_reader(topic) {
        Some("mcp") => "MCP server".to_owned(),
        Some("clients") => "client".to_owned(),
        Some(who) => who.to_owned(),
        None => "?".to_owned(),
    };
    let answered_outside =
        topology.readers(from).is_empty() && Topology::outside_reader(from) == Some("mcp");
    let Some(to) = to.filter(|_| !answered_outside) else {
        return outside(from);
    };
    let names: Vec<&str> = topology
        .writers(to)
        .into_iter()
        .filter(|r| topology.reads(r).contains(from) || topology.writes(r).contains(from))
        .map(|r| match r {
            Role::Pool(_) => "pool agent",
            other => other.name(),
        })
        .collect();
    names.join(" + ")
}

/// The hops, in order, each named for its two stages and who does the work.
pub fn labels(pools: &[PoolName]) -> Vec<String> {
    let pool = pools
        .first()
        .map_or(super::cluster::POOLS[0], PoolName::as_str);
    let topology = Topology::new(&[pool.into()]);
    let stages = stage_topics(pool);
    let mut out: Vec<String> = stages
        .windows(2)
        .map(|w| {
            let who = worker(&topology, &w[0], Some(&w[1]));
            format!("{} → {} ({who})", stage_name(&w[0]), stage_name(&w[1]))
        })
        .collect();
    let last = &stages[stages.len() - 1];
    let who = worker(&topology, last, None);
    out.push(format!("{} → client ({who})", stage_name(last)));
    out
}

/// Stage times of one task, µs since the epoch.
#[derive(Debug, Default, Clone, Copy)]
struct Stages([Option<u64>; 8]);

impl Stages {
    fn first(&mut self, i: usize, ts: u64) {
        self.0[i] = Some(self.0[i].map_or(ts, |t| t.min(ts)));
    }
    fn last(&mut self, i: usize, ts: u64) {
        self.0[i] = Some(self.0[i].map_or(ts, |t| t.max(ts)));
    }
}

/// Which stage a message marks, and whether the earliest (`true`) or latest counts.
fn stage_of(topic: &Topic) -> Option<(usize, bool)> {
    let name = topic.as_str();
    if *topic == Topic::task_available() {
        Some((0, true))
    } else if *topic == Topic::plan_ready() {
        Some((1, true))
    } else if *topic == Topic::tool_request() {
        Some((3, true))
    } else if *topic == Topic::tool_response() {
        Some((4, false))
    } else if *topic == Topic::final_report() {
        Some((6, true))
    } else if name.ends_with("_task") {
        Some((2, true))
    } else if name.ends_with("_result") {
        Some((5, false))
    } else {
        None
    }
}

/// The topics to read for the stages of tasks planned onto `pools`.
pub fn topics(pools: &[PoolName]) -> Vec<Topic> {
    let mut t = vec![
        Topic::task_available(),
        Topic::plan_ready(),
        Topic::tool_request(),
        Topic::tool_response(),
        Topic::final_report(),
    ];
    for p in pools {
        t.push(Topic::pool_task(p));
        t.push(Topic::pool_result(p));
    }
    t
}

/// Per-hop latency percentiles of the tasks in `received` (task id → when the client
/// saw the report), from the last `per_topic` messages of each topic.
pub async fn measure(
    bus: &dyn Bus,
    pools: &[PoolName],
    received: &HashMap<String, u64>,
    per_topic: usize,
) -> Result<Vec<(String, Option<Percentiles>)>, BenchError> {
    let mut messages = Vec::new();
    for topic in topics(pools) {
        messages.extend(bus.recent(&topic, per_topic).await?);
    }
    Ok(from_messages(&messages, received, pools))
}

/// Per-hop latency percentiles (named by [`labels`] for `pools`) from the messages of
/// the tasks in `received`.
pub fn from_messages(
    messages: &[Message],
    received: &HashMap<String, u64>,
    pools: &[PoolName],
) -> Vec<(String, Option<Percentiles>)> {
    let wanted: HashSet<&str> = received.keys().map(String::as_str).collect();
    let mut stages: HashMap<&str, Stages> = HashMap::with_capacity(received.len());
    for m in messages {
        if !wanted.contains(m.task_id.as_str()) {
            continue;
        }
        let Some((i, earliest)) = stage_of(&m.topic) else {
            continue;
        };
        let s = stages.entry(m.task_id.as_str()).or_default();
        if earliest {
            s.first(i, m.timestamp_us);
        } else {
            s.last(i, m.timestamp_us);
        }
    }
    for (task, at) in received {
        if let Some(s) = stages.get_mut(task.as_str()) {
            s.0[7] = Some(*at);
        }
    }
    let names = labels(pools);
    let mut samples: Vec<Vec<u64>> = vec![Vec::with_capacity(stages.len()); names.len()];
    for s in stages.values() {
        for (hop, sample) in samples.iter_mut().enumerate() {
            if let (Some(a), Some(b)) = (s.0[hop], s.0[hop + 1]) {
                sample.push(b.saturating_sub(a));
            }
        }
    }
    names
        .into_iter()
        .zip(samples.iter_mut())
        .map(|(name, sample)| (name, Percentiles::of(sample)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::{Payload, TaskRequest};

    fn at(task: &str, topic: Topic, ts: u64) -> Message {
        // The payload does not matter for stage times.
        let mut m = Message::new(
            task,
            topic,
            "test",
            Payload::TaskAvailable(TaskRequest {
                query: "2+4".into(),
                context: Default::default(),
            }),
        );
        m.timestamp_us = ts;
        m
    }

    #[test]
    fn hops_are_the_differences_between_successive_stages() {
        let msgs = vec![
            at("t1", Topic::task_available(), 1_000),
            at("t1", Topic::plan_ready(), 1_300),
            at("t1", Topic::pool_task("math"), 1_400),
            at("t1", Topic::pool_task("math"), 1_450),
            at("t1", Topic::tool_request(), 1_500),
            at("t1", Topic::tool_response(), 1_700),
            at("t1", Topic::tool_response(), 1_800),
            at("t1", Topic::pool_result("math"), 1_810),
            at("t1", Topic::final_report(), 2_000),
            at("other", Topic::plan_ready(), 5),
        ];
        let received = HashMap::from([("t1".to_owned(), 2_100)]);
        let hops = from_messages(&msgs, &received, &["math".into()]);
        let p50: Vec<u64> = hops.iter().map(|(_, p)| p.expect("sampled").p50).collect();
        assert_eq!(p50, vec![300, 100, 100, 300, 10, 190, 100]);
    }

    #[test]
    fn hops_are_named_for_who_does_the_work_in_the_topology() {
        assert_eq!(
            labels(&["math".into(), "date".into()]),
            vec![
                "request → plan_ready (planner)",
                "plan_ready → step task (planner + router)",
                "step task → tool_request (pool agent)",
                "tool_request → tool_response (MCP server)",
                "tool_response → step result (pool agent)",
                "step result → final_report (synthesizer)",
                "final_report → client (client)",
            ]
        );
    }

    #[test]
    fn a_missing_stage_leaves_its_hops_unsampled() {
        let msgs = vec![
            at("t1", Topic::task_available(), 1_000),
            at("t1", Topic::final_report(), 2_000),
        ];
        let received = HashMap::from([("t1".to_owned(), 2_500)]);
        let hops = from_messages(&msgs, &received, &["math".into()]);
        assert!(hops[0].1.is_none());
        assert_eq!(hops[6].1.map(|p| p.p50), Some(500));
    }
}
