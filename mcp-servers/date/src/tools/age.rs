//! `age {born, now?, timezone?}` → full years since a birth date, the months
//! since the last birthday, and the next birthday.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::{ToSpan, Unit, civil::Date};
use serde_json::json;

use super::{object_schema, output_schema};
use crate::{DateError, context::Clock, parse::parse_date};

/// An age on a given day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Age {
    /// Full years since birth.
    pub years: i64,
    /// Full months since the last birthday (0-11).
    pub months: i64,
    /// The next birthday, today included (a February 29 birthday is March 1 in
    /// common years, the day the age goes up).
    pub next_birthday: Date,
}

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "age",
        description: "Age in full years of someone born on a date, as of today in the time zone, plus the full months since the last birthday and the next birthday (today if it is the birthday; a February 29 birthday counts as March 1 in common years). Example: age(born=\"1990-05-15\", now=\"2026-11-23\") = 36 (months 6, next_birthday \"2027-05-15\"). A birth date after today is an error.",
        input_schema: object_schema(
            json!({
                "born": {"type": "string", "description": "Birth date as YYYY-MM-DD."},
            }),
            &["born"],
        ),
        output_schema: Some(output_schema(
            "integer",
            json!({"born": {"type": "string"}, "today": {"type": "string"}, "months": {"type": "integer"}, "next_birthday": {"type": "string"}}),
        )),
    }
}

/// Reads `born` and the clock.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["born", "now", "timezone"])?;
    let born = parse_date(args.str("born")?, false)?;
    let today = Clock::from_args(args)?.today();
    let age = age(born, today)?;
    let text = format!(
        "Born {born}: {} years and {} months old on {today}; next birthday {}.",
        age.years, age.months, age.next_birthday
    );
    Ok(ToolReply::result(age.years, text)
        .with_field("born", born.to_string())
        .with_field("today", today.to_string())
        .with_field("months", age.months)
        .with_field("next_birthday", age.next_birthday.to_string()))
}

/// The age on `today` of someone born on `born`.
pub fn age(born: Date, today: Date) -> Result<Age, DateError> {
    if born > today {
        return Err(DateError::BornAfterToday {
            born: born.to_string(),
            today: today.to_string(),
        });
    }
    let span = born
        .until((Unit::Year, today))
        .map_err(|_| DateError::OutOfRange)?;
    let years = i64::from(span.get_years());
    let birthday = |n: i64| {
        let day = born
            .checked_add(n.years())
            .map_err(|_| DateError::OutOfRange)?;
        // February 29 clamped to the 28th: the birthday is the day after.
        if day.day() == born.day() {
            Ok(day)
        } else {
            day.tomorrow().map_err(|_| DateError::OutOfRange)
        }
    };
    let last_birthday = birthday(years)?;
    let next_birthday = if last_birthday == today {
        today
    } else {
        birthday(years + 1)?
    };
    Ok(Age {
        years,
        months: i64::from(span.get_months()),
        next_birthday,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    fn years_months_next(born: Date, today: Date) -> (i64, i64, Date) {
        let age = age(born, today).unwrap();
        (age.years, age.months, age.next_birthday)
    }

    #[test]
    fn full_years_and_months_since_the_last_birthday() {
        let today = date(2026, 11, 23);
        assert_eq!(
            years_months_next(date(1990, 5, 15), today),
            (36, 6, date(2027, 5, 15))
        );
        // The day before the birthday: not yet a year older.
        assert_eq!(
            years_months_next(date(1990, 11, 24), today),
            (35, 11, date(2026, 11, 24))
        );
        // On the birthday the next one is today.
        assert_eq!(years_months_next(date(1990, 11, 23), today), (36, 0, today));
        assert_eq!(years_months_next(today, today), (0, 0, today));
    }

    #[test]
    fn a_leap_day_birthday_is_march_1_in_common_years() {
        let born = date(2000, 2, 29);
        let cases = [
            (date(2026, 2, 27), (25, 11, date(2026, 3, 1))),
            (date(2026, 2, 28), (25, 11, date(2026, 3, 1))),
            (date(2026, 3, 1), (26, 0, date(2026, 3, 1))),
            (date(2026, 3, 2), (26, 0, date(2027, 3, 1))),
            (date(2027, 3, 2), (27, 0, date(2028, 2, 29))),
            (date(2028, 2, 29), (28, 0, date(2028, 2, 29))),
        ];
        for (today, expected) in cases {
            assert_eq!(years_months_next(born, today), expected, "{today}");
        }
    }

    #[test]
    fn a_birth_date_after_today_is_an_error() {
        let err = age(date(2027, 1, 1), date(2026, 11, 23)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the birth date 2027-01-01 is after today (2026-11-23)"
        );
    }
}
