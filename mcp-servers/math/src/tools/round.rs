//! `round {x, places = 0}` → x rounded to `places` decimal places.

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
        "Round x to `places` decimal places (default 0), halves away from zero: round(2.5) = \"3\", round(-2.5) = \"-3\", round(3.14159, 2) = \"3.14\". Negative places round to tens, hundreds…: round(1234, -2) = \"1200\".",
        object_schema(
            json!({
                "x": operand_schema("Number to round"),
                "places": { "type": "integer", "description": "Decimal places to keep (default 0; negative rounds left of the point)", "default": 0 },
            }),
            &["x"],
        ),
    )
}

/// Reads `x` and optional `places`.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["x", "places"])?;
    let x = operand(args, "x")?;
    let places = args.opt_i64("places")?.unwrap_or(0);
    Ok(decimal_reply(&round(&x, places)?))
}

/// x rounded half away from zero to `places` decimal places.
pub fn round(x: &BigDecimal, places: i64) -> Result<BigDecimal, MathError> {
    let limit = MAX_OPERAND_DIGITS as i64;
    if !(-limit..=limit).contains(&places) {
        return Err(MathError::PlacesOutOfRange(places));
    }
    Ok(x.with_scale_round(places, RoundingMode::HalfUp))
}
