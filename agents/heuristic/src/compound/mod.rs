//! Splitting a request into parts and reading each part.
//!
//! Strong separators (`;`, `?`, `!`, `,`, a sentence `.`, outside parentheses) always
//! split. Weak ones (`and`, `và`, `then`, `also`, `rồi`) split only where every piece
//! is a request on its own: `2+4 and weekday of 2026-12-25` splits, while
//! `add 3 and 5` and `days between 2026-01-01 and 2026-03-01` stay whole because
//! `add 3` and `days between 2026-01-01` mean nothing alone. When several splits work,
//! the one with the earliest first cut wins, and a split wins over the whole.

use crate::builder::PlanBuilder;
use crate::dates::DateQuery;
use crate::expr::Expr;

mod context;
mod earlier;
mod parts;
mod request;
mod separators;
mod whole;

pub use context::after_context;
pub use parts::{parse_part, quote};
pub use request::{frames_reading_each, parse_request};
pub use separators::MAX_WEAK_SEPARATORS;
pub use whole::{frames_after, frames_reading};

/// One understood part of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartQuery {
    /// An arithmetic expression.
    Math(Expr),
    /// A date question.
    Date(DateQuery),
}

impl PartQuery {
    /// How many steps the part needs.
    pub fn step_count(&self) -> usize {
        match self {
            PartQuery::Math(e) => e.step_count(),
            PartQuery::Date(d) => d.step_count(),
        }
    }

    /// Adds the part's steps to `plan`, each labelled with `part`.
    pub fn lower_into(&self, plan: &mut PlanBuilder, part: &str) {
        match self {
            PartQuery::Math(e) => {
                e.lower_into(plan, part);
            }
            PartQuery::Date(d) => d.lower_into(plan, part),
        }
    }
}

/// A part of the request: its text as the user wrote it, and what it asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedPart {
    /// The user's words for this part.
    pub text: String,
    /// What it asks.
    pub query: PartQuery,
}

/// Why a request (or one of its parts) could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartError {
    /// The words do not form a request the planner knows.
    NotUnderstood(String),
    /// A date-shaped text is not a real date.
    InvalidDate(String),
    /// The part is a bare number: there is nothing to compute.
    NothingToCompute(String),
    /// Too many `and`s in one sentence to consider.
    TooManyParts,
}

/// What reading a request gave: the parts understood, in order, and why each stretch
/// that was not understood could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    /// The understood parts.
    pub parts: Vec<ParsedPart>,
    /// The parts that could not be read (a compound request is answered part by part:
    /// the others still run).
    pub failed: Vec<PartError>,
}

impl Parsed {
    /// One part read over the whole request, nothing failed.
    pub fn one(text: String, query: PartQuery) -> Self {
        Parsed {
            parts: vec![ParsedPart { text, query }],
            failed: Vec::new(),
        }
    }

    /// The one calculation read, when the reading is exactly one part, a calculation,
    /// and nothing failed.
    pub fn only_math(&self) -> Option<&Expr> {
        match (self.parts.as_slice(), self.failed.is_empty()) {
            (
                [
                    ParsedPart {
                        query: PartQuery::Math(e),
                        ..
                    },
                ],
                true,
            ) => Some(e),
            _ => None,
        }
    }
}

impl PartError {
    /// The part's text as the user wrote it, when the error names one.
    pub fn text(&self) -> Option<String> {
        match self {
            PartError::NotUnderstood(p)
            | PartError::InvalidDate(p)
            | PartError::NothingToCompute(p) => Some(p.clone()),
            PartError::TooManyParts => None,
        }
    }
}
