//! One step's result as a sentence in the user's language — Chorus's own wording for
//! every tool it plans with ("2026-12-25 is a Friday.", "25/12/2026 là Thứ Sáu."), and
//! what the step was asked when it has no result ("the weekday of 2026-12-25"). Chorus's
//! wording is for the tools of its own pools (math, date) only: a tool of another pool
//! may share a name (a third-party time server's `convert_time` takes other arguments
//! than the date pool's), so its answer is written `tool: answer`, on one line (see
//! [`other_answer`]), and what it was asked `tool (name=value, …)`. Every value comes
//! from the step's arguments and outcome as received.

use chorus_bus::{StepOutcome, StepReport};
use serde_json::Value;

use crate::args::{render_arguments, value_text};
use crate::dates::DATE_POOL;
use crate::expr::MATH_POOL;
use crate::formula::{ById, formula, is_formula};
use crate::wording::{self, is_vi};

/// Longest answer of a tool of another pool in the report, in characters; the rest is
/// cut (the step's whole value stays in the report's steps).
const MAX_OTHER_ANSWER_CHARS: usize = 1000;

/// Whether `step` ran on one of Chorus's own pools (math, date), whose tools it words.
fn own_pool(step: &StepReport) -> bool {
    step.pool == MATH_POOL || step.pool == DATE_POOL
}

/// Whether `step` is written by Chorus's own formula wording (a math tool).
fn is_math_formula(step: &StepReport) -> bool {
    step.pool == MATH_POOL && is_formula(&step.tool)
}

/// The tool's name when Chorus has its own wording for it (a tool of the date pool),
/// else `""`, which no wording matches.
fn date_tool(step: &StepReport) -> &str {
    if step.pool == DATE_POOL {
        &step.tool
    } else {
        ""
    }
}

/// `tool (arguments)`, or `tool` when it took none to show. Only a tool of Chorus's own
/// pools has its arguments written its way (`2 + 4`); another pool's are `name=value`
/// pairs, whatever its tool is called.
fn tool_with_arguments(step: &StepReport, language: &str) -> String {
    let as_tool = if own_pool(step) {
        step.tool.as_str()
    } else {
        ""
    };
    let args = render_arguments(as_tool, &step.arguments, language);
    if args.is_empty() {
        step.tool.clone()
    } else {
        format!("{} ({args})", step.tool)
    }
}

/// The answer of a tool Chorus has no wording for, on one line: an object or a list as
/// `name: value` pairs separated by `; ` (nested names joined with `.`, list items
/// numbered `[0]`, a list of plain values as `a, b`); a plain value as the tool's own
/// text when it gave one (its lines joined), else the value. At most
/// [`MAX_OTHER_ANSWER_CHARS`] characters, then `…`.
pub fn other_answer(value: &Value, text: &str) -> String {
    let structured = match value {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    };
    let line = if structured {
        let mut pairs = Vec::new();
        flatten("", value, &mut pairs);
        pairs.join("; ")
    } else {
        let own: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if own.is_empty() {
            value_text(value)
        } else {
            own.join(" ")
        }
    };
    match line.char_indices().nth(MAX_OTHER_ANSWER_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

/// `value`'s leaves as `name: value` under `prefix`, in `out`.
fn flatten(prefix: &str, value: &Value, out: &mut Vec<String>) {
    let named = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        }
    };
    let leaf = |text: String| {
        if prefix.is_empty() {
            text
        } else {
            format!("{prefix}: {text}")
        }
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (name, v) in map {
                flatten(&named(name), v, out);
            }
        }
        Value::Array(items) if items.iter().all(|v| !v.is_object() && !v.is_array()) => {
            let items: Vec<String> = items.iter().map(value_text).collect();
            out.push(leaf(items.join(", ")));
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), v, out);
            }
        }
        other => out.push(leaf(value_text(other))),
    }
}

/// A step's argument as text, `""` when absent.
fn arg(step: &StepReport, name: &str) -> String {
    step.arguments.get(name).map(value_text).unwrap_or_default()
}

