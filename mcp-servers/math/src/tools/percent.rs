//! `percent {percent, of}` → percent/100 × of.

use bigdecimal::BigDecimal;
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{MathError, decimal::operand};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "percent",
        "Percentage of a number: percent% of `of` = percent / 100 * of, exact. percent(15, 200) = \"30\" (15% of 200).",
        object_schema(
            json!({ "percent": operand_schema("The percentage, e.g. 15 for 15%"), "of": operand_schema("The number the percentage is taken of") }),
            &["percent", "of"],
        ),
    )
}

/// Reads `percent` and `of`.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["percent", "of"])?;
    Ok(decimal_reply(&percent(
        &operand(args, "percent")?,
        &operand(args, "of")?,
    )))
}

/// percent / 100 × of, exact (division by 100 always terminates).
pub fn percent(percent: &BigDecimal, of: &BigDecimal) -> BigDecimal {
    let (digits, scale) = (percent * of).into_bigint_and_scale();
    BigDecimal::new(digits, scale + 2)
}
