//! `chorus-bench`: benchmark the distributed pipeline (see docs/performance.md).

use std::path::PathBuf;

use chorus_bench::BenchArgs;
use chorus_core::settings::Settings;
use clap::Parser;

/// Benchmark Chorus through its real pipeline: every role and both MCP servers as their
/// own processes on a real Redis (started here with `--spawn`, or a running system's).
#[derive(Parser)]
#[command(name = "chorus-bench", version)]
struct Cli {
    /// A TOML settings file (environment variables CHORUS__SECTION__KEY override it).
    #[arg(long, env = "CHORUS_CONFIG")]
    config: Option<PathBuf>,
    #[command(flatten)]
    args: BenchArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    chorus_bench::init_logging();
    let settings = Settings::load(cli.config.as_deref())?;
    chorus_bench::run_bench(cli.args, &settings).await?;
    Ok(())
}
