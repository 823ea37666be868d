//! `modulo {a, b}` → remainder of a ÷ b.
//! Its MCP definition is in the table of two-operand tools (`super::binary`).

use bigdecimal::{BigDecimal, num_traits::Zero};

use crate::MathError;

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
