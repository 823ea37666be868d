//! What a request was understood as, before any message is worded, and the outcome
//! worded from it.

use chorus_bus::{Language, Plan};

use super::Planning;
use crate::{Missing, PartError, PlanOutcome, builder, compound, lexer, messages};

/// What a request was understood as, before any message is worded: a plan (with the
/// parts not understood), or why there is none.
pub(super) enum Understanding {
    /// A plan, and the parts that were not understood.
    Plan(Plan, Vec<PartError>),
    /// Only greetings or punctuation: nothing was asked.
    Nothing,
    /// No part could be read.
    Unread(PartError),
    /// More steps than the limit.
    TooManySteps(usize),
    /// A step needs a pool or tool that is not live (in the step's part).
    Missing(Missing, String),
    /// The plan is not a valid DAG.
    Invalid(String),
}

impl Understanding {
    /// How many parts were not understood (`usize::MAX` when nothing can be planned): a
    /// reading whose only obstacle is a pool with no live agent was understood (the
    /// Planner waits for the pool), so a question is still asked while a pool is down.
    pub(super) fn misses(&self) -> usize {
        match self {
            Understanding::Plan(_, failed) => failed.len(),
            Understanding::Missing(Missing::Pool(_), _) => 0,
            _ => usize::MAX,
        }
    }

    /// The parts not understood, as the user wrote them.
    pub(super) fn failed(&self) -> Vec<String> {
        match self {
            Understanding::Plan(_, failed) => failed.iter().filter_map(PartError::text).collect(),
            Understanding::Unread(e) => e.text().into_iter().collect(),
            _ => Vec::new(),
        }
    }
}

impl Planning<'_> {
    /// Reads `query` part by part and plans what was understood.
    pub(super) fn understand(&self, query: &str) -> Understanding {
        self.understand_lexed(query, &lexer::lex(query))
    }

    /// [`Planning::understand`] of `query` lexed as `toks`.
    pub(super) fn understand_lexed(&self, query: &str, toks: &[lexer::Token]) -> Understanding {
        let parsed = match compound::parse_request(toks, query) {
            Ok(parsed) if parsed.parts.is_empty() => return Understanding::Nothing,
            Ok(parsed) => parsed,
            // Words of context before a question (`em gái ở Frankfurt giờ này mấy giờ
            // rồi`): the question after them.
            Err(e) => match compound::after_context(toks, query) {
                Some(parsed) => parsed,
                None => return Understanding::Unread(e),
            },
        };
        self.lower(parsed)
    }

    /// The plan of the parts `parsed` read, with the parts it could not.
    pub(super) fn lower(&self, parsed: compound::Parsed) -> Understanding {
        let steps: usize = parsed.parts.iter().map(|p| p.query.step_count()).sum();
        if steps > self.limits.max_steps {
            return Understanding::TooManySteps(steps);
        }
        let mut builder = builder::PlanBuilder::new();
        for part in &parsed.parts {
            part.query.lower_into(&mut builder, &part.text);
        }
        let plan = builder.finish();
        for step in &plan.steps {
            if let Some(m) = self.tools.missing(&step.pool, &step.tool) {
                return Understanding::Missing(m, step.part.clone());
            }
        }
        match plan.validate(self.limits.max_steps) {
            Ok(()) => Understanding::Plan(plan, parsed.failed),
            Err(e) => Understanding::Invalid(e.to_string()),
        }
    }

    /// The outcome of an understanding, worded in `language`.
    pub(super) fn outcome(&self, understood: Understanding, language: Language) -> PlanOutcome {
        match understood {
            Understanding::Plan(plan, failed) => {
                let unplanned = (!failed.is_empty()).then(|| {
                    let reasons: Vec<String> = failed
                        .iter()
                        .map(|e| messages::part_error(e, language))
                        .collect();
                    messages::with_capabilities(&reasons.join(" "), language, self.tools)
                });
                PlanOutcome::Planned {
                    plan,
                    language,
                    unplanned,
                }
            }
            // Nothing asked (a greeting, a lone `?`): not an answer, so not completed.
            Understanding::Nothing => self.refuse(messages::nothing_asked(language), language),
            Understanding::Unread(e) => self.refuse(messages::part_error(&e, language), language),
            Understanding::TooManySteps(steps) => self.refuse(
                messages::too_many_steps(steps, self.limits.max_steps, language),
                language,
            ),
            Understanding::Missing(m, part) => {
                let pool_down = match &m {
                    Missing::Pool(pool) => Some(pool.clone()),
                    Missing::Tool { .. } => None,
                };
                let reason = messages::missing(&m, &part, language);
                PlanOutcome::Unplannable {
                    message: messages::with_capabilities(&reason, language, self.tools),
                    language,
                    pool_down,
                }
            }
            Understanding::Invalid(e) => self.refuse(e, language),
        }
    }
}