/// `text` with "(your last answer)" after it when argument `name` of `step` came from
/// the conversation.
fn noted(step: &StepReport, name: &str, text: String, language: &str) -> String {
    if step.recalled.iter().any(|r| r == name) {
        format!("{text} {}", crate::formula::recalled_note(language))
    } else {
        text
    }
}

/// What `step` was asked, as a noun phrase: `(2 + 4) × 3`, `the weekday of 2026-12-25`,
/// `thứ của 25/12/2026`. Used when the step failed or did not finish.
pub fn subject(step: &StepReport, by_id: &ById<'_>, language: &str) -> String {
    if is_math_formula(step) {
        return formula(step, by_id, language);
    }
    let vi = is_vi(language);
    let date = |name: &str| {
        let d = arg(step, name);
        match (d.is_empty(), vi) {
            (true, true) => "hôm nay".to_owned(),
            (true, false) => "today".to_owned(),
            (false, _) => noted(step, name, wording::date(&d, language), language),
        }
    };
    let amount = || wording::amount(&arg(step, "amount"), &arg(step, "unit"), language);
    match (date_tool(step), vi) {
        ("today", false) => "today's date".to_owned(),
        ("today", true) => "ngày hôm nay".to_owned(),
        ("now", false) => "the current time".to_owned(),
        ("now", true) => "giờ hiện tại".to_owned(),
        ("add_duration", false) => format!("{} after {}", amount(), date("date")),
        ("add_duration", true) => format!("{} sau {}", amount(), date("date")),
        ("subtract_duration", false) => format!("{} before {}", amount(), date("date")),
        ("subtract_duration", true) => format!("{} trước {}", amount(), date("date")),
        ("difference", false) => format!("the days from {} to {}", date("from"), date("to")),
        ("difference", true) => format!("số ngày từ {} đến {}", date("from"), date("to")),
        ("weekday", false) => format!("the weekday of {}", date("date")),
        ("weekday", true) => format!("thứ của {}", date("date")),
        ("days_until", false) => format!("the days until {}", date("date")),
        ("days_until", true) => format!("số ngày đến {}", date("date")),
        ("next_date", _) => {
            let md = wording::month_day(&arg(step, "month"), &arg(step, "day"), language);
            if vi {
                format!("{md} tới")
            } else {
                format!("the next {md}")
            }
        }
        ("find_weekday", _) => find_weekday_subject(step, language),
        ("end_of_month", false) if arg(step, "date").is_empty() => {
            "the last day of this month".to_owned()
        }
        ("end_of_month", true) if arg(step, "date").is_empty() => "ngày cuối tháng này".to_owned(),
        ("end_of_month", false) => format!("the last day of the month of {}", date("date")),
        ("end_of_month", true) => format!("ngày cuối tháng của {}", date("date")),
        ("age", false) => format!("the age of someone born on {}", date("born")),
        ("age", true) => format!("tuổi của người sinh ngày {}", date("born")),
        ("day_of_year", false) => format!("the day of the year of {}", date("date")),
        ("day_of_year", true) => format!("ngày thứ mấy trong năm của {}", date("date")),
        ("iso_week", false) => format!("the ISO week of {}", date("date")),
        ("iso_week", true) => format!("tuần ISO của {}", date("date")),
        ("time_in", false) => format!("the time in {}", arg(step, "place")),
        ("time_in", true) => format!("giờ ở {}", arg(step, "place")),
        ("convert_time", false) => format!(
            "{} in {} in {} time",
            arg(step, "time"),
            arg(step, "from"),
            arg(step, "to")
        ),
        ("convert_time", true) => format!(
            "{} ở {} theo giờ {}",
            arg(step, "time"),
            arg(step, "from"),
            arg(step, "to")
        ),
        _ => tool_with_arguments(step, language),
    }
}

