//! A step's line in the report: the sentence for a step that succeeded, or the line
//! saying why one did not.

use chorus_bus::{Language, StepOutcome, StepReport};
use serde_json::Value;

use super::{arg, capital, date_tool, is_math_formula, noted, other_answer, own_pool, subject};
use crate::args::value_text;
use crate::formula::{ById, formula};
use crate::wording::{self, is_vi};

/// The sentence for a step that succeeded with `value`. `weekday`, when given, is the
/// weekday of the date the step produced (from a `weekday` step that took it), woven in:
/// "Christmas" planned as next_date then weekday reads "The next December 25 is Friday,
/// 2026-12-25."
pub fn answer(
    step: &StepReport,
    value: &Value,
    text: &str,
    by_id: &ById<'_>,
    language: Language,
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
fn days_until(d: &str, v: &str, language: Language) -> String {
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
    language: Language,
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
