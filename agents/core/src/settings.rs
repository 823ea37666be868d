//! Settings of every Chorus process: a TOML file (optional) overlaid by environment
//! variables such as `CHORUS__AGENTS__DEADLINE_MS=5000` or
//! `CHORUS__POOLS__MATH__MCP_URL=http://math:7301/mcp`, validated at start.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use chorus_bus::PoolName;
use serde::Deserialize;

/// Settings of the agents.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AgentSettings {
    /// How long a task may take before the Chief reports what finished.
    pub deadline_ms: u64,
    /// Deliveries in progress at once per role and process (back-pressure beyond it).
    /// A handler waiting on something outside its role (a pool with no live agent, an
    /// MCP server's backoff, a model call) gives its place back meanwhile, so the places
    /// bound the work a process holds, not the tasks it can wait for. 64 (the default;
    /// 256 before): at 256 tasks in flight the pool agent, the chief, the synthesizer and
    /// the planner peaked 1.9–3.9 MiB lower than with 256 places, throughput within the
    /// noise (docs/performance.md, "seventh part of issue 31").
    pub max_in_flight: usize,
    /// With `runtime = "multi_thread"`, the worker threads of each `chorus` process's
    /// async runtime; 0 (the default) leaves the choice to tokio: `TOKIO_WORKER_THREADS`,
    /// or one per core. Each worker costs a thread and its allocator heap
    /// (docs/performance.md, "Where the memory goes").
    pub worker_threads: usize,
    /// The async runtime's flavour: `current_thread` (the default: every task on the
    /// main thread, no worker threads, so no thread heaps beside the main one;
    /// `worker_threads` is then unused) or `multi_thread` (`worker_threads` workers that
    /// steal each other's tasks). A role's work is I/O-bound; at 256 in flight on two
    /// cores `current_thread` lowered each loaded role's peak RSS by 1.0–2.5 MiB at no
    /// more CPU per task (docs/performance.md, "Memory per process, the heap and the
    /// runtime").
    pub runtime: RuntimeFlavor,
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
    /// Attempts at a task in all (the first included): after an attempt whose steps
    /// failed for a reason that can pass (unreachable server, timeout, no live agent),
    /// the Planner re-plans what failed while attempts and time are left.
    pub max_iterations: u32,
    /// How long planning waits for a pool with no live agent (and a re-run step for
    /// its server to answer again) before saying the pool is down; never past the
    /// task's deadline.
    pub pool_wait_ms: u64,
    /// How long a conversation's turns (`context.session_id`) are kept after its last
    /// turn, so a follow-up can use an earlier answer.
    pub session_ttl_secs: u64,
    /// Most questions the Planner asks about one task; an answer that still does not
    /// settle the last one gets a refusal saying what Chorus can do.
    pub max_questions: u32,
    /// How long a task waits for the answer to its question (its deadline paused
    /// meanwhile) before it ends with one report, status `unanswered`.
    pub answer_timeout_ms: u64,
    /// Where the Chief serves its HTTP API (`POST /chat/stream`, `/tasks`, `/healthz`);
    /// empty to serve none.
    pub http_bind: String,
}

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings {
            deadline_ms: 10_000,
            max_in_flight: 64,
            worker_threads: 0,
            runtime: RuntimeFlavor::CurrentThread,
            deadline_tick_ms: 100,
            mcp_attempts: 4,
            mcp_backoff_ms: 100,
            mcp_call_timeout_ms: 5_000,
            heartbeat_ms: 1_000,
            max_iterations: 3,
            pool_wait_ms: 5_000,
            session_ttl_secs: 3_600,
            max_questions: 3,
            answer_timeout_ms: 300_000,
            http_bind: "127.0.0.1:8080".to_owned(),
        }
    }
}

/// The flavour of a process's async runtime (`agents.runtime`).
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RuntimeFlavor {
    /// Worker threads (`agents.worker_threads`) that steal each other's tasks.
    MultiThread,
    /// Every task on the thread that started the runtime.
    CurrentThread,
}

/// Where a pool's MCP server is.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PoolSettings {
    /// Streamable HTTP endpoint, e.g. `http://127.0.0.1:7301/mcp`.
    #[serde(default)]
    pub mcp_url: Option<String>,
    /// Or a command line to run as a stdio MCP server (program and arguments separated
    /// by spaces, e.g. `chorus-mcp-math --transport stdio`); wins over `mcp_url`.
    #[serde(default)]
    pub mcp_command: Option<String>,
    /// The name of an environment variable holding the bearer token the pool's agents
    /// send to an MCP server over Streamable HTTP (`Authorization: Bearer …`); unset to
    /// send none. The token itself is never a setting, so it never shows in a file.
    #[serde(default)]
    pub mcp_token_env: Option<String>,
}

