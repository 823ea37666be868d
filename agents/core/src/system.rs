//! Starting roles: builds each role's handler on a bus and store, and runs its loop.
//! Used by `chorus agent ROLE` (one role per process) and by the one-process mode
//! (every role in one process on the in-memory bus) alike, so both run the same code;
//! `chorus-pool` runs a pool agent through [`run_pool`], the same code without the other
//! roles.

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::{AgentHeartbeat, Bus, PoolName, Store, Subscription, ToolInfo};
use futures::FutureExt;
use tokio::task::JoinSet;

use crate::registry::{Registry, heartbeat_loop};

use crate::roles::pool::{Connector, PoolAgent, Retry};
use crate::roles::synthesizer::Synthesizer;
use crate::roles::{Ctx, chief::Chief, planner::Planner, router::Router, verifier::Verifier};
use crate::runtime::{Handler, Shutdown, run_loop};
use crate::settings::Settings;
use crate::state::TaskState;
use crate::topology::{Role, Topology};

/// The shared infrastructure a role runs on.
#[derive(Clone)]
pub struct Infra {
    /// The bus.
    pub bus: Arc<dyn Bus>,
    /// The state store.
    pub store: Arc<dyn Store>,
}

/// Runs `role` until shutdown. `connector` is required for pool roles.
pub async fn run_role(
    role: Role,
    infra: Infra,
    settings: &Settings,
    connector: Option<Connector>,
    shutdown: Shutdown,
) -> Result<(), RoleError> {
    let state = TaskState::for_settings(infra.store.clone(), settings);
    let group = role.group();
    let ctx = Ctx::new(infra.bus.clone(), state.clone(), &group);
    let instance = ctx.instance.clone();
    let mut pool: Option<Arc<PoolAgent>> = None;
    let pools = settings.pool_names();
    // Every plan is checked where it runs; a model's plans may be as long as its limit.
    let max_steps = settings.llm.max_steps.max(chorus_heuristic::MAX_STEPS);
    let mut tasks = JoinSet::new();
    let handler: Arc<dyn Handler> = match &role {
        Role::Chief => {
            let chief = Arc::new(
                Chief::new(ctx, settings.deadline()).with_answer_timeout(settings.answer_timeout()),
            );
            let watcher = chief.clone();
            let tick = Duration::from_millis(settings.agents.deadline_tick_ms);
            let s = shutdown.clone();
            tasks.spawn(async move {
                watcher.watch_deadlines(tick, s).await;
                Ok(())
            });
            chief
        }
        Role::Planner => Arc::new(
            Planner::new(ctx, Registry::new(state.clone()), pools.clone())
                .with_llm(
                    crate::llm::planner(&settings.llm)?,
                    crate::llm::Limits::of(settings),
                )
                .with_pool_wait(settings.pool_wait())
                .with_call_timeout(Duration::from_millis(settings.agents.mcp_call_timeout_ms))
                .with_questions(crate::roles::planner::Questions {
                    max: settings.agents.max_questions,
                    answer_timeout: settings.answer_timeout(),
                }),
        ),
        Role::Router => Arc::new(Router::new(ctx, pools.clone()).with_max_steps(max_steps)),
        Role::Synthesizer => Arc::new(
            Synthesizer::new(ctx, pools.clone())
                .with_max_steps(max_steps)
                .with_llm(
                    crate::llm::synthesizer(&settings.llm)?,
                    crate::llm::Limits::of(settings),
                )
                .with_max_iterations(settings.agents.max_iterations)
                .with_verifier(crate::llm::verifier(&settings.llm)?),
        ),
        Role::Verifier => Arc::new(Verifier::new(ctx)),
        Role::Pool(name) => {
            let agent = pool_agent(ctx, name, settings, connector)?;
            pool = Some(agent.clone());
            agent
        }
    };
    let parts = Parts {
        role,
        instance,
        handler,
        pool,
        tasks,
    };
    serve(parts, infra, settings, state, shutdown).await
}

/// Runs pool agent `pool` until shutdown: what [`run_role`] does for `Role::Pool`, without
/// naming any other role, so that a binary running only pool agents (`chorus-pool`)
/// links none of their code (the planner's tables, the language model clients).
pub async fn run_pool(
    pool: &PoolName,
    infra: Infra,
    settings: &Settings,
    connector: Connector,
    shutdown: Shutdown,
) -> Result<(), RoleError> {
    let role = Role::Pool(pool.clone());
    let state = TaskState::for_settings(infra.store.clone(), settings);
    let ctx = Ctx::new(infra.bus.clone(), state.clone(), &role.group());
    let instance = ctx.instance.clone();
    let agent = pool_agent(ctx, pool, settings, Some(connector))?;
    let parts = Parts {
        role,
        instance,
        handler: agent.clone(),
        pool: Some(agent),
        tasks: JoinSet::new(),
    };
    serve(parts, infra, settings, state, shutdown).await
}

/// A role's handler built, with what runs beside it.
struct Parts {
    role: Role,
    /// This process's instance name (the registry's key).
    instance: String,
    handler: Arc<dyn Handler>,
    /// The pool agent, whose heartbeat lists its server's tools.
    pool: Option<Arc<PoolAgent>>,
    /// Tasks started with the handler (the Chief's deadline watcher).
    tasks: JoinSet<Result<(), RoleError>>,
}

