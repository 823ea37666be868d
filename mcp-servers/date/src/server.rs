//! [`DateServer`]: the rmcp handler listing and dispatching the date tools.

use crate::{SERVER_NAME, tools::registry};

const INSTRUCTIONS: &str = "Calendar tools. Dates are YYYY-MM-DD (dd/mm/yyyy with day_first: true). \
Every tool accepts optional `now` (RFC 3339 or a date) and `timezone` (IANA name, default UTC) so answers \
are reproducible. Results are in structuredContent.result.";

chorus_mcp_common::tool_server!(
    /// The date MCP server. Stateless and cheap to create.
    DateServer,
    server_name: SERVER_NAME,
    instructions: INSTRUCTIONS,
    registry: registry,
);
