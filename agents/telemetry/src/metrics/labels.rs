//! Bounded label values. Roles, topics and statuses are bounded by the topology; tool
//! names come from plans (a model may write any), so each kind of free label keeps at
//! most [`MAX_VALUES`] distinct values and counts any later one as `other`.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

/// How many distinct values one free label (a tool name) may take.
pub const MAX_VALUES: usize = 128;

/// The value used for labels past the cap.
pub const OTHER: &str = "other";

/// The longest label value kept as is; longer ones count as `other`.
pub const MAX_LEN: usize = 64;

/// A set of values a label has taken, capped at [`MAX_VALUES`].
#[derive(Debug, Default)]
pub struct Capped {
    seen: Mutex<HashSet<String>>,
}

impl Capped {
    /// An empty set.
    pub fn new() -> Self {
        Capped::default()
    }

    /// `value` itself when it was seen before or there is room for it; else `other`.
    pub fn bound<'a>(&self, value: &'a str) -> &'a str {
        if value.len() > MAX_LEN || value.is_empty() {
            return OTHER;
        }
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.contains(value) {
            return value;
        }
        if seen.len() >= MAX_VALUES {
            return OTHER;
        }
        seen.insert(value.to_owned());
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_past_the_cap_or_too_long_count_as_other() {
        let capped = Capped::new();
        for i in 0..MAX_VALUES {
            assert_eq!(capped.bound(&format!("tool{i}")), format!("tool{i}"));
        }
        assert_eq!(capped.bound("tool0"), "tool0");
        assert_eq!(capped.bound("one_more"), OTHER);
        assert_eq!(capped.bound(&"x".repeat(MAX_LEN + 1)), OTHER);
    }
}
