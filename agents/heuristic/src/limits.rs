//! The limits the planner plans within: the longest query, the most steps in a plan.

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
