//! Report templates: the final report as markdown in English or Vietnamese, grouped by
//! pool, with a status line when not every step succeeded.
//!
//! Only output steps are listed; an intermediate step is listed too when it failed, so
//! the reader sees why its dependants failed. Every number in the text comes from a
//! step's arguments or outcome as received; the template computes nothing.

use chorus_bus::{ReportStatus, StepOutcome, StepReport};

use crate::args::{render_arguments, value_text};

/// The words of one language.
struct Words {
    status: &'static str,
    partial: &'static str,
    failed: &'static str,
    deadline: &'static str,
    unplannable: &'static str,
    failure: &'static str,
    unfinished: &'static str,
    nothing: &'static str,
}

const EN: Words = Words {
    status: "**Status:**",
    partial: "partial: some steps failed.",
    failed: "failed: no step succeeded.",
    deadline: "deadline exceeded: some steps did not finish in time.",
    unplannable: "the request could not be planned.",
    failure: "failed",
    unfinished: "did not finish before the deadline",
    nothing: "No results for",
};

const VI: Words = Words {
    status: "**Trạng thái:**",
    partial: "một phần: một số bước bị lỗi.",
    failed: "thất bại: không bước nào thành công.",
    deadline: "quá hạn: một số bước không hoàn thành kịp.",
    unplannable: "không thể lập kế hoạch cho yêu cầu.",
    failure: "lỗi",
    unfinished: "không hoàn thành trước hạn chót",
    nothing: "Không có kết quả cho",
};

fn words(language: &str) -> &'static Words {
    if language == "vi" { &VI } else { &EN }
}

/// The section heading for a pool.
fn heading(pool: &str, language: &str) -> String {
    match (pool, language == "vi") {
        ("math", false) => "Math Results".to_owned(),
        ("math", true) => "Kết quả tính toán".to_owned(),
        ("date", false) => "Date Results".to_owned(),
        ("date", true) => "Kết quả ngày tháng".to_owned(),
        (other, false) => {
            let mut c = other.chars();
            let cap: String = c
                .next()
                .map(|f| f.to_uppercase().chain(c).collect())
                .unwrap_or_default();
            format!("{cap} Results")
        }
        (other, true) => format!("Kết quả {other}"),
    }
}

/// The one line a report carries about its attempts, when it took more than one or
/// Chorus stopped trying (`stopped`: why, one line each): "Answered on attempt 2 (attempt
/// 1: s1 sum: sum timed out after 1000 ms)." or "Stopped after 3 attempts: …". `None`
/// for a task answered on its first attempt.
pub fn attempts_line(
    language: &str,
    iterations: u32,
    retried: &[String],
    stopped: &[String],
) -> Option<String> {
    let vi = language == "vi";
    if !stopped.is_empty() {
        let why = stopped.join("; ");
        return Some(match vi {
            true => format!("**Số lần thử:** dừng sau {iterations} lần thử: {why}."),
            false => format!("**Attempts:** stopped after {iterations}: {why}."),
        });
    }
    if iterations <= 1 {
        return None;
    }
    let earlier = retried.join("; ");
    Some(match vi {
        true => format!("**Số lần thử:** trả lời ở lần thử {iterations} ({earlier})."),
        false => format!("**Attempts:** answered on attempt {iterations} ({earlier})."),
    })
}

/// The overall status of a task from its steps: `DeadlineExceeded` when a step never
/// finished, else judged on the output steps: all succeeded `Completed`, none `Failed`,
/// some `Partial`; `Unplannable` when there are no steps.
pub fn report_status(steps: &[StepReport]) -> ReportStatus {
    if steps.is_empty() {
        return ReportStatus::Unplannable;
    }
    if steps.iter().any(|s| s.outcome.is_none()) {
        return ReportStatus::DeadlineExceeded;
    }
    let outputs: Vec<&StepReport> = steps.iter().filter(|s| s.output).collect();
    let judged = if outputs.is_empty() {
        steps.iter().collect()
    } else {
        outputs
    };
    let ok = judged
        .iter()
        .filter(|s| s.outcome.as_ref().is_some_and(StepOutcome::is_ok))
        .count();
    match ok {
        0 => ReportStatus::Failed,
        n if n == judged.len() => ReportStatus::Completed,
        _ => ReportStatus::Partial,
    }
}

/// The report for `query` as markdown in `language`: a status line unless `status` is
/// `Completed`, the `unplanned` message when given, then one section per pool.
pub fn render_report(
    query: &str,
    language: &str,
    steps: &[StepReport],
    status: ReportStatus,
    unplanned: Option<&str>,
) -> String {
    let w = words(language);
    let mut blocks: Vec<String> = Vec::new();
    let status_text = match status {
        ReportStatus::Completed => None,
        ReportStatus::Partial => Some(w.partial),
        ReportStatus::Failed => Some(w.failed),
        ReportStatus::DeadlineExceeded => Some(w.deadline),
        ReportStatus::Unplannable => Some(w.unplannable),
    };
    if let Some(s) = status_text {
        blocks.push(format!("{} {s}", w.status));
    }
    if let Some(msg) = unplanned.filter(|m| !m.trim().is_empty()) {
        blocks.push(msg.trim_end().to_owned());
    }
    let shown: Vec<&StepReport> = steps.iter().filter(|s| is_shown(s)).collect();
    let mut pools: Vec<&str> = Vec::new();
    for s in &shown {
        if !pools.contains(&s.pool.as_str()) {
            pools.push(&s.pool);
        }
    }
    for pool in pools {
        let mut section = format!("## {}:", heading(pool, language));
        for s in shown.iter().filter(|s| s.pool == pool) {
            section.push('\n');
            section.push_str(&step_line(s, language, w));
        }
        blocks.push(section);
    }
    if blocks.is_empty() {
        blocks.push(format!("{} \"{query}\"", w.nothing));
    }
    let mut text = blocks.join("\n\n");
    text.push('\n');
    text
}

fn is_shown(s: &StepReport) -> bool {
    s.output || matches!(s.outcome, Some(StepOutcome::Failed { .. }))
}

/// `- **sum** (2 + 4): 6`, `- **divide** (1 / 0): failed: division by zero`.
fn step_line(s: &StepReport, language: &str, w: &Words) -> String {
    let args = render_arguments(&s.tool, &s.arguments, language);
    let head = if args.is_empty() {
        format!("- **{}**", s.tool)
    } else {
        format!("- **{}** ({args})", s.tool)
    };
    let result = match &s.outcome {
        Some(StepOutcome::Ok { text, value }) if text.trim().is_empty() => value_text(value),
        Some(StepOutcome::Ok { text, .. }) => text.clone(),
        Some(StepOutcome::Failed { error, .. }) => format!("{}: {error}", w.failure),
        None => w.unfinished.to_owned(),
    };
    format!("{head}: {result}")
}
