//! `subtract {a, b}` → a − b.

use bigdecimal::BigDecimal;
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{MathError, decimal::operand};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "subtract",
        "Subtract exactly: a - b (b is taken away from a). Returns the exact decimal result as a string, e.g. subtract(10, 4) = \"6\".",
        object_schema(
            json!({ "a": operand_schema("Number to subtract from (minuend)"), "b": operand_schema("Number to subtract (subtrahend)") }),
            &["a", "b"],
        ),
    )
}

/// Reads `a` and `b` and subtracts.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["a", "b"])?;
    Ok(decimal_reply(&subtract(
        &operand(args, "a")?,
        &operand(args, "b")?,
    )))
}

/// a − b, exact.
pub fn subtract(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    a - b
}
