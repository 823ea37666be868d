//! `chorus trace TASK_ID`: a task's messages in order across all topics, with the time
//! since the previous message and since the first, or a Mermaid sequence diagram. The
//! messages and their rows come from [`chorus_core::hops`], shared with the web view.

use std::fmt::Write as _;

use chorus_bus::{Message, PoolName, TaskId};
use clap::Args;

use super::error::CliError;
use crate::view::format::sent_us;
use crate::view::{mermaid, safe};
pub use chorus_core::hops::collect;
use chorus_core::hops::rows;
use chorus_core::settings::Settings;
use chorus_core::system::Infra;

/// Arguments of `chorus trace`.
#[derive(Debug, Clone, Args)]
pub struct TraceArgs {
    /// The task id.
    pub task_id: String,
    /// Print a Mermaid sequence diagram instead of a table.
    #[arg(long)]
    pub mermaid: bool,
    /// How many recent entries of each topic's stream to search.
    #[arg(long, default_value_t = 10_000)]
    pub scan: usize,
}

/// The trace as a table: time, ms since the previous message and since the first,
/// topic, from → to, summary; one line per message, control characters escaped
/// ([`safe::line`]).
pub fn table(task_id: &TaskId, msgs: &[Message]) -> String {
    let first = msgs.first().map(sent_us).unwrap_or(0);
    let last = msgs.last().map(sent_us).unwrap_or(0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "task {}: {} messages over {:.3} ms",
        safe::line(task_id),
        msgs.len(),
        last.saturating_sub(first) as f64 / 1000.0
    );
    let _ = writeln!(
        out,
        "{:<12}  {:>9}  {:>9}  {:<20} {:<36} summary",
        "time (UTC)", "+prev ms", "+start ms", "topic", "from → to"
    );
    for row in rows(msgs) {
        let line = format!(
            "{:<12}  {:>9.3}  {:>9.3}  {:<20} {:<36} {}",
            row.time,
            row.since_prev_ms,
            row.since_start_ms,
            row.topic,
            format!("{} → {}", row.from, row.to),
            row.summary
        );
        let _ = writeln!(out, "{}", safe::line(&line));
    }
    out
}

/// `chorus trace` on the Redis at `bus.redis_url`.
pub async fn run_command(args: TraceArgs, settings: &Settings) -> anyhow::Result<()> {
    let infra = super::preflight::connect(settings).await?;
    Ok(run(args, infra, &settings.pool_names()).await?)
}

