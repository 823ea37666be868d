//! The one-process mode: every role and both MCP servers in this process, on the
//! in-memory bus and store. Same handlers, same loops as the distributed mode; only the
//! transport differs. For a newcomer with nothing but cargo, and for tests.

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::memory::MemoryBus;
use chorus_heuristic::dates::DATE_POOL;
use chorus_heuristic::expr::MATH_POOL;
use chorus_mcp_common::client::McpClient;

use chorus_core::registry::Registry;
use chorus_core::roles::pool::Connector;
use chorus_core::runtime::{Shutdown, ShutdownTrigger};
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use chorus_core::system::{Infra, run_role};
use chorus_core::topology::{Role, Topology};

/// A running one-process system.
pub struct LocalSystem {
    /// The in-memory bus and store every role shares.
    pub infra: Infra,
    trigger: ShutdownTrigger,
    tasks: tokio::task::JoinSet<()>,
}

/// A connector serving the pool's tools in this process: the built-in servers serve the
/// pools the tool contract (and the heuristic planner) name.
fn in_process(pool: &str) -> Option<Connector> {
    match pool {
        MATH_POOL => Some(Arc::new(|| {
            Box::pin(async { McpClient::in_process(chorus_mcp_math::MathServer::new()).await })
        })),
        DATE_POOL => Some(Arc::new(|| {
            Box::pin(async { McpClient::in_process(chorus_mcp_date::DateServer::new()).await })
        })),
        _ => None,
    }
}

impl LocalSystem {
    /// Starts every role (and the math and date pools with in-process MCP servers).
    pub async fn start(settings: Settings) -> LocalSystem {
        let bus = MemoryBus::new(settings.bus.clone());
        let store = Arc::new(bus.store());
        let bus = Arc::new(bus);
        let infra = Infra { bus, store };
        let (trigger, shutdown) = Shutdown::new();
        let mut tasks = tokio::task::JoinSet::new();
        let mut settings = settings;
        settings.pools.retain(|name, _| in_process(name).is_some());
        // One-process mode answers through the in-memory bus; it opens no port.
        settings.agents.http_bind.clear();
        for role in Topology::new(&settings.pool_names()).roles() {
            let connector = match &role {
                Role::Pool(p) => in_process(p),
                _ => None,
            };
            let (infra, settings, shutdown) = (infra.clone(), settings.clone(), shutdown.clone());
            tasks.spawn(async move {
                if let Err(e) = run_role(role.clone(), infra, &settings, connector, shutdown).await
                {
                    tracing::error!(?role, error = %e, "role stopped");
                }
            });
        }
        let system = LocalSystem {
            infra,
            trigger,
            tasks,
        };
        system.wait_ready(&settings, Duration::from_secs(10)).await;
        system
    }

    /// Waits until every pool has a live agent offering tools (the planner plans only
    /// with live tools), or `within` passes.
    async fn wait_ready(&self, settings: &Settings, within: Duration) {
        let state = TaskState::for_settings(self.infra.store.clone(), settings);
        let registry = Registry::new(state);
        let started = std::time::Instant::now();
        while started.elapsed() < within {
            if let Ok(caps) = registry.capabilities().await
                && settings
                    .pools
                    .keys()
                    .all(|p| caps.pool_names().contains(&p.as_str()))
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tracing::warn!("not every pool announced its tools in time");
    }

    /// Stops every role and waits for them.
    pub async fn stop(mut self) {
        self.trigger.trigger();
        while self.tasks.join_next().await.is_some() {}
    }
}
