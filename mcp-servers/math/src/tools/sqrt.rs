//! `sqrt {x}` → √x.

use bigdecimal::BigDecimal;
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{MathError, decimal::operand};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "sqrt",
        "Square root of x. Exact for perfect squares (sqrt(16) = \"4\", sqrt(2.25) = \"1.5\"); otherwise rounded to 28 significant digits (sqrt(2) = \"1.414213562373095048801688724\"). Negative x is an error.",
        object_schema(
            json!({ "x": operand_schema("Number to take the square root of (must be >= 0)") }),
            &["x"],
        ),
    )
}

/// Reads `x` and takes its square root.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["x"])?;
    Ok(decimal_reply(&sqrt(&operand(args, "x")?)?))
}

/// √x: exact for perfect squares, else 28 significant digits.
pub fn sqrt(x: &BigDecimal) -> Result<BigDecimal, MathError> {
    crate::decimal::sqrt(x)
}
