//! Payloads about agents and the bus itself: a dead letter, a heartbeat and its tools.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ids::PoolName;

/// `dead_letter`: a message that could not be handled, with why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeadLetter {
    /// The stream (topic) it was read from.
    pub topic: String,
    /// Its stream entry id.
    pub entry_id: String,
    /// The consumer group (role) that gave up on it.
    pub role: String,
    /// How many times it was delivered.
    pub deliveries: u64,
    /// Why it was dead-lettered.
    pub reason: String,
    /// The original entry's `data` field, as received (truncated when huge).
    pub original: String,
}

/// A tool an agent offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolInfo {
    /// Tool name.
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
    /// Its input JSON Schema.
    #[serde(default)]
    pub input_schema: serde_json::Value,
}

/// `agent_heartbeat`: an agent is alive (and, for pool agents, which tools it offers).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AgentHeartbeat {
    /// The role (`chief`, `planner`, `router`, `pool`, `synthesizer`).
    pub role: String,
    /// Unique per process start.
    pub instance: String,
    /// The pool, for pool agents.
    #[serde(default)]
    pub pool: Option<PoolName>,
    /// The tools offered, for pool agents.
    #[serde(default)]
    pub tools: Vec<ToolInfo>,
    /// How long this heartbeat is valid, in milliseconds.
    pub ttl_ms: u64,
}
