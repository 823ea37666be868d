//! `abs {x}` → |x|.

use bigdecimal::BigDecimal;
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{MathError, decimal::operand};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "abs",
        "Absolute value of x (its distance from zero): abs(-3.5) = \"3.5\".",
        object_schema(json!({ "x": operand_schema("Any number") }), &["x"]),
    )
}

/// Reads `x` and returns |x|.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["x"])?;
    Ok(decimal_reply(&abs(&operand(args, "x")?)))
}

/// |x|.
pub fn abs(x: &BigDecimal) -> BigDecimal {
    x.abs()
}
