//! Reading operands from JSON and writing results as plain decimal strings.

use std::str::FromStr;

use bigdecimal::BigDecimal;
use chorus_mcp_common::args::{Args, describe};
use serde_json::Value;

use super::MAX_OPERAND_DIGITS;
use crate::MathError;

/// Reads the decimal operand `name`: a JSON number or a decimal string
/// ("0.1", "-3", "1e3"), at most [`MAX_OPERAND_DIGITS`] digits.
pub fn operand(args: &Args<'_>, name: &str) -> Result<BigDecimal, MathError> {
    let value = args.required(name)?;
    let text = match value {
        Value::Number(number) => number.to_string(),
        Value::String(text) => text.trim().to_owned(),
        other => return Err(not_a_number(name, other)),
    };
    // A plain-notation operand of MAX digits plus sign, point and exponent fits easily.
    if text.len() as u64 > MAX_OPERAND_DIGITS + 32 {
        return Err(MathError::TooManyDigits {
            name: name.to_owned(),
        });
    }
    if !looks_decimal(&text) {
        return Err(not_a_number(name, value));
    }
    let parsed = BigDecimal::from_str(&text).map_err(|_| not_a_number(name, value))?;
    if plain_digits(&parsed) > MAX_OPERAND_DIGITS {
        return Err(MathError::TooManyDigits {
            name: name.to_owned(),
        });
    }
    Ok(parsed)
}

fn not_a_number(name: &str, value: &Value) -> MathError {
    MathError::NotANumber {
        name: name.to_owned(),
        got: describe(value),
    }
}

/// `[+-]digits[.digits][e[+-]digits]`, with digits on at least one side of the point.
fn looks_decimal(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (unsigned, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = all_digits(int) && all_digits(frac) && !(int.is_empty() && frac.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        !digits.is_empty() && digits.len() <= 9 && all_digits(digits)
    });
    mantissa_ok && exponent_ok
}

/// Digits in the plain notation of `value` (integer part plus fraction part,
/// leading zeros of a pure fraction not counted beyond the point).
pub fn plain_digits(value: &BigDecimal) -> u64 {
    let normal = value.normalized();
    let digits = i128::from(normal.digits().min(i64::MAX as u64) as i64);
    let (_, scale) = normal.as_bigint_and_scale();
    let scale = i128::from(scale);
    let count = if scale <= 0 {
        digits - scale
    } else {
        digits.max(scale)
    };
    u64::try_from(count).unwrap_or(u64::MAX)
}

/// The canonical text of a result: plain notation, no trailing zeros, no "-0".
pub fn format(value: &BigDecimal) -> String {
    value.normalized().to_plain_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).expect("test decimal")
    }

    #[test]
    fn format_strips_trailing_zeros_and_keeps_integers_plain() {
        assert_eq!(format(&dec("6.00")), "6");
        assert_eq!(format(&dec("0.30")), "0.3");
        assert_eq!(format(&dec("1e3")), "1000");
        assert_eq!(format(&dec("-0.0")), "0");
        assert_eq!(format(&dec("-2.50")), "-2.5");
    }

    #[test]
    fn plain_digits_counts_exponent_padding() {
        assert_eq!(plain_digits(&dec("1e5")), 6);
        assert_eq!(plain_digits(&dec("0.001")), 3);
        assert_eq!(plain_digits(&dec("12.5")), 3);
        assert_eq!(plain_digits(&dec("0")), 1);
    }

    #[test]
    fn looks_decimal_rejects_words_and_specials() {
        for good in ["1", "-3", "+2.5", ".5", "5.", "1e3", "2E-4"] {
            assert!(looks_decimal(good), "{good}");
        }
        for bad in [
            "",
            "abc",
            "NaN",
            "inf",
            "1_000",
            "1,5",
            "--1",
            ".",
            "1e",
            "1e9999999999",
            " ",
        ] {
            assert!(!looks_decimal(bad), "{bad}");
        }
    }
}
