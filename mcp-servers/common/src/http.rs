//! Serving a tool server over MCP Streamable HTTP (axum), plus `GET /healthz`.
//!
//! rmcp checks the `Host` header against an allow-list (loopback only by
//! default, against DNS rebinding). Inside a docker-compose network the server
//! is reached as `http://math-mcp:7301/mcp`, so the list must name that host or
//! be disabled with `*`; see [`HttpSettings::allowed_hosts`].
//!
//! Slow clients are cut off ([`crate::timeouts`], limits in [`HttpSettings::timeouts`]):
//! every body is read within the body limit before a route sees it (`body`), and a
//! POST whose JSON is no JSON-RPC message gets a JSON-RPC error (`-32700`, `-32600`,
//! `-32602`) instead of rmcp's 415 text (`jsonrpc`).

mod body;
mod direct;
mod jsonrpc;

pub use direct::{DirectCall, VERSIONS as DIRECT_VERSIONS};

use std::{
    future::Future,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    sync::Arc,
};

use axum::{Json, Router, routing::get};
use rmcp::{
    ServerHandler,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use serde_json::json;
use tokio::{net::TcpListener, task::JoinHandle};
use tokio_util::sync::{CancellationToken, DropGuard};

/// Why a server could not be started or stopped cleanly.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The listening socket could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// Address we tried to bind.
        addr: SocketAddr,
        /// Underlying error.
        source: std::io::Error,
    },
    /// The HTTP server failed while running.
    #[error("HTTP server failed: {0}")]
    Http(std::io::Error),
    /// `--token-env` names a variable that holds no token.
    #[error("{0}")]
    Token(String),
    /// The stdio MCP session could not start.
    #[error("stdio MCP session failed: {0}")]
    Stdio(String),
    /// `--metrics-bind` could not be bound.
    #[error("metrics listener on {0}")]
    Metrics(String),
}

/// Settings of the Streamable HTTP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpSettings {
    /// Address to bind (`127.0.0.1` by default; `0.0.0.0` in a container).
    pub bind: IpAddr,
    /// TCP port; `0` picks a free one.
    pub port: u16,
    /// Path of the MCP endpoint, `/mcp` by default.
    pub path: String,
    /// Accepted `Host` headers (host names or `host:port`). A single `*` (or an
    /// empty list) accepts any host: use it on a private network only.
    pub allowed_hosts: Vec<String>,
    /// Keep rmcp's legacy stateful sessions (`Mcp-Session-Id`, SSE replies)
    /// instead of stateless JSON replies. Off by default: stateless is faster and
    /// lets any replica answer any request.
    pub stateful_sessions: bool,
    /// The bearer token clients must send to the MCP endpoint (`--token-env`);
    /// `None` to take any client. `/healthz` stays open.
    pub token: Option<crate::token::BearerToken>,
    /// The limits slow clients get: header, body and idle keep-alive.
    pub timeouts: crate::timeouts::Timeouts,
}

impl HttpSettings {
    /// Loopback-only settings on `port` with the default path and hosts.
    pub fn loopback(port: u16) -> Self {
        Self {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port,
            path: "/mcp".into(),
            allowed_hosts: default_allowed_hosts(),
            stateful_sessions: false,
            token: None,
            timeouts: crate::timeouts::Timeouts::default(),
        }
    }

    /// True when any `Host` header is accepted.
    pub fn allows_any_host(&self) -> bool {
        self.allowed_hosts.is_empty() || self.allowed_hosts.iter().any(|host| host.trim() == "*")
    }

    /// What the short way for `tools/call` checks (`direct`).
    fn gate(&self) -> direct::Gate {
        direct::Gate {
            stateless: !self.stateful_sessions,
            hosts: (!self.allows_any_host()).then(|| {
                self.allowed_hosts
                    .iter()
                    .map(|h| h.trim().to_owned())
                    .collect()
            }),
        }
    }

    fn rmcp_config(&self, shutdown: &CancellationToken) -> StreamableHttpServerConfig {
        let config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(self.stateful_sessions)
            .with_json_response(true)
            .with_cancellation_token(shutdown.child_token());
        if self.allows_any_host() {
            config.disable_allowed_hosts()
        } else {
            config.with_allowed_hosts(self.allowed_hosts.iter().map(|h| h.trim().to_owned()))
        }
    }
}

/// rmcp's own default: loopback names only.
pub fn default_allowed_hosts() -> Vec<String> {
    vec!["localhost".into(), "127.0.0.1".into(), "::1".into()]
}

