//! `find_weekday {weekday, direction, now?, timezone?}` → the next or last date
//! falling on a weekday, today excluded: how "next Monday" becomes a date.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::civil::{Date, Weekday};
use serde_json::json;

use super::{object_schema, output_schema, weekday_name};
use crate::{DateError, context::Clock};

/// Which way to look from today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The first such weekday strictly after today.
    Next,
    /// The latest such weekday strictly before today.
    Last,
}

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "find_weekday",
        description: "The date of the next or last given weekday, today excluded (in the time zone): direction \"next\" is the first one strictly after today, \"last\" the latest one strictly before today. Example: find_weekday(weekday=\"Monday\", direction=\"next\", now=\"2026-11-23\") = \"2026-11-30\" (2026-11-23 is itself a Monday); direction=\"last\" gives \"2026-11-16\".",
        input_schema: object_schema(
            json!({
                "weekday": {"type": "string", "description": "English weekday name, any case: Monday … Sunday (Mon … Sun also accepted)."},
                "direction": {"type": "string", "enum": ["next", "last"], "description": "\"next\": strictly after today; \"last\": strictly before today."},
            }),
            &["weekday", "direction"],
        ),
        output_schema: Some(output_schema(
            "string",
            json!({"today": {"type": "string"}, "weekday": {"type": "string"}}),
        )),
    }
}

/// Reads `weekday`, `direction` and the clock.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["weekday", "direction", "now", "timezone"])?;
    let weekday = parse_weekday(args.str("weekday")?)?;
    let direction = parse_direction(args.str("direction")?)?;
    let today = Clock::from_args(args)?.today();
    let date = find_weekday(today, weekday, direction)?;
    let name = weekday_name(weekday);
    let text = match direction {
        Direction::Next => format!("The next {name} is {date}."),
        Direction::Last => format!("The last {name} was {date}."),
    };
    Ok(ToolReply::result(date.to_string(), text)
        .with_field("today", today.to_string())
        .with_field("weekday", name))
}

/// An English weekday name or its three-letter abbreviation, any case.
pub fn parse_weekday(text: &str) -> Result<Weekday, DateError> {
    const DAYS: [Weekday; 7] = [
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
        Weekday::Sunday,
    ];
    let wanted = text.trim();
    DAYS.into_iter()
        .find(|&day| {
            let name = weekday_name(day);
            wanted.eq_ignore_ascii_case(name) || wanted.eq_ignore_ascii_case(&name[..3])
        })
        .ok_or_else(|| DateError::UnknownWeekday(text.to_owned()))
}

/// "next", or "last" (also "previous"), any case.
pub fn parse_direction(text: &str) -> Result<Direction, DateError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "next" => Ok(Direction::Next),
        "last" | "previous" => Ok(Direction::Last),
        _ => Err(DateError::UnknownDirection(text.to_owned())),
    }
}

/// The first `weekday` after `today`, or the latest before it; never `today`.
pub fn find_weekday(
    today: Date,
    weekday: Weekday,
    direction: Direction,
) -> Result<Date, DateError> {
    let nth = match direction {
        Direction::Next => 1,
        Direction::Last => -1,
    };
    today
        .nth_weekday(nth, weekday)
        .map_err(|_| DateError::OutOfRange)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn next_and_last_skip_today() {
        let monday = date(2026, 11, 23);
        assert_eq!(
            find_weekday(monday, Weekday::Monday, Direction::Next).unwrap(),
            date(2026, 11, 30)
        );
        assert_eq!(
            find_weekday(monday, Weekday::Monday, Direction::Last).unwrap(),
            date(2026, 11, 16)
        );
        assert_eq!(
            find_weekday(monday, Weekday::Tuesday, Direction::Next).unwrap(),
            date(2026, 11, 24)
        );
        assert_eq!(
            find_weekday(monday, Weekday::Sunday, Direction::Last).unwrap(),
            date(2026, 11, 22)
        );
        assert_eq!(
            find_weekday(date(2026, 12, 30), Weekday::Friday, Direction::Next).unwrap(),
            date(2027, 1, 1)
        );
        assert_eq!(
            find_weekday(Date::MAX, Weekday::Saturday, Direction::Next),
            Err(DateError::OutOfRange)
        );
    }

    #[test]
    fn names_and_directions_parse_in_any_case() {
        assert_eq!(parse_weekday("monday"), Ok(Weekday::Monday));
        assert_eq!(parse_weekday(" FRIDAY "), Ok(Weekday::Friday));
        assert_eq!(parse_weekday("Sun"), Ok(Weekday::Sunday));
        assert_eq!(
            parse_weekday("Funday"),
            Err(DateError::UnknownWeekday("Funday".into()))
        );
        assert_eq!(parse_direction("Next"), Ok(Direction::Next));
        assert_eq!(parse_direction("last"), Ok(Direction::Last));
        assert!(
            parse_direction("this")
                .unwrap_err()
                .to_string()
                .contains("'next' or 'last'")
        );
    }
}
