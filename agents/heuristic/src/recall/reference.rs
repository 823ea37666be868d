//! A reference to an earlier answer (`that`, `kết quả đó`), and the marks on a plan
//! for the arguments that came from it.

use crate::lexer::{Token, words_at};

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
    &["that", "one"],
    &["that", "result"],
    &["that", "answer"],
    &["this", "result"],
    &["the", "result"],
    &["the", "answer"],
    &["kết", "quả", "đó"],
    &["kết", "quả", "này"],
    &["kết", "quả", "trên"],
    &["kết", "quả", "vừa", "rồi"],
    &["hôm", "đó"],
    &["hôm", "ấy"],
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
        let replaced = format!("{}{value}{}", &src[..self.start], &src[self.end..]);
        // `minus 22% of that`: the value less a share of itself, never the share
        // taken from nothing.
        let toks = crate::lexer::lex(&src[..self.start]);
        let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
        let lowered = matches!(
            words.as_slice(),
            [first, .., "of" | "của"] if matches!(*first, "minus" | "less" | "trừ" | "bớt")
        ) && toks.iter().any(|t| t.is_sym('%'));
        if lowered {
            return format!("{value} {replaced}");
        }
        replaced
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

/// Words opening a request before what it names (`so the deposit is …`).
const OPENING: &[&str] = &[
    "and", "so", "the", "my", "our", "ok", "okay", "now", "then", "what",
];

/// `the NAME` in `toks` (lexed from `src`), where NAME is what the last question
/// named first (`so what's left to pay, 9,900,000 minus the deposit` after `deposit is
/// 30% of that`): its answer, referred to by its name.
pub fn named_answer(toks: &[Token], src: &str, last_question: Option<&str>) -> Option<Reference> {
    let text = crate::normalise::normalise(last_question?, None).text;
    let asked = crate::lexer::lex(&text);
    let name = asked
        .iter()
        .map_while(Token::word)
        .find(|w| !OPENING.contains(w))?;
    let plain = name.len() >= 4
        && name.chars().all(|c| c.is_ascii_alphabetic())
        && crate::normalise::typo::operation(name).is_none();
    // (`bill is $148.80 for 4 people, each pays?`: a name said with its amount labels
    // that amount, never the answer.)
    let at = asked.iter().position(|t| t.word() == Some(name))?;
    let given = asked[at + 1..]
        .iter()
        .skip_while(|t| {
            t.word()
                .is_some_and(|w| matches!(w, "is" | "was" | "of" | "=" | "là"))
        })
        .take_while(|t| !t.is_sym(','))
        .next()
        .is_some_and(|t| t.number().is_some())
        && !asked.iter().any(|t| t.is_sym('%'));
    if !plain || given {
        return None;
    }
    (1..toks.len()).find_map(|i| {
        (toks[i - 1].word() == Some("the") && toks[i].word() == Some(name)).then(|| {
            let (start, end) = (toks[i - 1].start, toks[i].end);
            Reference {
                text: src[start..end].to_owned(),
                start,
                end,
            }
        })
    })
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