/// Who may use the Chief's HTTP doors and how often (`[http]`). With neither
/// `tokens_file` nor `tokens_env` set, the doors take requests without a token.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HttpSettings {
    /// A file of bearer tokens, one per line (`#` starts a comment, blank lines skipped).
    pub tokens_file: Option<String>,
    /// The name of an environment variable holding bearer tokens (separated by commas
    /// or white space).
    pub tokens_env: Option<String>,
    /// Requests per second each token (or, with tokens off, all clients together) may
    /// make; `0` (the default) for no limit.
    pub rate_per_sec: u32,
    /// Requests a token may make at once above its rate; `0` for the rate itself.
    pub burst: u32,
    /// Host names (`name`, or `name:port`) the `Host` header may carry besides the
    /// loopback ones (`localhost`, `127.0.0.1`, `[::1]`, any port), which are always
    /// accepted; `*` accepts any host. A list, or one string separated by commas (for
    /// `CHORUS__HTTP__ALLOWED_HOSTS`).
    #[serde(deserialize_with = "names_or_list")]
    pub allowed_hosts: Vec<String>,
    /// The longest a request's headers may take, in milliseconds (from the connection,
    /// or from the first byte of the next request on a kept-alive one).
    pub header_timeout_ms: u64,
    /// The longest a request's body may take, in milliseconds (then 408).
    pub body_timeout_ms: u64,
    /// The longest a kept-alive connection may wait for its next request, in
    /// milliseconds.
    pub idle_timeout_ms: u64,
}

impl Default for HttpSettings {
    fn default() -> Self {
        HttpSettings {
            tokens_file: None,
            tokens_env: None,
            rate_per_sec: 0,
            burst: 0,
            allowed_hosts: Vec::new(),
            header_timeout_ms: 10_000,
            body_timeout_ms: 30_000,
            idle_timeout_ms: 60_000,
        }
    }
}

/// A list of names, or one string of them separated by commas (an environment
/// variable's value).
fn names_or_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Names {
        One(String),
        List(Vec<String>),
    }
    let names = match Names::deserialize(d)? {
        Names::One(text) => text.split(',').map(str::to_owned).collect(),
        Names::List(list) => list,
    };
    Ok(names
        .into_iter()
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty())
        .collect())
}

impl HttpSettings {
    /// True when the doors ask for a token.
    pub fn auth_on(&self) -> bool {
        self.tokens_file.is_some() || self.tokens_env.is_some()
    }
}

/// All settings of a Chorus process. Every section refuses keys it does not know, so
/// a typo (`[agents] deadine_ms`) stops the process at start with the key named.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The bus (Redis URL, batching, claiming, caps).
    pub bus: chorus_bus::settings::BusSettings,
    /// The agents.
    pub agents: AgentSettings,
    /// The pools by name.
    pub pools: BTreeMap<PoolName, PoolSettings>,
    /// The language model (optional: without one, the heuristic planner and templates).
    pub llm: chorus_llm::LlmSettings,
    /// The Chief's HTTP doors: bearer tokens and a rate limit (both off by default).
    pub http: HttpSettings,
    /// Metrics and traces: where `/metrics` is served, where traces go (off by default).
    pub telemetry: chorus_telemetry::TelemetrySettings,
}

/// The pools configured when nothing says otherwise: each name and the local port of its
/// MCP server (`http://127.0.0.1:<port>/mcp`). The one place a pool name is written
/// into the settings.
const DEFAULT_POOLS: [(&str, u16); 2] = [("math", 7301), ("date", 7302)];

/// The MCP URL of a default pool whose server listens on `port`.
fn default_mcp_url(port: u16) -> String {
    format!("http://127.0.0.1:{port}/mcp")
}

