//! A date question made into plan steps.

use super::named::days_from_sunday;
use super::{Anchor, DATE_POOL, DateQuery, NamedThen, NamedYear};
use crate::builder::{PlanBuilder, int, text};

impl DateQuery {
    /// How many steps this question needs.
    pub fn step_count(&self) -> usize {
        match self {
            DateQuery::Today { weekday: true } | DateQuery::Shift { weekday: true, .. } => 2,
            DateQuery::Anchored { anchor, then } => {
                let after = match then {
                    NamedThen::Date => 0,
                    NamedThen::DaysSince => 2,
                    NamedThen::Shift { weekday: true, .. } => 2,
                    _ => 1,
                };
                after + anchor_steps(anchor)
            }
            DateQuery::DaysSince { .. } => 2,
            DateQuery::DaysBetweenDays { .. } => 3,
            DateQuery::InWeeks(days) | DateQuery::Inclusive(days) => days.step_count() + 1,
            DateQuery::TimeDifference { absolute: true, .. } => 2,
            _ => 1,
        }
    }

    /// Adds this question's steps to `plan` for `part`; every step here is an answer.
    pub fn lower_into(&self, plan: &mut PlanBuilder, part: &str) {
        if let DateQuery::Anchored { anchor, then } = self {
            let (tool, args) = match anchor {
                Anchor::Named {
                    month, day, year, ..
                } => {
                    let mut args = vec![("month", int(*month)), ("day", int(*day))];
                    match year {
                        NamedYear::Next => {}
                        NamedYear::In(y) => args.push(("year", int(*y))),
                        NamedYear::Offset(n) => args.push(("year_offset", int(*n))),
                        NamedYear::Last => args.push(("direction", text("last"))),
                        NamedYear::Nearest => args.push(("direction", text("nearest"))),
                    }
                    ("next_date", args)
                }
                Anchor::Weekday { name, last } => (
                    "find_weekday",
                    vec![
                        ("weekday", text(name)),
                        ("direction", text(if *last { "last" } else { "next" })),
                    ],
                ),
                Anchor::EndOfMonth => ("end_of_month", vec![]),
                Anchor::DayOfNextMonth { day } => {
                    let end = plan.push(part, DATE_POOL, "end_of_month", vec![], false);
                    let args = vec![("amount", int(*day)), ("unit", text("days")), ("date", end)];
                    ("add_duration", args)
                }
                Anchor::WeekdayOfWeek { name, weeks } => {
                    let sunday = vec![("weekday", text("Sunday")), ("direction", text("last"))];
                    let days = days_from_sunday(name) + 7 * weeks;
                    if days == 0 {
                        ("find_weekday", sunday)
                    } else {
                        let from = plan.push(part, DATE_POOL, "find_weekday", sunday, false);
                        let tool = if days > 0 {
                            "add_duration"
                        } else {
                            "subtract_duration"
                        };
                        let args = vec![
                            ("amount", int(days.abs())),
                            ("unit", text("days")),
                            ("date", from),
                        ];
                        (tool, args)
                    }
                }
            };
            // `how many days till christmas`, `thi ngày 15/12, còn mấy ngày`: the count
            // answers, the date found is a step. The weekday of a day found by its
            // name lists the date first (`what weekday is christmas`), of a date the
            // user wrote it answers alone (tests/blind/README.md) — but for a year it
            // counts (`15/1 năm sau là thứ mấy`: 2027-01-15, then the weekday).
            let said = matches!(
                anchor,
                Anchor::Named {
                    said: true,
                    year: NamedYear::Next
                        | NamedYear::In(_)
                        | NamedYear::Last
                        | NamedYear::Nearest
                        | NamedYear::Offset(0),
                    ..
                }
            );
            let counted = matches!(then, NamedThen::DaysUntil | NamedThen::DaysSince);
            let shifted = matches!(then, NamedThen::Shift { .. });
            let shown = !(counted || shifted || said && *then == NamedThen::Weekday);
            let date = plan.push(part, DATE_POOL, tool, args, shown);
            let then_tool = match then {
                NamedThen::Date => return,
                NamedThen::Shift {
                    add,
                    amount,
                    unit,
                    weekday,
                } => {
                    let tool = if *add {
                        "add_duration"
                    } else {
                        "subtract_duration"
                    };
                    let args = vec![
                        ("amount", int(*amount)),
                        ("unit", text(unit)),
                        ("date", date),
                    ];
                    let shifted = plan.push(part, DATE_POOL, tool, args, true);
                    if *weekday {
                        plan.push(part, DATE_POOL, "weekday", vec![("date", shifted)], true);
                    }
                    return;
                }
                NamedThen::DaysSince => {
                    let today = plan.push(part, DATE_POOL, "today", vec![], false);
                    let args = vec![("from", date), ("to", today)];
                    plan.push(part, DATE_POOL, "difference", args, true);
                    return;
                }
                NamedThen::Weekday => "weekday",
                NamedThen::DaysUntil => "days_until",
                NamedThen::DayOfYear => "day_of_year",
                NamedThen::IsoWeek => "iso_week",
            };
            plan.push(part, DATE_POOL, then_tool, vec![("date", date)], true);
            return;
        }
        if let DateQuery::TimeDifference { from, to, absolute } = self {
            let args = vec![("from", text(from)), ("to", text(to))];
            let hours = plan.push(part, DATE_POOL, "time_difference", args, !absolute);
            if *absolute {
                plan.push(
                    part,
                    crate::expr::MATH_POOL,
                    "abs",
                    vec![("x", hours)],
                    true,
                );
            }
            return;
        }
        if let DateQuery::InWeeks(days) = self {
            days.lower_into(plan, part);
            if let Some(counted) = plan.take_last_as_input() {
                let args = vec![("a", counted), ("b", text("7"))];
                plan.push(part, crate::expr::MATH_POOL, "divide", args, true);
            }
            return;
        }
        if let DateQuery::Inclusive(days) = self {
            days.lower_into(plan, part);
            if let Some(counted) = plan.take_last_as_input() {
                let args = vec![("a", counted), ("b", text("1"))];
                plan.push(part, crate::expr::MATH_POOL, "sum", args, true);
            }
            return;
        }
        if let DateQuery::DaysBetweenDays { from, to } = self {
            // The second day is the first one on or after the first day (its `now`):
            // `days between sept 8 and dec 18` asked in November is 101, not −264, and
            // `23/12 to 3/1` crosses into the next year.
            let (month, day) = *from;
            let args = vec![("month", int(month)), ("day", int(day))];
            let a = plan.push(part, DATE_POOL, "next_date", args, false);
            let (month, day) = *to;
            let args = vec![("month", int(month)), ("day", int(day)), ("now", a.clone())];
            let b = plan.push(part, DATE_POOL, "next_date", args, false);
            plan.push(
                part,
                DATE_POOL,
                "difference",
                vec![("from", a), ("to", b)],
                true,
            );
            return;
        }
        if let DateQuery::DaysSince { date } = self {
            let today = plan.push(part, DATE_POOL, "today", vec![], false);
            let args = vec![("from", text(date)), ("to", today)];
            plan.push(part, DATE_POOL, "difference", args, true);
            return;
        }
        let (tool, args) = match self {
            DateQuery::Today { .. } => ("today", vec![]),
            // The time now is asked as the time here: a clock time (`16:00`), not an
            // instant with its offset (`2026-11-23T16:00:00+07:00`).
            DateQuery::Now => ("time_in", vec![("place", text("here"))]),
            DateQuery::Shift {
                add,
                amount,
                unit,
                date,
                ..
            } => {
                let mut args = vec![("amount", int(*amount)), ("unit", text(unit))];
                if let Some(d) = date {
                    args.push(("date", text(d)));
                }
                (
                    if *add {
                        "add_duration"
                    } else {
                        "subtract_duration"
                    },
                    args,
                )
            }
            DateQuery::Difference { from, to } => {
                ("difference", vec![("from", text(from)), ("to", text(to))])
            }
            DateQuery::Weekday { date } => ("weekday", vec![("date", text(date))]),
            DateQuery::DaysUntil { date } => ("days_until", vec![("date", text(date))]),
            DateQuery::DayOfYear { date } => ("day_of_year", optional_date(date)),
            DateQuery::IsoWeek { date } => ("iso_week", optional_date(date)),
            DateQuery::Age { born } => ("age", vec![("born", text(born))]),
            DateQuery::TimeIn { place } => ("time_in", vec![("place", text(place))]),
            DateQuery::ConvertTime { time, from, to } => (
                "convert_time",
                vec![("time", text(time)), ("from", text(from)), ("to", text(to))],
            ),
            DateQuery::Anchored { .. }
            | DateQuery::DaysSince { .. }
            | DateQuery::DaysBetweenDays { .. }
            | DateQuery::InWeeks(_)
            | DateQuery::Inclusive(_)
            | DateQuery::TimeDifference { .. } => return, // lowered above
        };
        // `hôm nay thứ mấy`: the weekday answers; today's date is a step.
        let shown = !matches!(self, DateQuery::Today { weekday: true });
        let result = plan.push(part, DATE_POOL, tool, args, shown);
        if self.step_count() == 2 {
            plan.push(part, DATE_POOL, "weekday", vec![("date", result)], true);
        }
    }
}

/// How many steps finding `anchor` takes.
fn anchor_steps(anchor: &Anchor) -> usize {
    match anchor {
        Anchor::WeekdayOfWeek { name, weeks } if days_from_sunday(name) + 7 * weeks != 0 => 2,
        _ => 1,
    }
}

/// `date` as the only argument, when given (the tools default to today).
fn optional_date(date: &Option<String>) -> Vec<(&'static str, chorus_bus::Arg)> {
    date.iter().map(|d| ("date", text(d))).collect()
}
