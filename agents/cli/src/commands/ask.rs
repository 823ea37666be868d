//! `chorus ask QUERY`: submits a request and prints its report, on the Redis at
//! `bus.redis_url` or, with `--local` (the default when no Redis is configured), with
//! every role and both MCP servers in this process on the in-memory bus.
//!
//! When the task asks a question (a missing number, a date that reads two ways, "that"
//! with no earlier answer), `ask` answers it with the next `--answer`, or asks the user
//! on the terminal, or — with neither — prints the question and how to answer the
//! waiting task, and exits [`exit::ASKED`].

use std::collections::VecDeque;
use std::io::{BufRead, IsTerminal, Write};
use std::time::Duration;

use chorus_bus::{Bus, ClarificationNeeded, FinalReport, ReportStatus, TaskContext, TaskId};
use chorus_core::client::{AskError, Reply, answer, ask_turn};
use chorus_core::door::AnswerError;
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use clap::Args;

use super::preflight;
use crate::local::LocalSystem;
use crate::view::progress::Progress;
use crate::view::{question, safe};

/// The exit codes of `chorus ask`.
pub mod exit {
    /// The report's status is `completed`.
    pub const COMPLETED: i32 = 0;
    /// The report's status is anything else (`partial`, `failed`, `deadline_exceeded`,
    /// `unplannable`, `unanswered`), or an error: a request or an answer the door
    /// refused, no reply within `--timeout`.
    pub const NOT_COMPLETED: i32 = 1;
    /// The Redis is unreachable or nothing would answer (`preflight`).
    pub const NOT_READY: i32 = 2;
    /// The task asked a question and `ask` had no answer for it (no `--answer` left,
    /// stdin not a terminal, or end of input): the question was printed, and the task
    /// waits for its answer on the bus.
    pub const ASKED: i32 = 3;
}

/// Arguments of `chorus ask`.
#[derive(Debug, Clone, Args)]
pub struct AskArgs {
    /// The request, e.g. "compute (2+4)*3 and tell me the weekday of 2026-12-25".
    pub query: String,
    /// Run every role and both MCP servers in this process on the in-memory bus
    /// (no Redis needed). This is the default when no Redis URL is configured.
    #[arg(long)]
    pub local: bool,
    /// Use the Redis at bus.redis_url even if none was configured explicitly.
    #[arg(long, conflicts_with = "local")]
    pub redis: bool,
    /// Print the final_report payload as JSON (a question too, with its task_id).
    #[arg(long)]
    pub json: bool,
    /// Reference "now" for date questions (RFC 3339).
    #[arg(long)]
    pub now: Option<String>,
    /// Time zone for date questions (IANA name).
    #[arg(long)]
    pub timezone: Option<String>,
    /// The conversation this request belongs to: a follow-up such as "now multiply
    /// that by 3" uses the session's last answer (letters, digits, -_.: up to 128). Kept
    /// in Redis for agents.session_ttl_secs; with --local, only within this one run.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// The answer to the task's next question, if it asks one (repeatable: one per
    /// question, in order). Without one, a question is asked on the terminal when stdin
    /// is one; otherwise it is printed with the ways to answer, and ask exits 3.
    #[arg(long = "answer", value_name = "TEXT")]
    pub answers: Vec<String>,
    /// Numeric dates read day first (03/04/2026 is 3 April).
    #[arg(long, conflicts_with = "month_first")]
    pub day_first: bool,
    /// Numeric dates read month first (03/04/2026 is March 4).
    #[arg(long)]
    pub month_first: bool,
    /// Seconds to wait for the report (and, after each answer, for the next reply).
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
}

/// How a conversation with the task ended.
enum Ended {
    /// The task's report.
    Report(FinalReport),
    /// A question nobody here answered; the task waits for its answer.
    Waiting(ClarificationNeeded),
}

