//! `chorus-mcp-math`: the math MCP server over stdio or Streamable HTTP.

use chorus_mcp_math::{DEFAULT_PORT, MathServer, SERVER_NAME};

chorus_mcp_common::tool_server_main!(
    SERVER_NAME,
    DEFAULT_PORT,
    MathServer::new,
    "Exact decimal arithmetic tools (sum, subtract, multiply, divide, power, sqrt, modulo, abs, round, percent) served over MCP."
);
