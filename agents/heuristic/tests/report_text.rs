//! The report templates: exact markdown for completed, failed, partial, unfinished and
//! unplannable tasks, in English and Vietnamese — the direct answer one line per part,
//! then the steps when a part took several — and the status judged from the steps.

use chorus_bus::{Language, ReportStatus, StepOutcome, StepReport};
use chorus_heuristic::{render_report, report_status};
use serde_json::{Value, json};

fn step(
    id: &str,
    pool: &str,
    tool: &str,
    args: Value,
    outcome: Option<StepOutcome>,
    output: bool,
) -> StepReport {
    StepReport {
        step_id: id.into(),
        part: String::new(),
        pool: pool.into(),
        tool: tool.into(),
        arguments: args.as_object().cloned().unwrap_or_default(),
        inputs: Default::default(),
        recalled: Vec::new(),
        outcome,
        output,
    }
}

/// `s` answering `part`, taking `inputs` (argument name, step id) from other steps.
fn of(mut s: StepReport, part: &str, inputs: &[(&str, &str)]) -> StepReport {
    s.part = part.into();
    s.inputs = inputs
        .iter()
        .map(|(name, id)| ((*name).to_owned(), (*id).into()))
        .collect();
    s
}

fn ok(value: Value, text: &str) -> Option<StepOutcome> {
    Some(StepOutcome::Ok {
        value,
        text: text.into(),
    })
}

fn failed(error: &str) -> Option<StepOutcome> {
    Some(StepOutcome::failed(error))
}

fn compound_steps() -> Vec<StepReport> {
    let math = "compute (2+4)*3";
    let date = "the weekday of 2026-12-25";
    vec![
        of(
            step(
                "s1",
                "math",
                "sum",
                json!({"a": "2", "b": "4"}),
                ok(json!("6"), "6"),
                false,
            ),
            math,
            &[],
        ),
        of(
            step(
                "s2",
                "math",
                "multiply",
                json!({"a": "6", "b": "3"}),
                ok(json!("18"), "18"),
                true,
            ),
            math,
            &[("a", "s1")],
        ),
        of(
            step(
                "s3",
                "date",
                "weekday",
                json!({"date": "2026-12-25"}),
                ok(json!("Friday"), "2026-12-25 is a Friday."),
                true,
            ),
            date,
            &[],
        ),
    ]
}

#[test]
fn a_compound_report_answers_each_part_on_one_line_then_lists_the_steps() {
    let steps = compound_steps();
    let status = report_status(&steps);
    assert_eq!(status, ReportStatus::Completed);
    assert_eq!(
        render_report("q", Language::En, &steps, status, None),
        "(2 + 4) × 3 = 18\n2026-12-25 is a Friday.\n\n**Steps:**\n- 2 + 4 = 6\n- 6 × 3 = 18\n- 2026-12-25 is a Friday.\n"
    );
}

#[test]
fn the_vietnamese_report_is_vietnamese_throughout() {
    let steps = compound_steps();
    assert_eq!(
        render_report("q", Language::Vi, &steps, ReportStatus::Completed, None),
        "(2 + 4) × 3 = 18\n25/12/2026 là Thứ Sáu.\n\n**Các bước:**\n- 2 + 4 = 6\n- 6 × 3 = 18\n- 25/12/2026 là Thứ Sáu.\n"
    );
}

#[test]
fn a_single_step_is_one_line_without_a_step_list() {
    let steps = vec![step(
        "s1",
        "math",
        "sum",
        json!({"a": "2", "b": "4"}),
        ok(json!("6"), "6"),
        true,
    )];
    assert_eq!(
        render_report("2+4", Language::En, &steps, report_status(&steps), None),
        "2 + 4 = 6\n"
    );
}

#[test]
fn a_failed_step_says_why_under_a_status_line() {
    let steps = vec![step(
        "s1",
        "math",
        "divide",
        json!({"a": "1", "b": "0"}),
        failed("division by zero"),
        true,
    )];
    let status = report_status(&steps);
    assert_eq!(status, ReportStatus::Failed);
    assert_eq!(
        render_report("1/0", Language::En, &steps, status, None),
        "**Status:** failed: no step succeeded.\n\n1 ÷ 0: failed (division by zero).\n"
    );
    assert_eq!(
        render_report("1/0", Language::Vi, &steps, status, None),
        "**Trạng thái:** thất bại: không bước nào thành công.\n\n1 ÷ 0: lỗi (không thể chia cho 0).\n"
    );
}

#[test]
fn a_step_failed_by_its_input_says_what_failed_first() {
    let steps = vec![
        of(
            step(
                "s1",
                "math",
                "divide",
                json!({"a": "1", "b": "0"}),
                failed("division by zero"),
                false,
            ),
            "1/0 + 3",
            &[],
        ),
        of(
            step(
                "s2",
                "math",
                "sum",
                json!({"b": "3"}),
                failed("step s1 failed"),
                true,
            ),
            "1/0 + 3",
            &[("a", "s1")],
        ),
        of(
            step(
                "s3",
                "date",
                "today",
                json!({}),
                ok(json!("2026-11-22"), "2026-11-22"),
                true,
            ),
            "today",
            &[],
        ),
    ];
    let status = report_status(&steps);
    assert_eq!(status, ReportStatus::Partial);
    assert_eq!(
        render_report("q", Language::En, &steps, status, None),
        "**Status:** partial: some steps failed.\n\n1 ÷ 0 + 3: failed (division by zero).\nToday is 2026-11-22.\n\n**Steps:**\n- 1 ÷ 0: failed (division by zero).\n- ? + 3: failed (division by zero).\n- Today is 2026-11-22.\n"
    );
}

