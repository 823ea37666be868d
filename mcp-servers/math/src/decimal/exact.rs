//! Division and square root with exact results whenever the result terminates,
//! and [`SIGNIFICANT_DIGITS`] significant digits (half to even) otherwise.
//!
//! Both work on the integer mantissas directly so exactness is decided, not
//! guessed: a quotient terminates iff the reduced denominator has no prime
//! factors besides 2 and 5; a square root is exact iff the scaled mantissa is
//! a perfect square.

use std::num::NonZeroU64;

use bigdecimal::{
    BigDecimal, RoundingMode,
    num_bigint::{BigInt, BigUint, Sign},
    num_traits::{One, Zero},
};
use num_integer::Integer;

use super::SIGNIFICANT_DIGITS;
use crate::MathError;

/// `a / b`, exact when it terminates.
pub fn divide(a: &BigDecimal, b: &BigDecimal) -> Result<BigDecimal, MathError> {
    if b.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    if a.is_zero() {
        return Ok(BigDecimal::zero());
    }
    let (a_int, a_scale) = a.normalized().into_bigint_and_scale();
    let (b_int, b_scale) = b.normalized().into_bigint_and_scale();
    let sign = if a_int.sign() == b_int.sign() {
        Sign::Plus
    } else {
        Sign::Minus
    };
    let (a_mag, b_mag) = (a_int.magnitude(), b_int.magnitude());
    let common = a_mag.gcd(b_mag);
    let numerator = a_mag / &common;
    let denominator = b_mag / &common;
    // a / b = (numerator / denominator) * 10^(b_scale - a_scale)
    let base_scale = a_scale - b_scale;
    let (rest, twos, fives) = strip_twos_and_fives(&denominator);
    if rest.is_one() {
        let k = twos.max(fives);
        let multiplier = pow_u(2, k - twos) * pow_u(5, k - fives);
        let digits = BigInt::from_biguint(sign, numerator * multiplier);
        return Ok(BigDecimal::new(digits, base_scale + k as i64).normalized());
    }
    let extra = SIGNIFICANT_DIGITS + 2 + count_digits(&denominator);
    let (quotient, _remainder) = (numerator * pow_u(10, extra)).div_rem(&denominator);
    Ok(round_with_sticky(sign, quotient, base_scale + extra as i64))
}

/// √x, exact for perfect squares (√16 = 4, √2.25 = 1.5).
pub fn sqrt(x: &BigDecimal) -> Result<BigDecimal, MathError> {
    if x.sign() == Sign::Minus {
        return Err(MathError::NegativeSqrt(super::format(x)));
    }
    if x.is_zero() {
        return Ok(BigDecimal::zero());
    }
    let (int, mut scale) = x.normalized().into_bigint_and_scale();
    let mut mantissa = int.magnitude().clone();
    if scale.rem_euclid(2) == 1 {
        mantissa *= 10u32;
        scale += 1;
    }
    // x = mantissa * 10^-scale with scale even, so √x = √mantissa * 10^-(scale/2).
    let root = mantissa.sqrt();
    if &root * &root == mantissa {
        return Ok(BigDecimal::new(BigInt::from_biguint(Sign::Plus, root), scale / 2).normalized());
    }
    let extra = SIGNIFICANT_DIGITS + 2;
    let root = (mantissa * pow_u(10, 2 * extra)).sqrt();
    Ok(round_with_sticky(
        Sign::Plus,
        root,
        scale / 2 + extra as i64,
    ))
}

/// Most an n-th root's degree may be.
pub const MAX_ROOT_DEGREE: u32 = 1000;

/// The `n`-th root of `x` (n ≥ 1), exact when `x` is a perfect n-th power (∛343 = 7,
/// ∜0.0016 = 0.2), else 28 significant digits. A negative `x` has a real root only for
/// an odd `n`.
pub fn nth_root(x: &BigDecimal, n: u32) -> Result<BigDecimal, MathError> {
    if n == 0 || n > MAX_ROOT_DEGREE {
        return Err(MathError::RootDegree(n.to_string()));
    }
    if x.sign() == Sign::Minus && n.is_multiple_of(2) {
        return Err(MathError::EvenRootOfNegative(super::format(x)));
    }
    if x.is_zero() {
        return Ok(BigDecimal::zero());
    }
    let sign = x.sign();
    let (int, scale) = x.normalized().into_bigint_and_scale();
    let mut mantissa = int.magnitude().clone();
    // x = mantissa * 10^-scale with scale a multiple of n, so the root is
    // root(mantissa) * 10^-(scale/n).
    let step = i64::from(n);
    let pad = (step - scale.rem_euclid(step)) % step;
    mantissa *= pow_u(10, pad.unsigned_abs());
    let scale = scale + pad;
    let root = mantissa.nth_root(n);
    if root.pow(n) == mantissa {
        return Ok(BigDecimal::new(BigInt::from_biguint(sign, root), scale / step).normalized());
    }
    let extra = SIGNIFICANT_DIGITS + 2;
    let root = (mantissa * pow_u(10, u64::from(n) * extra)).nth_root(n);
    Ok(round_with_sticky(sign, root, scale / step + extra as i64))
}

