//! Segments read by the parts before them: what a part not understood states, a bare
//! how much or total, a condition, a date, answer or list an earlier part gave, a weekday of
//! an earlier date, an ellipsis of the segment before.

use super::parts::{parse_part, quote};
use super::separators::{JOINERS, LEAD_PHRASES};
use super::{ParsedPart, PartError, PartQuery};
use crate::dates::{self, DateQuery, NamedThen};
use crate::filler;
use crate::lexer::{Tok, Token, words_at};

/// When a part not understood `states` something (a time, a day), the parts that
/// `asks` picks (the time now, today's date) would answer another question: they join
/// the parts not understood.
pub(super) fn unanswered_after(
    parts: &mut Vec<ParsedPart>,
    failed: &mut Vec<PartError>,
    states: impl Fn(&[Token]) -> bool,
    asks: impl Fn(&ParsedPart) -> bool,
) {
    let stated = failed
        .iter()
        .any(|e| e.text().is_some_and(|t| states(&crate::lexer::lex(&t))));
    if stated {
        let (asked, kept): (Vec<ParsedPart>, Vec<ParsedPart>) =
            std::mem::take(parts).into_iter().partition(|p| asks(p));
        failed.extend(asked.into_iter().map(|p| PartError::NotUnderstood(p.text)));
        *parts = kept;
    }
}

/// Whether `part` asks today's date without naming today (`ngày mấy`, `what's the date`).
pub(super) fn asks_bare_date(part: &ParsedPart) -> bool {
    let toks = crate::lexer::lex(&part.text);
    let today = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "today" | "now" | "nay" | "hôm" | "currently"))
    });
    matches!(part.query, PartQuery::Date(DateQuery::Today { .. })) && !today
}

/// Whether `part` answers with a date other than today's (a shift, a named day…).
pub(super) fn gives_a_date(part: &ParsedPart) -> bool {
    matches!(
        part.query,
        PartQuery::Date(DateQuery::Shift { .. } | DateQuery::Anchored { .. })
    )
}

/// Whether `text` only asks "how much" of what came before: no number or date, and a
/// quantity question (`how much`, `how many`, `bao nhiêu`, `total`) with no operation,
/// date or time word.
pub(super) fn asks_only_how_much(text: &str) -> bool {
    let toks = crate::lexer::lex(text);
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let has = |p: &[&str]| words.windows(p.len()).any(|w| w == p);
    let plain = toks
        .iter()
        .all(|t| matches!(t.tok, Tok::Word(_) | Tok::Sym(_)))
        && !words.iter().enumerate().any(|(k, w)| {
            // (`một tháng lời bao nhiêu`: the one period the amount before is for.)
            let one_period = k > 0 && matches!(words[k - 1], "một" | "a" | "per" | "mỗi" | "1");
            crate::normalise::typo::operation(w).is_some_and(|op| op != "sum")
                || crate::tolerant::DATE_WORDS.contains(w) && !one_period
        });
    // (`whats the total fee`: the total of what was computed, asked.)
    let what_total =
        has(&["the", "total"]) && (has(&["whats"]) || has(&["what's"]) || has(&["what", "is"]));
    plain
        && (has(&["how", "much"]) || has(&["how", "many"]) || has(&["bao", "nhiêu"]) || what_total)
}

/// Whether `toks` end asking the total of everything before (`tổng cộng bao nhiêu`,
/// `total?`, `what's the total`, `how much altogether`).
pub(super) fn asks_grand_total(toks: &[Token]) -> bool {
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let tail = &words[words.len().saturating_sub(4)..];
    tail.iter()
        .any(|w| matches!(*w, "total" | "altogether" | "tổng"))
}

/// Whether `text` only asks a total in a word (`Total please`, `tổng cộng?`): the whole
/// request may be one everyday problem; never dropped as a question already answered.
pub(super) fn asks_only_total(text: &str) -> bool {
    let toks = crate::lexer::lex(text);
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    toks.iter()
        .all(|t| matches!(t.tok, Tok::Word(_) | Tok::Sym(_)))
        && words.iter().all(|w| {
            matches!(
                *w,
                "total" | "please" | "pls" | "tổng" | "cộng" | "the" | "so" | "and"
            )
        })
        && words.iter().any(|w| matches!(*w, "total" | "tổng"))
}

/// `segment` without its leading joining words (`còn`, `and also`, `what about`).
pub(super) fn without_lead(segment: &[Token]) -> &[Token] {
    let trimmed = filler::trim_symbols(segment);
    let mut lead = 0;
    loop {
        let word = trimmed[lead..].first().and_then(Token::word);
        if word.is_some_and(|w| JOINERS.contains(&w)) {
            lead += 1;
        } else if let Some(p) = LEAD_PHRASES.iter().find(|p| words_at(trimmed, lead, p)) {
            lead += p.len();
        } else {
            break;
        }
    }
    &trimmed[lead..]
}

/// Words that open a condition (`if it's 9am in Paris`, `nếu …`).
const CONDITION_WORDS: &[&str] = &["if", "when", "suppose", "nếu", "khi", "giả"];

