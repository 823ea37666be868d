//! A task's question as `chorus ask` shows it: the question, its options numbered (an
//! answer may be the number, the label or words of one option), and, when `ask` stops
//! without an answer, the other ways to answer the waiting task.

use std::fmt::Write as _;

use chorus_bus::{ClarificationNeeded, TaskId};

/// The question and its options, one per line (`  1) 3 April 2026`), no trailing newline.
pub fn text(q: &ClarificationNeeded) -> String {
    let mut out = q.question.trim().to_owned();
    for (i, o) in q.options.iter().enumerate() {
        let _ = write!(out, "\n  {}) {}", i + 1, o.label);
    }
    out
}

/// The prompt after the question on a terminal: what an answer may be.
pub fn prompt(q: &ClarificationNeeded) -> &'static str {
    match (q.options.is_empty(), q.language.is_vi()) {
        (true, false) => "your answer: ",
        (true, true) => "câu trả lời của bạn: ",
        (false, false) => "your answer (number or words): ",
        (false, true) => "câu trả lời của bạn (số thứ tự hoặc chữ): ",
    }
}

/// A string as a JSON string literal, for a command line the user can paste.
fn json_str(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// How to answer `task_id` once `chorus ask` has stopped: on the bus with `redis-cli`
/// (bare answer), or over the Chief's HTTP API at `http_bind` (empty: none), or by
/// asking again with `--answer`. `local`: the task lived in this process only.
pub fn how_to_answer(task_id: &TaskId, http_bind: &str, local: bool) -> String {
    if local {
        return "The task ran in this process (--local) and ends with it: ask again with \
--answer TEXT (repeatable, one per question), or on a terminal to be asked."
            .to_owned();
    }
    let body = format!(
        "{{\"task_id\":{},\"answer\":\"<answer>\"}}",
        json_str(task_id)
    );
    let mut out = format!(
        "The task waits for the answer (up to agents.answer_timeout_ms); `chorus ask` cannot \
resume it. Answer with:\n  redis-cli XADD clarification_answer '*' data '{body}'"
    );
    if !http_bind.is_empty() {
        let _ = write!(
            out,
            "\n  curl -X POST http://{http_bind}/tasks/{task_id}/answer \
-H 'content-type: application/json' -d '{{\"answer\":\"<answer>\"}}'"
        );
    }
    out.push_str("\nthen read the report with `chorus trace ");
    out.push_str(task_id);
    out.push_str("` (its final_report row) or GET /tasks/");
    out.push_str(task_id);
    out.push('.');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::AnswerOption;

    fn question(options: &[(&str, &str)]) -> ClarificationNeeded {
        ClarificationNeeded {
            question: "Does \"03/04/2026\" mean 3 April 2026 or 4 March 2026?".into(),
            options: options
                .iter()
                .map(|(l, v)| AnswerOption {
                    label: (*l).into(),
                    value: (*v).into(),
                })
                .collect(),
            part: "03/04/2026".into(),
            language: chorus_bus::Language::En,
            number: 1,
            query: "what weekday is 03/04/2026".into(),
            session_id: None,
        }
    }

    #[test]
    fn options_are_numbered_one_per_line() {
        let q = question(&[
            ("3 April 2026", "2026-04-03"),
            ("4 March 2026", "2026-03-04"),
        ]);
        assert_eq!(
            text(&q),
            "Does \"03/04/2026\" mean 3 April 2026 or 4 March 2026?\n  1) 3 April 2026\n  2) 4 March 2026"
        );
        assert_eq!(prompt(&q), "your answer (number or words): ");
        assert_eq!(prompt(&question(&[])), "your answer: ");
    }

    #[test]
    fn the_ways_to_answer_name_the_task() {
        let how = how_to_answer(&"t-1".into(), "127.0.0.1:8080", false);
        assert!(
            how.contains(
                r#"redis-cli XADD clarification_answer '*' data '{"task_id":"t-1","answer":"<answer>"}'"#
            ),
            "{how}"
        );
        assert!(
            how.contains("curl -X POST http://127.0.0.1:8080/tasks/t-1/answer"),
            "{how}"
        );
        assert!(!how_to_answer(&"t-1".into(), "", false).contains("curl"));
        assert!(how_to_answer(&"t-1".into(), "", true).contains("--answer"));
    }
}
