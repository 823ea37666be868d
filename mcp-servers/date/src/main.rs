//! `chorus-mcp-date`: the date MCP server over stdio or Streamable HTTP.

use chorus_mcp_date::{DEFAULT_PORT, DateServer, SERVER_NAME};

chorus_mcp_common::tool_server_main!(
    SERVER_NAME,
    DEFAULT_PORT,
    DateServer::new,
    "Calendar and clock tools (today, now, add_duration, subtract_duration, difference, weekday, days_until, next_date, find_weekday, end_of_month, age, day_of_year, iso_week, time_in, convert_time) served over MCP."
);
