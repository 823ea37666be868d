//! Questions instead of guesses: when a request is missing something or reads two
//! ways, the planner asks the user rather than refusing or picking one reading. Each
//! question says how its answer goes back into the request ([`Fill`]), so the Planner
//! resumes with the original request plus the answer ([`resume`]) and plans again.
//!
//! Asked for: a missing operand (`divide 10 by`), a numeric date that reads two ways
//! (`03/04/2026` in English with no `day_first`), a reference to an earlier answer when
//! the conversation has none (`multiply that by 3`), and a weekday name that could mean
//! two dates (`what date is friday`). Detection is by trial: a question is asked only
//! when filling the gap with a placeholder makes the request plannable, so nothing that
//! would still fail after the answer is ever asked.

use chorus_bus::AnswerOption;
use serde::{Deserialize, Serialize};

mod age;
mod answer;
mod dates;
mod missing;
mod places;
mod priced;
mod split;

pub use age::missing_birth;
pub use answer::resume;
pub use dates::{
    day_first, two_way_dates, two_way_day_months, which_date, which_day_month, which_weekday,
};
pub(crate) use missing::{days_to_own_event, everyday_money};
pub use missing::{exchange_rate, missing_count, missing_date, missing_operand, which_value};
pub use places::{where_there, which_city};
pub use priced::missing_price_or_count;
pub use split::{missing_amount, splits_without_amount};

/// How an answer goes back into the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fill {
    /// The answer (a number) goes right after this text: a missing operand.
    After(String),
    /// The answer (or the chosen option's value) replaces this text.
    Replace(String),
    /// The answer goes after the whole request, with the question it answers (a
    /// model's question, which the model reads again when it plans).
    Context(String),
    /// This text goes after the whole request, its `{}` replaced by the answer: a count
    /// the request never said (`rent is 4100 split it evenly` + ` between {} people`).
    Appended(String),
}

/// What kind of answer settles a free (option-less) question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// One of the question's options.
    Option,
    /// A number.
    Number,
    /// A number or a date.
    Value,
    /// Any text.
    Text,
}

/// A question for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// The question, in the user's language.
    pub text: String,
    /// The answers to choose from, when the set is finite.
    pub options: Vec<AnswerOption>,
    /// The part of the request it is about, as the user wrote it.
    pub part: String,
    /// How the answer goes back into the request.
    pub fill: Fill,
    /// What settles it.
    pub expect: Expect,
}

/// An answer that does not settle the question (not one of the options, not a
/// number): the Planner asks again, up to `agents.max_questions`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the answer {answer:?} does not settle the question")]
pub struct Unsettled {
    /// The answer as given.
    pub answer: String,
}

/// Longest answer accepted, in characters.
pub const MAX_ANSWER_CHARS: usize = 1000;

/// A question a model asked about `query` (its text and options in the user's
/// language): any answer settles it, and goes after the request for the model to read.
pub fn from_model(query: &str, text: &str, options: &[String]) -> Question {
    Question {
        text: text.to_owned(),
        options: options
            .iter()
            .map(|o| AnswerOption {
                label: o.clone(),
                value: o.clone(),
            })
            .collect(),
        part: query.trim().to_owned(),
        fill: Fill::Context(text.to_owned()),
        expect: Expect::Text,
    }
}

#[cfg(test)]
mod tests;
