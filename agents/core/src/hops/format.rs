//! One-line renderings of messages for `chorus watch`, `chorus trace` and the web view:
//! the time of day, and a short summary of the payload ("s1 sum a=2 b=4", "s1 = 6", …).

use chorus_bus::{Message, Payload, StepOutcome};

/// Longest summary printed, in characters.
const MAX_SUMMARY: usize = 120;

/// `HH:MM:SS.mmm` (UTC) of a time in microseconds since the Unix epoch.
pub fn clock(us: u64) -> String {
    let ms = us / 1000;
    let secs = ms / 1000;
    let day = secs % 86_400;
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        day / 3600,
        day % 3600 / 60,
        day % 60,
        ms % 1000
    )
}

/// The time the UUID v7 id of `msg` was made, in microseconds (millisecond precision).
fn id_time_us(msg: &Message) -> Option<u64> {
    let (secs, nanos) = msg.id.get_timestamp()?.to_unix();
    Some(secs * 1_000_000 + u64::from(nanos) / 1000)
}

/// Whether `msg` is a client's bare payload as decoded from a stream — a
/// `{"query": …}` request, or a `{"task_id": …, "answer": …}` answer, which the Chief
/// takes and passes on. Its envelope was made when it was read, but its id carries the
/// stream entry's time. (What the PUBLISH ingress passes on is a full envelope from
/// `client` too, made when it was sent; an answer passed on always names its question,
/// which a bare answer seldom does.)
pub fn is_bare(msg: &Message) -> bool {
    let read_later = || id_time_us(msg).is_some_and(|t| t + 1000 < msg.timestamp_us);
    msg.from_agent == "client"
        && match &msg.payload {
            Payload::TaskAvailable(_) => read_later(),
            Payload::ClarificationAnswer(a) => a.question.is_none() || read_later(),
            _ => false,
        }
}

/// When `msg` was sent, in microseconds: its `timestamp_us`, except for a bare request,
/// whose envelope is made on reading, so the time comes from its stream entry id.
pub fn sent_us(msg: &Message) -> u64 {
    if is_bare(msg) {
        id_time_us(msg).unwrap_or(msg.timestamp_us)
    } else {
        msg.timestamp_us
    }
}

