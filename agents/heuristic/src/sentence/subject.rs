//! What a step was asked, as a noun phrase in the user's language: the subject of the
//! line for a step that failed or did not finish, and of some answers.

use chorus_bus::{Language, StepReport};

use super::other::tool_with_arguments;
use super::{arg, date_tool, is_math_formula, noted};
use crate::formula::{ById, formula};
use crate::wording::{self, is_vi};

/// What `step` was asked, as a noun phrase: `(2 + 4) × 3`, `the weekday of 2026-12-25`,
/// `thứ của 25/12/2026`. Used when the step failed or did not finish.
pub fn subject(step: &StepReport, by_id: &ById<'_>, language: Language) -> String {
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
fn find_weekday_subject(step: &StepReport, language: Language) -> String {
    let day = wording::weekday(&arg(step, "weekday"), language);
    match (arg(step, "direction").as_str(), is_vi(language)) {
        ("last", true) => format!("{day} tuần trước"),
        (_, true) => format!("{day} tới"),
        ("last", false) => format!("last {day}"),
        (_, false) => format!("next {day}"),
    }
}
