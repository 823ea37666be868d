//! Serving a tool server over MCP stdio (newline-delimited JSON-RPC).
//!
//! stdout carries the protocol, so logs must go to stderr
//! (see [`crate::cli::init_tracing`]).

use rmcp::{ServerHandler, ServiceExt, transport::stdio};

use crate::http::ServeError;

/// Serves `handler` on this process's stdin/stdout until the client closes them.
pub async fn serve_stdio<S: ServerHandler>(handler: S) -> Result<(), ServeError> {
    let running = handler
        .serve(stdio())
        .await
        .map_err(|e| ServeError::Stdio(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| ServeError::Stdio(e.to_string()))?;
    Ok(())
}
