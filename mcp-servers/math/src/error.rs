//! Math tool failures; each message is shown to the user as an MCP tool error.

use chorus_mcp_common::args::ArgError;

use crate::decimal::{MAX_EXPONENT, MAX_OPERAND_DIGITS, MAX_RESULT_DIGITS, MAX_ROOT_DEGREE};

/// Why a math tool could not answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MathError {
    /// A missing, unknown or wrongly typed argument.
    #[error(transparent)]
    Argument(#[from] ArgError),
    /// An operand is neither a JSON number nor a decimal string.
    #[error(
        "argument '{name}' must be a number or a decimal string such as \"0.1\" or \"-3\", got {got}"
    )]
    NotANumber {
        /// Argument name.
        name: String,
        /// What was received.
        got: String,
    },
    /// An operand has too many digits.
    #[error("argument '{name}' is too long: at most {MAX_OPERAND_DIGITS} digits are accepted")]
    TooManyDigits {
        /// Argument name.
        name: String,
    },
    /// Division (or a negative power) by zero.
    #[error("division by zero")]
    DivisionByZero,
    /// Modulo with a zero divisor.
    #[error("modulo by zero: the divisor 'b' must not be 0")]
    ModuloByZero,
    /// Square root of a negative number.
    #[error("cannot take the square root of a negative number ({0})")]
    NegativeSqrt(String),
    /// An even root of a negative number.
    #[error("cannot take an even root of a negative number ({0})")]
    EvenRootOfNegative(String),
    /// A root degree that is not a whole number between 1 and MAX_ROOT_DEGREE.
    #[error("the root's degree n must be a whole number between 1 and {MAX_ROOT_DEGREE}, got {0}")]
    RootDegree(String),
    /// A non-integer exponent.
    #[error("power supports whole-number exponents only (got {0}); use sqrt for square roots")]
    FractionalExponent(String),
    /// An exponent outside ±MAX_EXPONENT.
    #[error("exponent {0} is too large: it must be between -{MAX_EXPONENT} and {MAX_EXPONENT}")]
    ExponentTooLarge(String),
    /// A result that would exceed MAX_RESULT_DIGITS digits.
    #[error("the result would be too large (more than {MAX_RESULT_DIGITS} digits)")]
    ResultTooLarge,
    /// `places` outside the accepted range.
    #[error("places must be between -{MAX_OPERAND_DIGITS} and {MAX_OPERAND_DIGITS}, got {0}")]
    PlacesOutOfRange(i64),
    /// A rounding mode other than nearest, up or down.
    #[error("mode must be \"nearest\", \"up\" or \"down\", got \"{0}\"")]
    RoundingMode(String),
}
