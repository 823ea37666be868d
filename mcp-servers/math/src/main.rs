//! `chorus-mcp-math`: the math MCP server over stdio or Streamable HTTP.

use anyhow::Context;
use chorus_mcp_common::{ServeArgs, ServerIdentity, cli::init_tracing, run_server};
use chorus_mcp_math::{DEFAULT_PORT, MathServer, SERVER_NAME};
use clap::Parser;

/// mimalloc: cheaper than glibc malloc for the many small allocations per call.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exact decimal arithmetic tools (sum, subtract, multiply, divide, power, sqrt,
/// modulo, abs, round, percent) served over MCP.
#[derive(Debug, Parser)]
#[command(name = "chorus-mcp-math", version)]
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
    run_server(MathServer::new, identity, &cli.serve)
        .await
        .context("math MCP server failed")
}
