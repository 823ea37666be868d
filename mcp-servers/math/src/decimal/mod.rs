//! Exact decimal helpers: reading operands, limits, formatting, and the
//! operations `bigdecimal` does not do exactly (division, square and n-th roots).

mod exact;
mod operand;

pub use exact::{MAX_ROOT_DEGREE, divide, nth_root, sqrt};
pub use operand::{format, operand, plain_digits};

/// Significant digits kept when a result does not terminate (1/3, √2).
pub const SIGNIFICANT_DIGITS: u64 = 28;

/// Most digits an operand may have, counting integer and fraction digits of its
/// plain notation (so "1e5000" counts 5001).
pub const MAX_OPERAND_DIGITS: u64 = 1000;

/// Most digits a result may have (power checks this before computing).
pub const MAX_RESULT_DIGITS: u64 = 10_000;

/// Largest exponent magnitude `power` accepts.
pub const MAX_EXPONENT: i64 = 10_000;