/// Rounds `truncated * 10^-scale` (whose true value lies strictly above it, by
/// less than one unit) to SIGNIFICANT_DIGITS digits. A sticky digit 1 makes a
/// truncated "…5000" round up, as the exact value is above the half.
fn round_with_sticky(sign: Sign, truncated: BigUint, scale: i64) -> BigDecimal {
    let sticky = truncated * 10u32 + 1u32;
    let value = BigDecimal::new(BigInt::from_biguint(sign, sticky), scale + 1);
    let precision = NonZeroU64::new(SIGNIFICANT_DIGITS).unwrap_or(NonZeroU64::MIN);
    value
        .with_precision_round(precision, RoundingMode::HalfEven)
        .normalized()
}

fn strip_twos_and_fives(n: &BigUint) -> (BigUint, u64, u64) {
    let twos = n.trailing_zeros().unwrap_or(0);
    let mut rest = n >> twos;
    let five = BigUint::from(5u32);
    let mut fives = 0;
    loop {
        let (quotient, remainder) = rest.div_rem(&five);
        if !remainder.is_zero() || rest.is_zero() {
            break;
        }
        rest = quotient;
        fives += 1;
    }
    (rest, twos, fives)
}

fn pow_u(base: u32, exponent: u64) -> BigUint {
    let exponent = u32::try_from(exponent).unwrap_or(u32::MAX);
    BigUint::from(base).pow(exponent)
}

fn count_digits(n: &BigUint) -> u64 {
    n.to_str_radix(10).len() as u64
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;
    use crate::decimal::format;

    fn dec(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).expect("test decimal")
    }

    fn div(a: &str, b: &str) -> String {
        format(&divide(&dec(a), &dec(b)).expect("division"))
    }

    #[test]
    fn terminating_quotients_are_exact() {
        assert_eq!(div("10", "4"), "2.5");
        assert_eq!(div("1", "8"), "0.125");
        assert_eq!(div("-3", "0.02"), "-150");
        assert_eq!(
            div("99999999999999999999999999999999", "1"),
            "99999999999999999999999999999999"
        );
        assert_eq!(div("1", "1024"), "0.0009765625");
    }

    #[test]
    fn repeating_quotients_keep_28_significant_digits() {
        assert_eq!(div("1", "3"), "0.3333333333333333333333333333");
        assert_eq!(div("2", "3"), "0.6666666666666666666666666667");
        assert_eq!(div("-1", "7"), "-0.1428571428571428571428571429");
        assert_eq!(div("100", "3"), "33.33333333333333333333333333");
    }

    #[test]
    fn division_by_zero_is_an_error() {
        assert_eq!(
            divide(&dec("1"), &dec("0.000")),
            Err(MathError::DivisionByZero)
        );
    }

    #[test]
    fn sqrt_is_exact_for_perfect_squares() {
        assert_eq!(format(&sqrt(&dec("16")).expect("sqrt")), "4");
        assert_eq!(format(&sqrt(&dec("2.25")).expect("sqrt")), "1.5");
        assert_eq!(format(&sqrt(&dec("0.0001")).expect("sqrt")), "0.01");
        assert_eq!(format(&sqrt(&dec("1e10")).expect("sqrt")), "100000");
    }

    #[test]
    fn sqrt_of_non_squares_has_28_significant_digits() {
        assert_eq!(
            format(&sqrt(&dec("2")).expect("sqrt")),
            "1.414213562373095048801688724"
        );
        assert_eq!(
            format(&sqrt(&dec("0.2")).expect("sqrt")),
            "0.4472135954999579392818347337"
        );
    }

    #[test]
    fn sqrt_of_negative_is_an_error() {
        assert_eq!(sqrt(&dec("-4")), Err(MathError::NegativeSqrt("-4".into())));
    }
}
