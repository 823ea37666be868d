//! Opening MCP sessions: Streamable HTTP, a spawned child process, or an
//! in-memory pipe to a handler in this process.

use std::{path::PathBuf, time::Duration};

use rmcp::{
    RoleClient, ServerHandler, ServiceExt,
    service::{ClientInitializeError, RunningService},
    transport::{
        StreamableHttpClientTransport, TokioChildProcess,
        streamable_http_client::StreamableHttpClientTransportConfig,
    },
};

use super::McpError;
use super::direct::{DirectHttp, negotiated};

/// One live MCP client session.
pub(crate) type Session = RunningService<RoleClient, ()>;

/// A live session, with the short way to call tools when it is over Streamable HTTP.
pub(crate) struct Live {
    /// rmcp's session: listings, and calls the short way cannot take.
    pub(crate) rmcp: Session,
    /// `tools/call` as one POST (`super::direct`).
    pub(crate) direct: Option<DirectHttp>,
}

impl From<Session> for Live {
    fn from(rmcp: Session) -> Self {
        Live { rmcp, direct: None }
    }
}

/// Time allowed for connecting and the MCP handshake.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Tool calls one session keeps in flight at once (rmcp's default is 16), on the short
/// way (`super::direct`) as through rmcp; more calls queue in the session. Pool agents run many steps concurrently, but on the machines
/// measured 32 gave the same throughput as 256 at 256 tasks in flight, with 2–3 MiB less
/// resident memory in the pool agent and in the MCP server (docs/performance.md).
const MAX_CONCURRENT_CALLS: usize = 32;

/// How to (re)open a session.
#[derive(Debug, Clone)]
pub(crate) enum Connector {
    Http {
        url: String,
        token: Option<crate::token::BearerToken>,
    },
    Stdio {
        program: PathBuf,
        args: Vec<String>,
    },
    InProcess,
}

impl Connector {
    pub(crate) fn describe(&self) -> String {
        match self {
            Connector::Http { url, .. } => url.clone(),
            Connector::Stdio { program, .. } => program.display().to_string(),
            Connector::InProcess => "in-process".into(),
        }
    }

    pub(crate) async fn connect(&self) -> Result<Live, McpError> {
        let endpoint_for_client = self.describe();
        let http_client = || {
            reqwest::Client::builder()
                // Keep connections: a new TCP connection per call cost ≈ 0.3 ms and a
                // good part of both sides' CPU. Our servers answer with whole JSON
                // bodies, which are always read, so pooled connections do not stall.
                .pool_max_idle_per_host(32)
                .tcp_nodelay(true)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| McpError::Unreachable {
                    endpoint: endpoint_for_client.clone(),
                    reason: format!("building the HTTP client: {e}"),
                })
        };
        let endpoint = self.describe();
        let handshake = async {
            match self {
                Connector::Http { url, token } => {
                    let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                        .max_concurrent_requests(MAX_CONCURRENT_CALLS);
                    let token = token.clone().or_else(|| crate::token::token_for(url));
                    if let Some(token) = &token {
                        config = config.auth_header(token.expose());
                    }
                    // One connection pool for the session and the short way.
                    let http = http_client()?;
                    let session = if chorus_telemetry::traces::enabled() {
                        // Traces on: each call's traceparent also goes as a header.
                        let client = super::traced_http::TracedHttp(http.clone());
                        let transport = StreamableHttpClientTransport::with_client(client, config);
                        ().serve(transport).await
                    } else {
                        let transport =
                            StreamableHttpClientTransport::with_client(http.clone(), config);
                        ().serve(transport).await
                    }
                    .map_err(|e| init_error(&endpoint, e))?;
                    let direct = negotiated(session.peer_info()).and_then(|protocol| {
                        let token = token.map(|t| t.expose().to_owned());
                        DirectHttp::new(http, url.clone(), token, &protocol, MAX_CONCURRENT_CALLS)
                    });
                    Ok(Live {
                        rmcp: session,
                        direct,
                    })
                }
                Connector::Stdio { program, args } => {
                    let mut command = tokio::process::Command::new(program);
                    command.args(args);
                    let transport =
                        TokioChildProcess::new(command).map_err(|source| McpError::Spawn {
                            program: endpoint.clone(),
                            source,
                        })?;
                    ().serve(transport)
                        .await
                        .map(Live::from)
                        .map_err(|e| init_error(&endpoint, e))
                }
                Connector::InProcess => Err(McpError::Unreachable {
                    endpoint: endpoint.clone(),
                    reason: "the in-process server has stopped".into(),
                }),
            }
        };
        match tokio::time::timeout(CONNECT_TIMEOUT, handshake).await {
            Ok(result) => result,
            Err(_) => Err(McpError::Timeout {
                endpoint,
                timeout: CONNECT_TIMEOUT,
            }),
        }
    }
}

/// Serves `handler` over a tokio duplex pipe and returns the client end.
pub(crate) async fn in_process<S: ServerHandler>(handler: S) -> Result<Session, McpError> {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        match handler.serve(server_io).await {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            Err(error) => tracing::warn!(%error, "in-process MCP server failed to start"),
        }
    });
    ().serve(client_io)
        .await
        .map_err(|e| init_error("in-process", e))
}

fn init_error(endpoint: &str, error: ClientInitializeError) -> McpError {
    let endpoint = endpoint.to_owned();
    match error {
        ClientInitializeError::JsonRpcError(data) => McpError::Protocol {
            endpoint,
            code: Some(data.code.0),
            message: data.message.to_string(),
        },
        ClientInitializeError::ConnectionClosed(_)
        | ClientInitializeError::TransportError { .. }
        | ClientInitializeError::Cancelled => McpError::Unreachable {
            endpoint,
            reason: error.to_string(),
        },
        ClientInitializeError::LegacyFallbackFailed { fallback, .. } => {
            init_error(&endpoint, *fallback)
        }
        other => McpError::Protocol {
            endpoint,
            code: None,
            message: other.to_string(),
        },
    }
}
