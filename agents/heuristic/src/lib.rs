//! Chorus heuristic planner and report templates: turns a query into a plan of steps,
//! and step results into a report text, in English and Vietnamese.
//!
//! Pure functions, no I/O: the Planner agent calls [`plan`], the Synthesizer calls
//! [`render_report`]. The planner never guesses: what it cannot read fully becomes
//! [`PlanOutcome::Unplannable`] with a message saying what Chorus can do, built from the
//! tools that are actually available. Numbers in a report come only from step outcomes.

pub mod args;
pub mod arith;
pub mod builder;
pub mod capabilities;
pub mod compound;
pub mod dates;
pub mod expr;
pub mod filler;
pub mod formula;
pub mod help;
pub mod language;
pub mod lexer;
pub mod messages;
pub mod numbers;
pub mod places;
pub mod scope;
pub mod sentence;
pub mod template;
pub mod wording;

use chorus_bus::{Plan, TaskContext};

pub use capabilities::{Capabilities, Missing};
pub use language::detect_language;

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 1000;
/// Most steps in one plan.
pub const MAX_STEPS: usize = 32;

/// Limits on what the planner accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest query, in characters.
    pub max_query_chars: usize,
    /// Most steps in one plan.
    pub max_steps: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_query_chars: MAX_QUERY_CHARS,
            max_steps: MAX_STEPS,
        }
    }
}

/// What the planner made of a query.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanOutcome {
    /// A plan covering every part of the query.
    Planned {
        /// The steps.
        plan: Plan,
        /// The language to answer in (`en`, `vi`).
        language: String,
    },
    /// The user asked what Chorus can do (or only said hello).
    Capabilities {
        /// The language to answer in.
        language: String,
        /// What Chorus can do with the available tools.
        message: String,
    },
    /// The query, or a part of it, could not be planned (not understood, over a limit,
    /// or needing a pool or tool that is unavailable).
    Unplannable {
        /// The language to answer in.
        language: String,
        /// What could not be done and why, then what Chorus can do.
        message: String,
        /// When the only obstacle is a pool with no live agent: that pool (the Planner
        /// waits for it a little before answering this).
        pool_down: Option<String>,
    },
}

impl PlanOutcome {
    /// The language of the answer.
    pub fn language(&self) -> &str {
        match self {
            PlanOutcome::Planned { language, .. }
            | PlanOutcome::Capabilities { language, .. }
            | PlanOutcome::Unplannable { language, .. } => language,
        }
    }
}

/// Plans `query` with the tools in `tools`, within the default [`Limits`].
pub fn plan(query: &str, ctx: &TaskContext, tools: &Capabilities) -> PlanOutcome {
    plan_with_limits(query, ctx, tools, &Limits::default())
}

/// Plans `query` with the tools in `tools`, within `limits`.
pub fn plan_with_limits(
    query: &str,
    ctx: &TaskContext,
    tools: &Capabilities,
    limits: &Limits,
) -> PlanOutcome {
    let language = detect_language(query, ctx.language.as_deref());
    let refuse = |reason: String| PlanOutcome::Unplannable {
        message: messages::with_capabilities(&reason, &language, tools),
        language: language.clone(),
        pool_down: None,
    };
    let chars = query.chars().count();
    if chars > limits.max_query_chars {
        return refuse(messages::too_long(chars, limits.max_query_chars, &language));
    }
    if query.trim().is_empty() {
        return refuse(messages::empty(&language));
    }
    let toks = lexer::lex(query);
    if help::asks_for_help(&toks) {
        let message = messages::help(&language, tools);
        return PlanOutcome::Capabilities { language, message };
    }
    let parts = match compound::parse_request(&toks, query) {
        Ok(parts) if parts.is_empty() => {
            let message = messages::help(&language, tools);
            return PlanOutcome::Capabilities { language, message };
        }
        Ok(parts) => parts,
        Err(e) => return refuse(messages::part_error(&e, &language)),
    };
    let steps: usize = parts.iter().map(|p| p.query.step_count()).sum();
    if steps > limits.max_steps {
        return refuse(messages::too_many_steps(steps, limits.max_steps, &language));
    }
    let mut builder = builder::PlanBuilder::new();
    for part in &parts {
        part.query.lower_into(&mut builder, &part.text);
    }
    let plan = builder.finish();
    for step in &plan.steps {
        if let Some(m) = tools.missing(&step.pool, &step.tool) {
            let pool_down = match &m {
                Missing::Pool(pool) => Some(pool.clone()),
                Missing::Tool { .. } => None,
            };
            let reason = messages::missing(&m, &step.part, &language);
            return PlanOutcome::Unplannable {
                message: messages::with_capabilities(&reason, &language, tools),
                language,
                pool_down,
            };
        }
    }
    match plan.validate(limits.max_steps) {
        Ok(()) => PlanOutcome::Planned { plan, language },
        Err(e) => refuse(e.to_string()),
    }
}

pub use args::render_arguments;
pub use template::{attempts_line, render_report, report_status};
