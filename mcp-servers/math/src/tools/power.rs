//! `power {base, exponent}` → base^exponent for whole-number exponents.

use bigdecimal::{
    BigDecimal, ToPrimitive,
    num_traits::{One, Zero},
};
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{
    MathError,
    decimal::{MAX_EXPONENT, MAX_RESULT_DIGITS, divide, format, operand, plain_digits},
};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "power",
        "Raise base to a whole-number exponent: power(2, 10) = \"1024\", power(1.5, 2) = \"2.25\". Exact for exponents >= 0; a negative exponent divides (power(2, -3) = \"0.125\", non-terminating results have 28 significant digits). The exponent must be an integer between -10000 and 10000 and the result at most 10000 digits; use sqrt for square roots.",
        object_schema(
            json!({
                "base": operand_schema("The base"),
                "exponent": operand_schema("Whole-number exponent between -10000 and 10000"),
            }),
            &["base", "exponent"],
        ),
    )
}

/// Reads `base` and `exponent`.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["base", "exponent"])?;
    let base = operand(args, "base")?;
    let exponent = operand(args, "exponent")?;
    Ok(decimal_reply(&power(&base, &exponent)?))
}

/// base^exponent; 0^0 is 1.
pub fn power(base: &BigDecimal, exponent: &BigDecimal) -> Result<BigDecimal, MathError> {
    if !exponent.is_integer() {
        return Err(MathError::FractionalExponent(format(exponent)));
    }
    let n = exponent
        .to_i64()
        .filter(|n| n.abs() <= MAX_EXPONENT)
        .ok_or_else(|| MathError::ExponentTooLarge(format(exponent)))?;
    if n == 0 {
        return Ok(BigDecimal::one());
    }
    if base.is_zero() {
        return if n < 0 {
            Err(MathError::DivisionByZero)
        } else {
            Ok(BigDecimal::zero())
        };
    }
    let magnitude = n.unsigned_abs();
    if magnitude.saturating_mul(plain_digits(base)) > MAX_RESULT_DIGITS {
        return Err(MathError::ResultTooLarge);
    }
    let (digits, scale) = base.normalized().into_bigint_and_scale();
    let raised = BigDecimal::new(digits.pow(magnitude as u32), scale * magnitude as i64);
    if n < 0 {
        divide(&BigDecimal::one(), &raised)
    } else {
        Ok(raised)
    }
}