/// The pool agent of `pool`, with its retry settings and its server's bearer token.
fn pool_agent(
    ctx: Ctx,
    pool: &PoolName,
    settings: &Settings,
    connector: Option<Connector>,
) -> Result<Arc<PoolAgent>, RoleError> {
    let connector = connector.ok_or_else(|| RoleError::NoServer(pool.to_string()))?;
    if let Some(cfg) = settings.pools.get(pool.as_str())
        && let (Some(url), Some(name)) = (&cfg.mcp_url, &cfg.mcp_token_env)
    {
        // The pool's sessions to its server send this bearer token.
        let token = chorus_mcp_common::BearerToken::from_env(name)
            .map_err(|e| RoleError::McpToken(pool.to_string(), e.to_string()))?;
        chorus_mcp_common::token::use_token_for(url, token);
    }
    let retry = Retry {
        attempts: settings.agents.mcp_attempts,
        initial_backoff: Duration::from_millis(settings.agents.mcp_backoff_ms),
        call_timeout: Duration::from_millis(settings.agents.mcp_call_timeout_ms),
    };
    Ok(Arc::new(PoolAgent::new(ctx, pool, pool, connector, retry)))
}

/// Runs a built role: its heartbeat and its loop over the topics it reads, beside the
/// tasks already in `parts`, until shutdown or the first failure.
async fn serve(
    parts: Parts,
    infra: Infra,
    settings: &Settings,
    state: TaskState,
    shutdown: Shutdown,
) -> Result<(), RoleError> {
    let Parts {
        role,
        instance,
        handler,
        pool,
        mut tasks,
    } = parts;
    let pools = settings.pool_names();
    let in_flight = settings.agents.max_in_flight;
    let group = role.group();
    let interval = Duration::from_millis(settings.agents.heartbeat_ms);
    let beat = Heartbeat {
        role: role.clone(),
        instance,
        pool,
        ttl: interval * 3,
        listed: Arc::default(),
    };
    tasks.spawn(
        heartbeat_loop(
            Registry::new(state),
            infra.bus.clone(),
            interval,
            move || beat.clone().make(),
            shutdown.clone(),
        )
        .map(Ok),
    );
    let topics = Topology::new(&pools).reads(&role);
    let takes_bare = role.takes_bare();
    let sub = Subscription::new(group, topics).as_door(takes_bare);
    let bus = infra.bus.clone();
    tasks.spawn(async move {
        run_loop(bus, sub, handler, in_flight, takes_bare, shutdown)
            .await
            .map_err(RoleError::Bus)
    });
    join_all(tasks).await
}

/// Waits for every task of a role (its loop, heartbeat, watchers, doors); the first
/// failure (or panic) ends the wait with its error.
pub async fn join_all(mut tasks: JoinSet<Result<(), RoleError>>) -> Result<(), RoleError> {
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(e),
            Err(e) => return Err(RoleError::Panicked(e.to_string())),
        }
    }
    Ok(())
}

/// What a role says about itself in the registry.
#[derive(Clone)]
struct Heartbeat {
    role: Role,
    instance: String,
    pool: Option<Arc<PoolAgent>>,
    ttl: Duration,
    /// The pool's last tool list and when it was read: a listing that fails once (a
    /// loaded machine, a slow server) keeps it for one `ttl` rather than calling the
    /// pool down at once.
    listed: Arc<std::sync::Mutex<Option<Listed>>>,
}

/// A pool's tool list and when it was read.
type Listed = (std::time::Instant, Vec<ToolInfo>);

impl Heartbeat {
    /// The current heartbeat; a pool agent lists its MCP server's tools (none when the
    /// server has been unreachable for longer than the heartbeat's `ttl`, which makes the
    /// pool count as down).
    async fn make(self) -> AgentHeartbeat {
        let (pool, tools) = match (&self.role, &self.pool) {
            (Role::Pool(name), Some(agent)) => {
                let listed = |tools: Vec<ToolInfo>| {
                    if let Ok(mut last) = self.listed.lock() {
                        *last = Some((std::time::Instant::now(), tools.clone()));
                    }
                    tools
                };
                let tools = match agent.tools().await {
                    Ok(tools) => listed(
                        tools
                            .into_iter()
                            .map(|t| ToolInfo {
                                name: t.name,
                                description: t.description,
                                input_schema: t.input_schema,
                            })
                            .collect(),
                    ),
                    Err(e) => {
                        let recent = self.listed.lock().ok().and_then(|last| {
                            last.as_ref()
                                .filter(|(at, _)| at.elapsed() < self.ttl)
                                .map(|(_, tools)| tools.clone())
                        });
                        match recent {
                            Some(tools) => {
                                tracing::warn!(pool = %name, error = %e, "MCP server did not list its tools; the last list is kept");
                                tools
                            }
                            None => {
                                tracing::warn!(pool = %name, error = %e, "MCP server unreachable; the pool counts as down");
                                Vec::new()
                            }
                        }
                    }
                };
                (Some(name.clone()), tools)
            }
            _ => (None, Vec::new()),
        };
        AgentHeartbeat {
            role: self.role.group(),
            instance: self.instance,
            pool,
            tools,
            ttl_ms: self.ttl.as_millis() as u64,
        }
    }
}

/// A role could not run.
#[derive(Debug, thiserror::Error)]
pub enum RoleError {
    /// The bus failed at start.
    #[error("bus: {0}")]
    Bus(#[from] chorus_bus::BusError),
    /// A pool role was started without a way to reach its MCP server.
    #[error("no MCP server configured for pool {0}")]
    NoServer(String),
    /// The pool's `mcp_token_env` names a variable holding no token.
    #[error("pool {0}: {1}")]
    McpToken(String, String),
    /// The HTTP gateway beside the Chief could not serve.
    #[error("HTTP API on {0}: {1}")]
    Http(String, std::io::Error),
    /// The language model settings cannot be used (`[llm]`).
    #[error("{0}")]
    Llm(#[from] crate::llm::LlmInitError),
    /// A role's task panicked.
    #[error("a role task panicked: {0}")]
    Panicked(String),
}
