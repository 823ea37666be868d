//! `sum {a, b}` → a + b.
//! Its MCP definition is in the table of two-operand tools (`super::binary`).

use bigdecimal::BigDecimal;

/// a + b, exact.
pub fn sum(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    a + b
}
