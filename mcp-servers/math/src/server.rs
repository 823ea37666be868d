//! [`MathServer`]: the rmcp handler listing and dispatching the math tools.

use crate::{SERVER_NAME, tools::registry};

const INSTRUCTIONS: &str = "Exact decimal arithmetic. Pass numbers as JSON numbers or, for exact values, \
decimal strings. Results are exact decimal strings in structuredContent.result; non-terminating results \
(division, sqrt, negative powers) are rounded to 28 significant digits.";

chorus_mcp_common::tool_server!(
    /// The math MCP server. Stateless and cheap to create.
    MathServer,
    server_name: SERVER_NAME,
    instructions: INSTRUCTIONS,
    registry: registry,
);
