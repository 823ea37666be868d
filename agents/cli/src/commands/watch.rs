//! `chorus watch`: a readable live tail of every topic, one line per message:
//! time (UTC), topic, from → to, task id, and a short summary of the payload. Verdicts
//! FINISHED, announced on the `verification_done` channel only (no stream entry), are
//! read from that channel.

use std::io::Write;
use std::time::Duration;

use chorus_bus::{IngressFeed, Message, Payload, PoolName, Topic, Verdict};
use clap::Args;
use tokio::time::Instant;

use super::error::CliError;
use crate::view::format::{clock, sent_us, summary};
use crate::view::roles::{hop, short_agent};
use crate::view::safe;
use chorus_core::settings::Settings;
use chorus_core::system::Infra;

/// Arguments of `chorus watch`.
#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    /// Only messages of this task.
    #[arg(long)]
    pub task: Option<String>,
    /// Only these topics (repeatable). Default: every topic except agent_heartbeat.
    #[arg(long)]
    pub topic: Vec<String>,
    /// Exit after printing this many messages.
    #[arg(long)]
    pub count: Option<usize>,
    /// Exit after this many seconds.
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Print each message as its JSON envelope (one per line) instead of a summary.
    #[arg(long)]
    pub json: bool,
}

/// The topics to watch: those asked for, or every fixed topic but `agent_heartbeat`
/// plus `<pool>_task` and `<pool>_result` of each configured pool.
pub fn topics(asked: &[String], pools: &[PoolName]) -> Result<Vec<Topic>, CliError> {
    if !asked.is_empty() {
        return asked
            .iter()
            .map(|name| {
                Topic::parse(name).map_err(|source| CliError::Topic {
                    name: name.clone(),
                    source,
                })
            })
            .collect();
    }
    let mut out: Vec<Topic> = Topic::FIXED
        .iter()
        .filter(|t| **t != Topic::AGENT_HEARTBEAT)
        .filter_map(|t| Topic::parse(t).ok())
        .collect();
    for pool in pools {
        out.push(Topic::pool_task(pool));
        out.push(Topic::pool_result(pool));
    }
    Ok(out)
}

/// One line of the tail: `time  topic  from → to  task  summary`, every control
/// character in it escaped ([`safe::line`]).
pub fn line(msg: &Message) -> String {
    let h = hop(msg);
    let from = if h.reply {
        h.from
    } else {
        short_agent(&msg.from_agent)
    };
    let to = if h.reply {
        short_agent(&msg.from_agent)
    } else {
        h.to.join(",")
    };
    let text = format!(
        "{}  {:<20} {:<36} {}  {}",
        clock(sent_us(msg)),
        msg.topic.as_str(),
        format!("{from} → {to}"),
        msg.task_id,
        summary(msg)
    );
    safe::line(&text).into_owned()
}

/// `chorus watch` on the Redis at `bus.redis_url`.
pub async fn run_command(args: WatchArgs, settings: &Settings) -> anyhow::Result<()> {
    let infra = super::preflight::connect(settings).await?;
    super::preflight::require_live(&infra, settings).await?;
    Ok(run(args, infra, &settings.pool_names()).await?)
}

/// Runs the tail until Ctrl-C / SIGTERM, `--count` messages or `--timeout`.
pub async fn run(args: WatchArgs, infra: Infra, pools: &[PoolName]) -> Result<(), CliError> {
    let topics = topics(&args.topic, pools)?;
    let mut watcher = infra.bus.watch(&topics).await?;
    let verdicts = Topic::verification_done();
    let mut announced = match topics.contains(&verdicts) {
        true => Some(infra.bus.ingress(&verdicts).await?),
        false => None,
    };
    let names: Vec<&str> = topics.iter().map(Topic::as_str).collect();
    eprintln!("watching {} (Ctrl-C to stop)", names.join(", "));
    let deadline = args
        .timeout
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    let stop = chorus_core::runtime::stop_signal();
    tokio::pin!(stop);
    let mut printed = 0usize;
    if args.count == Some(0) {
        return Ok(());
    }
    let mut out = std::io::stdout();
    loop {
        let batch = tokio::select! {
            b = watcher.next_batch() => b?,
            a = next_announced(&mut announced) => a.into_iter().collect(),
            _ = &mut stop => return Ok(()),
            _ = sleep_until(deadline) => return Ok(()),
        };
        let mut batch: Vec<Message> = batch
            .into_iter()
            .filter(|m| args.task.as_ref().is_none_or(|t| &m.task_id == t))
            .collect();
        // One read spans several streams; put them back in the order they were sent.
        batch.sort_by_key(sent_us);
        for msg in &batch {
            let text = if args.json {
                let json = serde_json::to_string(msg)
                    .map_err(|e| CliError::Bus(chorus_bus::DecodeError::from(e).into()))?;
                safe::json(&json).into_owned()
            } else {
                line(msg)
            };
            match writeln!(out, "{text}").and_then(|()| out.flush()) {
                Ok(()) => {}
                // `chorus watch | head` closing the pipe is a normal end.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                Err(e) => return Err(e.into()),
            }
            printed += 1;
            if args.count.is_some_and(|n| printed >= n) {
                return Ok(());
            }
        }
    }
}

/// The next verdict FINISHED announced on the `verification_done` channel (the channel
/// also mirrors the stream's REITERATE verdicts, which the stream watcher prints);
/// `None` for anything else. Pending forever without a feed; a lost feed ends it.
async fn next_announced(feed: &mut Option<Box<dyn IngressFeed>>) -> Option<Message> {
    let Some(f) = feed.as_mut() else {
        return std::future::pending().await;
    };
    let Some(payload) = f.next().await else {
        *feed = None;
        return None;
    };
    let msg = Message::decode_on(&Topic::verification_done(), &payload, None)
        .ok()?
        .into_message();
    match &msg.payload {
        Payload::VerificationDone(v) if v.verdict == Verdict::Finished => Some(msg),
        _ => None,
    }
}

/// Sleeps until `deadline`, or forever without one.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_topics_are_all_but_heartbeats_plus_each_pools_pair() {
        let t = topics(&[], &["math".into(), "date".into()]).expect("topics");
        let names: Vec<&str> = t.iter().map(Topic::as_str).collect();
        assert!(!names.contains(&"agent_heartbeat"));
        assert_eq!(names.len(), Topic::FIXED.len() - 1 + 4);
        for n in ["task_available", "final_report", "math_task", "date_result"] {
            assert!(names.contains(&n), "{n} missing from {names:?}");
        }
    }

    #[test]
    fn asked_topics_are_validated() {
        let t = topics(&["agent_heartbeat".into()], &[]).expect("topics");
        assert_eq!(t, vec![Topic::agent_heartbeat()]);
        let err = topics(&["no such topic".into()], &[]).expect_err("invalid");
        assert!(err.to_string().contains("no such topic"), "{err}");
    }
}
