//! `sum {a, b}` → a + b.

use bigdecimal::BigDecimal;
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{MathError, decimal::operand};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "sum",
        "Add two numbers exactly: a + b. Returns the exact decimal result as a string, e.g. sum(2, 4) = \"6\", sum(0.1, 0.2) = \"0.3\".",
        object_schema(
            json!({ "a": operand_schema("First addend"), "b": operand_schema("Second addend") }),
            &["a", "b"],
        ),
    )
}

/// Reads `a` and `b` and adds them.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["a", "b"])?;
    Ok(decimal_reply(&sum(
        &operand(args, "a")?,
        &operand(args, "b")?,
    )))
}

/// a + b, exact.
pub fn sum(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    a + b
}