/// Prints the trace; fails with [`CliError::NoMessages`] when the task has none.
pub async fn run(args: TraceArgs, infra: Infra, pools: &[PoolName]) -> Result<(), CliError> {
    let task = TaskId::from(args.task_id.as_str());
    let msgs = collect(&*infra.bus, &task, pools, args.scan).await?;
    if msgs.is_empty() {
        return Err(CliError::NoMessages {
            task_id: args.task_id,
            scanned: args.scan,
        });
    }
    let text = if args.mermaid {
        mermaid::diagram(&msgs)
    } else {
        table(&task, &msgs)
    };
    print!("{text}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::{
        Arg, Bus, BusSettings, FinalReport, MemoryBus, Payload, Plan, PlanReady, PlannerKind,
        ReportStatus, Step, StepOutcome, StepResult, StepTask, TaskRequest, Topic,
    };
    use serde_json::json;

    const PLANNER: &str = "planner-0192f0c27a3e70008000000000000001";
    const MATH: &str = "pool-math-0192f0c27a3e70008000000000000003";
    const SYNTH: &str = "synthesizer-0192f0c27a3e70008000000000000004";

    /// The messages of a one-step `2+4` task, in the order they are sent.
    fn task(id: &str) -> Vec<Message> {
        let step = Step {
            id: "s1".into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: [("a".to_owned(), Arg::Value(json!(2)))].into(),
            part: "2+4".into(),
            output: true,
            recalled: Vec::new(),
        };
        let args = json!({"a": 2, "b": 4})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let request = TaskRequest {
            query: "2+4".into(),
            context: Default::default(),
        };
        let ready = PlanReady {
            query: "2+4".into(),
            context: Default::default(),
            language: chorus_bus::Language::En,
            plan: Plan { steps: vec![step] },
            planner: PlannerKind::Heuristic,
            unplanned: None,
            reply: None,
            dispatched: true,
            iteration: 1,
            retried: Vec::new(),
        };
        let step_task = StepTask {
            step_id: "s1".into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: args.clone(),
            context: Default::default(),
            iteration: 1,
        };
        let result = StepResult {
            step_id: "s1".into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: args,
            outcome: StepOutcome::Ok {
                value: json!("6"),
                text: "6".into(),
            },
            agent: MATH.into(),
            elapsed_us: 100,
            iteration: 1,
        };
        let report = FinalReport {
            query: "2+4".into(),
            status: ReportStatus::Completed,
            text: "2 + 4 = 6".into(),
            language: chorus_bus::Language::En,
            steps: vec![],
            written_by: "template".into(),
            iterations: 1,
            retried: Vec::new(),
        };
        let mut msgs = vec![
            Message::new(
                id,
                Topic::task_available(),
                "cli",
                Payload::TaskAvailable(request),
            ),
            Message::new(id, Topic::plan_ready(), PLANNER, Payload::PlanReady(ready)),
            Message::new(
                id,
                Topic::pool_task("math"),
                PLANNER,
                Payload::StepTask(step_task),
            )
            .to("math"),
            Message::new(
                id,
                Topic::pool_result("math"),
                MATH,
                Payload::StepResult(result),
            ),
            Message::new(
                id,
                Topic::final_report(),
                SYNTH,
                Payload::FinalReport(report),
            )
            .to("chief"),
        ];
        // 1 ms apart, so the order does not depend on the clock's resolution.
        let start = msgs[0].timestamp_us;
        for (i, m) in msgs.iter_mut().enumerate() {
            m.timestamp_us = start + 1000 * i as u64;
        }
        msgs
    }

    async fn bus_with_two_tasks() -> MemoryBus {
        let bus = MemoryBus::new(BusSettings::default());
        // Published topic by topic (not in send order): the trace sorts by time.
        let (mut a, mut b) = (task("t1"), task("t2"));
        a.reverse();
        b.reverse();
        for m in a.iter().chain(&b) {
            bus.publish(m).await.expect("publish");
        }
        bus
    }

    #[tokio::test]
    async fn collect_finds_only_the_tasks_messages_in_the_order_they_were_sent() {
        let bus = bus_with_two_tasks().await;
        // No pools configured: the plan names math, so its topics are read too.
        let msgs = collect(&bus, &"t1".into(), &[], 100)
            .await
            .expect("collect");
        let topics: Vec<&str> = msgs.iter().map(|m| m.topic.as_str()).collect();
        assert_eq!(
            topics,
            vec![
                "task_available",
                "plan_ready",
                "math_task",
                "math_result",
                "final_report"
            ]
        );
        assert!(msgs.iter().all(|m| m.task_id == "t1"));
    }

    #[tokio::test]
    async fn the_table_shows_latency_since_previous_and_first_message() {
        let bus = bus_with_two_tasks().await;
        let msgs = collect(&bus, &"t2".into(), &["math".into()], 100)
            .await
            .expect("collect");
        let table = table(&"t2".into(), &msgs);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "task t2: 5 messages over 4.000 ms");
        assert_eq!(lines.len(), 2 + 5);
        let last: Vec<&str> = lines[6].split_whitespace().collect();
        assert_eq!(&last[1..4], &["1.000", "4.000", "final_report"]);
        assert!(lines[4].contains("planner/0001 → pool-math"), "{table}");
        assert!(lines[4].ends_with("s1 sum a=2 b=4"), "{table}");
    }

    #[tokio::test]
    async fn the_mermaid_diagram_declares_roles_in_order_of_appearance() {
        let bus = bus_with_two_tasks().await;
        let msgs = collect(&bus, &"t1".into(), &[], 100)
            .await
            .expect("collect");
        let diagram = mermaid::diagram(&msgs);
        let expected = "sequenceDiagram
    participant client as client
    participant planner as planner
    participant synthesizer as synthesizer
    participant pool_math as pool-math
    participant router as router
    participant chief as chief
    client->>planner: task_available +0.00 ms
    planner->>synthesizer: plan_ready 1 step (also to router) +1.00 ms
    planner->>pool_math: math_task s1 sum +1.00 ms
    pool_math->>router: math_result s1 ok (also to synthesizer) +1.00 ms
    synthesizer->>chief: final_report completed +1.00 ms
";
        assert_eq!(diagram, expected);
    }

    #[tokio::test]
    async fn an_unknown_task_has_no_messages() {
        let bus = bus_with_two_tasks().await;
        let msgs = collect(&bus, &"t3".into(), &["math".into()], 100)
            .await
            .expect("collect");
        assert!(msgs.is_empty());
    }
}
