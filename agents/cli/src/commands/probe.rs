//! `chorus probe URL`: exit 0 when an HTTP GET answers 200 (a container healthcheck in
//! an image without curl).

use std::time::Duration;

use clap::Args;

/// Arguments of `chorus probe`.
#[derive(Debug, Clone, Args)]
pub struct ProbeArgs {
    /// e.g. http://127.0.0.1:8080/healthz
    pub url: String,
}

/// The process's exit code: 0 when the URL answered 200 within 3 s, else 1.
pub async fn run(args: ProbeArgs) -> i32 {
    match chorus_gateway::probe(&args.url, Duration::from_secs(3)).await {
        true => 0,
        false => 1,
    }
}
