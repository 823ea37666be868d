//! Where a request splits: strong separators, list markers and lead-ins, and the
//! weak separators (`and`, `và`, `then`) that split only where every piece stands alone.

use std::collections::HashMap;

use super::earlier::{asks_weekday_only, weekday_of_earlier};
use super::parts::{parse_part, quote};
use super::{ParsedPart, PartError, PartQuery};
use crate::arith;
use crate::dates::{self};
use crate::filler;
use crate::lexer::{Tok, Token, words_at};

/// Most weak separators considered in one sentence.
pub const MAX_WEAK_SEPARATORS: usize = 24;

const WEAK: &[&str] = &["and", "và", "then", "also", "rồi", "còn"];

/// Weak separators of several words.
const WEAK_PHRASES: &[&[&str]] = &[
    &["as", "well", "as"],
    &["along", "with"],
    &["với", "lại"],
    &["ngoài", "ra"],
    &["sau", "đó"],
];

/// Words that only join parts: a segment made of them alone (`2+4; also, …`) asks
/// nothing.
pub(super) const JOINERS: &[&str] = &[
    "and", "also", "then", "besides", "và", "còn", "rồi", "ngoài", "ra", "nữa",
];

/// Phrases that only join a segment on to the parts before it: `, plus tell me 3*3`,
/// `? what about 8*9`, `, với lại 10 chia 4`.
pub(super) const LEAD_PHRASES: &[&[&str]] = &[
    &["sau", "đó"],
    &["với", "lại"],
    &["plus", "tell", "me"],
    &["and", "tell", "me"],
    &["also", "tell", "me"],
    &["what", "about"],
    &["how", "about"],
    &["cho", "biết"],
    &["cho", "tôi", "biết"],
    &["cho", "mình", "biết"],
    &["thêm"],
];

/// Whether a list begun in `before` may go on after a semicolon: one written with
/// semicolons alone (`largest: 4.5; -2; 3.75`), no comma or `and` before it.
fn semicolon_list(before: &[Token]) -> bool {
    !before.iter().any(|t| {
        t.is_sym(',')
            || t.word()
                .is_some_and(|w| matches!(w, "and" | "và" | "or" | "hay" | "hoặc"))
    })
}

/// Whether the comma at `i` stands inside a date written with a month name (`June 12,
/// 1994`, `12th of June, 1994`) that starts at or after `start`.
fn inside_written_date(toks: &[Token], start: usize, i: usize) -> bool {
    (i.saturating_sub(4).max(start)..i)
        .any(|j| dates::written_date(toks, j).is_some_and(|(_, next)| next > i + 1))
}

/// Whether `t` can number a part of a request laid out as a list: `1)`, `2)`, `a)`,
/// `b)` (a small whole number or one letter, before an unmatched `)`).
fn is_part_marker(t: &Token) -> bool {
    match &t.tok {
        Tok::Num(n) => n.parse::<u8>().is_ok_and(|n| (1..=20).contains(&n)),
        Tok::Word(w) => w.chars().count() == 1 && w.chars().all(char::is_alphabetic),
        _ => false,
    }
}

/// Words that open a new part after a dash: `add 350 and 275 - also …`, `born 3 May
/// 1990 - how old am I`.
const AFTER_DASH: &[&str] = &[
    "also", "and", "plus", "còn", "ngoài", "với", "và", "then", "how", "what", "what's", "whats",
    "which", "when", "is", "can", "could", "tell", "please",
];

