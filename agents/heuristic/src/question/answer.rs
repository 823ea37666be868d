//! An answer put back into the request: the option it picks, the number or date it is.

use chorus_bus::AnswerOption;

use super::{Expect, Fill, Question, Unsettled};
use crate::lexer::{Tok, Token, lex};

/// The request `query` with `answer` to `question` filled in.
pub fn resume(query: &str, question: &Question, answer: &str) -> Result<String, Unsettled> {
    let unsettled = || Unsettled {
        answer: answer.to_owned(),
    };
    let answer = answer.trim();
    let value = match question.expect {
        Expect::Option => pick(&question.options, answer).ok_or_else(unsettled)?,
        Expect::Number => number_in(answer).ok_or_else(unsettled)?,
        Expect::Value => number_in(answer)
            .or_else(|| date_in(answer))
            .ok_or_else(unsettled)?,
        Expect::Text => pick(&question.options, answer).unwrap_or_else(|| answer.to_owned()),
    };
    // (`3 ngày` after `Thuê porter 400k một ngày`: put back as said, the number with
    // what it counts, never a bare 3 to add.)
    let said = match (&question.expect, counted(answer)) {
        (Expect::Number | Expect::Value, true) => answer.to_owned(),
        _ => value.clone(),
    };
    let filled = match &question.fill {
        Fill::After(text) => match query.find(text.as_str()) {
            Some(at) => {
                let end = at + text.len();
                format!("{} {said}{}", &query[..end], &query[end..])
            }
            None => format!("{} {said}", query.trim_end()),
        },
        Fill::Replace(text) => match find_whole(query, text) {
            Some(at) => format!("{}{value}{}", &query[..at], &query[at + text.len()..]),
            None => return Err(unsettled()),
        },
        Fill::Context(asked) => format!("{}\n(answer to \"{asked}\": {value})", query.trim_end()),
        Fill::Appended(text) => format!("{}{}", query.trim_end(), text.replace("{}", &value)),
    };
    Ok(filled)
}

/// Where `text` stands in `query` as whole words (`it` in `split it`, never the `it`
/// of `split`).
fn find_whole(query: &str, text: &str) -> Option<usize> {
    let word_char = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    query.match_indices(text).map(|(at, _)| at).find(|&at| {
        let before = query[..at].chars().next_back();
        let after = query[at + text.len()..].chars().next();
        let edge_in = |c: Option<char>, inner: Option<char>| !(word_char(c) && word_char(inner));
        edge_in(before, text.chars().next()) && edge_in(after, text.chars().next_back())
    })
}

/// The option `answer` picks: its number (`2`), an ordinal (`the first`), its label or
/// value, or words found in one option only (`April` for `3 April 2026`).
fn pick(options: &[AnswerOption], answer: &str) -> Option<String> {
    let said = answer
        .trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
        .to_lowercase();
    let toks = lex(&said);
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let index = match (toks.as_slice(), words.as_slice()) {
        (
            [
                Token {
                    tok: Tok::Num(n), ..
                },
            ],
            _,
        ) => n.parse::<usize>().ok(),
        (_, w) if w.iter().any(|w| ORDINALS[0].contains(w)) => Some(1),
        (_, w) if w.iter().any(|w| ORDINALS[1].contains(w)) => Some(2),
        _ => None,
    };
    if let Some(k) = index.filter(|k| (1..=options.len()).contains(k)) {
        return Some(options[k - 1].value.clone());
    }
    if let Some(o) = options
        .iter()
        .find(|o| o.label.to_lowercase() == said || o.value.to_lowercase() == said)
    {
        return Some(o.value.clone());
    }
    // A date written another way (`2026-04-03`, `3/4/2026` read day first).
    if let Some(iso) = date_in(&said)
        && let Some(o) = options.iter().find(|o| o.value == iso)
    {
        return Some(o.value.clone());
    }
    let mentions = |o: &AnswerOption| {
        let own = format!("{} {}", o.label, o.value).to_lowercase();
        let own_words: Vec<String> = lex(&own)
            .iter()
            .filter_map(|t| t.word().map(str::to_owned))
            .collect();
        !words.is_empty()
            && words
                .iter()
                .any(|w| !COMMON.contains(w) && own_words.iter().any(|o| o == w))
    };
    let matching: Vec<&AnswerOption> = options.iter().filter(|o| mentions(o)).collect();
    match matching.as_slice() {
        [one] => Some(one.value.clone()),
        _ => None,
    }
}

/// Words that say "the first" and "the second" option.
const ORDINALS: [&[&str]; 2] = [
    &["first", "former", "đầu", "nhất"],
    &["second", "latter", "sau", "nhì"],
];

/// Words every option's label may share, which pick none.
const COMMON: &[&str] = &["the", "a", "one", "ngày", "tháng", "năm", "cái", "là"];

/// The number `answer` is (digits or number words), as a normalised decimal string.
fn number_in(answer: &str) -> Option<String> {
    // (`750k`, `$12.50`, `2 triệu`: an amount as people write it.)
    let toks = lex(&crate::normalise::normalise(answer, None).text);
    let toks = crate::filler::trim_symbols(&toks);
    match toks {
        [
            Token {
                tok: Tok::Num(n), ..
            },
        ] => Some(n.clone()),
        [
            Token {
                tok: Tok::Sym('-'), ..
            },
            Token {
                tok: Tok::Num(n), ..
            },
        ] => Some(format!("-{n}")),
        // (`3 of us`, `3 nguoi`, `14 bao`: the number with what it counts.)
        [
            Token {
                tok: Tok::Num(n), ..
            },
            rest @ ..,
        ] if (1..=3).contains(&rest.len()) && rest.iter().all(|t| t.word().is_some()) => {
            Some(n.clone())
        }
        _ => match crate::numbers::parse_words(toks, 0, true) {
            Some((n, used)) if used == toks.len() => Some(n),
            _ => None,
        },
    }
}

/// Whether `answer` is a number with what it counts after it (`3 of us`, `3 ngày`).
fn counted(answer: &str) -> bool {
    let toks = lex(&crate::normalise::normalise(answer, None).text);
    matches!(
        crate::filler::trim_symbols(&toks),
        [first, rest @ ..] if first.number().is_some() && !rest.is_empty()
            && rest.iter().all(|t| t.word().is_some())
    )
}

/// The ISO date `answer` is.
fn date_in(answer: &str) -> Option<String> {
    let toks = lex(answer);
    match crate::filler::trim_symbols(&toks) {
        [
            Token {
                tok: Tok::Date(Some(iso)),
                ..
            },
        ] => Some(iso.clone()),
        _ => None,
    }
}
