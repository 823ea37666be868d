//! The amount of a split never said (`split the bill between us`, `how much each if we
//! split the rent 3 ways`): asked, with the count when that is missing too.

use chorus_bus::Language;

use super::{Expect, Fill, Question};
use crate::lexer::{Token, lex};

/// Words that split an amount among people.
const SPLITS: &[&str] = &["split", "share", "chia", "halve"];

/// Whether `query` splits something and says at most one number (a count) and no
/// percentage: the amount split may be asked even when nothing else was read.
pub fn splits_without_amount(query: &str) -> bool {
    let toks = lex(query);
    let fold = crate::normalise::fold::fold;
    let split = toks
        .iter()
        .filter_map(Token::word)
        .any(|w| SPLITS.iter().any(|c| fold(c) == fold(w)));
    let numbers = toks.iter().filter(|t| t.number().is_some()).count();
    split && numbers <= 1 && !toks.iter().any(|t| t.is_sym('%'))
}

/// The question for the amount a split never said (`split the bill between us`, `how
/// much each if we split the rent 3 ways`), when saying one would make it plannable:
/// the answer, put after the request as written, may say the count too (`186.40, 4 of
/// us`) when the request has none. `plans` tells whether a text plans whole;
/// `after_answer`, whether the conversation has an answer a split could take.
pub fn missing_amount(
    query: &str,
    language: Language,
    after_answer: bool,
    plans: impl Fn(&str) -> bool,
) -> Option<Question> {
    if !splits_without_amount(query) {
        return None;
    }
    let numbers = lex(query).iter().filter(|t| t.number().is_some()).count();
    let vi = language.is_vi();
    // (After an answer, a split that says its count, `chia đôi đi`, splits that answer:
    // only a split missing its count too is asked about.)
    let counted = plans(&format!("{} 100", query.trim_end()));
    if after_answer && counted {
        return None;
    }
    let trial = match (numbers, vi) {
        (0, false) => " 100, 2 of us",
        (0, true) => " 100k, 2 người",
        (_, _) => " 100",
    };
    plans(&format!("{}{trial}", query.trim_end())).then(|| Question {
        text: match (numbers, vi) {
            (0, false) => "How much is the amount to split, and among how many people? (e.g. \"186.40, 4 of us\")".to_owned(),
            (0, true) => "Số tiền cần chia là bao nhiêu, chia cho mấy người? (ví dụ \"500k, 4 người\")".to_owned(),
            (_, false) => "How much is the amount to split?".to_owned(),
            (_, true) => "Số tiền cần chia là bao nhiêu?".to_owned(),
        },
        options: Vec::new(),
        part: query.trim().to_owned(),
        fill: Fill::Appended(" {}".to_owned()),
        expect: Expect::Text,
    })
}
