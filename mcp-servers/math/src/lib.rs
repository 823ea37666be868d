//! Chorus math MCP server: exact decimal arithmetic tools.
//!
//! Every answer is an exact decimal string computed with arbitrary-precision
//! decimals (never `f64`). Results that do not terminate (1/3, √2) are rounded to
//! [`decimal::SIGNIFICANT_DIGITS`] significant digits, half to even. Operand and
//! result sizes are bounded ([`decimal::MAX_OPERAND_DIGITS`],
//! [`decimal::MAX_RESULT_DIGITS`]) so no call can exhaust memory.
//!
//! One file per tool under [`tools`]; [`MathServer`] is the rmcp handler that
//! lists and dispatches them. Serving lives in `chorus-mcp-common`.

pub mod decimal;
pub mod error;
pub mod server;
pub mod tools;

pub use error::MathError;
pub use server::MathServer;

/// Default HTTP port of the math server.
pub const DEFAULT_PORT: u16 = 7301;

/// Server name reported in `initialize` and `/healthz`.
pub const SERVER_NAME: &str = "chorus-mcp-math";