/// Whether `segment` states a condition for what follows.
pub(super) fn is_condition(segment: &[Token]) -> bool {
    segment
        .first()
        .and_then(Token::word)
        .is_some_and(|w| CONDITION_WORDS.contains(&w))
}

/// A segment that asks about a date an earlier segment wrote (`ngày 2/9/2027 là thứ
/// mấy, và còn bao nhiêu ngày nữa thì tới ngày đó`; `how old is someone born
/// 1985-07-14, and what day of the week were they born on`), read with that date in
/// place of the reference (or after `born on`). The latest earlier date is taken.
pub(super) fn with_earlier_date(
    segment: &[Token],
    earlier: &[&[Token]],
    src: &str,
) -> Option<ParsedPart> {
    let has_date = dates::first_date(segment).is_some();
    let date = earlier.iter().rev().find_map(|s| dates::first_date(s))?;
    let (first, last) = (segment.first()?, segment.last()?);
    let text = &src[first.start..last.end];
    let rewritten = match crate::recall::find(segment, src) {
        Some(r) if !has_date => format!(
            "{}{date}{}",
            &src[first.start..r.start],
            &src[r.end..last.end]
        ),
        None if !has_date && segment.iter().any(|t| t.word() == Some("born")) => {
            format!("{text} {date}")
        }
        _ => return None,
    };
    let toks = crate::lexer::lex(&rewritten);
    let query = parse_part(&toks, &rewritten).ok()?;
    Some(ParsedPart {
        text: quote(segment, src),
        query,
    })
}

/// A number no request holds, standing for an earlier part's answer while a later
/// part is read.
const EARLIER: &str = "987654321987654321";

/// A segment that refers to the answer of the part before it in the same request
/// (`250 minus that`, `what day is that`): read with that part in place of the
/// reference — its expression for arithmetic, its words for a date.
pub(super) fn with_earlier_part(
    segment: &[Token],
    parts: &[ParsedPart],
    src: &str,
) -> Option<ParsedPart> {
    let previous = parts.last()?;
    let (first, last) = (segment.first()?, segment.last()?);
    let text = &src[first.start..last.end];
    let toks = crate::lexer::lex(text);
    let r = crate::recall::find(&toks, text)?;
    let query = match &previous.query {
        PartQuery::Math(e) => {
            let rewritten = r.replaced_by(text, EARLIER);
            match parse_part(&crate::lexer::lex(&rewritten), &rewritten).ok()? {
                PartQuery::Math(x) => PartQuery::Math(x.replacing(EARLIER, e)),
                PartQuery::Date(_) => return None,
            }
        }
        PartQuery::Date(_) => {
            let rewritten = r.replaced_by(text, &previous.text);
            parse_part(&crate::lexer::lex(&rewritten), &rewritten).ok()?
        }
    };
    Some(ParsedPart {
        text: quote(segment, src),
        query,
    })
}

/// Words naming the numbers of the list before: `their sum`, `the average of them`,
/// `tổng của chúng`.
const LIST_BACK_REFS: &[&[&str]] = &[
    &["all", "of", "them"],
    &["of", "them"],
    &["them"],
    &["their"],
    &["those"],
    &["these"],
    &["của", "chúng", "nó"],
    &["của", "chúng"],
    &["chúng", "nó"],
    &["chúng"],
    &["các", "số", "đó"],
    &["các", "số", "trên"],
    &["mấy", "số", "đó"],
];

/// A segment asking another list operation of the numbers of the list before it (`the
/// smallest of 4, 9, 2 and what's their sum`, `số lớn nhất trong 4, 9, 2 và tổng của
/// chúng`): read as that operation over those numbers.
pub(super) fn over_earlier_list(
    segment: &[Token],
    parts: &[ParsedPart],
    src: &str,
) -> Option<ParsedPart> {
    let previous = parts.last()?;
    if !matches!(previous.query, PartQuery::Math(_)) {
        return None;
    }
    let before = crate::lexer::lex(&previous.text);
    let numbers: Vec<&str> = before
        .iter()
        .filter(|t| matches!(t.tok, Tok::Num(_)))
        .map(|t| &previous.text[t.start..t.end])
        .collect();
    if numbers.len() < 2 || segment.iter().any(|t| matches!(t.tok, Tok::Num(_))) {
        return None;
    }
    let (i, phrase) = (0..segment.len()).find_map(|i| {
        LIST_BACK_REFS
            .iter()
            .find(|p| words_at(segment, i, p))
            .map(|p| (i, p.len()))
    })?;
    let text = quote(segment, src);
    let head = &src[segment[0].start..segment[i].start];
    let tail = match segment.get(i + phrase) {
        Some(t) => &src[t.start..segment.last()?.end],
        None => "",
    };
    // `of them` keeps its `of` (`the average of 4, 9, 2`).
    let of = if words_at(segment, i, &["of"]) {
        "of "
    } else {
        ""
    };
    let rewritten = format!("{head}{of}{} {tail}", numbers.join(", "));
    let toks = crate::lexer::lex(&rewritten);
    let expr = match crate::tolerant::list(&toks) {
        Some(e) => e,
        None => match parse_part(&toks, &rewritten).ok()? {
            PartQuery::Math(e) => e,
            PartQuery::Date(_) => return None,
        },
    };
    Some(ParsedPart {
        text,
        query: PartQuery::Math(expr),
    })
}