/// Where a request laid out as a numbered list with dots (`1. 23 + 58  2. 100 chia 8`,
/// `a. 15.5 + 4.75 b. times that by 2`) has its markers: the index of each marker's number, for a run 1, 2, 3… of at least
/// two, each a small number with a dot right after it and a space after the dot.
fn dot_markers(toks: &[Token]) -> Vec<usize> {
    let candidates: Vec<(usize, u8)> = (0..toks.len().saturating_sub(2))
        .filter_map(|i| {
            // `1.`, `2.` or `a.`, `b.`: the place in the run.
            let k = match &toks[i].tok {
                Tok::Num(n) => n.parse::<u8>().ok()?,
                Tok::Word(w) if w.len() == 1 && w.as_bytes()[0].is_ascii_lowercase() => {
                    w.as_bytes()[0] - b'a' + 1
                }
                _ => return None,
            };
            let (dot, next) = (&toks[i + 1], &toks[i + 2]);
            // (`1/ … 2/ …` too: a slash with a space after it divides nothing.)
            let mark = dot.is_sym('.') || dot.is_sym('/');
            let attached = mark && dot.start == toks[i].end && next.start > dot.end;
            let first = i == 0 || toks[i - 1].is_sym(':') || toks[i - 1].start + 1 < toks[i].start;
            let k = Some(k).filter(|k| (1..=20).contains(k))?;
            (attached && first).then_some((i, k))
        })
        .collect();
    let mut run = Vec::new();
    for &(i, k) in &candidates {
        if usize::from(k) == run.len() + 1 {
            run.push(i);
        }
    }
    match run.len() >= 2 {
        true => run,
        false => Vec::new(),
    }
}

/// Whether `toks` are laid out as a list of parts (`1. … 2. …`, `a) … b) …`, `1/ …
/// 2/ …`): markers 1, 2 (or a, b) in order. Each part is then a question of its own,
/// never one problem told across them.
pub(in crate::compound) fn laid_out(toks: &[Token]) -> bool {
    // (A statement with numbers before the list, `floor is 4.8m x 3.6m … 1) area 2) how
    // many boxes`, is what the parts ask about: the request is read whole first.)
    let stated = |first: usize| toks[..first].iter().any(|t| t.number().is_some());
    if let Some(&first) = dot_markers(toks).first() {
        return !stated(first);
    }
    let mut depth = 0usize;
    let mut next = 1u8;
    let mut first = 0;
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Sym('(') => depth += 1,
            Tok::Sym(')') if depth == 0 && i > 0 && is_part_marker(&toks[i - 1]) => {
                let k = match &toks[i - 1].tok {
                    Tok::Num(n) => n.parse::<u8>().unwrap_or(0),
                    Tok::Word(w) => w.bytes().next().map_or(0, |b| b.wrapping_sub(b'a') + 1),
                    _ => 0,
                };
                if k == next {
                    if next == 1 {
                        first = i - 1;
                    }
                    next += 1;
                }
            }
            Tok::Sym(')') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    next > 2 && !stated(first)
}

/// Whether `toks`, before a colon, only announce what follows (`two quick ones`, `pls
/// do these`, `tính giúp`): words only, none of them an operation, a list head, a date
/// or time word, or a word that asks for something (a greeting is fine).
fn lead_in(toks: &[Token]) -> bool {
    let text: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    (1..=4).contains(&toks.len())
        && crate::scope::outside_tools(&text.join(" "), chorus_bus::Language::En).is_none()
        && crate::scope::outside_tools(&text.join(" "), chorus_bus::Language::Vi).is_none()
        && !text.iter().any(|w| {
            matches!(
                *w,
                "system" | "assistant" | "user" | "ignore" | "instructions"
            )
        })
        && !arith::has_list_head(toks)
        && !crate::tolerant::names_list_op(toks)
        && toks.iter().enumerate().all(|(k, t)| {
            // `need 2 things:`: a count of the parts announced.
            let counts =
                matches!(t.tok, Tok::Num(_)) && toks.get(k + 1).is_some_and(|n| n.word().is_some());
            counts
                || t.word().is_some_and(|w| {
                    crate::normalise::typo::operation(w).is_none()
                        && !crate::tolerant::DATE_WORDS.contains(&w)
                        && !matches!(w, "what" | "whats" | "what's" | "how" | "which" | "when")
                })
        })
}

pub(super) fn strong_segments(toks: &[Token]) -> Vec<&[Token]> {
    segments(toks, false)
}

