//! Date tool failures; each message is shown to the user as an MCP tool error.

use chorus_mcp_common::args::ArgError;

/// Why a date tool could not answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    /// A missing, unknown or wrongly typed argument.
    #[error(transparent)]
    Argument(#[from] ArgError),
    /// Well-formed but impossible, e.g. 2026-02-30.
    #[error("{input} is not a valid date: {reason}")]
    InvalidDate {
        /// The text received.
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Not in an accepted date format.
    #[error("'{input}' is not a date in {expected} format")]
    DateFormat {
        /// The text received.
        input: String,
        /// The accepted format(s).
        expected: &'static str,
    },
    /// Neither a date nor a date-time.
    #[error(
        "'{0}' is not a date or date-time; use YYYY-MM-DD or RFC 3339 such as 2026-11-22T09:30:00+07:00"
    )]
    DateTimeFormat(String),
    /// A time-zone name the database does not know.
    #[error(
        "unknown time zone '{0}'; use an IANA name such as UTC, Europe/Paris or Asia/Ho_Chi_Minh"
    )]
    UnknownTimeZone(String),
    /// A duration unit we do not support.
    #[error("unit must be one of days, weeks, months, years, hours, minutes; got '{0}'")]
    UnknownUnit(String),
    /// A place name that is neither a known city nor an IANA time zone.
    #[error(
        "unknown place '{0}'; use a city such as Tokyo, New York or Hanoi, or an IANA time zone such as Asia/Ho_Chi_Minh"
    )]
    UnknownPlace(String),
    /// A weekday name we do not recognise.
    #[error("weekday must be an English day name such as Monday; got '{0}'")]
    UnknownWeekday(String),
    /// A search direction other than next or last.
    #[error("direction must be 'next' or 'last'; got '{0}'")]
    UnknownDirection(String),
    /// Not a wall-clock time.
    #[error("'{0}' is not a time of day; use HH:MM (24-hour) such as 21:30, or 9am / 9:30 pm")]
    TimeFormat(String),
    /// A birth date later than today.
    #[error("the birth date {born} is after today ({today})")]
    BornAfterToday {
        /// The birth date received.
        born: String,
        /// Today in the call's zone.
        today: String,
    },
    /// A result (or amount) beyond the supported calendar.
    #[error("the result is outside the supported range of dates (years -9999 to 9999)")]
    OutOfRange,
}