/// `next Monday`, `Thứ Hai tới`, `last Friday`, `Thứ Sáu tuần trước`.
fn find_weekday_subject(step: &StepReport, language: &str) -> String {
    let day = wording::weekday(&arg(step, "weekday"), language);
    match (arg(step, "direction").as_str(), is_vi(language)) {
        ("last", true) => format!("{day} tuần trước"),
        (_, true) => format!("{day} tới"),
        ("last", false) => format!("last {day}"),
        (_, false) => format!("next {day}"),
    }
}

/// Capitalises the first letter (`next Monday` → `Next Monday`).
fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The sentence for a step that succeeded with `value`. `weekday`, when given, is the
/// weekday of the date the step produced (from a `weekday` step that took it), woven in:
/// "Christmas" planned as next_date then weekday reads "The next December 25 is Friday,
/// 2026-12-25."
pub fn answer(
    step: &StepReport,
    value: &Value,
    text: &str,
    by_id: &ById<'_>,
    language: &str,
    weekday: Option<&str>,
) -> String {
    let vi = is_vi(language);
    let v = value_text(value);
    let result_date = || match weekday {
        Some(w) => wording::dated_weekday(&v, w, language),
        None => wording::date_time(&v, language),
    };
    let from = |name: &str| {
        let d = arg(step, name);
        (!d.is_empty()).then(|| noted(step, name, wording::date(&d, language), language))
    };
    let amount = || wording::amount(&arg(step, "amount"), &arg(step, "unit"), language);
    let date_or_today = || match (from("date"), vi) {
        (Some(d), _) => d,
        (None, true) => "Hôm nay".to_owned(),
        (None, false) => "Today".to_owned(),
    };
    if is_math_formula(step) {
        // What the number is, when the part says: `375 ÷ 5 = 75 each`, `… = 25%`.
        let unit = match (step.output, step.tool.as_str()) {
            (true, "divide") => crate::everyday::answer_unit(&step.part, language),
            _ => "",
        };
        return format!("{} = {v}{unit}", formula(step, by_id, language));
    }
    match (date_tool(step), vi) {
        ("today", false) => format!("Today is {}.", result_date()),
        ("today", true) => format!("Hôm nay là {}.", result_date()),
        ("now", false) => format!("It is {}.", wording::date_time(&v, language)),
        ("now", true) => format!("Bây giờ là {}.", wording::date_time(&v, language)),
        ("add_duration", false) => match from("date") {
            Some(d) => format!("{} after {d} is {}.", amount(), result_date()),
            None => format!("{} from now is {}.", capital(&amount()), result_date()),
        },
        ("add_duration", true) => match from("date") {
            Some(d) => format!("{} sau {d} là {}.", amount(), result_date()),
            None => format!("{} nữa là {}.", amount(), result_date()),
        },
        ("subtract_duration", false) => match from("date") {
            Some(d) => format!("{} before {d} is {}.", amount(), result_date()),
            None => format!("{} ago was {}.", capital(&amount()), result_date()),
        },
        ("subtract_duration", true) => match from("date") {
            Some(d) => format!("{} trước {d} là {}.", amount(), result_date()),
            None => format!("{} trước là {}.", amount(), result_date()),
        },
        ("difference", _) => {
            let (a, b) = (
                from("from").unwrap_or_default(),
                from("to").unwrap_or_default(),
            );
            if vi {
                format!("Từ {a} đến {b} là {v} ngày.")
            } else {
                format!(
                    "From {a} to {b} is {}.",
                    wording::amount(&v, "days", language)
                )
            }
        }
        ("weekday", _) => {
            let d = from("date").unwrap_or_default();
            let w = wording::weekday(&v, language);
            if vi {
                format!("{d} là {w}.")
            } else {
                format!("{d} is a {w}.")
            }
        }
        ("days_until", _) => days_until(&from("date").unwrap_or_default(), &v, language),
        ("next_date" | "find_weekday" | "end_of_month", _) => {
            let subject = subject(step, by_id, language);
            match (step.tool.as_str(), vi) {
                ("find_weekday", false) if arg(step, "direction") == "last" => {
                    format!("{} was {}.", capital(&subject), result_date())
                }
                (_, false) => format!("{} is {}.", capital(&subject), result_date()),
                (_, true) => format!("{} là {}.", capital(&subject), result_date()),
            }
        }
        ("age", false) => format!(
            "Someone born on {} is {} old.",
            from("born").unwrap_or_default(),
            wording::amount(&v, "years", language)
        ),
        ("age", true) => format!(
            "Người sinh ngày {} hiện {v} tuổi.",
            from("born").unwrap_or_default()
        ),
        ("day_of_year", false) => format!("{} is day {v} of the year.", date_or_today()),
        ("day_of_year", true) => format!("{} là ngày thứ {v} trong năm.", date_or_today()),
        ("iso_week", false) => format!("{} is in ISO week {v}.", date_or_today()),
        ("iso_week", true) => format!("{} thuộc tuần ISO thứ {v}.", date_or_today()),
        ("time_in", false) => format!("It is {v} in {}.", arg(step, "place")),
        ("time_in", true) => format!("Bây giờ ở {} là {v}.", arg(step, "place")),
        ("convert_time", false) => format!(
            "{} in {} is {v} in {}.",
            arg(step, "time"),
            arg(step, "from"),
            arg(step, "to")
        ),
        ("convert_time", true) => format!(
            "{} ở {} là {v} ở {}.",
            arg(step, "time"),
            arg(step, "from"),
            arg(step, "to")
        ),
        _ => format!("{}: {}", step.tool, other_answer(value, text)),
    }
}

