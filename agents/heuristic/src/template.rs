//! Report templates: the final report as markdown in English or Vietnamese — a status
//! line when not every step succeeded, the direct answer one line per part, then the
//! steps when a part took several.
//!
//! The sentences are Chorus's own ([`crate::sentence`]), in the user's language. Every
//! number in the text comes from a step's arguments or outcome as received; the template
//! computes nothing.

use chorus_bus::{Language, ReportStatus, StepOutcome, StepReport};

use crate::dates::DATE_POOL;
use crate::formula::ById;
use crate::sentence;

/// The words of one language.
struct Words {
    status: &'static str,
    partial: &'static str,
    partial_part: &'static str,
    unanswered: &'static str,
    canceled: &'static str,
    failed: &'static str,
    deadline: &'static str,
    unplannable: &'static str,
    steps: &'static str,
    nothing: &'static str,
}

const EN: Words = Words {
    status: "**Status:**",
    partial: "partial: some steps failed.",
    partial_part: "partial: a part of the request was not understood.",
    unanswered: "unanswered: no answer came to the question.",
    canceled: "canceled at your request; what had finished by then is below.",
    failed: "failed: no step succeeded.",
    deadline: "deadline exceeded: some steps did not finish in time.",
    unplannable: "the request could not be planned.",
    steps: "**Steps:**",
    nothing: "No results for",
};

const VI: Words = Words {
    status: "**Trạng thái:**",
    partial: "một phần: một số bước bị lỗi.",
    partial_part: "một phần: có phần của yêu cầu không hiểu được.",
    unanswered: "chưa được trả lời: không có câu trả lời cho câu hỏi.",
    canceled: "đã hủy theo yêu cầu của bạn; những gì đã xong trước đó ở bên dưới.",
    failed: "thất bại: không bước nào thành công.",
    deadline: "quá hạn: một số bước không hoàn thành kịp.",
    unplannable: "không thể lập kế hoạch cho yêu cầu.",
    steps: "**Các bước:**",
    nothing: "Không có kết quả cho",
};

fn words(language: Language) -> &'static Words {
    if language.is_vi() { &VI } else { &EN }
}

