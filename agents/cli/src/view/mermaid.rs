//! A task's messages as a Mermaid `sequenceDiagram`: the participants are roles (not
//! instances), declared in the order they first appear, and each message is one arrow
//! labelled with its topic, its step and the time since the previous message.

use std::fmt::Write as _;

use chorus_bus::{Message, Payload, StepOutcome};

use super::format::sent_us;
use super::roles::hop;
use super::safe;

/// A Mermaid participant id for a role (`pool-math` → `pool_math`): a `-` in an id
/// would read as the start of an arrow.
fn id(role: &str) -> String {
    role.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// What an arrow says besides the topic: the step, and a result's value or failure.
fn detail(msg: &Message) -> String {
    let status = |o: &StepOutcome| match o {
        StepOutcome::Ok { .. } => "ok",
        StepOutcome::Failed { .. } => "failed",
    };
    match &msg.payload {
        Payload::PlanReady(p) if p.unplanned.is_some() => "unplannable".to_owned(),
        Payload::PlanReady(p) if p.reply.is_some() => "capabilities".to_owned(),
        Payload::PlanReady(p) => match p.plan.steps.len() {
            1 => "1 step".to_owned(),
            n => format!("{n} steps"),
        },
        Payload::StepTask(t) => format!("{} {}", t.step_id, t.tool),
        Payload::ToolRequest(t) => format!("{} {}", t.step_id, t.tool),
        Payload::StepResult(r) => format!("{} {}", r.step_id, status(&r.outcome)),
        Payload::ToolResponse(r) => format!("{} {}", r.step_id, status(&r.outcome)),
        Payload::FinalReport(r) => serde_json::to_value(r.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
        Payload::VerificationDone(v) => format!("attempt {} {}", v.iteration, v.verdict.as_str()),
        Payload::RenavigateRequest(r) => format!("after attempt {}", r.iteration),
        Payload::ClarificationNeeded(q) => format!("question {}", q.number),
        Payload::ClarificationAnswer(a) => match a.question {
            Some(n) => format!("answer to {n}"),
            None => "answer".to_owned(),
        },
        _ => String::new(),
    }
}

/// Keeps a label on one line and free of characters Mermaid gives meaning to, and of
/// control characters ([`safe::line`]).
fn clean(label: &str) -> String {
    let label: String = label
        .chars()
        .map(|c| match c {
            ';' | '#' | '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    safe::line(&label).into_owned()
}

/// The diagram of `msgs` (already in the order they were sent).
pub fn diagram(msgs: &[Message]) -> String {
    let hops: Vec<_> = msgs.iter().map(hop).collect();
    let mut participants: Vec<&str> = Vec::new();
    for h in &hops {
        for role in std::iter::once(&h.from).chain(h.to.first()) {
            if !participants.contains(&role.as_str()) {
                participants.push(role);
            }
        }
    }
    let mut out = String::from("sequenceDiagram\n");
    for p in &participants {
        let _ = writeln!(out, "    participant {} as {}", id(p), clean(p));
    }
    let mut prev = msgs.first().map(sent_us).unwrap_or(0);
    for (msg, h) in msgs.iter().zip(&hops) {
        let Some(to) = h.to.first() else { continue };
        let t = sent_us(msg);
        let mut label = msg.topic.as_str().to_owned();
        let d = detail(msg);
        if !d.is_empty() {
            label.push(' ');
            label.push_str(&d);
        }
        if h.to.len() > 1 {
            let _ = write!(label, " (also to {})", h.to[1..].join(", "));
        }
        let _ = write!(label, " +{:.2} ms", t.saturating_sub(prev) as f64 / 1000.0);
        prev = t;
        let arrow = if h.reply { "-->>" } else { "->>" };
        let _ = writeln!(
            out,
            "    {}{arrow}{}: {}",
            id(&h.from),
            id(to),
            clean(&label)
        );
    }
    out
}
