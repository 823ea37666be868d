//! `subtract_duration {…}` → `add_duration` with the amount negated.

use chorus_mcp_common::{ToolDef, ToolReply, args::Args};

use super::add_duration::{DurationUnit, add_duration, definition, run_signed};
use crate::{DateError, context::Clock, parse::When};

/// The tool definition.
pub fn def() -> ToolDef {
    definition(
        "subtract_duration",
        "Subtract an amount of days, weeks, months, years, hours or minutes from a date (default: today/now in the time zone); the same as add_duration with a negated amount. Example: subtract_duration(amount=1, unit=\"weeks\", date=\"2026-11-22\") = \"2026-11-15\".",
    )
}

/// Reads the arguments and subtracts.
pub fn run(args: &Args<'_>) -> Result<ToolReply, DateError> {
    run_signed(args, -1)
}

/// `start` moved back by `amount` `unit`s.
pub fn subtract_duration(
    start: &When,
    amount: i64,
    unit: DurationUnit,
    clock: &Clock,
) -> Result<When, DateError> {
    add_duration(
        start,
        amount.checked_neg().ok_or(DateError::OutOfRange)?,
        unit,
        clock,
    )
}