/// Asks, answers the task's questions, prints the report (or the question left open),
/// and returns the exit code ([`exit`]).
pub async fn run(
    args: AskArgs,
    settings: &Settings,
    redis_configured: bool,
) -> anyhow::Result<i32> {
    let local = args.local || (!args.redis && !redis_configured);
    let day_first = match (args.day_first, args.month_first) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    let context = TaskContext {
        now: args.now.clone(),
        timezone: args.timezone.clone(),
        session_id: args.session.clone(),
        day_first,
        ..TaskContext::default()
    };
    let mut system = None;
    let infra = if local {
        let s = LocalSystem::start(settings.clone()).await;
        let infra = s.infra.clone();
        system = Some(s);
        infra
    } else {
        let infra = preflight::connect(settings).await?;
        preflight::require_live(&infra, settings).await?;
        infra
    };
    let state = TaskState::for_settings(infra.store.clone(), settings);
    let talk = Conversation {
        bus: &*infra.bus,
        state: &state,
        json: args.json,
        timeout: Duration::from_secs(args.timeout),
        answers: args.answers.iter().cloned().collect(),
        interactive: std::io::stdin().is_terminal(),
    };
    let outcome = talk.run(&args.query, context).await;
    if let Some(s) = system {
        s.stop().await;
    }
    let (task_id, ended, unused) = outcome?;
    if unused > 0 {
        eprintln!(
            "chorus: warning: {unused} --answer left unused (the task asked fewer questions)"
        );
    }
    match ended {
        Ended::Report(report) => {
            if args.json {
                println!("{}", safe::json(&serde_json::to_string_pretty(&report)?));
            } else {
                println!("{}", safe::text(report.text.trim_end()));
                eprintln!("(task {}, {:?})", safe::line(&task_id), report.status);
            }
            Ok(match report.status {
                ReportStatus::Completed => exit::COMPLETED,
                _ => exit::NOT_COMPLETED,
            })
        }
        Ended::Waiting(q) => {
            if args.json {
                let mut v = serde_json::to_value(&q)?;
                if let Some(o) = v.as_object_mut() {
                    o.insert("task_id".into(), task_id.as_str().into());
                }
                println!("{}", safe::json(&serde_json::to_string_pretty(&v)?));
            } else {
                println!("{}", safe::text(&question::text(&q)));
            }
            eprintln!(
                "(task {}, waiting for the answer to question {})",
                safe::line(&task_id),
                q.number
            );
            let how = question::how_to_answer(&task_id, &settings.agents.http_bind, local);
            eprintln!("{}", safe::text(&how));
            Ok(exit::ASKED)
        }
    }
}

/// One `chorus ask`: the request, then an answer per question until the report.
struct Conversation<'a> {
    bus: &'a dyn Bus,
    state: &'a TaskState,
    json: bool,
    timeout: Duration,
    /// The `--answer`s not used yet.
    answers: VecDeque<String>,
    /// Whether a question may be asked on the terminal.
    interactive: bool,
}

impl Conversation<'_> {
    /// Asks `query` and answers every question it can; returns the task id, how it
    /// ended, and how many `--answer`s were left over.
    async fn run(
        mut self,
        query: &str,
        context: TaskContext,
    ) -> anyhow::Result<(TaskId, Ended, usize)> {
        let mut progress = Progress::new(!self.json);
        let (task_id, mut reply) = ask_turn(self.bus, query, context, self.timeout, |m| {
            progress.event(m)
        })
        .await?;
        progress.finish();
        loop {
            let q = match reply {
                Reply::Report(report) => {
                    return Ok((task_id, Ended::Report(report), self.answers.len()));
                }
                Reply::Question(q) => q,
            };
            let Some(text) = self.answer_for(&q).await? else {
                return Ok((task_id, Ended::Waiting(q), self.answers.len()));
            };
            let mut progress = Progress::new(!self.json);
            let next = answer(
                self.bus,
                self.state,
                &task_id,
                q.number,
                &text,
                self.timeout,
                |m| progress.event(m),
            )
            .await;
            progress.finish();
            reply = match next {
                Ok(reply) => reply,
                // The answer came too late (agents.answer_timeout_ms passed): the task
                // has its report, `unanswered`; show it.
                Err(AskError::AnswerRefused(AnswerError::Finished(_))) => {
                    match self.state.report(&task_id).await? {
                        Some(report) => Reply::Report(report),
                        None => anyhow::bail!("task {task_id} is finished; its report is out"),
                    }
                }
                Err(e) => return Err(e.into()),
            };
        }
    }

    /// The answer to `q`: the next `--answer`, or a line typed on the terminal; `None`
    /// when there is neither (stdin is not a terminal, or it ended).
    async fn answer_for(&mut self, q: &ClarificationNeeded) -> anyhow::Result<Option<String>> {
        if let Some(given) = self.answers.pop_front() {
            if !self.json {
                eprintln!(
                    "? {}\n> {}",
                    safe::text(&question::text(q)),
                    safe::line(&given)
                );
            }
            return Ok(Some(given));
        }
        if !self.interactive {
            return Ok(None);
        }
        {
            let mut err = std::io::stderr().lock();
            writeln!(err, "? {}", safe::text(&question::text(q)))?;
            err.flush()?;
        }
        let prompt = question::prompt(q);
        let line = tokio::task::spawn_blocking(move || read_answer(prompt)).await??;
        Ok(line)
    }
}

/// Reads one non-blank line from stdin, prompting on stderr; `None` at end of input.
fn read_answer(prompt: &str) -> std::io::Result<Option<String>> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        {
            let mut err = std::io::stderr().lock();
            write!(err, "{prompt}")?;
            err.flush()?;
        }
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            eprintln!();
            return Ok(None);
        }
        let line = line.trim();
        if !line.is_empty() {
            return Ok(Some(line.to_owned()));
        }
    }
}
