//! `chorus cancel ID`: cancels a running task through the one way in for cancellations
//! (`chorus_core::door::cancel`), against the Redis in the settings, and prints the
//! task's one report (status `canceled`: what had finished by then).
//!
//! Exit codes: 0 canceled; 1 refused (unknown task, finished or canceled already, too
//! long a reason), with the reason on stderr; 2 the Redis is unreachable.

use chorus_core::door::{CancelError, CancelSubmission, cancel};
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use clap::Args;

use super::preflight;
use crate::view::safe;

/// `chorus cancel`'s arguments.
#[derive(Debug, Args)]
pub struct CancelArgs {
    /// The task's id (as `chorus ask`, `POST /tasks` or `chorus watch` show it).
    pub task_id: String,
    /// Why, in your words (shown in the report; at most 500 characters).
    #[arg(long)]
    pub reason: Option<String>,
    /// Print the report as JSON instead of its text.
    #[arg(long)]
    pub json: bool,
}

/// Exit code of a refused cancellation.
pub const REFUSED: i32 = 1;

/// Runs `chorus cancel`; returns the exit code.
pub async fn run(args: CancelArgs, settings: &Settings) -> anyhow::Result<i32> {
    let infra = preflight::connect(settings).await?;
    let state = TaskState::for_settings(infra.store.clone(), settings);
    let submission = CancelSubmission {
        task_id: args.task_id,
        reason: args.reason,
        from: "cli".to_owned(),
    };
    match cancel(infra.bus.as_ref(), &state, submission).await {
        Ok(canceled) => {
            if args.json {
                let json = serde_json::to_string_pretty(&canceled.report)?;
                println!("{}", safe::json(&json));
            } else {
                print!("{}", safe::text(&canceled.report.text));
            }
            Ok(0)
        }
        Err(CancelError::Bus(e)) => Err(e.into()),
        Err(refused) => {
            let why = refused.to_string();
            eprintln!(
                "chorus: cannot cancel ({}): {}",
                refused.code(),
                safe::line(&why)
            );
            Ok(REFUSED)
        }
    }
}
