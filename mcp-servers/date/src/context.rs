//! The clock a call runs against: `now` and `timezone` from the arguments, or
//! the system clock in UTC.

use chorus_mcp_common::args::Args;
use jiff::{Zoned, civil::Date, tz::TimeZone};

use crate::{
    DateError,
    parse::{When, parse_date, parse_when},
};

/// "Now" in the requested time zone.
#[derive(Debug, Clone)]
pub struct Clock {
    /// The current instant, in `time_zone`.
    pub now: Zoned,
    /// The requested zone (UTC by default).
    pub time_zone: TimeZone,
    /// The zone's name as given (or "UTC").
    pub zone_name: String,
}

impl Clock {
    /// Reads optional `timezone` and `now` (date-time or plain date = midnight).
    pub fn from_args(args: &Args<'_>) -> Result<Clock, DateError> {
        let zone_name = args
            .opt_str("timezone")?
            .map(str::trim)
            .unwrap_or("UTC")
            .to_owned();
        let time_zone = time_zone(&zone_name)?;
        let now = match args.opt_str("now")? {
            Some(text) => match parse_when(text, false, &time_zone)? {
                When::Date(date) => midnight(date, &time_zone)?,
                When::DateTime(zoned) => zoned,
            },
            None => Zoned::now().with_time_zone(time_zone.clone()),
        };
        Ok(Clock {
            now,
            time_zone,
            zone_name,
        })
    }

    /// Resolves a place as [`crate::zones::resolve`] does, except `here` (or `local`):
    /// the call's own time zone, so a time said on the user's clock (`9pm my time`)
    /// converts from where the user is.
    pub fn place(&self, name: &str) -> Result<crate::zones::Place, DateError> {
        match name.trim().to_lowercase().as_str() {
            "here" | "local" => Ok(crate::zones::Place {
                time_zone: self.time_zone.clone(),
                zone: self.zone_name.clone(),
            }),
            _ => crate::zones::resolve(name),
        }
    }

    /// A clock fixed at `now`, for tests and library callers.
    pub fn fixed(now: Zoned) -> Clock {
        let time_zone = now.time_zone().clone();
        let zone_name = time_zone.iana_name().unwrap_or("UTC").to_owned();
        Clock {
            now,
            time_zone,
            zone_name,
        }
    }

    /// Today's date in the zone.
    pub fn today(&self) -> Date {
        self.now.date()
    }
}

/// The `date` argument (read day-first when `day_first`), or today by the call's clock
/// when it is absent.
pub fn date_or_today(args: &Args<'_>, day_first: bool) -> Result<Date, DateError> {
    match args.opt_str("date")? {
        Some(text) => parse_date(text, day_first),
        None => Ok(Clock::from_args(args)?.today()),
    }
}

/// Looks up an IANA zone name ("UTC" and "Z" are always known).
pub fn time_zone(name: &str) -> Result<TimeZone, DateError> {
    if name.eq_ignore_ascii_case("utc") || name == "Z" {
        return Ok(TimeZone::UTC);
    }
    TimeZone::get(name).map_err(|_| DateError::UnknownTimeZone(name.to_owned()))
}

/// The first instant of `date` in `time_zone`.
pub fn midnight(date: Date, time_zone: &TimeZone) -> Result<Zoned, DateError> {
    date.to_zoned(time_zone.clone())
        .map_err(|_| DateError::OutOfRange)
}