/// The one line a report carries about its attempts, when it took more than one or
/// Chorus stopped trying (`stopped`: why, one line each): "Answered on attempt 2 (attempt
/// 1: s1 sum: sum timed out after 1000 ms)." or "Stopped after 3 attempts: …". `None`
/// for a task answered on its first attempt.
pub fn attempts_line(
    language: Language,
    iterations: u32,
    retried: &[String],
    stopped: &[String],
) -> Option<String> {
    let vi = language.is_vi();
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
/// `Completed`, the direct answer — one line per part of the request, in the order
/// asked ("(2 + 4) × 3 = 18", "25/12/2026 là Thứ Sáu.") — and the `unplanned` message
/// when given (before the answers when nothing was planned, after them when only some
/// parts were understood), then, when a part took more than one step, every step on
/// its own line.
pub fn render_report(
    query: &str,
    language: Language,
    steps: &[StepReport],
    status: ReportStatus,
    unplanned: Option<&str>,
) -> String {
    let w = words(language);
    let mut blocks: Vec<String> = Vec::new();
    let unplanned = unplanned.filter(|m| !m.trim().is_empty());
    let all_ok = steps
        .iter()
        .all(|s| s.outcome.as_ref().is_some_and(StepOutcome::is_ok));
    let status_text = match status {
        ReportStatus::Completed => None,
        ReportStatus::Partial if unplanned.is_some() && all_ok => Some(w.partial_part),
        ReportStatus::Partial => Some(w.partial),
        ReportStatus::Unanswered => Some(w.unanswered),
        ReportStatus::Canceled => Some(w.canceled),
        ReportStatus::Failed => Some(w.failed),
        ReportStatus::DeadlineExceeded => Some(w.deadline),
        ReportStatus::Unplannable => Some(w.unplannable),
    };
    if let Some(s) = status_text {
        blocks.push(format!("{} {s}", w.status));
    }
    let by_id: ById<'_> = steps.iter().map(|s| (s.step_id.as_str(), s)).collect();
    let answers = answer_lines(steps, &by_id, language);
    if let Some(msg) = unplanned.filter(|_| steps.is_empty()) {
        blocks.push(msg.trim_end().to_owned());
    }
    if !answers.is_empty() {
        blocks.push(answers.join("\n"));
    }
    if let Some(msg) = unplanned.filter(|_| !steps.is_empty()) {
        blocks.push(msg.trim_end().to_owned());
    }
    if steps.len() > answers.len() {
        // Some part took several steps: each of them, in plan order, with the values it
        // received (`6 × 3 = 18`, not the whole formula again).
        let flat = ById::new();
        let lines: Vec<String> = steps
            .iter()
            .map(|s| format!("- {}", step_line(s, &flat, &by_id, language, None)))
            .collect();
        blocks.push(format!("{}\n{}", w.steps, lines.join("\n")));
    }
    if blocks.is_empty() {
        blocks.push(format!("{} \"{query}\"", w.nothing));
    }
    let mut text = blocks.join("\n\n");
    text.push('\n');
    text
}

/// One line per part, in order of first appearance: its output steps' sentences, a date
/// and the weekday taken of it as one sentence. Steps that name no part (a plan a
/// client or a model wrote without them) are not one part: each sentence of theirs is
/// a line of its own.
fn answer_lines(steps: &[StepReport], by_id: &ById<'_>, language: Language) -> Vec<String> {
    let mut parts: Vec<&str> = Vec::new();
    for s in steps.iter().filter(|s| s.output) {
        if !parts.contains(&s.part.as_str()) {
            parts.push(&s.part);
        }
    }
    parts
        .iter()
        .flat_map(|part| {
            let outputs: Vec<&StepReport> = steps
                .iter()
                .filter(|s| s.output && s.part == *part)
                .collect();
            let sentences: Vec<String> = outputs
                .iter()
                .filter(|s| !woven(s, &outputs))
                .map(|s| {
                    let weekday = outputs
                        .iter()
                        .find(|w| takes_weekday_of(w, s))
                        .and_then(|w| ok_text(w));
                    step_line(s, by_id, by_id, language, weekday.as_deref())
                })
                .collect();
            if part.is_empty() || sentences.is_empty() {
                sentences
            } else {
                vec![sentences.join(" ")]
            }
        })
        .collect()
}

fn succeeded(s: &StepReport) -> bool {
    s.outcome.as_ref().is_some_and(StepOutcome::is_ok)
}

/// Whether `w` is a `weekday` step of the date pool taking the date `s` produced (a tool
/// of another pool may have the same name and mean something else).
fn takes_weekday_of(w: &StepReport, s: &StepReport) -> bool {
    w.pool == DATE_POOL
        && w.tool == "weekday"
        && w.inputs.get("date") == Some(&s.step_id)
        && succeeded(w)
        && succeeded(s)
}

/// Whether `s`'s line is written by another output step of its part: a weekday step
/// whose answer is woven into its date's sentence, or a date another step answered a
/// question about (`2026-11-30 is 7 days away.` says which date it found).
fn woven(s: &StepReport, outputs: &[&StepReport]) -> bool {
    outputs.iter().any(|d| takes_weekday_of(s, d))
        || outputs.iter().any(|c| {
            c.tool != "weekday"
                && succeeded(c)
                && succeeded(s)
                && c.inputs.values().any(|id| *id == s.step_id)
        })
}

fn ok_text(s: &StepReport) -> Option<String> {
    match &s.outcome {
        Some(StepOutcome::Ok { value, .. }) => Some(crate::args::value_text(value)),
        _ => None,
    }
}

/// A step's sentence: its answer, or why there is none. Formulas are written through
/// the steps of `formula_steps` (none: the values the step received); a failure's cause
/// is looked up among `all` steps.
fn step_line(
    s: &StepReport,
    formula_steps: &ById<'_>,
    all: &ById<'_>,
    language: Language,
    weekday: Option<&str>,
) -> String {
    match &s.outcome {
        Some(StepOutcome::Ok { value, text }) => {
            sentence::answer(s, value, text, formula_steps, language, weekday)
        }
        _ => sentence::not_answered(s, formula_steps, language, failed_cause(s, all).as_deref()),
    }
}

/// The error of the first failed step `s` took an input from (followed back), when `s`
/// failed because of it.
fn failed_cause(s: &StepReport, by_id: &ById<'_>) -> Option<String> {
    let mut current = s;
    let mut cause = None;
    for _ in 0..32 {
        let failed_input = current.inputs.values().find_map(|id| {
            let input = by_id.get(id.as_str())?;
            match &input.outcome {
                Some(StepOutcome::Failed { error, .. }) => Some((*input, error)),
                _ => None,
            }
        });
        let Some((input, error)) = failed_input else {
            break;
        };
        cause = Some(error.clone());
        current = input;
    }
    cause
}