impl Default for Settings {
    fn default() -> Self {
        let mut pools = BTreeMap::new();
        for (pool, port) in DEFAULT_POOLS {
            pools.insert(
                pool.into(),
                PoolSettings {
                    mcp_url: Some(default_mcp_url(port)),
                    mcp_command: None,
                    mcp_token_env: None,
                },
            );
        }
        Settings {
            bus: Default::default(),
            agents: Default::default(),
            pools,
            llm: Default::default(),
            http: Default::default(),
            telemetry: Default::default(),
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
        for (pool, port) in DEFAULT_POOLS {
            builder = builder
                .set_default(format!("pools.{pool}.mcp_url"), default_mcp_url(port))
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
        let settings: Settings = loaded.try_deserialize().map_err(|e| {
            let reason = e.to_string();
            SettingsError {
                key: config_error_key(&e, &reason),
                reason,
            }
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
        for (key, ms) in [
            ("http.header_timeout_ms", self.http.header_timeout_ms),
            ("http.body_timeout_ms", self.http.body_timeout_ms),
            ("http.idle_timeout_ms", self.http.idle_timeout_ms),
        ] {
            if ms == 0 {
                return bad(key, "must be above 0");
            }
        }
        if self.agents.max_iterations == 0 {
            return bad(
                "agents.max_iterations",
                "must be at least 1 (the first attempt)",
            );
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
    pub fn pool_names(&self) -> Vec<PoolName> {
        self.pools.keys().cloned().collect()
    }

    /// The deadline of a task.
    pub fn deadline(&self) -> Duration {
        Duration::from_millis(self.agents.deadline_ms)
    }

    /// How long planning waits for a pool with no live agent (`agents.pool_wait_ms`).
    pub fn pool_wait(&self) -> Duration {
        Duration::from_millis(self.agents.pool_wait_ms)
    }

    /// How long a conversation's turns are kept (`agents.session_ttl_secs`).
    pub fn session_ttl(&self) -> Duration {
        Duration::from_secs(self.agents.session_ttl_secs)
    }

    /// How long a question waits for its answer (`agents.answer_timeout_ms`).
    pub fn answer_timeout(&self) -> Duration {
        Duration::from_millis(self.agents.answer_timeout_ms)
    }

    /// How long task state is kept.
    pub fn state_ttl(&self) -> Duration {
        self.bus.state_ttl()
    }
}

/// The key a `config` error is about, when it names one: `section.key` for a key a
/// section does not know (serde names the field, `config` the section).
fn config_error_key(e: &config::ConfigError, text: &str) -> String {
    let quoted = |after: &str| {
        text.split(after)
            .nth(1)
            .and_then(|rest| rest.split('`').next())
            .map(str::to_owned)
    };
    let section = match e {
        config::ConfigError::At { key: Some(k), .. } => Some(k.clone()),
        _ => quoted("for key `"),
    };
    match (section, quoted("unknown field `")) {
        (Some(section), Some(field)) => format!("{section}.{field}"),
        (None, Some(field)) => field,
        (Some(section), None) => section,
        (None, None) => "settings".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> tempfile::NamedTempFile {
        let file = tempfile::Builder::new()
            .suffix(".toml")
            .tempfile()
            .expect("temp file");
        std::fs::write(file.path(), text).expect("write");
        file
    }

    #[test]
    fn a_misspelt_key_in_any_section_is_named() {
        for (text, key) in [
            ("[agents]\ndeadine_ms = 5000\n", "agents.deadine_ms"),
            ("[pools.math]\nmcp_ulr = \"http://x/mcp\"\n", "mcp_ulr"),
            ("[llm]\nbase_ur = \"http://x/v1\"\n", "base_ur"),
            ("[bus]\nblok_ms = 5\n", "blok_ms"),
            ("[agent]\ndeadline_ms = 5\n", "agent"),
        ] {
            let file = write(text);
            let err = Settings::load(Some(file.path())).expect_err(text);
            assert!(err.to_string().contains(key), "{text}: {err}");
        }
    }

    #[test]
    fn known_keys_load() {
        let file =
            write("[agents]\ndeadline_ms = 5000\n[pools.math]\nmcp_url = \"http://x/mcp\"\n");
        let settings = Settings::load(Some(file.path())).expect("valid");
        assert_eq!(settings.agents.deadline_ms, 5000);
        assert_eq!(
            settings.pools["math"].mcp_url.as_deref(),
            Some("http://x/mcp")
        );
    }

    #[test]
    fn worker_threads_default_to_tokios_choice() {
        assert_eq!(Settings::default().agents.worker_threads, 0);
        let file = write("[agents]\nworker_threads = 1\n");
        let settings = Settings::load(Some(file.path())).expect("valid");
        assert_eq!(settings.agents.worker_threads, 1);
    }

    #[test]
    fn runtime_flavour_defaults_to_current_thread_and_reads_multi_thread() {
        assert_eq!(
            Settings::default().agents.runtime,
            RuntimeFlavor::CurrentThread
        );
        let file = write("[agents]\nruntime = \"multi_thread\"\n");
        let settings = Settings::load(Some(file.path())).expect("valid");
        assert_eq!(settings.agents.runtime, RuntimeFlavor::MultiThread);
        let typo = write("[agents]\nruntime = \"single\"\n");
        assert!(Settings::load(Some(typo.path())).is_err());
    }
}
