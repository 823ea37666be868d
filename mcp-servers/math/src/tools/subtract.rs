//! `subtract {a, b}` → a − b.
//! Its MCP definition is in the table of two-operand tools (`super::binary`).

use bigdecimal::BigDecimal;

/// a − b, exact.
pub fn subtract(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    a - b
}
