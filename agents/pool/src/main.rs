//! `chorus-pool --pool NAME`: runs one pool agent against Redis until Ctrl-C or SIGTERM,
//! as `chorus agent pool --pool NAME` does, from a binary that holds only what a pool
//! agent runs (no HTTP gateway, planner, language model clients or in-process MCP
//! servers), so that less of it is resident (docs/performance.md, "A smaller binary for
//! the pool agent").

use std::path::PathBuf;

use chorus_core::settings::Settings;
use chorus_core::topology::Role;
use clap::Parser;

/// mimalloc, as in `chorus` (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Run one Chorus pool agent against Redis until Ctrl-C / SIGTERM: the same settings
/// (a TOML file, CHORUS__SECTION__KEY variables) and the same behaviour as
/// `chorus agent pool --pool NAME`.
///
/// With `[telemetry] otlp_endpoint` (CHORUS__TELEMETRY__OTLP_ENDPOINT) or
/// OTEL_EXPORTER_OTLP_ENDPOINT set, it exports OpenTelemetry traces over OTLP/HTTP as
/// service `chorus-pool-NAME` (docs/tracing.md); off by default.
#[derive(Parser)]
#[command(name = "chorus-pool", version)]
struct Cli {
    /// A TOML settings file (environment variables CHORUS__SECTION__KEY override it).
    #[arg(long, env = "CHORUS_CONFIG")]
    config: Option<PathBuf>,
    /// Which pool (math, date, or any configured under `[pools]`).
    #[arg(long)]
    pool: String,
}

fn main() {
    let cli = Cli::parse();
    let outcome = Settings::load(cli.config.as_deref())
        .map_err(anyhow::Error::from)
        .and_then(|settings| {
            let runtime = chorus_pool::runtime::build(&settings.agents)?;
            runtime.block_on(run(cli.pool, settings))
        });
    if let Err(e) = outcome {
        // As `main` returning the error would print it, with control characters escaped.
        let text: String = format!("{e:?}")
            .chars()
            .map(|c| match c {
                '\n' => c.to_string(),
                c if c.is_control() => c.escape_default().to_string(),
                c => c.to_string(),
            })
            .collect();
        eprintln!("Error: {text}");
        std::process::exit(1);
    }
}

/// Sets up logs and traces, and runs the pool agent until asked to stop.
async fn run(pool: String, settings: Settings) -> anyhow::Result<()> {
    let role = Role::parse("pool", Some(&pool))?;
    let service = format!("chorus-{}", role.group());
    let _traces = chorus_pool::logs::init(Some(&service), &settings.telemetry, "info")?;
    let started = chorus_pool::start::prepare(&role, &settings).await?;
    let (Role::Pool(name), Some(connector)) = (&role, started.connector) else {
        anyhow::bail!("no MCP server configured for pool {pool}");
    };
    chorus_core::system::run_pool(name, started.infra, &settings, connector, started.shutdown)
        .await?;
    Ok(())
}
