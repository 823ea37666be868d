//! Parsing dates (`YYYY-MM-DD`, or `dd/mm/yyyy` with `day_first`) and
//! date-times (RFC 3339, bracketed zone, or civil time in the call's zone).

use std::str::FromStr;

use jiff::{Timestamp, Zoned, civil::Date, civil::DateTime, tz::TimeZone};

use crate::DateError;

/// A parsed point in time: a calendar date, or an instant in a zone.
#[derive(Debug, Clone, PartialEq)]
pub enum When {
    /// A plain date.
    Date(Date),
    /// A date-time in the call's time zone.
    DateTime(Zoned),
}

/// Parses a calendar date. `day_first` additionally accepts `dd/mm/yyyy`
/// (also with `-` or `.` separators).
pub fn parse_date(text: &str, day_first: bool) -> Result<Date, DateError> {
    let text = text.trim();
    let expected = if day_first {
        "YYYY-MM-DD or dd/mm/yyyy"
    } else {
        "YYYY-MM-DD"
    };
    let format_error = || DateError::DateFormat {
        input: text.to_owned(),
        expected,
    };
    let parts: Vec<&str> = text.split(['-', '/', '.']).collect();
    let all_digits = parts
        .iter()
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if parts.len() != 3 || !all_digits {
        return Err(format_error());
    }
    let (year, month, day) = match (parts[0].len(), parts[2].len()) {
        (4, 1..=2) if text.contains('-') && parts[1].len() <= 2 => (parts[0], parts[1], parts[2]),
        (1..=2, 4) if day_first && parts[1].len() <= 2 => (parts[2], parts[1], parts[0]),
        _ => return Err(format_error()),
    };
    let (year, month, day) = match (year.parse::<i16>(), month.parse::<i8>(), day.parse::<i8>()) {
        (Ok(y), Ok(m), Ok(d)) => (y, m, d),
        _ => return Err(format_error()),
    };
    Date::new(year, month, day).map_err(|_| DateError::InvalidDate {
        input: text.to_owned(),
        reason: invalid_reason(year, month, day),
    })
}

fn invalid_reason(year: i16, month: i8, day: i8) -> String {
    if !(1..=12).contains(&month) {
        return format!("month {month} is not between 1 and 12");
    }
    match Date::new(year, month, 1) {
        Ok(first) => format!(
            "{} {year} has {} days, so there is no day {day}",
            month_name(month),
            first.days_in_month()
        ),
        Err(_) => format!("year {year} is outside the supported range"),
    }
}

fn month_name(month: i8) -> &'static str {
    const NAMES: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    NAMES
        .get(usize::try_from(month - 1).unwrap_or(0))
        .copied()
        .unwrap_or("that month")
}

/// Parses a date or a date-time; civil date-times are placed in `time_zone`, and
/// instants with an offset or zone are converted to it.
pub fn parse_when(text: &str, day_first: bool, time_zone: &TimeZone) -> Result<When, DateError> {
    let text = text.trim();
    if !text.contains(['T', 't', ' ']) {
        return parse_date(text, day_first).map(When::Date);
    }
    if text.contains('[') {
        let zoned = Zoned::from_str(text).map_err(|_| DateError::DateTimeFormat(text.into()))?;
        return Ok(When::DateTime(zoned.with_time_zone(time_zone.clone())));
    }
    if let Ok(instant) = Timestamp::from_str(text) {
        return Ok(When::DateTime(instant.to_zoned(time_zone.clone())));
    }
    let civil = DateTime::from_str(text).map_err(|_| date_time_error(text, day_first))?;
    let zoned = civil
        .to_zoned(time_zone.clone())
        .map_err(|_| DateError::OutOfRange)?;
    Ok(When::DateTime(zoned))
}

/// Reports an impossible date inside a date-time precisely, else a format error.
fn date_time_error(text: &str, day_first: bool) -> DateError {
    let date_part = text.split(['T', 't', ' ']).next().unwrap_or(text);
    match parse_date(date_part, day_first) {
        Err(invalid @ DateError::InvalidDate { .. }) => invalid,
        _ => DateError::DateTimeFormat(text.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use jiff::civil::date;

    use super::*;

    #[test]
    fn iso_dates_parse_and_day_first_dates_need_the_flag() {
        assert_eq!(parse_date("2026-12-25", false), Ok(date(2026, 12, 25)));
        assert_eq!(parse_date("25/12/2026", true), Ok(date(2026, 12, 25)));
        assert_eq!(parse_date("5.1.2026", true), Ok(date(2026, 1, 5)));
        assert_eq!(parse_date("2026-12-25", true), Ok(date(2026, 12, 25)));
        assert!(matches!(
            parse_date("25/12/2026", false),
            Err(DateError::DateFormat { .. })
        ));
        assert!(matches!(
            parse_date("tomorrow", false),
            Err(DateError::DateFormat { .. })
        ));
    }

    #[test]
    fn impossible_dates_say_why() {
        let err = parse_date("2026-02-30", false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "2026-02-30 is not a valid date: February 2026 has 28 days, so there is no day 30"
        );
        let err = parse_date("2026-13-01", false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "2026-13-01 is not a valid date: month 13 is not between 1 and 12"
        );
    }

    #[test]
    fn date_times_are_converted_to_the_call_zone() {
        let tz = TimeZone::get("Asia/Ho_Chi_Minh").expect("zone");
        let When::DateTime(zoned) = parse_when("2026-11-22T20:00:00Z", false, &tz).expect("parse")
        else {
            panic!("expected a date-time");
        };
        assert_eq!(zoned.datetime().to_string(), "2026-11-23T03:00:00");
        let When::DateTime(civil) = parse_when("2026-11-22T20:00", false, &tz).expect("parse")
        else {
            panic!("expected a date-time");
        };
        assert_eq!(civil.offset().seconds(), 7 * 3600);
        assert!(matches!(
            parse_when("2026-02-30T10:00:00", false, &tz),
            Err(DateError::InvalidDate { .. })
        ));
    }
}