/// `2026-12-25 is 32 days away.`, `Còn 32 ngày nữa là đến 25/12/2026.`; today and past
/// dates read as such.
fn days_until(d: &str, v: &str, language: &str) -> String {
    let past = v.strip_prefix('-');
    match (past, v == "0", is_vi(language)) {
        (_, true, false) => format!("{d} is today."),
        (_, true, true) => format!("{d} là hôm nay."),
        (Some(n), _, false) => format!("{d} was {} ago.", wording::amount(n, "days", language)),
        (Some(n), _, true) => format!("{d} đã qua {n} ngày."),
        (None, _, false) => format!("{d} is {} away.", wording::amount(v, "days", language)),
        (None, _, true) => format!("Còn {v} ngày nữa là đến {d}."),
    }
}

/// The line for a step that did not succeed: `1 ÷ 0: failed (division by zero)`,
/// `thứ của 25/12/2026: không hoàn thành trước hạn chót`. `cause` is the error of the
/// step this one waited on, when that is why it failed.
pub fn not_answered(
    step: &StepReport,
    by_id: &ById<'_>,
    language: &str,
    cause: Option<&str>,
) -> String {
    let vi = is_vi(language);
    let subject = subject(step, by_id, language);
    // Chorus's own phrases start a sentence; another pool's tool name is kept as it is.
    let subject = if own_pool(step) {
        capital(&subject)
    } else {
        subject
    };
    match &step.outcome {
        Some(StepOutcome::Failed { error, .. }) => {
            let why = wording::error(cause.unwrap_or(error), language);
            if vi {
                format!("{subject}: lỗi ({why}).")
            } else {
                format!("{subject}: failed ({why}).")
            }
        }
        _ if vi => format!("{subject}: không hoàn thành trước hạn chót."),
        _ => format!("{subject}: did not finish before the deadline."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::{Language, ReportStatus};
    use serde_json::json;

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
            StepOutcome::failed(
                "Invalid timezone: 'No time zone found with key Mars/Olympus_Mons'",
            ),
        );
        let text = render_report("q", Language::En, &[s], ReportStatus::Failed, None);
        assert_eq!(
            text,
            "**Status:** failed: no step succeeded.\n\n\
             convert_time (source_timezone=Mars/Olympus_Mons, target_timezone=UTC, time=09:15): \
             failed (Invalid timezone: 'No time zone found with key Mars/Olympus_Mons').\n"
        );
    }
}
