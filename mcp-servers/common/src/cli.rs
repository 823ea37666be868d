//! The command line shared by every Chorus tool server binary.
//!
//! Each setting has an environment variable too, so a compose file can configure
//! a server without rewriting its command.

use std::net::{IpAddr, Ipv4Addr};

use clap::{Args, ValueEnum};
use rmcp::ServerHandler;

use crate::{
    http::{HttpSettings, ServeError, default_allowed_hosts, serve_http},
    stdio::serve_stdio,
    timeouts::Timeouts,
};

/// Which MCP transport a server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TransportKind {
    /// Newline-delimited JSON-RPC on stdin/stdout (spawned by the client).
    Stdio,
    /// MCP Streamable HTTP on `--bind`:`--port` at `--path`.
    Http,
}

/// Serving options shared by `chorus-mcp-math` and `chorus-mcp-date`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Transport to serve.
    #[arg(long, env = "CHORUS_MCP_TRANSPORT", value_enum, default_value_t = TransportKind::Http)]
    pub transport: TransportKind,
    /// Address to bind for HTTP (use 0.0.0.0 inside a container).
    #[arg(long, env = "CHORUS_MCP_BIND", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// TCP port for HTTP (default: the server's own port, 7301 math, 7302 date).
    #[arg(long, env = "CHORUS_MCP_PORT")]
    pub port: Option<u16>,
    /// Path of the MCP endpoint.
    #[arg(long, env = "CHORUS_MCP_PATH", default_value = "/mcp")]
    pub path: String,
    /// Accepted Host headers, comma separated (`*` accepts any host; use on a
    /// private network such as docker-compose only).
    #[arg(
        long,
        env = "CHORUS_MCP_ALLOWED_HOSTS",
        value_delimiter = ',',
        default_values_t = default_allowed_hosts()
    )]
    pub allowed_hosts: Vec<String>,
    /// Use stateful MCP sessions with SSE replies instead of stateless JSON replies.
    #[arg(long, env = "CHORUS_MCP_STATEFUL_SESSIONS")]
    pub stateful_sessions: bool,
    /// The name of an environment variable holding a bearer token: HTTP clients
    /// without `Authorization: Bearer <token>` get 401 (`/healthz` stays open).
    #[arg(long, env = "CHORUS_MCP_TOKEN_ENV")]
    pub token_env: Option<String>,
    /// Export traces over OTLP/HTTP to this collector (e.g. `http://collector:4318`);
    /// unset, traces are off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
    #[arg(long, env = "CHORUS__TELEMETRY__OTLP_ENDPOINT")]
    pub otlp_endpoint: Option<String>,
    /// Serve Prometheus metrics at `/metrics` on this address (e.g. 0.0.0.0:9464);
    /// none when absent. Open, without a token: it holds counts, no call data.
    #[arg(long, env = "CHORUS_MCP_METRICS_BIND", value_name = "ADDR")]
    pub metrics_bind: Option<String>,
    /// Close a connection whose request headers are not all in within this many
    /// milliseconds (from the connection, or the next request's first byte).
    #[arg(long, env = "CHORUS_MCP_HEADER_TIMEOUT_MS", value_name = "MS",
          default_value_t = Timeouts::HEADER_MS, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_ms: u64,
    /// Answer 408 and close when a request body has not all arrived within this many
    /// milliseconds.
    #[arg(long, env = "CHORUS_MCP_BODY_TIMEOUT_MS", value_name = "MS",
          default_value_t = Timeouts::BODY_MS, value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout_ms: u64,
    /// Close a kept-alive connection that sends no new request within this many
    /// milliseconds of its last response.
    #[arg(long, env = "CHORUS_MCP_IDLE_TIMEOUT_MS", value_name = "MS",
          default_value_t = Timeouts::IDLE_MS, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_ms: u64,
}

