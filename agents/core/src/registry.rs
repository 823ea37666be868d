//! The live registry: every agent process announces itself (role, instance, pool, the
//! tools its MCP server offers) with a heartbeat that expires. The Planner plans only
//! with tools that a live agent offers, and "what can you do?" is answered from here.

use std::time::Duration;

use chorus_bus::{AgentHeartbeat, BusError, Message, Payload, Topic, keys, now_ms};
use chorus_heuristic::Capabilities;
use futures::future::try_join_all;
use serde::{Deserialize, Serialize};

use crate::state::TaskState;
use crate::topology::{Role, Topology};

/// The most groups read from the registry's index (roles plus pools: far fewer).
const MAX_GROUPS: usize = 1024;

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

/// Reads and writes the registry in the shared store: one hash per consumer group
/// (`keys::registry`, written only by that group's agents, the only ones whose ACL user
/// may), and an index of the groups (`keys::REGISTRY`) every agent adds its own to.
#[derive(Clone)]
pub struct Registry {
    state: TaskState,
}

impl Registry {
    /// The registry in `state`'s store.
    pub fn new(state: TaskState) -> Self {
        Registry { state }
    }

    /// Records `heartbeat` as live for its `ttl_ms` in its group's hash (its `role`),
    /// and removes the group's entries that expired (agents that died without leaving).
    pub async fn beat(&self, heartbeat: &AgentHeartbeat) -> Result<(), BusError> {
        let now = now_ms();
        let entry = Entry {
            heartbeat: heartbeat.clone(),
            expires_ms: now.saturating_add(heartbeat.ttl_ms),
        };
        let json = serde_json::to_string(&entry).map_err(chorus_bus::DecodeError::from)?;
        let store = self.state.store();
        let key = keys::registry(&heartbeat.role);
        store
            .hset(&key, &heartbeat.instance, &json, self.state.ttl())
            .await?;
        let score = i64::try_from(now).unwrap_or(i64::MAX);
        store.zadd(keys::REGISTRY, &heartbeat.role, score).await?;
        for (instance, json) in store.hgetall(&key).await? {
            if live_entry(&json, now).is_none() {
                store.hdel(&key, &instance).await?;
            }
        }
        Ok(())
    }

    /// Removes `heartbeat`'s instance (on clean shutdown).
    pub async fn leave(&self, heartbeat: &AgentHeartbeat) -> Result<(), BusError> {
        let key = keys::registry(&heartbeat.role);
        self.state.store().hdel(&key, &heartbeat.instance).await
    }

    /// Every live agent's last heartbeat.
    pub async fn live(&self) -> Result<Vec<AgentHeartbeat>, BusError> {
        let live = self.live_agents().await?;
        Ok(live.into_iter().map(|a| a.heartbeat).collect())
    }

