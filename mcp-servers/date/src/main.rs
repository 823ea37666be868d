//! `chorus-mcp-date`: the date MCP server over stdio or Streamable HTTP.

use anyhow::Context;
use chorus_mcp_common::{ServeArgs, ServerIdentity, cli::init_tracing, run_server};
use chorus_mcp_date::{DEFAULT_PORT, DateServer, SERVER_NAME};
use clap::Parser;

/// mimalloc: cheaper than glibc malloc for the many small allocations per call.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Calendar tools (today, now, add_duration, subtract_duration, difference,
/// weekday, days_until) served over MCP.
#[derive(Debug, Parser)]
#[command(name = "chorus-mcp-date", version)]
struct Cli {
    #[command(flatten)]
    serve: ServeArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    init_tracing();
    let identity = ServerIdentity {
        name: SERVER_NAME,
        default_port: DEFAULT_PORT,
    };
    run_server(DateServer::new, identity, &cli.serve)
        .await
        .context("date MCP server failed")
}
