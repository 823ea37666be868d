//! `percent {percent, of}` → percent/100 × of.
//! Its MCP definition is in the table of two-operand tools (`super::binary`).

use bigdecimal::BigDecimal;

/// percent / 100 × of, exact (division by 100 always terminates).
pub fn percent(percent: &BigDecimal, of: &BigDecimal) -> BigDecimal {
    let (digits, scale) = (percent * of).into_bigint_and_scale();
    BigDecimal::new(digits, scale + 2)
}
