//! Helpers shared by the plan tests: a one-line rendering of each step so a test can
//! assert a whole plan (pools, tools, argument values, references, outputs) at once.

#![allow(dead_code)]

use chorus_bus::{Arg, Plan, TaskContext};
use chorus_heuristic::{Capabilities, PlanOutcome, plan};

/// `s2 math/multiply a=$s1 b="3" *`: `$id` is a reference, literals are JSON, `*` marks output.
pub fn line(step: &chorus_bus::Step) -> String {
    let args: Vec<String> = step
        .arguments
        .iter()
        .map(|(k, v)| match v {
            Arg::Ref { step } => format!("{k}=${step}"),
            Arg::Value(v) => format!("{k}={v}"),
        })
        .collect();
    let mut s = format!("{} {}/{}", step.id, step.pool, step.tool);
    if !args.is_empty() {
        s.push(' ');
        s.push_str(&args.join(" "));
    }
    if step.output {
        s.push_str(" *");
    }
    s
}

/// The plan for `query` with every tool available; panics when not planned.
pub fn planned(query: &str) -> Plan {
    match plan(
        query,
        &TaskContext::default(),
        &Capabilities::default_tools(),
    ) {
        PlanOutcome::Planned { plan, .. } => {
            plan.validate(chorus_heuristic::MAX_STEPS)
                .expect("a valid plan");
            plan
        }
        other => panic!("{query:?} was not planned: {other:?}"),
    }
}

/// The one-line steps of the plan for `query`.
pub fn steps(query: &str) -> Vec<String> {
    planned(query).steps.iter().map(line).collect()
}

/// The parts of the plan's steps, in step order.
pub fn parts(query: &str) -> Vec<String> {
    planned(query).steps.into_iter().map(|s| s.part).collect()
}

/// The message of an unplannable outcome; panics on any other outcome.
pub fn refusal(query: &str) -> String {
    refusal_with(query, &Capabilities::default_tools())
}

/// The message of an unplannable outcome with `tools`; panics on any other outcome.
pub fn refusal_with(query: &str, tools: &Capabilities) -> String {
    match plan(query, &TaskContext::default(), tools) {
        PlanOutcome::Unplannable { message, .. } => message,
        other => panic!("{query:?} was planned: {other:?}"),
    }
}
