//! Chorus heuristic planner and report templates: turns a query into a plan of steps,
//! and step results into a report text, in English and Vietnamese.
//!
//! Pure functions, no I/O: the Planner agent calls [`plan`], the Synthesizer calls
//! [`render_report`]. The planner never guesses: what it cannot read fully becomes
//! [`PlanOutcome::Unplannable`] with a message saying what Chorus can do, built from the
//! tools that are actually available. Numbers in a report come only from step outcomes.

pub mod args;
pub mod arith;
pub mod averages;
pub mod builder;
pub mod capabilities;
pub mod change;
pub mod compound;
pub mod counted;
pub mod coverage;
pub mod dates;
pub mod dozens;
pub mod everyday;
pub mod exchange;
pub mod expr;
pub mod filler;
pub mod formula;
pub mod frames;
pub mod help;
pub mod language;
pub mod lexer;
mod limits;
pub mod messages;
pub mod normalise;
pub mod numbers;
mod outcome;
mod paid;
pub mod places;
mod planning;
pub mod proportion;
pub mod question;
pub mod rates;
pub mod ratio;
pub mod recall;
pub mod refusals;
pub mod remaining;
pub mod scaling;
pub mod scope;
pub mod sentence;
pub mod shares;
pub mod shifts;
pub mod template;
pub mod tolerant;
pub mod weights;
pub mod within;
pub mod wording;
pub mod workdays;

use chorus_bus::TaskContext;

pub use args::render_arguments;
pub use capabilities::{Capabilities, Missing};
pub use compound::PartError;
pub use language::detect as detect_language;
pub use limits::{Limits, MAX_QUERY_CHARS, MAX_STEPS};
pub use outcome::PlanOutcome;
pub use planning::{plan_in, plan_turn, plan_with_limits};
pub use question::{Question, resume};
pub use recall::Conversation;
pub use template::{attempts_line, render_report, report_status};

/// Plans `query` with the tools in `tools`, within the default [`Limits`], as a
/// one-shot request.
pub fn plan(query: &str, ctx: &TaskContext, tools: &Capabilities) -> PlanOutcome {
    plan_with_limits(query, ctx, tools, &Limits::default())
}
