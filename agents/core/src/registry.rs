//! The live registry: every agent process announces itself (role, instance, pool, the
//! tools its MCP server offers) with a heartbeat that expires. The Planner plans only
//! with tools that a live agent offers, and "what can you do?" is answered from here.

use std::time::Duration;

use chorus_bus::{AgentHeartbeat, BusError, Message, Payload, Topic, now_ms};
use chorus_heuristic::Capabilities;
use serde::{Deserialize, Serialize};

use crate::state::TaskState;
use crate::topology::{Role, Topology};

/// The hash of live agents: field = instance, value = [`Entry`] JSON.
pub const AGENTS_KEY: &str = chorus_bus::keys::AGENTS;

/// A registry entry: the heartbeat and when it stops counting.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    heartbeat: AgentHeartbeat,
    expires_ms: u64,
}

/// A live agent: its last heartbeat and when it was recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveAgent {
    /// The heartbeat.
    pub heartbeat: AgentHeartbeat,
    /// When it was recorded, in milliseconds since the Unix epoch.
    pub beat_ms: u64,
}

/// Reads and writes the registry in the shared store.
#[derive(Clone)]
pub struct Registry {
    state: TaskState,
}

impl Registry {
    /// The registry in `state`'s store.
    pub fn new(state: TaskState) -> Self {
        Registry { state }
    }

    /// Records `heartbeat` as live for its `ttl_ms`.
    pub async fn beat(&self, heartbeat: &AgentHeartbeat) -> Result<(), BusError> {
        let entry = Entry {
            heartbeat: heartbeat.clone(),
            expires_ms: now_ms().saturating_add(heartbeat.ttl_ms),
        };
        let json = serde_json::to_string(&entry).map_err(chorus_bus::DecodeError::from)?;
        self.state
            .store()
            .hset(AGENTS_KEY, &heartbeat.instance, &json, self.state.ttl())
            .await
    }

    /// Removes an instance (on clean shutdown).
    pub async fn leave(&self, instance: &str) -> Result<(), BusError> {
        self.state.store().hdel(AGENTS_KEY, instance).await
    }

    /// Every live agent's last heartbeat; expired entries are removed on the way.
    pub async fn live(&self) -> Result<Vec<AgentHeartbeat>, BusError> {
        let live = self.live_agents().await?;
        Ok(live.into_iter().map(|a| a.heartbeat).collect())
    }

    /// Every live agent's last heartbeat with when it was recorded, by role and
    /// instance; expired entries are removed on the way.
    pub async fn live_agents(&self) -> Result<Vec<LiveAgent>, BusError> {
        let now = now_ms();
        let mut live = Vec::new();
        for (instance, json) in self.state.store().hgetall(AGENTS_KEY).await? {
            match serde_json::from_str::<Entry>(&json) {
                Ok(e) if e.expires_ms > now => live.push(LiveAgent {
                    beat_ms: e.expires_ms.saturating_sub(e.heartbeat.ttl_ms),
                    heartbeat: e.heartbeat,
                }),
                _ => self.state.store().hdel(AGENTS_KEY, &instance).await?,
            }
        }
        live.sort_by(|a, b| {
            let (a, b) = (&a.heartbeat, &b.heartbeat);
            (&a.role, &a.instance).cmp(&(&b.role, &b.instance))
        });
        Ok(live)
    }

    /// The tools live pool agents offer, as the planner's capabilities.
    pub async fn capabilities(&self) -> Result<Capabilities, BusError> {
        let live = self.live().await?;
        Ok(capabilities_of(&live))
    }
}

/// The (pool, tool) pairs offered by `agents`.
pub fn capabilities_of(agents: &[AgentHeartbeat]) -> Capabilities {
    Capabilities::from_tools(agents.iter().flat_map(|a| {
        a.pool
            .iter()
            .flat_map(move |p| a.tools.iter().map(move |t| (p.clone(), t.name.clone())))
    }))
}

/// The roles of `topology` with no live agent among `live` (the Chief included: the
/// caller asking is usually beside one, or is one).
pub fn missing_roles(live: &[AgentHeartbeat], topology: &Topology) -> Vec<Role> {
    topology
        .roles()
        .into_iter()
        .filter(|role| !live.iter().any(|a| a.role == role.group()))
        .collect()
}

/// Beats every `interval` until `shutdown`, with heartbeats made by `make` (so a pool's
/// tool list stays current), also publishing each on `agent_heartbeat` for watchers.
pub async fn heartbeat_loop<F, Fut>(
    registry: Registry,
    bus: std::sync::Arc<dyn chorus_bus::Bus>,
    interval: Duration,
    mut make: F,
    mut shutdown: crate::runtime::Shutdown,
) where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = AgentHeartbeat>,
{
    loop {
        let hb = make().await;
        if let Err(e) = registry.beat(&hb).await {
            tracing::warn!(error = %e, "heartbeat failed");
        }
        let msg = Message::new(
            hb.instance.clone(),
            Topic::agent_heartbeat(),
            hb.instance.clone(),
            Payload::AgentHeartbeat(hb.clone()),
        );
        let _ = bus.publish(&msg).await;
        tokio::select! {
            _ = tokio::time::sleep(interval) => {}
            _ = shutdown.requested() => {
                let _ = registry.leave(&hb.instance).await;
                return;
            }
        }
    }
}
