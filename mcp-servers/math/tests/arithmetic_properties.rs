//! Property tests of the exact arithmetic.

use std::str::FromStr;

use bigdecimal::{BigDecimal, num_traits::Zero};
use chorus_mcp_math::{
    decimal::format,
    tools::{divide::divide, multiply::multiply, sqrt::sqrt, subtract::subtract, sum::sum},
};
use proptest::prelude::*;

/// Decimals with up to 30 integer digits and up to 20 fraction digits, either sign.
fn decimal() -> impl Strategy<Value = BigDecimal> {
    ("-?[0-9]{1,30}", proptest::option::of("[0-9]{1,20}")).prop_map(|(int, frac)| {
        let text = match frac {
            Some(frac) => format!("{int}.{frac}"),
            None => int,
        };
        BigDecimal::from_str(&text).expect("generated decimal parses")
    })
}

proptest! {
    #[test]
    fn adding_then_subtracting_returns_the_original(a in decimal(), b in decimal()) {
        prop_assert_eq!(subtract(&sum(&a, &b), &b), a);
    }

    #[test]
    fn multiplying_then_dividing_returns_the_original(a in decimal(), b in decimal()) {
        prop_assume!(!b.is_zero());
        let back = divide(&multiply(&a, &b), &b).expect("b is not zero");
        prop_assert_eq!(back, a);
    }

    #[test]
    fn quotient_times_divisor_is_within_28_significant_digits(a in decimal(), b in decimal()) {
        prop_assume!(!b.is_zero() && !a.is_zero());
        let quotient = divide(&a, &b).expect("b is not zero");
        let error = (multiply(&quotient, &b) - &a).abs();
        let tolerance = a.abs() * BigDecimal::from_str("1e-27").expect("tolerance");
        prop_assert!(error <= tolerance, "{} / {} = {}", a, b, quotient);
    }

    #[test]
    fn sqrt_of_a_square_is_exact(y in decimal()) {
        let root = sqrt(&multiply(&y, &y)).expect("square is not negative");
        prop_assert_eq!(root, y.abs());
    }

    #[test]
    fn formatted_results_have_no_trailing_zeros_and_parse_back(a in decimal(), b in decimal()) {
        let text = format(&sum(&a, &b));
        if text.contains('.') {
            prop_assert!(!text.ends_with('0') && !text.ends_with('.'), "{}", text);
        }
        prop_assert_eq!(BigDecimal::from_str(&text).expect("parses"), sum(&a, &b));
    }
}