/// Whether `segment` only asks a weekday, in words (`thứ mấy`, `what day of the week
/// is that`).
pub(super) fn asks_weekday_only(segment: &[Token]) -> bool {
    let words: Vec<&str> = segment.iter().filter_map(Token::word).collect();
    let only_words = segment
        .iter()
        .all(|t| t.word().is_some() || matches!(t.tok, Tok::Sym('?' | '!')));
    only_words
        && (words.windows(2).any(|w| w == ["thứ", "mấy"])
            || words.contains(&"weekday")
            || words.windows(2).any(|w| w == ["what", "day"])
            // (`…, and which day of the week`.)
            || words.windows(2).any(|w| w == ["which", "day"])
            // (`what date and day is that`: the day after `and`, its question shared.)
            || words.first() == Some(&"day")
                && words
                    .iter()
                    .all(|w| matches!(*w, "day" | "is" | "that" | "it" | "of" | "the" | "week")))
}

/// A segment that only asks a weekday (`thứ mấy`, `what day of the week`) after a part
/// that gives a date: read as that part's words with the question.
pub(super) fn weekday_of_earlier(
    segment: &[Token],
    parts: &[ParsedPart],
    src: &str,
) -> Option<ParsedPart> {
    // (`sau 45 ngày nữa, là ngày nào, thứ mấy`: the date the part before the bare
    // "what date" gives.)
    let previous = match parts {
        [.., before, last] if asks_bare_date(last) && gives_a_date(before) => before,
        _ => parts.last()?,
    };
    // A date the part before counts to (`how many days till dec 18 and what weekday is
    // it`): that date's weekday, its date found once.
    let of_date = match &previous.query {
        // (`5 days later what date and day is that`, `… jan 30, 5 days later …`: the
        // weekday of the date the shift lands on, never of its anchor.)
        PartQuery::Date(
            shifted @ (DateQuery::Shift { weekday: false, .. }
            | DateQuery::Anchored {
                then: NamedThen::Shift { weekday: false, .. },
                ..
            }),
        ) => {
            let mut shifted = shifted.clone();
            if let DateQuery::Shift { weekday, .. }
            | DateQuery::Anchored {
                then: NamedThen::Shift { weekday, .. },
                ..
            } = &mut shifted
            {
                *weekday = true;
            }
            Some(shifted)
        }
        PartQuery::Date(DateQuery::Anchored { anchor, then }) if *then != NamedThen::Weekday => {
            Some(DateQuery::Anchored {
                anchor: *anchor,
                then: NamedThen::Weekday,
            })
        }
        PartQuery::Date(DateQuery::DaysUntil { date } | DateQuery::DaysSince { date }) => {
            Some(DateQuery::Weekday { date: date.clone() })
        }
        // `Hôm nay ngày mấy, thứ mấy vậy con?`: today's weekday (unless the bare "what
        // date" only asks again the date a part before gives: `3 weeks from now - what's
        // the date and what day is that`).
        PartQuery::Date(DateQuery::Today { weekday: false })
            if !asks_bare_date(previous) && !parts[..parts.len() - 1].iter().any(gives_a_date) =>
        {
            Some(DateQuery::Today { weekday: true })
        }
        _ => None,
    };
    let gives_date = of_date.is_some()
        || matches!(
            previous.query,
            PartQuery::Date(DateQuery::Shift { .. } | DateQuery::Anchored { .. })
        );
    if !(gives_date && asks_weekday_only(segment)) {
        return None;
    }
    let text = quote(segment, src);
    if let Some(query) = of_date {
        let query = PartQuery::Date(query);
        return Some(ParsedPart { text, query });
    }
    [
        format!("{} là {text}", previous.text),
        format!("{text} {}", previous.text),
    ]
    .into_iter()
    .find_map(|t| match parse_part(&crate::lexer::lex(&t), &t).ok()? {
        q @ PartQuery::Date(_) => Some(q),
        PartQuery::Math(_) => None,
    })
    .map(|query| ParsedPart { text, query })
}

/// A segment that repeats the segment before it with one part replaced (`còn ở
/// Sydney?`, `con 1/1/2027 thi sao`), read as that segment rewritten.
pub(super) fn as_ellipsis(segment: &[Token], before: &[Token], src: &str) -> Option<ParsedPart> {
    let (first, last) = (segment.first()?, segment.last()?);
    let text = &src[first.start..last.end];
    let earlier = vec![quote(before, src)];
    let query = crate::recall::ellipses(text, &earlier)
        .into_iter()
        .find_map(|t| parse_part(&crate::lexer::lex(&t), &t).ok())?;
    Some(ParsedPart {
        text: quote(segment, src),
        query,
    })
}
