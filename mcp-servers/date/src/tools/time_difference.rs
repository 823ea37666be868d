//! `time_difference {from, to, now?, timezone?}` → how many hours the clocks at `to`
//! are ahead of those at `from` right now (negative when behind): Seoul from Hanoi is
//! `2`, Paris from Hanoi `-6`, Adelaide from Hanoi `3.5` in the southern summer.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use jiff::Timestamp;
use serde_json::json;

use super::{object_schema, output_schema};
use crate::{DateError, context::Clock, zones::Place};

/// The tool definition.
pub fn def() -> ToolDef {
    ToolDef {
        name: "time_difference",
        description: "How many hours the clocks at `to` are ahead of the clocks at `from` right now (negative when behind; daylight saving as it is now), as a decimal: time_difference(from=\"Hanoi\", to=\"Seoul\") = \"2\", time_difference(from=\"Hanoi\", to=\"Paris\", now=\"2026-11-23T09:00:00Z\") = \"-6\". Places are cities or IANA time zones, as for time_in; \"here\" is the call's own `timezone`.",
        input_schema: object_schema(
            json!({
                "from": {"type": "string", "description": "The place counted from: a city or an IANA time zone."},
                "to": {"type": "string", "description": "The place whose clocks are compared: a city or an IANA time zone."},
            }),
            &["from", "to"],
        ),
        output_schema: Some(output_schema(
            "string",
            json!({"from_zone": {"type": "string"}, "to_zone": {"type": "string"}}),
        )),
    }
}

/// Reads the places and the clock.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    args.only(&["from", "to", "now", "timezone"])?;
    let (from_name, to_name) = (args.str("from")?, args.str("to")?);
    let clock = Clock::from_args(args)?;
    let (from, to) = (clock.place(from_name)?, clock.place(to_name)?);
    let hours = hours_ahead(clock.now.timestamp(), &from, &to);
    let text = match hours.strip_prefix('-') {
        Some(behind) => format!(
            "{} is {behind} hours behind {} now.",
            to_name.trim(),
            from_name.trim()
        ),
        None => format!(
            "{} is {hours} hours ahead of {} now.",
            to_name.trim(),
            from_name.trim()
        ),
    };
    Ok(ToolReply::result(hours, text)
        .with_field("from_zone", from.zone.clone())
        .with_field("to_zone", to.zone.clone()))
}

/// The hours `to`'s clocks are ahead of `from`'s at `now`, as a canonical decimal
/// (offsets are whole minutes, so quarter and half hours come out exact).
pub fn hours_ahead(now: Timestamp, from: &Place, to: &Place) -> String {
    let offset = |p: &Place| i64::from(p.time_zone.to_offset(now).seconds());
    let minutes = (offset(to) - offset(from)) / 60;
    let sign = if minutes < 0 { "-" } else { "" };
    let (h, m) = (minutes.abs() / 60, minutes.abs() % 60);
    match m {
        0 => format!("{sign}{h}"),
        m => {
            let frac = format!("{:02}", m * 100 / 60);
            format!("{sign}{h}.{}", frac.trim_end_matches('0'))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zones::resolve;

    fn ahead(now: &str, from: &str, to: &str) -> String {
        let now: Timestamp = now.parse().expect("instant");
        hours_ahead(
            now,
            &resolve(from).expect("place"),
            &resolve(to).expect("place"),
        )
    }

    #[test]
    fn hours_ahead_and_behind_with_daylight_saving_as_it_is() {
        assert_eq!(ahead("2026-11-23T09:00:00Z", "Hanoi", "Seoul"), "2");
        assert_eq!(ahead("2026-11-23T09:00:00Z", "Hanoi", "Paris"), "-6");
        // Summer in Paris: one hour less behind.
        assert_eq!(ahead("2026-07-01T09:00:00Z", "Hanoi", "Paris"), "-5");
        assert_eq!(ahead("2026-11-23T09:00:00Z", "Hanoi", "Kolkata"), "-1.5");
        assert_eq!(ahead("2026-11-23T09:00:00Z", "Hanoi", "Melbourne"), "4");
        assert_eq!(ahead("2026-11-23T09:00:00Z", "Tokyo", "Tokyo"), "0");
    }
}
