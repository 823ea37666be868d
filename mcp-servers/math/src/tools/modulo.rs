//! `modulo {a, b}` → remainder of a ÷ b.

use bigdecimal::{BigDecimal, num_traits::Zero};
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{MathError, decimal::operand};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "modulo",
        "Remainder of a divided by b (truncated division, so the remainder has the sign of a): modulo(10, 3) = \"1\", modulo(-7, 3) = \"-1\", modulo(5.5, 2) = \"1.5\". b = 0 is an error.",
        object_schema(
            json!({ "a": operand_schema("Dividend"), "b": operand_schema("Divisor (must not be 0)") }),
            &["a", "b"],
        ),
    )
}

/// Reads `a` and `b`.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["a", "b"])?;
    Ok(decimal_reply(&modulo(
        &operand(args, "a")?,
        &operand(args, "b")?,
    )?))
}

/// a − b × trunc(a / b), exact.
pub fn modulo(a: &BigDecimal, b: &BigDecimal) -> Result<BigDecimal, MathError> {
    if b.is_zero() {
        return Err(MathError::ModuloByZero);
    }
    let (a, b) = (a.normalized(), b.normalized());
    let scale = a
        .fractional_digit_count()
        .max(b.fractional_digit_count())
        .max(0);
    let (a_digits, _) = a.with_scale(scale).into_bigint_and_scale();
    let (b_digits, _) = b.with_scale(scale).into_bigint_and_scale();
    Ok(BigDecimal::new(a_digits % b_digits, scale))
}
