//! Settings of every Chorus process: a TOML file (optional) overlaid by environment
//! variables such as `CHORUS__AGENTS__DEADLINE_MS=5000` or
//! `CHORUS__POOLS__MATH__MCP_URL=http://math:7301/mcp`, validated at start.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

/// Settings of the agents.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct AgentSettings {
    /// How long a task may take before the Chief reports what finished.
    pub deadline_ms: u64,
    /// Deliveries in progress at once per role and process (back-pressure beyond it).
    pub max_in_flight: usize,
    /// How often the Chief looks for tasks past their deadline.
    pub deadline_tick_ms: u64,
    /// Attempts to reach an MCP server for one step.
    pub mcp_attempts: u32,
    /// Wait before the second attempt, doubled each time.
    pub mcp_backoff_ms: u64,
    /// Longest one MCP tool call may take.
    pub mcp_call_timeout_ms: u64,
    /// How often each agent announces itself in the live registry; an agent missing
    /// three beats counts as down.
    pub heartbeat_ms: u64,
    /// Where the Chief serves its HTTP API (`POST /chat/stream`, `/tasks`, `/healthz`);
    /// empty to serve none.
    pub http_bind: String,
}

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings {
            deadline_ms: 10_000,
            max_in_flight: 256,
            deadline_tick_ms: 100,
            mcp_attempts: 4,
            mcp_backoff_ms: 100,
            mcp_call_timeout_ms: 5_000,
            heartbeat_ms: 1_000,
            http_bind: "127.0.0.1:8080".to_owned(),
        }
    }
}

/// Where a pool's MCP server is.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct PoolSettings {
    /// Streamable HTTP endpoint, e.g. `http://127.0.0.1:7301/mcp`.
    #[serde(default)]
    pub mcp_url: Option<String>,
    /// Or a command line to run as a stdio MCP server (program and arguments separated
    /// by spaces, e.g. `chorus-mcp-math --transport stdio`); wins over `mcp_url`.
    #[serde(default)]
    pub mcp_command: Option<String>,
}

/// All settings of a Chorus process.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The bus (Redis URL, batching, claiming, caps).
    pub bus: chorus_bus::settings::BusSettings,
    /// The agents.
    pub agents: AgentSettings,
    /// The pools by name.
    pub pools: BTreeMap<String, PoolSettings>,
    /// The language model (optional: without one, the heuristic planner and templates).
    pub llm: chorus_llm::LlmSettings,
}

impl Default for Settings {
    fn default() -> Self {
        let mut pools = BTreeMap::new();
        pools.insert(
            "math".to_owned(),
            PoolSettings {
                mcp_url: Some("http://127.0.0.1:7301/mcp".into()),
                mcp_command: None,
            },
        );
        pools.insert(
            "date".to_owned(),
            PoolSettings {
                mcp_url: Some("http://127.0.0.1:7302/mcp".into()),
                mcp_command: None,
            },
        );
        Settings {
            bus: Default::default(),
            agents: Default::default(),
            pools,
            llm: Default::default(),
        }
    }
}

/// A setting is wrong; the text names the key.
#[derive(Debug, thiserror::Error)]
#[error("invalid setting {key}: {reason}")]
pub struct SettingsError {
    /// The key, as in the file (`agents.deadline_ms`) or environment.
    pub key: String,
    /// What is wrong.
    pub reason: String,
}

impl Settings {
    /// Loads defaults, then `file` (when given), then `CHORUS__…` environment variables.
    pub fn load(file: Option<&Path>) -> Result<Settings, SettingsError> {
        let mut builder = config::Config::builder();
        for (pool, port) in [("math", 7301), ("date", 7302)] {
            builder = builder
                .set_default(
                    format!("pools.{pool}.mcp_url"),
                    format!("http://127.0.0.1:{port}/mcp"),
                )
                .map_err(|e| SettingsError {
                    key: format!("pools.{pool}"),
                    reason: e.to_string(),
                })?;
        }
        if let Some(f) = file {
            builder = builder.add_source(config::File::from(f).required(true));
        }
        builder = builder.add_source(
            config::Environment::with_prefix("CHORUS")
                .prefix_separator("__")
                .separator("__")
                .try_parsing(true),
        );
        let loaded = builder.build().map_err(|e| SettingsError {
            key: "file".into(),
            reason: e.to_string(),
        })?;
        let settings: Settings = loaded.try_deserialize().map_err(|e| SettingsError {
            key: config_error_key(&e),
            reason: e.to_string(),
        })?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks values are in range.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.bus.validate().map_err(|e| SettingsError {
            key: "bus".into(),
            reason: e.to_string(),
        })?;
        let bad = |key: &str, reason: &str| {
            Err(SettingsError {
                key: key.into(),
                reason: reason.into(),
            })
        };
        if self.agents.deadline_ms == 0 {
            return bad("agents.deadline_ms", "must be above 0");
        }
        if self.agents.max_in_flight == 0 {
            return bad("agents.max_in_flight", "must be above 0");
        }
        if self.agents.heartbeat_ms == 0 {
            return bad("agents.heartbeat_ms", "must be above 0");
        }
        if self.agents.deadline_tick_ms == 0 {
            return bad("agents.deadline_tick_ms", "must be above 0");
        }
        for (name, pool) in &self.pools {
            if !chorus_bus::topic::is_pool_name(name) {
                return bad(
                    &format!("pools.{name}"),
                    "a pool name is lowercase letters, digits and '-'",
                );
            }
            if pool.mcp_url.is_none() && pool.mcp_command.is_none() {
                return bad(
                    &format!("pools.{name}.mcp_url"),
                    "give mcp_url or mcp_command",
                );
            }
        }
        Ok(())
    }

    /// The pool names.
    pub fn pool_names(&self) -> Vec<String> {
        self.pools.keys().cloned().collect()
    }

    /// The deadline of a task.
    pub fn deadline(&self) -> Duration {
        Duration::from_millis(self.agents.deadline_ms)
    }

    /// How long task state is kept.
    pub fn state_ttl(&self) -> Duration {
        self.bus.state_ttl()
    }
}

/// The key a `config` error is about, when it names one.
fn config_error_key(e: &config::ConfigError) -> String {
    let text = e.to_string();
    text.split("for key `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .map(str::to_owned)
        .unwrap_or_else(|| "settings".to_owned())
}
