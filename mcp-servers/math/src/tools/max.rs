//! `max {a, b}` → the larger of a and b.
//! Its MCP definition is in the table of two-operand tools (`super::binary`).

use bigdecimal::BigDecimal;

/// The larger of `a` and `b`, compared as exact decimals (`a` when they are equal).
pub fn max(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    if b > a { b.clone() } else { a.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap()
    }

    #[test]
    fn the_larger_operand_exactly() {
        assert_eq!(max(&d("4"), &d("9")), d("9"));
        assert_eq!(max(&d("-9"), &d("-2.5")), d("-2.5"));
        assert_eq!(max(&d("1e3"), &d("999.99")), d("1000"));
    }
}
