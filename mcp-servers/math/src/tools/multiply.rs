//! `multiply {a, b}` → a × b.

use bigdecimal::BigDecimal;
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{MathError, decimal::operand};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "multiply",
        "Multiply two numbers exactly: a * b. Returns the exact decimal result as a string, e.g. multiply(6, 3) = \"18\", multiply(0.1, 3) = \"0.3\".",
        object_schema(
            json!({ "a": operand_schema("First factor"), "b": operand_schema("Second factor") }),
            &["a", "b"],
        ),
    )
}

/// Reads `a` and `b` and multiplies them.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["a", "b"])?;
    Ok(decimal_reply(&multiply(
        &operand(args, "a")?,
        &operand(args, "b")?,
    )))
}

/// a × b, exact (at most 2 × MAX_OPERAND_DIGITS digits).
pub fn multiply(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    a * b
}
