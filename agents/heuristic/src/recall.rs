//! Follow-ups in a conversation: "now multiply that by 3", "add 10 days to that date",
//! "nhân kết quả đó với 3". A reference to an earlier answer is replaced by one of the
//! conversation's last answers — the first, latest first, with which the request plans —
//! and the plan's steps name the arguments that came from it, so the report can say
//! "18 = 6 (your last answer) × 3".

use crate::lexer::{Token, words_at};

/// What the planner knows of the conversation a request belongs to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conversation {
    /// Whether the request belongs to a session at all.
    pub session: bool,
    /// The output values of the session's last answered turns, oldest first (numbers
    /// as decimal strings, dates as ISO dates): a reference takes the latest that fits.
    pub answers: Vec<String>,
}

impl Conversation {
    /// No conversation: a one-shot request.
    pub fn none() -> Self {
        Self::default()
    }
}

/// Words that refer to an earlier answer, longest first.
const REFERENCES: &[&[&str]] = &[
    &["your", "last", "answer"],
    &["my", "last", "answer"],
    &["the", "last", "answer"],
    &["the", "previous", "result"],
    &["the", "previous", "answer"],
    &["that", "date"],
    &["that", "day"],
    &["that", "number"],
    &["that", "result"],
    &["that", "answer"],
    &["this", "result"],
    &["the", "result"],
    &["the", "answer"],
    &["kết", "quả", "đó"],
    &["kết", "quả", "này"],
    &["kết", "quả", "trên"],
    &["kết", "quả", "vừa", "rồi"],
    &["số", "đó"],
    &["số", "này"],
    &["ngày", "đó"],
    &["ngày", "này"],
    &["kết", "quả"],
    &["that"],
    &["it"],
    &["đó"],
    &["nó"],
];

/// Words before `đó` that make it part of a joiner (`sau đó`, "then"), not a reference
/// — unless a duration comes before them: `2 tuần sau đó` is two weeks after that date.
const NOT_BEFORE_DO: &[&str] = &["sau", "khi", "lúc", "từ"];

/// Units of a duration that make `sau đó` / `trước đó` "after / before that date".
const DURATION_UNITS: &[&str] = &["ngày", "tuần", "tháng", "năm", "giờ", "phút", "tiếng"];

/// A reference to an earlier answer in the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The words as written (`that`, `kết quả đó`).
    pub text: String,
    /// Byte span in the request.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
}

impl Reference {
    /// The request with the reference replaced by `value`.
    pub fn replaced_by(&self, src: &str, value: &str) -> String {
        format!("{}{value}{}", &src[..self.start], &src[self.end..])
    }
}

/// The first reference to an earlier answer in `toks` (lexed from `src`), if any.
pub fn find(toks: &[Token], src: &str) -> Option<Reference> {
    (0..toks.len()).find_map(|i| {
        let words = REFERENCES.iter().find(|r| words_at(toks, i, r))?;
        let word_at = |j: Option<usize>| j.and_then(|j| toks[j].word());
        let after_duration = word_at(i.checked_sub(2)).is_some_and(|u| DURATION_UNITS.contains(&u))
            && matches!(word_at(i.checked_sub(1)), Some("sau" | "trước"));
        if words == &["đó"]
            && word_at(i.checked_sub(1)).is_some_and(|w| NOT_BEFORE_DO.contains(&w))
            && !after_duration
        {
            return None;
        }
        let (start, end) = (toks[i].start, toks[i + words.len() - 1].end);
        Some(Reference {
            text: src[start..end].to_owned(),
            start,
            end,
        })
    })
}

/// Words that only open a follow-up: `and`, `then`, `what about`, `còn`, `rồi`.
const FOLLOW_UP_LEADS: &[&str] = &["and", "then", "now", "và", "còn", "rồi", "thế", "vậy"];

/// Readings of `query` as going on from one of the conversation's last numeric answers,
/// latest first: `then halve it` after 42 is read as `take 42, then halve it`, `còn nhân
/// 3 thì sao` after 6 as `take 6, then còn nhân 3 thì sao` (the sequence grammar decides
/// whether it continues). Each with the answer it takes.
pub fn continuations(query: &str, conversation: &Conversation) -> Vec<(String, String)> {
    let toks = crate::lexer::lex(query);
    let opens_with_lead = toks
        .first()
        .and_then(Token::word)
        .is_some_and(|w| FOLLOW_UP_LEADS.contains(&w));
    let numbers = conversation
        .answers
        .iter()
        .rev()
        .filter(|a| a.parse::<f64>().is_ok() && !a.contains(':'))
        .take(3);
    numbers
        .map(|value| {
            let joiner = if opens_with_lead { ", " } else { ", then " };
            (format!("take {value}{joiner}{query}"), value.clone())
        })
        .collect()
}

/// Marks, on every step of `plan`, the literal arguments equal to `value` (what the
/// reference was replaced by), unless the user also wrote that value themselves (then
/// which one came from the conversation cannot be told, and none is marked).
pub fn mark(plan: &mut chorus_bus::Plan, value: &str, request_without_reference: &str) {
    let toks = crate::lexer::lex(request_without_reference);
    let written = toks.iter().any(|t| match &t.tok {
        crate::lexer::Tok::Num(n) => n == value,
        crate::lexer::Tok::Date(Some(d)) => d == value,
        _ => false,
    });
    if written {
        return;
    }
    for step in &mut plan.steps {
        step.recalled = step
            .arguments
            .iter()
            .filter(|(_, arg)| {
                matches!(arg, chorus_bus::Arg::Value(v)
                    if v.as_str() == Some(value) || v.as_i64().is_some_and(|n| n.to_string() == value))
            })
            .map(|(name, _)| name.clone())
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn reference(src: &str) -> Option<String> {
        find(&lex(src), src).map(|r| r.text)
    }

    #[test]
    fn references_are_found_longest_first_in_both_languages() {
        assert_eq!(reference("now multiply that by 3").as_deref(), Some("that"));
        assert_eq!(
            reference("add 10 days to that date").as_deref(),
            Some("that date")
        );
        assert_eq!(
            reference("nhân kết quả đó với 3").as_deref(),
            Some("kết quả đó")
        );
        assert_eq!(reference("cộng thêm 5 vào đó").as_deref(), Some("đó"));
        assert_eq!(reference("cộng 5 sau đó nhân 2"), None);
        assert_eq!(reference("2+4"), None);
    }

    #[test]
    fn a_reference_is_replaced_where_it_stands() {
        let src = "Now multiply THAT by 3";
        let r = find(&lex(src), src).expect("found");
        assert_eq!(r.replaced_by(src, "6"), "Now multiply 6 by 3");
    }
}