#[test]
fn unfinished_steps_are_reported_as_missing_the_deadline() {
    let steps = vec![
        of(
            step(
                "s1",
                "math",
                "sum",
                json!({"a": "2", "b": "4"}),
                ok(json!("6"), "6"),
                true,
            ),
            "2+4",
            &[],
        ),
        of(
            step(
                "s2",
                "date",
                "weekday",
                json!({"date": "2026-12-25"}),
                None,
                true,
            ),
            "weekday of 2026-12-25",
            &[],
        ),
    ];
    let status = report_status(&steps);
    assert_eq!(status, ReportStatus::DeadlineExceeded);
    assert_eq!(
        render_report("q", Language::En, &steps, status, None),
        "**Status:** deadline exceeded: some steps did not finish in time.\n\n2 + 4 = 6\nThe weekday of 2026-12-25: did not finish before the deadline.\n"
    );
    assert!(
        render_report("q", Language::Vi, &steps, status, None)
            .contains("\nThứ của 25/12/2026: không hoàn thành trước hạn chót.\n")
    );
}

#[test]
fn an_unplannable_report_carries_the_planner_message() {
    assert_eq!(
        render_report(
            "write me a poem",
            Language::En,
            &[],
            ReportStatus::Unplannable,
            Some("I could not understand \"write me a poem\", or no tool of mine serves it.")
        ),
        "**Status:** the request could not be planned.\n\nI could not understand \"write me a poem\", or no tool of mine serves it.\n"
    );
}

#[test]
fn date_answers_are_chorus_sentences_in_each_language_with_the_weekday_woven_in() {
    let christmas = |language: Language| {
        let steps = vec![
            of(
                step(
                    "s1",
                    "date",
                    "next_date",
                    json!({"month": 12, "day": 25}),
                    ok(
                        json!("2026-12-25"),
                        "The next 12-25 is 2026-12-25, a Friday.",
                    ),
                    true,
                ),
                "what weekday is christmas",
                &[],
            ),
            of(
                step(
                    "s2",
                    "date",
                    "weekday",
                    json!({"date": "2026-12-25"}),
                    ok(json!("Friday"), "2026-12-25 is a Friday."),
                    true,
                ),
                "what weekday is christmas",
                &[("date", "s1")],
            ),
        ];
        render_report("q", language, &steps, ReportStatus::Completed, None)
    };
    assert!(
        christmas(Language::En).starts_with("The next December 25 is Friday, 2026-12-25.\n\n"),
        "{}",
        christmas(Language::En)
    );
    assert!(
        christmas(Language::Vi).starts_with("Ngày 25 tháng 12 tới là Thứ Sáu, 25/12/2026.\n\n"),
        "{}",
        christmas(Language::Vi)
    );
    let one = |tool: &str, args: Value, value: Value, language: Language| {
        let steps = vec![step("s1", "date", tool, args, ok(value, "tool text"), true)];
        render_report("q", language, &steps, ReportStatus::Completed, None)
    };
    let cases = [
        (
            "days_until",
            json!({"date": "2026-12-25"}),
            json!(33),
            Language::En,
            "2026-12-25 is 33 days away.\n",
        ),
        (
            "days_until",
            json!({"date": "2026-12-25"}),
            json!(33),
            Language::Vi,
            "Còn 33 ngày nữa là đến 25/12/2026.\n",
        ),
        (
            "days_until",
            json!({"date": "2026-11-01"}),
            json!(-1),
            Language::En,
            "2026-11-01 was 1 day ago.\n",
        ),
        (
            "add_duration",
            json!({"amount": 1, "unit": "days"}),
            json!("2026-11-24"),
            Language::En,
            "1 day from now is 2026-11-24.\n",
        ),
        (
            "add_duration",
            json!({"amount": 3, "unit": "weeks", "date": "2026-01-01"}),
            json!("2026-01-22"),
            Language::Vi,
            "3 tuần sau 01/01/2026 là 22/01/2026.\n",
        ),
        (
            "subtract_duration",
            json!({"amount": 2, "unit": "months"}),
            json!("2026-09-23"),
            Language::Vi,
            "2 tháng trước là 23/09/2026.\n",
        ),
        (
            "difference",
            json!({"from": "2026-01-01", "to": "2026-12-25"}),
            json!(358),
            Language::Vi,
            "Từ 01/01/2026 đến 25/12/2026 là 358 ngày.\n",
        ),
        (
            "today",
            json!({}),
            json!("2026-11-23"),
            Language::Vi,
            "Hôm nay là 23/11/2026.\n",
        ),
        (
            "now",
            json!({}),
            json!("2026-11-23T14:30:00+07:00"),
            Language::En,
            "It is 14:30 on 2026-11-23 (UTC+07:00).\n",
        ),
    ];
    for (tool, args, value, language, expected) in cases {
        assert_eq!(
            one(tool, args.clone(), value, language),
            expected,
            "{tool} {args}"
        );
    }
}

#[test]
fn other_pools_tools_keep_their_own_text() {
    let steps = vec![step(
        "s1",
        "search",
        "lookup",
        json!({"q": "rust"}),
        ok(json!("found"), "3 pages found"),
        true,
    )];
    assert_eq!(
        render_report("q", Language::En, &steps, ReportStatus::Completed, None),
        "lookup: 3 pages found\n"
    );
}

#[test]
fn intermediate_successes_do_not_decide_the_status() {
    let steps = vec![
        step("s1", "math", "sum", json!({}), ok(json!("6"), "6"), false),
        step(
            "s2",
            "math",
            "divide",
            json!({}),
            failed("division by zero"),
            true,
        ),
    ];
    assert_eq!(report_status(&steps), ReportStatus::Failed);
    assert_eq!(report_status(&[]), ReportStatus::Unplannable);
}
