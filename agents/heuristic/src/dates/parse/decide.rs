//! The date question that the pieces found in a part make: the dates, the amounts
//! of time and the words said decide which question it is, if any.

use crate::dates::DateQuery;
use crate::dates::words::Flag;

pub(super) fn decide(
    dates: &[String],
    durations: &[(i64, &'static str)],
    flags: &[Flag],
) -> Option<DateQuery> {
    let has = |f: Flag| flags.contains(&f);
    let wants_weekday = has(Flag::Weekday) || has(Flag::AskDay);
    match (dates, durations) {
        ([from, to], []) if has(Flag::Between) || has(Flag::Until) => Some(DateQuery::Difference {
            from: from.clone(),
            to: to.clone(),
        }),
        // `how long ago was 1 Jan 2026`: a date and `ago`, no amount.
        ([date], []) if has(Flag::Since) || has(Flag::Ago) => {
            Some(DateQuery::DaysSince { date: date.clone() })
        }
        ([date], []) if has(Flag::Until) || (has(Flag::Between) && has(Flag::Today)) => {
            Some(DateQuery::DaysUntil { date: date.clone() })
        }
        ([date], []) if wants_weekday => Some(DateQuery::Weekday { date: date.clone() }),
        (_, [(amount, unit)]) if dates.len() <= 1 => {
            let add = match (has(Flag::Later), has(Flag::Ago)) {
                (true, false) => true,
                (false, true) => false,
                _ => return None,
            };
            let dated = matches!(
                *unit,
                "days" | "working_days" | "weeks" | "months" | "years"
            );
            Some(DateQuery::Shift {
                add,
                amount: *amount,
                unit,
                date: dates.first().cloned(),
                weekday: wants_weekday && dated,
            })
        }
        ([], [])
            if has(Flag::DayAfterTomorrow) != has(Flag::DayBeforeYesterday)
                && !has(Flag::Later)
                && !has(Flag::Ago) =>
        {
            Some(DateQuery::Shift {
                add: has(Flag::DayAfterTomorrow),
                amount: 2,
                unit: "days",
                date: None,
                weekday: wants_weekday,
            })
        }
        ([], [])
            if has(Flag::Tomorrow) != has(Flag::Yesterday)
                && !has(Flag::Later)
                && !has(Flag::Ago) =>
        {
            Some(DateQuery::Shift {
                add: has(Flag::Tomorrow),
                amount: 1,
                unit: "days",
                date: None,
                weekday: wants_weekday,
            })
        }
        ([], []) if has(Flag::Now) && !has(Flag::Today) => Some(DateQuery::Now),
        ([], []) if has(Flag::Today) || has(Flag::AskDate) || has(Flag::AskDay) => {
            Some(DateQuery::Today {
                weekday: wants_weekday,
            })
        }
        _ => None,
    }
}
