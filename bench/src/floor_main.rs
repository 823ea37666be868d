//! `chorus-floor`: the floor of Chorus's design — `2+4`-sized envelopes through the same
//! processes and hand-overs as a real task, relays doing no work (docs/performance.md,
//! "Ninth part of issue 31").

use chorus_bench::floor::{self, FloorCommand};
use clap::Parser;

/// mimalloc, as in every agent's binary (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Measure the floor of the design: relays that only receive, ack and send on, through
/// the same processes and hand-overs as a `2+4` task, with `chorus-bench`'s figures.
#[derive(Parser)]
#[command(name = "chorus-floor", version)]
struct Cli {
    #[command(subcommand)]
    command: FloorCommand,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    chorus_bench::init_logging();
    // The relays and the MCP server run on one thread, as the roles do by default
    // (`agents.runtime`); the driver, like `chorus-bench`, on the multi-thread runtime.
    let mut builder = match cli.command {
        FloorCommand::Run(_) => tokio::runtime::Builder::new_multi_thread(),
        _ => tokio::runtime::Builder::new_current_thread(),
    };
    let runtime = builder.enable_all().build()?;
    runtime.block_on(floor::main(cli.command))?;
    Ok(())
}
