//! `convert_time {time, from, to, date?, now?, timezone?}` → a wall-clock time at
//! one place as the wall-clock time at another, on a given day.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::{
    Zoned,
    civil::{Date, Time},
};
use serde_json::json;

use super::{days_until::days_until, object_schema, output_schema};
use crate::{DateError, context::Clock, parse::parse_date};

/// A time converted between two zones.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The instant on the clocks of the `to` zone.
    pub there: Zoned,
    /// Days from the `from` date to the `to` date (usually -1, 0 or 1).
    pub day_shift: i64,
}

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "convert_time",
        description: "Converts a wall-clock time at one place to the wall-clock time at another, on a date (default: today at `from`), using each zone's rules on that date (summer time included). Places are cities (\"Hanoi\", \"London\", \"New York\") or IANA zones; \"here\" is the call's own `timezone`. Result is HH:MM (24-hour) with the date at `to` and day_shift (-1, 0 or 1; the date at `to` minus the date at `from`). Example: convert_time(time=\"9:00\", from=\"Hanoi\", to=\"London\", date=\"2026-11-23\") = \"02:00\" (day_shift 0); convert_time(time=\"23:30\", from=\"New York\", to=\"Tokyo\", date=\"2026-11-23\") = \"13:30\" (date \"2026-11-24\", day_shift 1).",
        input_schema: object_schema(
            json!({
                "time": {"type": "string", "description": "Wall-clock time at `from`: HH:MM (24-hour, e.g. 21:30 or 9:00), or 12-hour like 9am, 9 pm, 9:30pm; also noon, midnight."},
                "from": {"type": "string", "description": "Place the time is given at: city name or IANA time zone."},
                "to": {"type": "string", "description": "Place to convert to: city name or IANA time zone."},
                "date": {"type": "string", "description": "Date at `from` as YYYY-MM-DD. Default: today at `from`."},
            }),
            &["time", "from", "to"],
        ),
        output_schema: Some(output_schema(
            "string",
            json!({"date": {"type": "string"}, "day_shift": {"type": "integer"}, "from_zone": {"type": "string"}, "to_zone": {"type": "string"}}),
        )),
    }
}

/// Reads `time`, `from`, `to`, `date` (default today at `from`) and the clock.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["time", "from", "to", "date", "now", "timezone"])?;
    let time = parse_time(args.str("time")?)?;
    let (from_name, to_name) = (args.str("from")?, args.str("to")?);
    let clock = Clock::from_args(args)?;
    let (from, to) = (clock.place(from_name)?, clock.place(to_name)?);
    let date = match args.opt_str("date")? {
        Some(text) => parse_date(text, false)?,
        None => clock.now.with_time_zone(from.time_zone.clone()).date(),
    };
    let converted = convert_time(time, date, &from.time_zone, &to.time_zone)?;
    let result = converted.there.strftime("%H:%M").to_string();
    let there_date = converted.there.date();
    let shift = match converted.day_shift {
        0 => String::new(),
        1 => " (the next day)".to_owned(),
        -1 => " (the previous day)".to_owned(),
        n => format!(" ({n:+} days)"),
    };
    let text = format!(
        "{} on {date} in {} ({}) is {result} on {there_date} in {} ({}){shift}.",
        time.strftime("%H:%M"),
        from_name.trim(),
        from.zone,
        to_name.trim(),
        to.zone
    );
    Ok(ToolReply::result(result, text)
        .with_field("date", there_date.to_string())
        .with_field("day_shift", converted.day_shift)
        .with_field("from_zone", from.zone.clone())
        .with_field("to_zone", to.zone.clone()))
}

/// `time` on `date` in zone `from`, shown in zone `to`. A time skipped or
/// repeated by a clock change takes jiff's compatible reading (the later
/// offset in a gap, the earlier in a fold).
pub fn convert_time(
    time: Time,
    date: Date,
    from: &jiff::tz::TimeZone,
    to: &jiff::tz::TimeZone,
) -> Result<Converted, DateError> {
    let here = date
        .to_datetime(time)
        .to_zoned(from.clone())
        .map_err(|_| DateError::OutOfRange)?;
    let there = here.with_time_zone(to.clone());
    let day_shift = days_until(date, there.date())?;
    Ok(Converted { there, day_shift })
}

