//! A span said from its start, its end asked: `contract is 8 months starting 2 june 2026
//! when does it end`, `started at the farm on 1 july 2025, what date is my 18 month
//! mark`, `vay ngày 15/3/2026 kỳ hạn 12 tháng, hạn trả ngày nào` — read as `8 months
//! after 2026-06-02`.

use crate::lexer::{Token, words_at};

use super::first_date;

/// Words asking where a span ends.
const END_ASKED: &[&[&str]] = &[
    &["end"],
    &["ends"],
    &["finish"],
    &["finishes"],
    &["expire"],
    &["expires"],
    &["mark"],
    &["kết", "thúc"],
    &["hết", "hạn"],
    &["đáo", "hạn"],
    &["hạn", "trả"],
];

/// Words saying the date a span starts.
const START_SAID: &[&[&str]] = &[
    &["starting"],
    &["starts"],
    &["started"],
    &["start"],
    &["from"],
    &["bắt", "đầu"],
    &["vay"],
    &["gửi"],
    &["ký"],
];

/// Units of a span and their English names.
const UNITS: &[(&str, &str)] = &[
    ("day", "days"),
    ("days", "days"),
    ("week", "weeks"),
    ("weeks", "weeks"),
    ("month", "months"),
    ("months", "months"),
    ("year", "years"),
    ("years", "years"),
    ("ngày", "days"),
    ("tuần", "weeks"),
    ("tháng", "months"),
    ("năm", "years"),
];

/// The span `toks` say from a start date, asked where it ends, as a new request
/// (`8 months after 2026-06-02`); `None` unless one span, one date, a start and an end
/// asked are all said.
pub fn span_end(toks: &[Token]) -> Option<String> {
    let says =
        |list: &[&[&str]]| (0..toks.len()).any(|i| list.iter().any(|p| words_at(toks, i, p)));
    if !says(END_ASKED) || !says(START_SAID) {
        return None;
    }
    let spans: Vec<(&str, &str)> = (0..toks.len())
        .filter_map(|k| {
            let n = toks[k].number()?;
            let unit = toks.get(k + 1).and_then(Token::word)?;
            let (_, name) = UNITS.iter().find(|(u, _)| *u == unit)?;
            Some((n, *name))
        })
        .collect();
    let [(n, unit)] = spans.as_slice() else {
        return None;
    };
    let date = first_date(toks)?;
    Some(format!("{n} {unit} after {date}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(src: &str) -> Option<String> {
        span_end(&crate::lexer::lex(src))
    }

    #[test]
    fn a_span_from_its_start_ends_after_it() {
        assert_eq!(
            end("contract is 8 months starting 2 june 2026 when does it end").as_deref(),
            Some("8 months after 2026-06-02")
        );
        assert_eq!(
            end("started at the farm on 1 july 2025, what date is my 18 month mark").as_deref(),
            Some("18 months after 2025-07-01")
        );
        assert_eq!(end("8 months starting 2 june 2026"), None);
        assert_eq!(end("contract starts 2 june 2026, when does it end"), None);
    }
}
