//! One step's result as a sentence in the user's language — Chorus's own wording for
//! every tool it plans with ("2026-12-25 is a Friday.", "25/12/2026 là Thứ Sáu."), and
//! what the step was asked when it has no result ("the weekday of 2026-12-25"). Chorus's
//! wording is for the tools of its own pools (math, date) only: a tool of another pool
//! may share a name (a third-party time server's `convert_time` takes other arguments
//! than the date pool's), so its answer is written `tool: answer`, on one line (see
//! [`other_answer`]), and what it was asked `tool (name=value, …)`. Every value comes
//! from the step's arguments and outcome as received.

mod answer;
mod other;
mod subject;

use chorus_bus::{Language, StepReport};

use crate::args::value_text;
use crate::dates::DATE_POOL;
use crate::expr::MATH_POOL;
use crate::formula::is_formula;
pub use answer::{answer, not_answered};
pub use other::other_answer;
pub use subject::subject;

/// Whether `step` ran on one of Chorus's own pools (math, date), whose tools it words.
fn own_pool(step: &StepReport) -> bool {
    step.pool == MATH_POOL || step.pool == DATE_POOL
}

/// Whether `step` is written by Chorus's own formula wording (a math tool).
fn is_math_formula(step: &StepReport) -> bool {
    step.pool == MATH_POOL && is_formula(&step.tool)
}

/// The tool's name when Chorus has its own wording for it (a tool of the date pool),
/// else `""`, which no wording matches.
fn date_tool(step: &StepReport) -> &str {
    if step.pool == DATE_POOL {
        &step.tool
    } else {
        ""
    }
}

/// A step's argument as text, `""` when absent.
fn arg(step: &StepReport, name: &str) -> String {
    step.arguments.get(name).map(value_text).unwrap_or_default()
}

/// `text` with "(your last answer)" after it when argument `name` of `step` came from
/// the conversation.
fn noted(step: &StepReport, name: &str, text: String, language: Language) -> String {
    if step.recalled.iter().any(|r| r == name) {
        format!("{text} {}", crate::formula::recalled_note(language))
    } else {
        text
    }
}

/// Capitalises the first letter (`next Monday` → `Next Monday`).
fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
