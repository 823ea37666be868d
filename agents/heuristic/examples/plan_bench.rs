//! Prints the plan outcome for a few queries (or the ones given as arguments), then
//! how long planning and report rendering take. Run with
//! `cargo run -p chorus-heuristic --release --example plan_bench`.

use std::time::Instant;

use chorus_bus::{Language, ReportStatus, StepOutcome, StepReport, TaskContext};
use chorus_heuristic::{Capabilities, Conversation, PlanOutcome, plan, plan_turn, render_report};

/// Follow-ups timed through `plan_turn`: (the request, the question before, its answer).
const TURNS: &[(&str, &str, &str)] = &[
    ("and for 5 people?", "split 188.8 4 ways", "47.2"),
    (
        "neu giam 30% thi sao",
        "mon do 650k giam 20% thi con bao nhieu",
        "520000",
    ),
    (
        "còn bao nhiêu ngày nữa đến ngày đó",
        "ngày 2 tháng 9 năm 2027 là thứ mấy",
        "Thursday",
    ),
    ("then halve it", "45 times 12", "540"),
];

const SAMPLES: &[&str] = &[
    "2+4",
    "tính 2+4 = ??",
    "(2+4)*3 - 1",
    "two plus four times three",
    "what day is it in 10 days",
    "compute (2+4)*3 and tell me the weekday of 2026-12-25",
    "còn bao nhiêu ngày đến 25/12/2026",
    "write me a poem",
];

fn show(query: &str, tools: &Capabilities) {
    match plan(query, &TaskContext::default(), tools) {
        PlanOutcome::Planned { plan, language, .. } => {
            println!("{query:?} [{language}]");
            for s in &plan.steps {
                let args = serde_json::to_string(&s.arguments).unwrap_or_default();
                let out = if s.output { " (output)" } else { "" };
                println!(
                    "  {} {}/{} {args}{out}  part={:?}",
                    s.id, s.pool, s.tool, s.part
                );
            }
        }
        other => println!("{query:?} -> {other:?}"),
    }
}

fn time(label: &str, runs: u32, mut f: impl FnMut()) {
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    let per = start.elapsed() / runs;
    println!("{label}: {per:?} per call ({runs} runs)");
}

fn main() {
    let tools = Capabilities::default_tools();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        args.iter().for_each(|q| show(q, &tools));
        return;
    }
    SAMPLES.iter().for_each(|q| show(q, &tools));
    let ctx = TaskContext::default();
    for q in SAMPLES {
        time(&format!("plan {q:?}"), 20_000, || {
            std::hint::black_box(plan(q, &ctx, &tools));
        });
    }
    for (q, before, answer) in TURNS {
        let conversation = Conversation {
            session: true,
            answers: vec![(*answer).to_owned()],
        };
        let questions = [(*before).to_owned()];
        time(&format!("plan_turn {q:?}"), 20_000, || {
            std::hint::black_box(plan_turn(q, &ctx, &tools, &conversation, &questions));
        });
    }
    let steps = vec![StepReport {
        step_id: "s1".into(),
        part: "2+4".into(),
        pool: "math".into(),
        tool: "sum".into(),
        arguments: serde_json::json!({"a": "2", "b": "4"})
            .as_object()
            .cloned()
            .unwrap_or_default(),
        inputs: Default::default(),
        recalled: Vec::new(),
        outcome: Some(StepOutcome::Ok {
            value: serde_json::json!("6"),
            text: "6".into(),
        }),
        output: true,
    }];
    time("render_report 2+4", 100_000, || {
        std::hint::black_box(render_report(
            "2+4",
            Language::En,
            &steps,
            ReportStatus::Completed,
            None,
        ));
    });
}