/// A wall-clock time: `21:30`, `9:00`, `9`, `21:30:15`, or 12-hour `9am`,
/// `9 pm`, `9:30 p.m.`, `12am` (midnight); also `noon` and `midnight`.
pub fn parse_time(text: &str) -> Result<Time, DateError> {
    let error = || DateError::TimeFormat(text.trim().to_owned());
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '.')
        .collect::<String>()
        .to_ascii_lowercase();
    match compact.as_str() {
        "noon" => return Ok(Time::constant(12, 0, 0, 0)),
        "midnight" => return Ok(Time::constant(0, 0, 0, 0)),
        _ => {}
    }
    let (clock, pm) = if let Some(rest) = compact.strip_suffix("am") {
        (rest, Some(false))
    } else if let Some(rest) = compact.strip_suffix("pm") {
        (rest, Some(true))
    } else {
        (compact.as_str(), None)
    };
    let parts: Vec<&str> = clock.split(':').collect();
    let number = |part: &str, digits: std::ops::RangeInclusive<usize>| {
        let ok = digits.contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| part.parse::<i8>().ok()).flatten()
    };
    let (hour, minute, second) = match parts.as_slice() {
        [h] => (number(h, 1..=2), Some(0), Some(0)),
        [h, m] => (number(h, 1..=2), number(m, 2..=2), Some(0)),
        [h, m, s] => (number(h, 1..=2), number(m, 2..=2), number(s, 2..=2)),
        _ => return Err(error()),
    };
    let (Some(hour), Some(minute), Some(second)) = (hour, minute, second) else {
        return Err(error());
    };
    let hour = match pm {
        None => hour,
        Some(_) if !(1..=12).contains(&hour) => return Err(error()),
        Some(false) => hour % 12,
        Some(true) => hour % 12 + 12,
    };
    Time::new(hour, minute, second, 0).map_err(|_| error())
}

#[cfg(test)]
mod tests {

    /// `here` is the call's own time zone: 9pm in Seoul is 19:00 in Hanoi.
    #[test]
    fn here_is_the_calls_own_zone() {
        let call = |from: &str, to: &str, timezone: &str| {
            let map = match serde_json::json!({
                "time": "21:00", "from": from, "to": to,
                "now": "2026-11-23T09:00:00Z", "timezone": timezone,
            }) {
                serde_json::Value::Object(map) => map,
                _ => unreachable!(),
            };
            run(&Args::new(&map)).map(|r| r.structured["result"].clone())
        };
        assert_eq!(
            call("here", "Hanoi", "Asia/Seoul"),
            Ok(serde_json::json!("19:00"))
        );
        assert_eq!(
            call("Seoul", "here", "Europe/Paris"),
            Ok(serde_json::json!("13:00"))
        );
        assert!(call("Gotham", "here", "UTC").is_err());
    }
    use super::*;
    use crate::zones::resolve;
    use jiff::civil::{date, time};

    fn convert(clock: &str, from: &str, to: &str, on: Date) -> (String, Date, i64) {
        let (from, to) = (resolve(from).expect("from"), resolve(to).expect("to"));
        let converted = convert_time(
            parse_time(clock).expect("time"),
            on,
            &from.time_zone,
            &to.time_zone,
        )
        .expect("in range");
        (
            converted.there.strftime("%H:%M").to_string(),
            converted.there.date(),
            converted.day_shift,
        )
    }

    #[test]
    fn times_move_between_zones_and_days() {
        let day = date(2026, 11, 23);
        assert_eq!(
            convert("09:00", "Hanoi", "London", day),
            ("02:00".into(), day, 0)
        );
        assert_eq!(
            convert("23:30", "New York", "Tokyo", day),
            ("13:30".into(), date(2026, 11, 24), 1)
        );
        assert_eq!(
            convert("8am", "Tokyo", "New York", day),
            ("18:00".into(), date(2026, 11, 22), -1)
        );
        assert_eq!(
            convert("12:00", "UTC", "Asia/Kolkata", day),
            ("17:30".into(), day, 0)
        );
    }

    #[test]
    fn each_zone_uses_its_own_summer_time_rules_on_the_date() {
        // The US moved its clocks on 2026-03-08, the UK only on 2026-03-29.
        let between = date(2026, 3, 20);
        assert_eq!(convert("09:00", "London", "New York", between).0, "05:00");
        let winter = date(2026, 1, 20);
        assert_eq!(convert("09:00", "London", "New York", winter).0, "04:00");
    }

    #[test]
    fn twelve_and_twenty_four_hour_times_parse() {
        assert_eq!(parse_time("09:00"), Ok(time(9, 0, 0, 0)));
        assert_eq!(parse_time("9:00"), Ok(time(9, 0, 0, 0)));
        assert_eq!(parse_time("21:30"), Ok(time(21, 30, 0, 0)));
        assert_eq!(parse_time("9am"), Ok(time(9, 0, 0, 0)));
        assert_eq!(parse_time("9 pm"), Ok(time(21, 0, 0, 0)));
        assert_eq!(parse_time("9:30 P.M."), Ok(time(21, 30, 0, 0)));
        assert_eq!(parse_time("12am"), Ok(time(0, 0, 0, 0)));
        assert_eq!(parse_time("12pm"), Ok(time(12, 0, 0, 0)));
        assert_eq!(parse_time("noon"), Ok(time(12, 0, 0, 0)));
        assert_eq!(parse_time("21:30:15"), Ok(time(21, 30, 15, 0)));
        for bad in [
            "25:00",
            "9:7",
            "13pm",
            "0am",
            "nine",
            "",
            "9:00:00:00",
            "-1:00",
        ] {
            assert_eq!(
                parse_time(bad),
                Err(DateError::TimeFormat(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn unknown_places_are_errors() {
        assert_eq!(
            resolve("Gotham").unwrap_err(),
            DateError::UnknownPlace("Gotham".into())
        );
    }
}
