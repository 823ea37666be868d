//! `round {x, places = 0, mode = "nearest"}` → x rounded to `places` decimal places:
//! to the nearest (halves away from zero), up (towards +∞: how many boxes hold it) or
//! down (towards −∞: how many whole groups fit).

use bigdecimal::{BigDecimal, RoundingMode};
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{
    MathError,
    decimal::{MAX_OPERAND_DIGITS, operand},
};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "round",
        "Round x to `places` decimal places (default 0). Mode \"nearest\" (default) rounds halves away from zero: round(2.5) = \"3\", round(-2.5) = \"-3\", round(3.14159, 2) = \"3.14\"; \"up\" rounds towards +infinity (round(7.2, mode=up) = \"8\": boxes needed), \"down\" towards -infinity (round(7.8, mode=down) = \"7\"). Negative places round to tens, hundreds…: round(1234, -2) = \"1200\".",
        object_schema(
            json!({
                "x": operand_schema("Number to round"),
                "places": { "type": "integer", "description": "Decimal places to keep (default 0; negative rounds left of the point)", "default": 0 },
                "mode": { "type": "string", "enum": ["nearest", "up", "down"], "description": "nearest (halves away from zero), up (towards +infinity) or down (towards -infinity)", "default": "nearest" },
            }),
            &["x"],
        ),
    )
}

/// Reads `x` and optional `places` and `mode`.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["x", "places", "mode"])?;
    let x = operand(args, "x")?;
    let places = args.opt_i64("places")?.unwrap_or(0);
    let mode = match args.opt_str("mode")?.unwrap_or("nearest") {
        "nearest" => RoundingMode::HalfUp,
        "up" => RoundingMode::Ceiling,
        "down" => RoundingMode::Floor,
        other => return Err(MathError::RoundingMode(other.to_owned())),
    };
    Ok(decimal_reply(&round_with(&x, places, mode)?))
}

/// x rounded half away from zero to `places` decimal places.
pub fn round(x: &BigDecimal, places: i64) -> Result<BigDecimal, MathError> {
    round_with(x, places, RoundingMode::HalfUp)
}

/// x rounded to `places` decimal places in `mode`.
fn round_with(x: &BigDecimal, places: i64, mode: RoundingMode) -> Result<BigDecimal, MathError> {
    let limit = MAX_OPERAND_DIGITS as i64;
    if !(-limit..=limit).contains(&places) {
        return Err(MathError::PlacesOutOfRange(places));
    }
    Ok(x.with_scale_round(places, mode))
}
