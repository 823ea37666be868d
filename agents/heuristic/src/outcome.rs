//! What the planner made of a query: a plan, what Chorus can do, a refusal or a
//! question, each with the language to answer in.

use chorus_bus::{Language, Plan};

use crate::question::Question;

/// What the planner made of a query.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanOutcome {
    /// A plan covering every part of the query, or (with `unplanned`) the parts of a
    /// compound request that were understood.
    Planned {
        /// The steps.
        plan: Plan,
        /// The language to answer in.
        language: Language,
        /// The parts that were not understood and why, then what Chorus can do; `None`
        /// when every part was.
        unplanned: Option<String>,
    },
    /// The user asked what Chorus can do ("what can you do", "help").
    Capabilities {
        /// The language to answer in.
        language: Language,
        /// What Chorus can do with the available tools.
        message: String,
    },
    /// The query, or a part of it, could not be planned (not understood, over a limit,
    /// or needing a pool or tool that is unavailable).
    Unplannable {
        /// The language to answer in.
        language: Language,
        /// What could not be done and why, then what Chorus can do.
        message: String,
        /// When the only obstacle is a pool with no live agent: that pool (the Planner
        /// waits for it a little before answering this).
        pool_down: Option<String>,
    },
    /// Something is missing or reads two ways: ask the user (the Planner resumes with
    /// [`question::resume`](crate::question::resume) once the answer comes).
    Question {
        /// The language to ask in.
        language: Language,
        /// The question.
        question: Box<Question>,
    },
}

impl PlanOutcome {
    /// The language of the answer.
    pub fn language(&self) -> Language {
        match self {
            PlanOutcome::Planned { language, .. }
            | PlanOutcome::Capabilities { language, .. }
            | PlanOutcome::Unplannable { language, .. }
            | PlanOutcome::Question { language, .. } => *language,
        }
    }
}