/// A JSON value as a user reads it: strings without quotes.
pub fn value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Tool arguments as `a=2 b=4`.
pub fn arguments(args: &serde_json::Map<String, serde_json::Value>) -> String {
    args.iter()
        .map(|(k, v)| format!("{k}={}", value(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `= 6` or `failed: division by zero`.
fn outcome(o: &StepOutcome) -> String {
    match o {
        StepOutcome::Ok { value: v, .. } => format!("= {}", value(v)),
        StepOutcome::Failed { error, .. } => format!("failed: {}", first_line(error)),
    }
}

/// The first line of `text` with content, without markdown heading, list and bold marks.
/// Headings (a model may write "## Math Results:") and status lines ("**Status:** partial…") are passed
/// over when a later line says more.
pub fn first_line(text: &str) -> String {
    let lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut first = None;
    for line in lines {
        let plain = line
            .trim_start_matches(['#', '-', '*', '>', ' '])
            .replace("**", "");
        if first.is_none() {
            first = Some(plain.clone());
        }
        let status_line = line.starts_with("**") && line.contains(":**");
        if !line.starts_with('#') && !status_line {
            return plain;
        }
    }
    first.unwrap_or_default()
}

/// Cuts `s` to at most `max` characters, marking the cut with `…`.
pub fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A short, one-line summary of a message's payload.
pub fn summary(msg: &Message) -> String {
    let text = match &msg.payload {
        Payload::TaskAvailable(r) => format!("{:?}", r.query),
        Payload::PlanReady(p) => {
            if let Some(reply) = &p.reply {
                format!("answer: {}", first_line(reply))
            } else if let Some(why) = &p.unplanned {
                format!("unplannable: {}", first_line(why))
            } else {
                let n = p.plan.steps.len();
                let steps: Vec<String> = p
                    .plan
                    .steps
                    .iter()
                    .map(|s| format!("{} {}", s.id, s.tool))
                    .collect();
                format!(
                    "{n} step{}: {}",
                    if n == 1 { "" } else { "s" },
                    steps.join(", ")
                )
            }
        }
        Payload::StepTask(t) => format!("{} {} {}", t.step_id, t.tool, arguments(&t.arguments)),
        Payload::StepResult(r) => format!("{} {}", r.step_id, outcome(&r.outcome)),
        Payload::ToolRequest(r) => format!("{} {} {}", r.step_id, r.tool, arguments(&r.arguments)),
        Payload::ToolResponse(r) => format!(
            "{} {} {} ({:.2} ms)",
            r.step_id,
            r.tool,
            outcome(&r.outcome),
            r.elapsed_us as f64 / 1000.0
        ),
        Payload::FinalReport(r) => {
            let status = serde_json::to_value(r.status)
                .map(|v| value(&v))
                .unwrap_or_default();
            format!("{status}: {}", first_line(&r.text))
        }
        Payload::ClarificationNeeded(c) => {
            let options: Vec<String> = c
                .options
                .iter()
                .enumerate()
                .map(|(i, o)| format!("{}) {}", i + 1, o.label))
                .collect();
            let options = match options.is_empty() {
                true => String::new(),
                false => format!(" [{}]", options.join(", ")),
            };
            format!(
                "question {}: {}{options}",
                c.number,
                first_line(&c.question)
            )
        }
        Payload::ClarificationAnswer(a) => match a.question {
            Some(n) => format!("answer to {n}: {:?}", first_line(&a.answer)),
            None => format!("answer: {:?}", first_line(&a.answer)),
        },
        Payload::TaskCancel(c) => match &c.reason {
            Some(reason) => format!("cancel: {:?}", first_line(reason)),
            None => "cancel".to_owned(),
        },
        Payload::RenavigateRequest(r) => format!(
            "re-plan after attempt {}: {}{}",
            r.iteration,
            first_line(&r.reason),
            advised(r.plan.as_ref())
        ),
        Payload::VerificationDone(v) => {
            let verdict = v.verdict.as_str();
            let advice = advised(v.plan.as_ref());
            match v.reasons.is_empty() {
                true => format!("attempt {} {verdict}{advice}", v.iteration),
                false => format!(
                    "attempt {} {verdict}: {}{advice}",
                    v.iteration,
                    first_line(&v.reasons.join("; "))
                ),
            }
        }
        Payload::DeadLetter(d) => format!(
            "{} {} after {} deliveries: {}",
            d.topic,
            d.entry_id,
            d.deliveries,
            first_line(&d.reason)
        ),
        Payload::AgentHeartbeat(h) => match &h.pool {
            Some(pool) => format!("{} ({pool}), {} tools", h.role, h.tools.len()),
            None => format!("{} alive", h.role),
        },
    };
    truncate(text.trim_end(), MAX_SUMMARY)
}

/// " (advised plan: N steps)" when a model's iteration advisor suggested `plan`.
fn advised(plan: Option<&chorus_bus::Plan>) -> String {
    plan.map(|p| format!(" (advised plan: {} steps)", p.steps.len()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::{FinalReport, ReportStatus, StepResult, StepTask, TaskRequest, Topic};
    use serde_json::json;

    fn args(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn clock_prints_utc_time_of_day_with_milliseconds() {
        // 2026-01-01T13:04:05.678901Z
        assert_eq!(clock(1_767_272_645_678_901), "13:04:05.678");
        assert_eq!(clock(0), "00:00:00.000");
    }

    #[test]
    fn summaries_name_the_step_its_arguments_and_its_value() {
        let task = Message::new(
            "t",
            Topic::pool_task("math"),
            "router",
            Payload::StepTask(StepTask {
                step_id: "s1".into(),
                pool: "math".into(),
                tool: "sum".into(),
                arguments: args(json!({"a": 2, "b": 4})),
                context: Default::default(),
                iteration: 1,
            }),
        );
        assert_eq!(summary(&task), "s1 sum a=2 b=4");
        let result = |outcome| {
            Message::new(
                "t",
                Topic::pool_result("math"),
                "pool-math",
                Payload::StepResult(StepResult {
                    step_id: "s1".into(),
                    pool: "math".into(),
                    tool: "divide".into(),
                    arguments: Default::default(),
                    outcome,
                    agent: "a".into(),
                    elapsed_us: 5,
                    iteration: 1,
                }),
            )
        };
        let ok = result(StepOutcome::Ok {
            value: json!(6),
            text: "6".into(),
        });
        assert_eq!(summary(&ok), "s1 = 6");
        let failed = result(StepOutcome::failed("division by zero"));
        assert_eq!(summary(&failed), "s1 failed: division by zero");
    }

    #[test]
    fn a_report_shows_its_status_and_first_content_line() {
        let msg = Message::new(
            "t",
            Topic::final_report(),
            "synthesizer",
            Payload::FinalReport(FinalReport {
                query: "2+4".into(),
                status: ReportStatus::Completed,
                text: "2 + 4 = 6\n".into(),
                language: chorus_bus::Language::En,
                steps: vec![],
                written_by: "synthesizer".into(),
                iterations: 1,
                retried: Vec::new(),
            }),
        );
        assert_eq!(summary(&msg), "completed: 2 + 4 = 6");
        let partial = "**Status:** partial: some steps failed.\n\n1 ÷ 0: failed (division by zero).\n2 + 4 = 6\n";
        assert_eq!(first_line(partial), "1 ÷ 0: failed (division by zero).");
        // A model-written report may open with a heading.
        assert_eq!(
            first_line("## Math Results:\n- **sum** (2 + 4): 6\n"),
            "sum (2 + 4): 6"
        );
        assert_eq!(first_line("## Only a heading"), "Only a heading");
    }

    #[test]
    fn a_verdict_says_when_it_carries_an_advised_plan() {
        let plan: chorus_bus::Plan = serde_json::from_value(json!({"steps": [
            {"id": "s1", "pool": "math", "tool": "multiply", "arguments": {"a": "6", "b": "3"}}
        ]}))
        .expect("plan");
        let verdict = |plan| {
            Message::new(
                "t",
                Topic::verification_done(),
                "synthesizer",
                Payload::VerificationDone(chorus_bus::VerificationDone {
                    iteration: 1,
                    verdict: chorus_bus::Verdict::Reiterate,
                    reasons: vec!["the model judged that the report does not answer".into()],
                    failed_steps: Vec::new(),
                    plan,
                }),
            )
        };
        assert_eq!(
            summary(&verdict(Some(plan))),
            "attempt 1 REITERATE: the model judged that the report does not answer (advised plan: 1 steps)"
        );
        assert_eq!(
            summary(&verdict(None)),
            "attempt 1 REITERATE: the model judged that the report does not answer"
        );
    }

    #[test]
    fn a_question_shows_its_number_and_options_and_an_answer_what_it_answers() {
        use chorus_bus::{AnswerOption, ClarificationAnswer, ClarificationNeeded};
        let option = |label: &str, value: &str| AnswerOption {
            label: label.into(),
            value: value.into(),
        };
        let asked = Message::new(
            "t",
            Topic::clarification_needed(),
            "planner",
            Payload::ClarificationNeeded(ClarificationNeeded {
                question: "Does \"03/04/2026\" mean 3 April 2026 or 4 March 2026?".into(),
                options: vec![
                    option("3 April 2026", "2026-04-03"),
                    option("4 March 2026", "2026-03-04"),
                ],
                part: "03/04/2026".into(),
                language: chorus_bus::Language::En,
                number: 1,
                query: "what weekday is 03/04/2026".into(),
                session_id: None,
            }),
        );
        assert_eq!(
            summary(&asked),
            "question 1: Does \"03/04/2026\" mean 3 April 2026 or 4 March 2026? [1) 3 April 2026, 2) 4 March 2026]"
        );
        let answer = |question| {
            Message::new(
                "t",
                Topic::clarification_answer(),
                "cli",
                Payload::ClarificationAnswer(ClarificationAnswer {
                    answer: "April".into(),
                    question,
                }),
            )
        };
        assert_eq!(summary(&answer(Some(1))), "answer to 1: \"April\"");
        assert_eq!(summary(&answer(None)), "answer: \"April\"");
        assert!(!is_bare(&answer(None)));
    }

    #[test]
    fn a_query_is_quoted_and_long_text_is_cut() {
        let msg = Message::new(
            "t",
            Topic::task_available(),
            "cli",
            Payload::TaskAvailable(TaskRequest {
                query: "tính 2+4 = ??".into(),
                context: Default::default(),
            }),
        );
        assert_eq!(summary(&msg), "\"tính 2+4 = ??\"");
        assert!(!is_bare(&msg));
        assert_eq!(sent_us(&msg), msg.timestamp_us);
        assert_eq!(truncate("abcdef", 4), "abc…");
    }
}
