//! `chorus-mcp-date`: the date MCP server over stdio or Streamable HTTP.

use chorus_mcp_date::{DEFAULT_PORT, DateServer, SERVER_NAME};

chorus_mcp_common::tool_server_main!(
    SERVER_NAME,
    DEFAULT_PORT,
    DateServer::new,
    "Calendar tools (today, now, add_duration, subtract_duration, difference, weekday, days_until) served over MCP."
);
