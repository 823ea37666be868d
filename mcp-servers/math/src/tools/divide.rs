//! `divide {a, b}` → a ÷ b.

use bigdecimal::BigDecimal;
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{MathError, decimal::operand};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "divide",
        "Divide a by b: a / b. Exact when the result terminates (divide(10, 4) = \"2.5\"); otherwise rounded to 28 significant digits, half to even (divide(1, 3) = \"0.3333333333333333333333333333\"). Dividing by zero is an error.",
        object_schema(
            json!({ "a": operand_schema("Dividend (the number divided)"), "b": operand_schema("Divisor (must not be 0)") }),
            &["a", "b"],
        ),
    )
}

/// Reads `a` and `b` and divides.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["a", "b"])?;
    Ok(decimal_reply(&divide(
        &operand(args, "a")?,
        &operand(args, "b")?,
    )?))
}

/// a ÷ b: exact if terminating, else 28 significant digits.
pub fn divide(a: &BigDecimal, b: &BigDecimal) -> Result<BigDecimal, MathError> {
    crate::decimal::divide(a, b)
}
