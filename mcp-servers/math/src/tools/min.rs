//! `min {a, b}` → the smaller of a and b.
//! Its MCP definition is in the table of two-operand tools (`super::binary`).

use bigdecimal::BigDecimal;

/// The smaller of `a` and `b`, compared as exact decimals (`a` when they are equal).
pub fn min(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    if b < a { b.clone() } else { a.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap()
    }

    #[test]
    fn the_smaller_operand_exactly() {
        assert_eq!(min(&d("4"), &d("9")), d("4"));
        assert_eq!(min(&d("9"), &d("-2.5")), d("-2.5"));
        assert_eq!(min(&d("0.1"), &d("0.10")), d("0.1"));
    }
}
