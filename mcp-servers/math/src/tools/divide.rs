//! `divide {a, b}` → a ÷ b.
//! Its MCP definition is in the table of two-operand tools (`super::binary`).

use bigdecimal::BigDecimal;

use crate::MathError;

/// a ÷ b: exact if terminating, else 28 significant digits.
pub fn divide(a: &BigDecimal, b: &BigDecimal) -> Result<BigDecimal, MathError> {
    crate::decimal::divide(a, b)
}
