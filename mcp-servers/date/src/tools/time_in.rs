//! `time_in {place, now?, timezone?}` → the current wall-clock time at a place
//! (a city or an IANA zone).

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::{RoundMode, Timestamp, TimestampRound, Unit, Zoned};
use serde_json::json;

use super::{object_schema, output_schema, weekday_name};
use crate::{DateError, context::Clock, zones::Place};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "time_in",
        description: "The current local time (HH:MM, 24-hour) at a place: a city (\"Tokyo\", \"New York\", \"Hanoi\", \"São Paulo\") or an IANA time zone (\"Asia/Tokyo\"), with that place's date, UTC offset and zone. Example: time_in(place=\"Tokyo\", now=\"2026-11-23T12:00:00Z\") = \"21:00\" (date \"2026-11-23\", offset \"+09:00\", zone \"Asia/Tokyo\").",
        input_schema: object_schema(
            json!({
                "place": {"type": "string", "description": "City name (any case, accents optional; a trailing \"time\" is ignored) or IANA time zone name."},
            }),
            &["place"],
        ),
        output_schema: Some(output_schema(
            "string",
            json!({"zone": {"type": "string"}, "date": {"type": "string"}, "offset": {"type": "string"}, "datetime": {"type": "string"}}),
        )),
    }
}

/// Reads `place` and the clock (`timezone` only says how a civil `now` is read).
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["place", "now", "timezone"])?;
    let place_name = args.str("place")?;
    let clock = Clock::from_args(args)?;
    let place = clock.place(place_name)?;
    let there = time_in(clock.now.timestamp(), &place)?;
    let time = there.strftime("%H:%M").to_string();
    let offset = there.strftime("%:z").to_string();
    let date = there.date();
    let text = format!(
        "It is {time} on {}, {date} in {} ({}, UTC{offset}).",
        weekday_name(date.weekday()),
        place_name.trim(),
        place.zone
    );
    Ok(ToolReply::result(time, text)
        .with_field("zone", place.zone.clone())
        .with_field("date", date.to_string())
        .with_field("offset", offset)
        .with_field("datetime", there.to_string()))
}

/// The instant `now`, to the second, on the clocks of `place`.
pub fn time_in(now: Timestamp, place: &Place) -> Result<Zoned, DateError> {
    let second = TimestampRound::new()
        .smallest(Unit::Second)
        .mode(RoundMode::Floor);
    let now = now.round(second).map_err(|_| DateError::OutOfRange)?;
    Ok(now.to_zoned(place.time_zone.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zones::resolve;

    fn at(now: &str, place: &str) -> Zoned {
        let now: Timestamp = now.parse().expect("instant");
        time_in(now, &resolve(place).expect("place")).expect("in range")
    }

    #[test]
    fn the_instant_is_shown_on_the_place_clock() {
        let tokyo = at("2026-11-23T12:00:00Z", "Tokyo");
        assert_eq!(tokyo.strftime("%H:%M").to_string(), "21:00");
        assert_eq!(tokyo.date().to_string(), "2026-11-23");
        assert_eq!(tokyo.strftime("%:z").to_string(), "+09:00");
        assert_eq!(tokyo.to_string(), "2026-11-23T21:00:00+09:00[Asia/Tokyo]");
        let new_york = at("2026-11-23T03:00:00.75Z", "new york");
        assert_eq!(
            new_york.to_string(),
            "2026-11-22T22:00:00-05:00[America/New_York]"
        );
        // Summer time: New York is UTC−4 in July.
        let july = at("2026-07-01T12:00:00Z", "America/New_York");
        assert_eq!(july.strftime("%H:%M %:z").to_string(), "08:00 -04:00");
        let hanoi = at("2026-11-23T20:30:00Z", "Hanoi time");
        assert_eq!(
            hanoi.to_string(),
            "2026-11-24T03:30:00+07:00[Asia/Ho_Chi_Minh]"
        );
    }
}