/// Builds the axum app: the MCP endpoint at `settings.path` and `GET /healthz`.
///
/// `factory` makes one handler per session (or per request when stateless), so
/// it should be cheap.
pub fn router<S, F>(
    factory: F,
    server_name: &str,
    settings: &HttpSettings,
    shutdown: &CancellationToken,
) -> Router
where
    S: ServerHandler + DirectCall,
    F: Fn() -> S + Send + Sync + 'static,
{
    let factory = Arc::new(factory);
    let make = factory.clone();
    let service = StreamableHttpService::new(
        move || Ok(make()),
        Arc::new(LocalSessionManager::default()),
        settings.rmcp_config(shutdown),
    );
    let direct = jsonrpc::Direct {
        gate: settings.gate(),
        call: Arc::new(move |params, id, traceparent| {
            factory().call_directly(params, id, traceparent)
        }),
    };
    let health = json!({ "status": "ok", "server": server_name });
    let mut mcp = Router::new()
        .nest_service(&settings.path, service)
        .layer(axum::middleware::from_fn_with_state(direct, jsonrpc::check));
    if let Some(token) = &settings.token {
        mcp = mcp.layer(axum::middleware::from_fn_with_state(
            token.clone(),
            crate::token::require,
        ));
    }
    Router::new()
        .route(
            "/healthz",
            get(move || std::future::ready(Json(health.clone()))),
        )
        .merge(mcp)
        .layer(axum::middleware::from_fn_with_state(
            settings.timeouts.body,
            body::read_within,
        ))
}

/// Binds the listener `settings` name; returns it with the address asked for.
async fn bind(settings: &HttpSettings) -> Result<(TcpListener, SocketAddr), ServeError> {
    let addr = SocketAddr::new(settings.bind, settings.port);
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind { addr, source })?;
    Ok((listener, addr))
}

/// Serves until `shutdown_signal` resolves, then drains in-flight requests.
pub async fn serve_http<S, F>(
    factory: F,
    server_name: &str,
    settings: &HttpSettings,
    shutdown_signal: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError>
where
    S: ServerHandler + DirectCall,
    F: Fn() -> S + Send + Sync + 'static,
{
    let (listener, addr) = bind(settings).await?;
    let token = CancellationToken::new();
    let app = router(factory, server_name, settings, &token);
    tracing::info!(server = server_name, %addr, path = %settings.path, token = settings.token.is_some(), "serving MCP over Streamable HTTP");
    let stop = async move {
        shutdown_signal.await;
        token.cancel();
    };
    crate::timeouts::serve(listener, app, settings.timeouts, stop)
        .await
        .map_err(ServeError::Http)
}

/// A server running in a background task; dropping the handle stops it.
#[derive(Debug)]
pub struct HttpServerHandle {
    /// The bound address (useful with port `0`).
    pub local_addr: SocketAddr,
    /// The MCP endpoint URL, e.g. `http://127.0.0.1:7301/mcp`.
    pub url: String,
    task: JoinHandle<Result<(), ServeError>>,
    guard: DropGuard,
}

impl HttpServerHandle {
    /// Stops the server and waits for it to finish.
    pub async fn stop(self) -> Result<(), ServeError> {
        drop(self.guard);
        match self.task.await {
            Ok(result) => result,
            Err(join) => Err(ServeError::Http(std::io::Error::other(join))),
        }
    }
}

/// Binds `settings` (port `0` = any free port) and serves in a background task.
pub async fn spawn_http<S, F>(
    factory: F,
    server_name: &str,
    settings: &HttpSettings,
) -> Result<HttpServerHandle, ServeError>
where
    S: ServerHandler + DirectCall,
    F: Fn() -> S + Send + Sync + 'static,
{
    let (listener, addr) = bind(settings).await?;
    let local_addr = listener
        .local_addr()
        .map_err(|source| ServeError::Bind { addr, source })?;
    let token = CancellationToken::new();
    let app = router(factory, server_name, settings, &token);
    let stop = token.clone();
    let timeouts = settings.timeouts;
    let task = tokio::spawn(async move {
        crate::timeouts::serve(listener, app, timeouts, stop.cancelled_owned())
            .await
            .map_err(ServeError::Http)
    });
    let url = format!("http://{local_addr}{}", settings.path);
    Ok(HttpServerHandle {
        local_addr,
        url,
        task,
        guard: token.drop_guard(),
    })
}
