//! Builds a plan step by step: unique ids (`s1`, `s2`, …) across every part of a
//! compound request, the part's text on each step, and literal or reference arguments.

use std::collections::BTreeMap;

use chorus_bus::{Arg, Plan, Step};
use serde_json::Value;

/// Accumulates the steps of one plan.
#[derive(Debug, Default)]
pub struct PlanBuilder {
    steps: Vec<Step>,
    /// The step the last [`PlanBuilder::push`] returned.
    last: Option<usize>,
}

impl PlanBuilder {
    /// An empty plan.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a step and returns a reference argument to its result.
    pub fn push(
        &mut self,
        part: &str,
        pool: &str,
        tool: &str,
        arguments: Vec<(&str, Arg)>,
        output: bool,
    ) -> Arg {
        let arguments: BTreeMap<String, Arg> = arguments
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        // The same call twice (`What's 18% of 250? Also 250 minus that?`, `3 weeks from
        // now — the date, and what day is that`) is made once and shared.
        if let Some(k) = self
            .steps
            .iter()
            .position(|s| s.pool == pool && s.tool == tool && s.arguments == arguments)
        {
            self.steps[k].output |= output;
            self.last = Some(k);
            return Arg::Ref {
                step: self.steps[k].id.clone(),
            };
        }
        let id = chorus_bus::StepId::from(format!("s{}", self.steps.len() + 1));
        self.last = Some(self.steps.len());
        self.steps.push(Step {
            id: id.clone(),
            pool: pool.to_owned(),
            tool: tool.to_owned(),
            arguments,
            part: part.to_owned(),
            output,
            recalled: Vec::new(),
        });
        Arg::Ref { step: id }
    }

    /// How many steps so far.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether no step was added.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Marks the last step as an answer shown to the user.
    pub fn mark_last_output(&mut self) {
        if let Some(s) = self.last.and_then(|k| self.steps.get_mut(k)) {
            s.output = true;
        }
    }

    /// The last step's result as an argument, no longer shown as an answer: what the
    /// next step turns into the answer (days into weeks).
    pub fn take_last_as_input(&mut self) -> Option<Arg> {
        let k = self.last?;
        let step = self.steps.get_mut(k)?;
        step.output = false;
        Some(Arg::Ref {
            step: step.id.clone(),
        })
    }

    /// The finished plan.
    pub fn finish(self) -> Plan {
        Plan { steps: self.steps }
    }
}

/// A literal string argument (numbers are decimal strings, dates ISO strings).
pub fn text(s: &str) -> Arg {
    Arg::Value(Value::String(s.to_owned()))
}

/// A literal integer argument.
pub fn int(n: i64) -> Arg {
    Arg::Value(Value::from(n))
}
