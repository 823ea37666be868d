//! Client errors, split by what the caller should do about them.

use std::time::Duration;

use rmcp::ServiceError;

/// Why an MCP request failed (as opposed to a tool answering `isError`).
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The server could not be reached or the connection dropped. Retryable.
    #[error("MCP server {endpoint} is unreachable: {reason}")]
    Unreachable {
        /// URL, program or `in-process`.
        endpoint: String,
        /// What the transport reported.
        reason: String,
    },
    /// No answer within the time limit. Retryable.
    #[error("MCP request to {endpoint} timed out after {timeout:?}")]
    Timeout {
        /// URL, program or `in-process`.
        endpoint: String,
        /// The limit that passed.
        timeout: Duration,
    },
    /// The server answered with a JSON-RPC error or an unexpected message
    /// (unknown method, invalid request…). Not retryable.
    #[error("MCP protocol error from {endpoint}: {message}")]
    Protocol {
        /// URL, program or `in-process`.
        endpoint: String,
        /// JSON-RPC error code, when there was one.
        code: Option<i32>,
        /// The server's message.
        message: String,
    },
    /// The server program could not be started. Not retryable.
    #[error("cannot start MCP server {program}: {source}")]
    Spawn {
        /// The program path.
        program: String,
        /// The OS error.
        source: std::io::Error,
    },
}

impl McpError {
    /// True for failures worth retrying (unreachable server, timeout).
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            McpError::Unreachable { .. } | McpError::Timeout { .. }
        )
    }

    pub(crate) fn from_service(endpoint: &str, error: ServiceError) -> Self {
        let endpoint = endpoint.to_owned();
        match error {
            ServiceError::McpError(data) => McpError::Protocol {
                endpoint,
                code: Some(data.code.0),
                message: data.message.to_string(),
            },
            ServiceError::TransportSend(_)
            | ServiceError::TransportClosed
            | ServiceError::Cancelled { .. } => McpError::Unreachable {
                endpoint,
                reason: error.to_string(),
            },
            ServiceError::Timeout { timeout } => McpError::Timeout { endpoint, timeout },
            other => McpError::Protocol {
                endpoint,
                code: None,
                message: other.to_string(),
            },
        }
    }
}
