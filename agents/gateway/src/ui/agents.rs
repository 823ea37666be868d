//! `GET /agents` (the live registry: role, pool, tools, last heartbeat) and
//! `GET /dead-letters` (the tail of `dead_letter`, newest first, with the reasons).

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use chorus_bus::{Payload, PoolName, TaskId, Topic, now_ms};
use chorus_core::hops::format::{clock, sent_us};
use chorus_core::registry::Registry;
use serde::{Deserialize, Serialize};

use super::tasks::ListQuery;
use crate::api::ApiState;
use crate::native::ApiError;

/// Dead letters listed when no `limit` is given.
const DEFAULT_LIMIT: usize = 50;

/// One live agent process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AgentEntry {
    /// Its instance name (unique per process start).
    pub instance: String,
    /// Its role (`chief`, `planner`, `router`, `pool`, `synthesizer`, `verifier`).
    pub role: String,
    /// Its pool, for a pool agent.
    pub pool: Option<PoolName>,
    /// The tools it offers, for a pool agent.
    pub tools: Vec<String>,
    /// When its last heartbeat was recorded, in milliseconds since the Unix epoch.
    pub last_beat_ms: u64,
    /// How long ago that was, in milliseconds.
    pub age_ms: u64,
    /// How long a heartbeat counts, in milliseconds.
    pub ttl_ms: u64,
}

/// The answer to `GET /agents`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AgentList {
    /// Live agents by role and instance.
    pub agents: Vec<AgentEntry>,
}

/// One dead-lettered entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DeadLetterEntry {
    /// The task it belonged to, when known.
    pub task_id: TaskId,
    /// When it was dead-lettered, in microseconds since the Unix epoch.
    pub sent_us: u64,
    /// That time as `HH:MM:SS.mmm` (UTC).
    pub time: String,
    /// The stream (topic) the entry was read from.
    pub topic: String,
    /// Its stream entry id.
    pub entry_id: String,
    /// The consumer group (role) that gave up on it.
    pub role: String,
    /// How many times it was delivered.
    pub deliveries: u64,
    /// Why it was dead-lettered.
    pub reason: String,
    /// The original entry's data, as received (truncated when huge).
    pub original: String,
}

/// The answer to `GET /dead-letters`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DeadLetterList {
    /// Recent dead letters, newest first.
    pub dead_letters: Vec<DeadLetterEntry>,
}

/// `GET /agents`: every live agent.
pub async fn live(State(api): State<ApiState>) -> Result<Json<AgentList>, ApiError> {
    let live = Registry::new(api.state.clone())
        .live_agents()
        .await
        .map_err(ApiError::from_bus)?;
    let now = now_ms();
    let agents = live
        .into_iter()
        .map(|a| AgentEntry {
            age_ms: now.saturating_sub(a.beat_ms),
            last_beat_ms: a.beat_ms,
            instance: a.heartbeat.instance,
            role: a.heartbeat.role,
            pool: a.heartbeat.pool,
            tools: a.heartbeat.tools.into_iter().map(|t| t.name).collect(),
            ttl_ms: a.heartbeat.ttl_ms,
        })
        .collect();
    Ok(Json(AgentList { agents }))
}

/// `GET /dead-letters?limit=N`: the last entries of `dead_letter`, newest first.
pub async fn dead_letters(
    State(api): State<ApiState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<DeadLetterList>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request("invalid_query", &e.body_text()))?;
    let limit = super::clamp(query.limit, DEFAULT_LIMIT);
    let msgs = api
        .bus
        .recent(&Topic::dead_letter(), limit)
        .await
        .map_err(ApiError::from_bus)?;
    let dead_letters = msgs
        .into_iter()
        .rev()
        .filter_map(|m| {
            let t = sent_us(&m);
            let task_id = m.task_id.clone();
            match m.payload {
                Payload::DeadLetter(d) => Some(DeadLetterEntry {
                    task_id,
                    sent_us: t,
                    time: clock(t),
                    topic: d.topic,
                    entry_id: d.entry_id,
                    role: d.role,
                    deliveries: d.deliveries,
                    reason: d.reason,
                    original: d.original,
                }),
                _ => None,
            }
        })
        .collect();
    Ok(Json(DeadLetterList { dead_letters }))
}