    /// Every live agent's last heartbeat with when it was recorded, by role and
    /// instance. Expired entries are skipped (their own group removes them: no reader
    /// may write another group's entries).
    pub async fn live_agents(&self) -> Result<Vec<LiveAgent>, BusError> {
        let store = self.state.store();
        let groups = store
            .zrange_to(keys::REGISTRY, i64::MAX, MAX_GROUPS)
            .await?;
        let hashes = try_join_all(
            groups
                .iter()
                .map(|group| async move { store.hgetall(&keys::registry(group)).await }),
        )
        .await?;
        let now = now_ms();
        let mut live: Vec<LiveAgent> = groups
            .iter()
            .zip(hashes)
            .flat_map(|(group, hash)| {
                hash.into_iter()
                    .filter_map(move |(_, json)| live_entry(&json, now))
                    .filter(move |a| belongs_to(&a.heartbeat, group))
            })
            .collect();
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

/// The agent an entry's `json` records, when it reads and has not expired at `now`.
fn live_entry(json: &str, now: u64) -> Option<LiveAgent> {
    match serde_json::from_str::<Entry>(json) {
        Ok(e) if e.expires_ms > now => Some(LiveAgent {
            beat_ms: e.expires_ms.saturating_sub(e.heartbeat.ttl_ms),
            heartbeat: e.heartbeat,
        }),
        _ => None,
    }
}

/// Whether `heartbeat` may stand in `group`'s hash: its role is the group, and a pool
/// agent's group is its pool's (`pool-<pool>`). So a pool's user, which writes its own
/// group's hash only, cannot announce an agent of another role or pool.
fn belongs_to(heartbeat: &AgentHeartbeat, group: &str) -> bool {
    heartbeat.role == group
        && match &heartbeat.pool {
            Some(pool) => group.strip_prefix("pool-") == Some(pool.as_str()),
            None => true,
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
                let _ = registry.leave(&hb).await;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chorus_bus::memory::MemoryStore;
    use chorus_bus::{Store, ToolInfo};

    use super::*;

    fn registry() -> (Registry, MemoryStore) {
        let store = MemoryStore::new();
        let state = TaskState::new(Arc::new(store.clone()), Duration::from_secs(60));
        (Registry::new(state), store)
    }

    /// The instances `registry` reads as live, in its order.
    async fn live_instances(registry: &Registry) -> Vec<String> {
        registry
            .live()
            .await
            .expect("live")
            .into_iter()
            .map(|a| a.instance)
            .collect()
    }

    fn beat(role: &str, instance: &str, pool: Option<&str>, ttl_ms: u64) -> AgentHeartbeat {
        AgentHeartbeat {
            role: role.into(),
            instance: instance.into(),
            pool: pool.map(chorus_bus::PoolName::from),
            tools: vec![ToolInfo {
                name: "sum".into(),
                description: String::new(),
                input_schema: serde_json::json!({"type": "object"}),
            }],
            ttl_ms,
        }
    }

    #[tokio::test]
    async fn each_group_beats_into_its_own_hash_and_readers_see_every_group() {
        let (registry, store) = registry();
        registry
            .beat(&beat("planner", "planner-1", None, 60_000))
            .await
            .expect("beat");
        registry
            .beat(&beat("pool-math", "pool-math-1", Some("math"), 60_000))
            .await
            .expect("beat");
        let live = live_instances(&registry).await;
        assert_eq!(live, ["planner-1", "pool-math-1"]);
        let math = store
            .hgetall(&keys::registry("pool-math"))
            .await
            .expect("hash");
        assert_eq!(math.len(), 1);
        assert_eq!(math[0].0, "pool-math-1");
        assert_eq!(
            store
                .zrange_to(keys::REGISTRY, i64::MAX, 10)
                .await
                .expect("index"),
            ["planner", "pool-math"]
        );
        registry
            .leave(&beat("pool-math", "pool-math-1", Some("math"), 60_000))
            .await
            .expect("leave");
        assert_eq!(registry.live().await.expect("live").len(), 1);
    }

    #[tokio::test]
    async fn an_entry_counts_only_in_its_own_group_and_expired_ones_go_at_the_next_beat() {
        let (registry, store) = registry();
        // What a pool's user could write in its own hash: an agent of another pool, or
        // of another role. Readers pass over both.
        let forged = [
            beat("pool-math", "fake-date", Some("date"), 60_000),
            beat("planner", "fake-planner", None, 60_000),
        ];
        for hb in forged {
            let entry = Entry {
                heartbeat: hb.clone(),
                expires_ms: now_ms() + 60_000,
            };
            let json = serde_json::to_string(&entry).expect("json");
            store
                .hset(
                    &keys::registry("pool-math"),
                    &hb.instance,
                    &json,
                    Duration::from_secs(60),
                )
                .await
                .expect("hset");
        }
        registry
            .beat(&beat("pool-math", "dead", Some("math"), 1))
            .await
            .expect("beat");
        tokio::time::sleep(Duration::from_millis(5)).await;
        registry
            .beat(&beat("pool-math", "alive", Some("math"), 60_000))
            .await
            .expect("beat");
        let live = live_instances(&registry).await;
        assert_eq!(live, ["alive"]);
        let fields: Vec<String> = store
            .hgetall(&keys::registry("pool-math"))
            .await
            .expect("hash")
            .into_iter()
            .map(|(f, _)| f)
            .collect();
        assert!(!fields.contains(&"dead".to_owned()), "{fields:?}");
    }
}
