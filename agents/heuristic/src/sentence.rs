//! One step's result as a sentence in the user's language — Chorus's own wording for
//! every tool it plans with ("2026-12-25 is a Friday.", "25/12/2026 là Thứ Sáu."), and
//! what the step was asked when it has no result ("the weekday of 2026-12-25"). Tools
//! of other pools are written as `tool: text` with the tool's own text. Every value
//! comes from the step's arguments and outcome as received.

use chorus_bus::{StepOutcome, StepReport};
use serde_json::Value;

use crate::args::{render_arguments, value_text};
use crate::formula::{ById, formula, is_formula};
use crate::wording::{self, is_vi};

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
    if is_formula(&step.tool) {
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
    match (step.tool.as_str(), vi) {
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
        (tool, _) => {
            let args = render_arguments(tool, &step.arguments, language);
            if args.is_empty() {
                tool.to_owned()
            } else {
                format!("{tool} ({args})")
            }
        }
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
    if is_formula(&step.tool) {
        return format!("{} = {v}", formula(step, by_id, language));
    }
    match (step.tool.as_str(), vi) {
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
        (tool, _) => {
            let shown = if text.trim().is_empty() {
                v
            } else {
                text.to_owned()
            };
            format!("{tool}: {shown}")
        }
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
    let subject = capital(&subject(step, by_id, language));
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
