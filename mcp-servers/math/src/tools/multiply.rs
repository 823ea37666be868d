//! `multiply {a, b}` → a × b.
//! Its MCP definition is in the table of two-operand tools (`super::binary`).

use bigdecimal::BigDecimal;

/// a × b, exact (at most 2 × MAX_OPERAND_DIGITS digits).
pub fn multiply(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    a * b
}
