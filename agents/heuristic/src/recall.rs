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

/// Words that only open or close an ellipsis: `and in Lima?`, `what about 15%?`, `còn
/// ở Paris thì sao?`, `and if it's 6 people?`.
const ELLIPSIS_DRESSING: &[&str] = &[
    "and", "what", "how", "about", "if", "it's", "it", "is", "was", "for", "còn", "và", "thì",
    "sao", "nữa", "vậy", "nếu", "là", "then", "instead", "someone", "somebody", "người",
];

/// Readings of `query` as the conversation's last request with one part replaced
/// (latest request first): a place (`and in Lima?`), a number of the same kind (`and
/// 15%?`, `and if it's 6 people?`), a date (`and someone born 2000-12-25?`), or the
/// year after or before the date asked about (`and the year after?`, `còn năm sau thì
/// sao?`). Each is the earlier request's text with that part replaced, to plan anew.
pub fn ellipses(query: &str, questions: &[String]) -> Vec<String> {
    let follow = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&follow);
    let core: Vec<&Token> = toks
        .iter()
        .filter(|t| {
            !matches!(t.tok, crate::lexer::Tok::Sym('?' | '!' | ',' | '.'))
                && !t.word().is_some_and(|w| ELLIPSIS_DRESSING.contains(&w))
        })
        .collect();
    let mut out = Vec::new();
    for previous in questions.iter().rev().take(3) {
        let previous = crate::normalise::normalise(previous, None).text;
        if let Some(text) = replace_part(&previous, &core, &follow) {
            out.push(text);
        }
    }
    out
}

/// `previous` with the part `core` (the follow-up's own tokens, from `follow`) names
/// replaced, when exactly one kind of part fits.
fn replace_part(previous: &str, core: &[&Token], follow: &str) -> Option<String> {
    use crate::lexer::Tok;
    let ptoks = crate::lexer::lex(previous);
    let text = |t: &Token| &follow[t.start..t.end];
    let words: Vec<&str> = core.iter().filter_map(|t| t.word()).collect();
    // The year after / before the date asked about.
    let shift = match words.as_slice() {
        ["the", "year", "after"]
        | ["year", "after"]
        | ["next", "year"]
        | ["the", "next", "year"]
        | ["the", "following", "year"]
        | ["a", "year", "later"]
        | ["năm", "sau"] => Some(1),
        ["the", "year", "before"]
        | ["year", "before"]
        | ["the", "previous", "year"]
        | ["a", "year", "earlier"]
        | ["năm", "trước"] => Some(-1),
        _ => None,
    };
    let date_at = |t: &Token| match &t.tok {
        Tok::Date(Some(d)) => Some(d.clone()),
        _ => None,
    };
    if let Some(years) = shift {
        let (span, iso) = (0..ptoks.len()).find_map(|i| match date_at(&ptoks[i]) {
            Some(d) => Some(((ptoks[i].start, ptoks[i].end), d)),
            None => {
                let (d, next) = crate::dates::written_date(&ptoks, i)?;
                Some(((ptoks[i].start, ptoks[next - 1].end), d?))
            }
        })?;
        let y: i32 = iso.get(..4)?.parse().ok()?;
        let (m, d): (u32, u32) = (iso.get(5..7)?.parse().ok()?, iso.get(8..10)?.parse().ok()?);
        let moved = crate::lexer::iso_date(y + years, m, d)
            .or_else(|| crate::lexer::iso_date(y + years, m, d - 1))?;
        return Some(format!(
            "{}{moved}{}",
            &previous[..span.0],
            &previous[span.1..]
        ));
    }
    // A date in place of the date.
    if let [t] = core
        .iter()
        .filter(|t| matches!(t.tok, Tok::Date(_)))
        .copied()
        .collect::<Vec<_>>()
        .as_slice()
    {
        let at = ptoks.iter().find(|p| matches!(p.tok, Tok::Date(_)))?;
        return Some(format!(
            "{}{}{}",
            &previous[..at.start],
            text(t),
            &previous[at.end..]
        ));
    }
    // A number in place of the number of the same kind (`15%`, `6 people`).
    let nums: Vec<usize> = (0..core.len())
        .filter(|&i| matches!(core[i].tok, Tok::Num(_)))
        .collect();
    if let [i] = nums.as_slice() {
        // Only a number (and the word saying what it counts): a follow-up with words of
        // its own ("nhân thêm 3 nữa", "then 3 more") says what to do with it, and is no
        // ellipsis — replacing the number would answer another question.
        let own_words = core
            .iter()
            .enumerate()
            .filter(|(j, t)| *j != *i && *j != i + 1 && t.word().is_some())
            .count();
        if own_words > 0 {
            return None;
        }
        let kind = core.get(i + 1).map(|t| text(t).to_lowercase());
        let pnums: Vec<usize> = (0..ptoks.len())
            .filter(|&k| matches!(ptoks[k].tok, Tok::Num(_)))
            .collect();
        let same = |k: &&usize| {
            let next = ptoks
                .get(**k + 1)
                .map(|t| previous[t.start..t.end].to_lowercase());
            next == kind
        };
        let at = match (
            kind.is_some(),
            pnums.iter().filter(same).collect::<Vec<_>>().as_slice(),
        ) {
            (true, [k]) => **k,
            (false, _) if pnums.len() == 1 => pnums[0],
            _ => return None,
        };
        let p = &ptoks[at];
        return Some(format!(
            "{}{}{}",
            &previous[..p.start],
            text(core[*i]),
            &previous[p.end..]
        ));
    }
    // A place in place of the place asked about.
    let place_words = !core.is_empty()
        && core.len() <= 5
        && core
            .iter()
            .all(|t| matches!(t.tok, Tok::Word(_) | Tok::Sym('-' | '\'' | '.')));
    if place_words {
        let asked = match crate::places::parse(&ptoks, previous)? {
            crate::dates::DateQuery::TimeIn { place } => place,
            crate::dates::DateQuery::ConvertTime { to, .. } => to,
            _ => return None,
        };
        let lead = core
            .first()
            .and_then(|t| t.word())
            .is_some_and(|w| matches!(w, "in" | "at" | "ở" | "tại"));
        let place = &core[usize::from(lead)..];
        let (first, last) = (place.first()?, place.last()?);
        let new = &follow[first.start..last.end];
        let at = previous.rfind(asked.as_str())?;
        return Some(format!(
            "{}{new}{}",
            &previous[..at],
            &previous[at + asked.len()..]
        ));
    }
    None
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
    fn a_follow_up_with_its_own_operation_is_no_ellipsis() {
        let before = ["rồi chia kết quả cho 4".to_owned()];
        assert!(ellipses("nhân thêm 3 nữa", &before).is_empty());
        assert!(ellipses("then 3 more", &["divide it by 4".to_owned()]).is_empty());
        // A number alone (with what it counts) still replaces its kind.
        assert_eq!(
            ellipses("and 6 people?", &["split 240 between 4 people".to_owned()]),
            ["split 240 between 6 people"]
        );
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
