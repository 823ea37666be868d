//! The report templates: exact markdown for completed, failed, partial, unfinished and
//! unplannable tasks, in English and Vietnamese, and the status judged from the steps.

use chorus_bus::{ReportStatus, StepOutcome, StepReport};
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
        outcome,
        output,
    }
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
    vec![
        step(
            "s1",
            "math",
            "sum",
            json!({"a": "2", "b": "4"}),
            ok(json!("6"), "6"),
            false,
        ),
        step(
            "s2",
            "math",
            "multiply",
            json!({"a": "6", "b": "3"}),
            ok(json!("18"), "18"),
            true,
        ),
        step(
            "s3",
            "date",
            "weekday",
            json!({"date": "2026-12-25"}),
            ok(json!("Friday"), "Friday"),
            true,
        ),
    ]
}

#[test]
fn a_completed_compound_report_groups_output_steps_by_pool() {
    let steps = compound_steps();
    let status = report_status(&steps);
    assert_eq!(status, ReportStatus::Completed);
    assert_eq!(
        render_report("q", "en", &steps, status, None),
        "## Math Results:\n- **multiply** (6 × 3): 18\n\n## Date Results:\n- **weekday** (2026-12-25): Friday\n"
    );
}

#[test]
fn the_vietnamese_report_uses_vietnamese_headings() {
    let steps = compound_steps();
    assert_eq!(
        render_report("q", "vi", &steps, ReportStatus::Completed, None),
        "## Kết quả tính toán:\n- **multiply** (6 × 3): 18\n\n## Kết quả ngày tháng:\n- **weekday** (2026-12-25): Friday\n"
    );
}

#[test]
fn a_single_sum_report() {
    let steps = vec![step(
        "s1",
        "math",
        "sum",
        json!({"a": "2", "b": "4"}),
        ok(json!("6"), "6"),
        true,
    )];
    assert_eq!(
        render_report("2+4", "en", &steps, report_status(&steps), None),
        "## Math Results:\n- **sum** (2 + 4): 6\n"
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
        render_report("1/0", "en", &steps, status, None),
        "**Status:** failed: no step succeeded.\n\n## Math Results:\n- **divide** (1 / 0): failed: division by zero\n"
    );
    assert_eq!(
        render_report("1/0", "vi", &steps, status, None),
        "**Trạng thái:** thất bại: không bước nào thành công.\n\n## Kết quả tính toán:\n- **divide** (1 / 0): lỗi: division by zero\n"
    );
}

#[test]
fn a_failed_intermediate_step_is_shown_with_its_dependant() {
    let steps = vec![
        step(
            "s1",
            "math",
            "divide",
            json!({"a": "1", "b": "0"}),
            failed("division by zero"),
            false,
        ),
        step(
            "s2",
            "math",
            "sum",
            json!({}),
            failed("step s1 failed"),
            true,
        ),
        step(
            "s3",
            "date",
            "today",
            json!({}),
            ok(json!("2026-11-22"), "2026-11-22"),
            true,
        ),
    ];
    let status = report_status(&steps);
    assert_eq!(status, ReportStatus::Partial);
    assert_eq!(
        render_report("q", "en", &steps, status, None),
        "**Status:** partial: some steps failed.\n\n## Math Results:\n- **divide** (1 / 0): failed: division by zero\n- **sum**: failed: step s1 failed\n\n## Date Results:\n- **today**: 2026-11-22\n"
    );
}

#[test]
fn unfinished_steps_are_reported_as_missing_the_deadline() {
    let steps = vec![
        step(
            "s1",
            "math",
            "sum",
            json!({"a": "2", "b": "4"}),
            ok(json!("6"), "6"),
            true,
        ),
        step("s2", "date", "weekday", json!({}), None, true),
    ];
    let status = report_status(&steps);
    assert_eq!(status, ReportStatus::DeadlineExceeded);
    assert_eq!(
        render_report("q", "en", &steps, status, None),
        "**Status:** deadline exceeded: some steps did not finish in time.\n\n## Math Results:\n- **sum** (2 + 4): 6\n\n## Date Results:\n- **weekday**: did not finish before the deadline\n"
    );
    assert!(
        render_report("q", "vi", &steps, status, None)
            .contains("- **weekday**: không hoàn thành trước hạn chót")
    );
}

#[test]
fn an_unplannable_report_carries_the_planner_message() {
    assert_eq!(
        render_report(
            "write me a poem",
            "en",
            &[],
            ReportStatus::Unplannable,
            Some("I could not understand \"write me a poem\".")
        ),
        "**Status:** the request could not be planned.\n\nI could not understand \"write me a poem\".\n"
    );
}

#[test]
fn the_value_is_shown_when_the_text_is_empty() {
    let steps = vec![step(
        "s1",
        "date",
        "days_until",
        json!({"date": "2026-12-25"}),
        ok(json!(33), ""),
        true,
    )];
    assert_eq!(
        render_report("q", "en", &steps, ReportStatus::Completed, None),
        "## Date Results:\n- **days_until** (2026-12-25): 33\n"
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
