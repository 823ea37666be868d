//! Dates told with what happens on them: the event's words dropped so the dates are
//! read (`days since i moved to perth on 14 july 2024`, `between the engagement on dec
//! 12 and the wedding on feb 27 2027`), `does … fall on` asked as `is`, and a weekday
//! asked of a date said before it (`30 days from today what day of the week is that`).

use crate::lexer::{Tok, Token, words_at};

use super::month_number;

/// Words after which a date is counted from or to.
const FROM_TO: &[&str] = &["since", "between", "until", "till", "til"];

/// Words of a question, never of an event (`and which weekday was he born on …`).
const ASKING: &[&str] = &["which", "what", "whats", "weekday", "day", "born", "date"];

/// The most words an event may take before `on` and its date.
const EVENT_WORDS: usize = 6;

/// `src` (lexed as `toks`) with the words of an event between `since`, `between`
/// (and its `and`), `until`… and `on` before a date dropped (`days since i moved to perth on 14
/// july 2024` → `days since 14 july 2024`); `None` when there are none.
pub fn events_dropped(toks: &[Token], src: &str) -> Option<String> {
    let date_at = |k: usize| match toks.get(k).map(|t| &t.tok) {
        Some(Tok::Date(_)) => true,
        Some(Tok::Word(w)) => month_number(w).is_some(),
        Some(Tok::Num(_)) => toks
            .get(k + 1)
            .and_then(Token::word)
            .is_some_and(|w| month_number(w).is_some()),
        _ => false,
    };
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let between = |i: usize| toks[..i].iter().any(|t| t.word() == Some("between"));
    for i in 0..toks.len() {
        // (`and` only after `between`: `between the party on … and the trip on …`.)
        let from_to = toks[i]
            .word()
            .is_some_and(|w| FROM_TO.contains(&w) || w == "and" && between(i));
        if !from_to {
            continue;
        }
        let on = (i + 2..toks.len().min(i + 2 + EVENT_WORDS)).find(|&j| {
            toks[j].word() == Some("on")
                && date_at(j + 1)
                && toks[i + 1..j]
                    .iter()
                    .all(|t| t.word().is_some_and(|w| !ASKING.contains(&w)))
        });
        // (A word inside an event already cut, `moved to perth`, starts no other.)
        let inside = cuts.last().is_some_and(|&(_, end)| toks[i].start < end);
        if let Some(j) = on.filter(|_| !inside) {
            cuts.push((toks[i].end, toks[j].end));
        }
    }
    if cuts.is_empty() {
        return None;
    }
    // (`toks` may be a segment of `src`: its own span only.)
    let (first, last) = (toks.first()?.start, toks.last()?.end);
    let mut out = String::with_capacity(last - first);
    let mut at = first;
    for (from, to) in cuts {
        out.push_str(&src[at..from]);
        at = to;
    }
    out.push_str(&src[at..last]);
    Some(out)
}

/// `src` (lexed as `toks`) with a weekday asked as `what day does christmas fall on this
/// year` asked as `what day is christmas this year`; `None` when it is not asked so.
pub fn falls_on(toks: &[Token], src: &str) -> Option<String> {
    let does = (0..toks.len()).find(|&i| matches!(toks[i].word(), Some("does" | "will")))?;
    let fall = (does + 2..toks.len())
        .find(|&j| words_at(toks, j, &["fall", "on"]) || words_at(toks, j, &["land", "on"]))?;
    let asks_day = toks[..does]
        .iter()
        .any(|t| matches!(t.word(), Some("day" | "weekday" | "date")));
    if !asks_day {
        return None;
    }
    Some(format!(
        "{}is{}{}",
        &src[toks.first()?.start..toks[does].start],
        &src[toks[does].end..toks[fall].start].trim_end_matches(' '),
        &src[toks[fall + 1].end..toks.last()?.end]
    ))
}

/// `30 days from today what day of the week is that`: a date said, then its weekday
/// asked with `that` or `it` — asked as `what day of the week is 30 days from today`;
/// `None` unless the words before say a date (a date, a month, or a span from now).
pub fn weekday_of_said(toks: &[Token], src: &str) -> Option<String> {
    const ASKS: &[&[&str]] = &[
        &["what", "day", "of", "the", "week", "is", "that"],
        &["what", "day", "of", "the", "week", "is", "it"],
        &["what", "weekday", "is", "that"],
        &["what", "weekday", "is", "it"],
        &["what", "day", "is", "that"],
    ];
    let end = toks
        .iter()
        .rposition(|t| !(t.is_sym('?') || t.is_sym('.')))?
        + 1;
    let at = ASKS
        .iter()
        .find_map(|p| end.checked_sub(p.len()).filter(|&i| words_at(toks, i, p)))?;
    let before = &toks[..at];
    let dated = before.iter().any(|t| match &t.tok {
        Tok::Date(_) => true,
        Tok::Word(w) => month_number(w).is_some(),
        _ => false,
    }) || (0..before.len()).any(|i| {
        [
            &["from", "today"][..],
            &["from", "now"],
            &["later"],
            &["after"],
            &["ago"],
        ]
        .iter()
        .any(|p| words_at(before, i, p))
    });
    // (The words before are the date alone, said first: `lease is up 6 months from
    // today, what day …` and `how many days till … and what weekday is it` are read
    // otherwise.)
    let starts = before.first().is_some_and(|t| match &t.tok {
        Tok::Num(_) | Tok::Date(_) => true,
        Tok::Word(w) => month_number(w).is_some(),
        _ => false,
    });
    if !dated || !starts {
        return None;
    }
    // (`toks` may be a segment of `src`: its own span only.)
    let said = src[before[0].start..toks[at].start]
        .trim_end_matches([' ', ',', ';', '-'])
        .trim();
    Some(format!("what day of the week is {said}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dropped(src: &str) -> Option<String> {
        events_dropped(&crate::lexer::lex(src), src)
    }

    fn fallen(src: &str) -> Option<String> {
        falls_on(&crate::lexer::lex(src), src)
    }

    #[test]
    fn an_events_words_before_its_date_are_dropped() {
        assert_eq!(
            dropped("days since i moved to perth on 14 july 2024").as_deref(),
            Some("days since 14 july 2024")
        );
        assert_eq!(
            dropped("days between the engagement on dec 12 and the wedding on feb 27 2027")
                .as_deref(),
            Some("days between dec 12 and feb 27 2027")
        );
        assert_eq!(dropped("days since 14 july 2024"), None);
        assert_eq!(dropped("split 90 between me and 2 friends on friday"), None);
        assert_eq!(
            dropped("and which weekday was he born on 14 july 1985"),
            None
        );
    }

    #[test]
    fn a_weekday_asked_of_a_date_said_before() {
        let of = |src: &str| weekday_of_said(&crate::lexer::lex(src), src);
        assert_eq!(
            of("30 days from today what day of the week is that").as_deref(),
            Some("what day of the week is 30 days from today")
        );
        assert_eq!(of("add 5 and 10, what day is that"), None);
    }

    #[test]
    fn falls_on_is_asked_as_is() {
        assert_eq!(
            fallen("what day does christmas fall on this year").as_deref(),
            Some("what day is christmas this year")
        );
        assert_eq!(fallen("how much does it cost"), None);
    }
}