/// The parts of a request laid out as a list ([`laid_out`]): cut at its markers only,
/// so a part keeps its commas (`1) 640 km, xe ăn 30 lít/100 km thì bao nhiêu lít`).
pub(super) fn listed_parts(toks: &[Token]) -> Vec<&[Token]> {
    segments(toks, true)
}

/// The segments of `toks`, cut at strong separators, or at list markers only.
fn segments(toks: &[Token], only_markers: bool) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    let markers = dot_markers(toks);
    for (i, t) in toks.iter().enumerate() {
        // `1. … 2. …`: a marker ends the part before it; its dot is no sentence end.
        if markers.contains(&i) {
            out.push(&toks[start..i]);
            start = i + 2;
            continue;
        }
        if i > 0 && markers.contains(&(i - 1)) {
            continue;
        }
        match t.tok {
            Tok::Sym('(') => depth += 1,
            // `1) 45*3 2) 200/8`, `a) … b) …`: a marker before an unmatched `)` starts
            // a part.
            Tok::Sym(')') if depth == 0 && i > start && is_part_marker(&toks[i - 1]) => {
                out.push(&toks[start..i - 1]);
                start = i + 1;
            }
            Tok::Sym(')') => depth = depth.saturating_sub(1),
            // `Two quick ones: …`, `tinh giup: …`: a lead-in before a colon asks nothing.
            Tok::Sym(':') if depth == 0 && lead_in(&toks[start..i]) => start = i + 1,
            _ if only_markers => {}
            // A comma (or semicolon) between two numbers after a list head (`sum of 1, 2
            // and 3`, `largest: 4.5; -2; 3.75`) is part of the list, not a split.
            Tok::Sym(',') if depth == 0 && in_list(toks, start, i) => {}
            // `June 12, 1994`: the comma inside a written date.
            Tok::Sym(',') if inside_written_date(toks, start, i) => {}
            Tok::Sym(';')
                if depth == 0 && semicolon_list(&toks[start..i]) && in_list(toks, start, i) => {}
            Tok::Sym(c) if depth == 0 && ";?!,.".contains(c) => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            // A dash before a joining word, or a long dash before any word.
            Tok::Sym(c @ ('-' | '—' | '–'))
                if depth == 0
                    && toks
                        .get(i + 1)
                        .and_then(Token::word)
                        .is_some_and(|w| c != '-' || AFTER_DASH.contains(&w)) =>
            {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&toks[start..]);
    out.retain(|s| !s.is_empty());
    out
}

/// Whether the comma at `i` separates list items: a number (or a number word) on
/// either side (after it, maybe behind an Oxford `and`), and a list head earlier in the
/// segment that began at `start`; or the comma right after a list head, before a number.
fn in_list(toks: &[Token], start: usize, i: usize) -> bool {
    let is_item = |t: Option<&Token>| {
        t.is_some_and(|t| {
            matches!(
                t.tok,
                Tok::Num(_) | Tok::Sym('-') | Tok::Sym('(') | Tok::Sym(')')
            ) || t.word().is_some_and(crate::numbers::starts_number)
        })
    };
    let oxford = toks
        .get(i + 1)
        .and_then(Token::word)
        .is_some_and(|w| w == "and" || w == "và")
        || toks.get(i + 1).is_some_and(|t| t.is_sym('&'));
    let after_head = arith::ends_with_list_head(&toks[start..i]);
    let at = |k: Option<usize>| k.and_then(|j| toks.get(j));
    // `3 apples, 4 apples and 5 apples`: a unit word after an item.
    let before = is_item(at(i.checked_sub(1)))
        || at(i.checked_sub(1)).is_some_and(|t| t.word().is_some())
            && at(i.checked_sub(2)).is_some_and(|t| matches!(t.tok, Tok::Num(_)));
    // (A Vietnamese or tolerant head too: `gia thấp nhất: 45k, 38k`.)
    let head = after_head
        || arith::has_list_head(&toks[start..i])
        || crate::tolerant::names_list_op(&toks[start..i]);
    (after_head || before) && is_item(toks.get(i + 1 + usize::from(oxford))) && head
}

/// Whether the `and` at `i` joins a hundred or a scale to a smaller number
/// (`one hundred and five`, `two thousand and twenty`).
fn inside_number(seg: &[Token], i: usize) -> bool {
    let big = |w: &str| matches!(w, "hundred" | "thousand" | "million" | "billion");
    seg[i].word() == Some("and")
        && i.checked_sub(1)
            .and_then(|j| seg[j].word())
            .is_some_and(big)
        && !seg.get(i + 1).and_then(Token::word).is_some_and(big)
        && crate::numbers::parse_words(seg, i + 1, false).is_some()
}

/// Each weak separator of `seg` as (where it starts, where the next piece starts).
pub(super) fn weak_separators(seg: &[Token]) -> Vec<(usize, usize)> {
    (1..seg.len().saturating_sub(1))
        .filter_map(|i| {
            if seg[i].word().is_some_and(|w| WEAK.contains(&w)) {
                // `one hundred and one` is one number, not two parts.
                return (!inside_number(seg, i)).then_some((i, i + 1));
            }
            WEAK_PHRASES.iter().find_map(|p| {
                (words_at(seg, i, p) && i + p.len() < seg.len()).then_some((i, i + p.len()))
            })
        })
        .collect()
}

pub(super) fn split_weak(seg: &[Token], src: &str) -> Result<Vec<ParsedPart>, PartError> {
    let seps = weak_separators(seg);
    if seps.len() > MAX_WEAK_SEPARATORS {
        return Err(PartError::TooManyParts);
    }
    // One list operation over one run of numbers (`gia thấp nhất: 45k, 38k, 52k`) is
    // one part, however its commas could cut it.
    if let Some(e) = crate::tolerant::list(filler::trim_symbols(seg)) {
        return Ok(vec![ParsedPart {
            text: quote(seg, src),
            query: PartQuery::Math(e),
        }]);
    }
    // `how many days till dec 18 and what weekday is it`: the last piece asks the
    // weekday of the date the pieces before it give.
    if let Some(&(cut, end)) = seps.last()
        && asks_weekday_only(&seg[end..])
        && let Ok(mut before) = split_weak(&seg[..cut], src)
        && let Some(part) = weekday_of_earlier(&seg[end..], &before, src)
    {
        before.push(part);
        return Ok(before);
    }
    let mut cache: HashMap<(usize, usize), Result<PartQuery, PartError>> = HashMap::new();
    let mut parse = |s: usize, e: usize| {
        cache
            .entry((s, e))
            .or_insert_with(|| parse_part(&seg[s..e], src))
            .clone()
    };
    // best[k]: a split of seg[starts[k]..], where starts are 0 and each separator's end.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(seps.iter().map(|&(_, end)| end))
        .collect();
    let mut best: Vec<Option<Vec<(usize, usize, PartQuery)>>> = vec![None; starts.len()];
    for k in (0..starts.len()).rev() {
        let s = starts[k];
        for (j, &(cut, _)) in seps.iter().enumerate().skip(k) {
            let Some(rest) = best[j + 1].clone() else {
                continue;
            };
            if let Ok(q) = parse(s, cut) {
                best[k] = Some(std::iter::once((s, cut, q)).chain(rest).collect());
                break;
            }
        }
        if best[k].is_none()
            && let Ok(q) = parse(s, seg.len())
        {
            best[k] = Some(vec![(s, seg.len(), q)]);
        }
    }
    match best.swap_remove(0) {
        Some(pieces) => Ok(pieces
            .into_iter()
            .map(|(s, e, query)| ParsedPart {
                text: quote(&seg[s..e], src),
                query,
            })
            .collect()),
        None => Err(parse(0, seg.len())
            .err()
            .unwrap_or(PartError::NotUnderstood(quote(seg, src)))),
    }
}