impl ServeArgs {
    /// The HTTP settings these arguments describe, with `default_port` when no
    /// port was given.
    pub fn http_settings(&self, default_port: u16) -> HttpSettings {
        HttpSettings {
            bind: self.bind,
            port: self.port.unwrap_or(default_port),
            path: self.path.clone(),
            allowed_hosts: self.allowed_hosts.clone(),
            stateful_sessions: self.stateful_sessions,
            token: self
                .token_env
                .as_deref()
                .and_then(|name| crate::token::BearerToken::from_env(name).ok()),
            timeouts: Timeouts::from_millis(
                self.header_timeout_ms,
                self.body_timeout_ms,
                self.idle_timeout_ms,
            ),
        }
    }
}

/// Name and default port of a server binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerIdentity {
    /// Server name, reported by `/healthz` and in logs.
    pub name: &'static str,
    /// HTTP port used when `--port` is not given.
    pub default_port: u16,
}

/// Logs to stderr (stdout may be the stdio transport), filtered by `CHORUS_LOG`
/// or else `RUST_LOG` (default `info,rmcp=warn`).
pub fn init_tracing() {
    let directives = std::env::var("CHORUS_LOG")
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| "info,rmcp=warn".into());
    let filter = tracing_subscriber::EnvFilter::try_new(&directives)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rmcp=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Runs a server binary: stdio until the client leaves, or HTTP until
/// Ctrl-C/SIGTERM.
pub async fn run_server<S, F>(
    factory: F,
    identity: ServerIdentity,
    args: &ServeArgs,
) -> Result<(), ServeError>
where
    S: ServerHandler + crate::http::DirectCall,
    F: Fn() -> S + Send + Sync + 'static,
{
    crate::metrics::serve_if_asked(args.metrics_bind.as_deref()).await?;
    match args.transport {
        TransportKind::Stdio => serve_stdio(factory()).await,
        TransportKind::Http => {
            if let Some(name) = &args.token_env {
                // A token asked for but missing must not serve an open endpoint.
                crate::token::BearerToken::from_env(name)
                    .map_err(|e| ServeError::Token(e.to_string()))?;
            }
            let settings = args.http_settings(identity.default_port);
            serve_http(factory, identity.name, &settings, shutdown_signal()).await
        }
    }
}

/// What a tool server binary is: its name (the command's and the server's), what it
/// serves (the `--help` text), and its default HTTP port.
#[derive(Debug, Clone, Copy)]
pub struct ServerBinary {
    /// The server's identity.
    pub identity: ServerIdentity,
    /// One paragraph for `--help`.
    pub about: &'static str,
}

/// The whole `main` of a tool server binary: parses [`ServeArgs`] (with `--help` and
/// `--version`), starts logging, and serves the handlers `factory` makes.
pub async fn server_main<S, F>(binary: ServerBinary, factory: F) -> Result<(), ServeError>
where
    S: ServerHandler + crate::http::DirectCall,
    F: Fn() -> S + Send + Sync + 'static,
{
    use clap::{Args as _, FromArgMatches as _};
    let command = clap::Command::new(binary.identity.name).version(env!("CARGO_PKG_VERSION"));
    // After the arguments: their own doc line would otherwise become the about text.
    let matches = ServeArgs::augment_args(command)
        .about(binary.about)
        .get_matches();
    let args = ServeArgs::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // Logs, and traces when an OTLP endpoint is set; the guard sends the last spans.
    let _traces = crate::trace_context::init_tracing(binary.identity.name, &args);
    run_server(factory, binary.identity, &args).await
}

/// The `main` of a tool server binary (and its allocator, mimalloc: cheaper than glibc
/// malloc for the many small allocations per call): `tool_server_main!(name, port,
/// factory, about)` serves what `factory` makes under `name` ([`server_main`]). The
/// binary crate depends on `tokio`, `anyhow` and `mimalloc`.
#[macro_export]
macro_rules! tool_server_main {
    ($name:expr, $port:expr, $factory:expr, $about:expr) => {
        #[global_allocator]
        static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

        #[tokio::main]
        async fn main() -> anyhow::Result<()> {
            let identity = $crate::ServerIdentity {
                name: $name,
                default_port: $port,
            };
            let binary = $crate::ServerBinary {
                identity,
                about: $about,
            };
            $crate::server_main(binary, $factory).await?;
            Ok(())
        }
    };
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutdown signal received");
}
