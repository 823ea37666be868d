//! The MCP client pool agents use to call tools, over any transport.
//!
//! [`McpClient`] is cheap to clone and safe to use from many tasks at once: all
//! clones share one MCP session, and rmcp correlates concurrent requests on it.
//! When a spawned server dies (stdio) or its session closes, the next call
//! reconnects by itself; the failed call returns a retryable error.

mod connect;
mod direct;
mod error;
mod output;
mod traced_http;

use std::{
    path::Path,
    sync::{Arc, RwLock},
    time::Duration,
};

use rmcp::{
    ServerHandler,
    model::{CallToolRequestParams, RequestParamsMeta as _},
};
use serde_json::{Map, Value};
use tokio::sync::Mutex;

use connect::{Connector, Live};
pub use error::McpError;
pub use output::{ToolOutput, ToolSpec};

/// Default time limit for one tool call or listing.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// A shared MCP client session; clone it freely.
#[derive(Clone)]
pub struct McpClient {
    inner: Arc<Inner>,
}

struct Inner {
    connector: Connector,
    session: RwLock<Arc<Live>>,
    reconnecting: Mutex<()>,
    call_timeout: Duration,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("endpoint", &self.endpoint())
            .finish()
    }
}

impl McpClient {
    /// Connects to a Streamable HTTP endpoint such as `http://127.0.0.1:7301/mcp`,
    /// sending the bearer token registered for `url` (`crate::token::use_token_for`),
    /// if any.
    pub async fn connect_http(url: &str) -> Result<McpClient, McpError> {
        Self::connect_http_with_token(url, None).await
    }

    /// Connects to a Streamable HTTP endpoint sending `Authorization: Bearer <token>`
    /// (`None`: the token registered for `url`, if any).
    pub async fn connect_http_with_token(
        url: &str,
        token: Option<crate::token::BearerToken>,
    ) -> Result<McpClient, McpError> {
        Self::start(Connector::Http {
            url: url.to_owned(),
            token,
        })
        .await
    }

    /// Spawns `program args…` and talks MCP over its stdin/stdout. The child is
    /// killed when the last clone of the client is dropped.
    pub async fn spawn_stdio(program: &Path, args: &[String]) -> Result<McpClient, McpError> {
        Self::start(Connector::Stdio {
            program: program.to_path_buf(),
            args: args.to_vec(),
        })
        .await
    }

    /// Serves `handler` in this process over an in-memory pipe (one-process mode).
    pub async fn in_process<S: ServerHandler>(handler: S) -> Result<McpClient, McpError> {
        let session = connect::in_process(handler).await?;
        Ok(Self::from_session(Connector::InProcess, session.into()))
    }

    async fn start(connector: Connector) -> Result<McpClient, McpError> {
        let session = connector.connect().await?;
        Ok(Self::from_session(connector, session))
    }

    fn from_session(connector: Connector, session: Live) -> Self {
        Self {
            inner: Arc::new(Inner {
                connector,
                session: RwLock::new(Arc::new(session)),
                reconnecting: Mutex::new(()),
                call_timeout: DEFAULT_CALL_TIMEOUT,
            }),
        }
    }

    /// Returns a client sharing this session with a different per-call time limit.
    pub fn with_call_timeout(self, timeout: Duration) -> McpClient {
        let current = self.current();
        let connector = self.inner.connector.clone();
        Self {
            inner: Arc::new(Inner {
                connector,
                session: RwLock::new(current),
                reconnecting: Mutex::new(()),
                call_timeout: timeout,
            }),
        }
    }

    /// Where this client connects: a URL, a program path, or `in-process`.
    pub fn endpoint(&self) -> String {
        self.inner.connector.describe()
    }

    /// Lists the server's tools.
    pub async fn list_tools(&self) -> Result<Vec<ToolSpec>, McpError> {
        // The time limit covers opening a new session too (see `session`).
        let listing = tokio::time::timeout(self.inner.call_timeout, async {
            let session = self.session().await?;
            session
                .rmcp
                .list_all_tools()
                .await
                .map_err(|e| McpError::from_service(&self.endpoint(), e))
        });
        let tools = match listing.await {
            Ok(result) => result?,
            Err(_) => return Err(self.timeout_error()),
        };
        Ok(tools.into_iter().map(ToolSpec::from).collect())
    }

    /// Calls `tool` with `arguments`. A tool failure (division by zero, bad
    /// argument…) is `Ok` with `is_error: true`; `Err` means the call itself failed.
    pub async fn call(
        &self,
        tool: &str,
        arguments: Map<String, Value>,
    ) -> Result<ToolOutput, McpError> {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        params.arguments = Some(arguments);
        // Traces on: the server's span continues the caller's (`_meta.traceparent`).
        let traceparent = chorus_telemetry::traces::current_traceparent();
        if let Some(traceparent) = &traceparent {
            params.set_traceparent(traceparent);
        }
        // The time limit covers opening a new session too (see `session`).
        let call = tokio::time::timeout(self.inner.call_timeout, async {
            let session = self.session().await?;
            if let Some(direct) = session.direct.as_ref().filter(|d| d.is_open())
                && let Some(result) = direct.call(&params, traceparent.as_deref()).await?
            {
                return Ok(ToolOutput::from(result));
            }
            session
                .rmcp
                .call_tool(params)
                .await
                .map(ToolOutput::from)
                .map_err(|e| McpError::from_service(&self.endpoint(), e))
        });
        match call.await {
            Ok(result) => result,
            Err(_) => Err(self.timeout_error()),
        }
    }

    fn timeout_error(&self) -> McpError {
        McpError::Timeout {
            endpoint: self.endpoint(),
            timeout: self.inner.call_timeout,
        }
    }

    fn current(&self) -> Arc<Live> {
        match self.inner.session.read() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// The live session, reconnecting first if the previous one has ended.
    ///
    /// Callers bound this by their call timeout: a reconnect to a server that
    /// accepts connections but does not answer (a frozen process) would otherwise
    /// take up to the connect timeout on top of the call's own limit.
    async fn session(&self) -> Result<Arc<Live>, McpError> {
        let current = self.current();
        if !ended(&current) {
            return Ok(current);
        }
        let _only_one = self.inner.reconnecting.lock().await;
        let current = self.current();
        if !ended(&current) {
            return Ok(current);
        }
        tracing::warn!(endpoint = %self.endpoint(), "MCP session closed; reconnecting");
        let fresh = Arc::new(self.inner.connector.connect().await?);
        match self.inner.session.write() {
            Ok(mut guard) => *guard = fresh.clone(),
            Err(poisoned) => *poisoned.into_inner() = fresh.clone(),
        }
        Ok(fresh)
    }
}

/// Whether `session` can carry no more requests. rmcp's `RunningService::is_closed`
/// is true only once the session was cancelled or closed through its handle; a
/// session whose service loop ended by itself (its stdio server died, its transport
/// worker stopped) still answers false there, and every request on it then fails
/// with "transport closed" for ever. The loop's end shows as the peer's request
/// channel closing.
fn ended(session: &Live) -> bool {
    session.rmcp.is_closed() || session.rmcp.peer().is_transport_closed()
}
