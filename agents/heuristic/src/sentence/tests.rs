//! The sentence tests, compiled under #[cfg(test)] only (build.rs, which stops at that
//! mark, learns no word from them).

use super::other::MAX_OTHER_ANSWER_CHARS;
use super::*;
use chorus_bus::{Language, ReportStatus, StepOutcome};
use serde_json::{Value, json};

use crate::template::render_report;

fn step(pool: &str, tool: &str, args: Value, outcome: StepOutcome) -> StepReport {
    StepReport {
        step_id: "s1".into(),
        part: String::new(),
        pool: pool.into(),
        tool: tool.into(),
        arguments: args.as_object().cloned().unwrap_or_default(),
        inputs: Default::default(),
        recalled: Vec::new(),
        outcome: Some(outcome),
        output: true,
    }
}

/// What the third-party time server answers to `convert_time` (structured content
/// of its own shape, its text the same JSON pretty-printed).
fn converted() -> StepOutcome {
    let value = json!({
        "source": {"timezone": "Asia/Tokyo", "datetime": "2026-11-24T09:15:00+09:00"},
        "target": {"timezone": "Asia/Kolkata", "datetime": "2026-11-24T05:45:00+05:30"},
        "time_difference": "-3.5h"
    });
    StepOutcome::Ok {
        text: serde_json::to_string_pretty(&value).unwrap_or_default(),
        value,
    }
}

fn time_args() -> Value {
    json!({"source_timezone": "Asia/Tokyo", "time": "09:15", "target_timezone": "Asia/Kolkata"})
}

#[test]
fn another_pools_tool_of_a_known_name_gets_no_chorus_wording() {
    let s = step("time", "convert_time", time_args(), converted());
    let want = "convert_time: source.datetime: 2026-11-24T09:15:00+09:00; source.timezone: Asia/Tokyo; \
                target.datetime: 2026-11-24T05:45:00+05:30; target.timezone: Asia/Kolkata; \
                time_difference: -3.5h\n";
    for language in Language::ALL {
        let text = render_report(
            "q",
            language,
            std::slice::from_ref(&s),
            ReportStatus::Completed,
            None,
        );
        assert_eq!(text, want, "{language}");
    }
    // The date pool's tool of the same name keeps Chorus's sentence.
    let date = step(
        "date",
        "convert_time",
        json!({"time": "09:15", "from": "Tokyo", "to": "Kolkata"}),
        StepOutcome::Ok {
            value: json!("05:45"),
            text: "05:45".into(),
        },
    );
    let text = render_report("q", Language::En, &[date], ReportStatus::Completed, None);
    assert_eq!(text, "09:15 in Tokyo is 05:45 in Kolkata.\n");
    // A math-like name on another pool is not a formula.
    let sum = step(
        "abacus",
        "sum",
        json!({"a": "2", "b": "4"}),
        StepOutcome::Ok {
            value: json!("6"),
            text: "6".into(),
        },
    );
    let text = render_report("q", Language::En, &[sum], ReportStatus::Completed, None);
    assert_eq!(text, "sum: 6\n");
}

#[test]
fn steps_without_a_part_answer_a_line_each() {
    let mut steps = vec![
        step("time", "convert_time", time_args(), converted()),
        step(
            "time",
            "sunrise",
            json!({"place": "Hanoi"}),
            StepOutcome::failed("Unknown tool: sunrise"),
        ),
        step(
            "date",
            "next_date",
            json!({"month": 12, "day": 25}),
            StepOutcome::Ok {
                value: json!("2026-12-25"),
                text: "2026-12-25".into(),
            },
        ),
        step(
            "date",
            "weekday",
            json!({"date": "2026-12-25"}),
            StepOutcome::Ok {
                value: json!("Friday"),
                text: "Friday".into(),
            },
        ),
    ];
    for (i, s) in steps.iter_mut().enumerate() {
        s.step_id = format!("s{}", i + 1).into();
    }
    steps[3].inputs = [("date".to_owned(), "s3".into())].into_iter().collect();
    let text = render_report("q", Language::En, &steps, ReportStatus::Partial, None);
    assert_eq!(
        text,
        "**Status:** partial: some steps failed.\n\n\
         convert_time: source.datetime: 2026-11-24T09:15:00+09:00; source.timezone: Asia/Tokyo; \
         target.datetime: 2026-11-24T05:45:00+05:30; target.timezone: Asia/Kolkata; \
         time_difference: -3.5h\n\
         sunrise (Hanoi): failed (Unknown tool: sunrise).\n\
         The next December 25 is Friday, 2026-12-25.\n\n\
         **Steps:**\n\
         - convert_time: source.datetime: 2026-11-24T09:15:00+09:00; source.timezone: Asia/Tokyo; \
         target.datetime: 2026-11-24T05:45:00+05:30; target.timezone: Asia/Kolkata; \
         time_difference: -3.5h\n\
         - sunrise (Hanoi): failed (Unknown tool: sunrise).\n\
         - The next December 25 is 2026-12-25.\n\
         - 2026-12-25 is a Friday.\n"
    );
    // Only the woven date and weekday took two steps for one line: the steps follow.
    steps.truncate(2);
    let text = render_report("q", Language::En, &steps, ReportStatus::Partial, None);
    assert!(!text.contains("**Steps:**"), "{text}");
    assert_eq!(text.lines().count(), 4, "{text}");
}

#[test]
fn plain_text_lists_and_long_answers_stay_on_one_line() {
    let text_only = json!("Sunny,\n  21 °C");
    assert_eq!(other_answer(&text_only, "Sunny,\n  21 °C"), "Sunny, 21 °C");
    assert_eq!(other_answer(&json!(42), ""), "42");
    assert_eq!(
        other_answer(
            &json!({"tags": ["a", "b"], "rows": [{"n": 1}, {"n": 2}]}),
            "{…}"
        ),
        "rows[0].n: 1; rows[1].n: 2; tags: a, b"
    );
    assert_eq!(other_answer(&json!([{"n": 1}]), "[…]"), "[0].n: 1");
    let long = json!("é".repeat(MAX_OTHER_ANSWER_CHARS + 5));
    let shown = other_answer(&long, "");
    assert_eq!(shown.chars().count(), MAX_OTHER_ANSWER_CHARS + 1);
    assert!(shown.ends_with('…'));
}

#[test]
fn another_pools_failure_names_the_tool_and_its_arguments() {
    let s = step(
        "time",
        "convert_time",
        json!({"source_timezone": "Mars/Olympus_Mons", "time": "09:15", "target_timezone": "UTC"}),
        StepOutcome::failed("Invalid timezone: 'No time zone found with key Mars/Olympus_Mons'"),
    );
    let text = render_report("q", Language::En, &[s], ReportStatus::Failed, None);
    assert_eq!(
        text,
        "**Status:** failed: no step succeeded.\n\n\
         convert_time (source_timezone=Mars/Olympus_Mons, target_timezone=UTC, time=09:15): \
         failed (Invalid timezone: 'No time zone found with key Mars/Olympus_Mons').\n"
    );
}
