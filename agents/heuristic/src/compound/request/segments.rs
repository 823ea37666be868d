//! The request read segment by segment: each segment read alone, joined with the
//! next one, or with what an earlier segment or part gave.

use super::asks::another_place;
use crate::compound::earlier::{
    as_ellipsis, is_condition, over_earlier_list, weekday_of_earlier, with_earlier_date,
    with_earlier_part, without_lead,
};
use crate::compound::parts::{parse_part, quote, split_partly};
use crate::compound::separators::{JOINERS, listed_parts, split_weak, strong_segments};
use crate::compound::whole::frames_reading;
use crate::compound::{Parsed, ParsedPart, PartError, PartQuery};
use crate::dates::DateQuery;
use crate::expr::Expr;
use crate::filler;
use crate::lexer::Token;

/// The parts read from the segments of `toks` (lexed from `src`; `laid_out` when it is
/// a list of parts) and the errors of the segments not read; an error only when a
/// sentence has too many `and`s.
pub(super) fn read_segments(
    toks: &[Token],
    src: &str,
    laid_out: bool,
) -> Result<(Vec<ParsedPart>, Vec<PartError>), PartError> {
    let mut parts = Vec::new();
    let mut failed = Vec::new();
    let cut = match laid_out {
        true => listed_parts(toks),
        false => strong_segments(toks),
    };
    let segments: Vec<&[Token]> = cut
        .into_iter()
        .filter(|segment| {
            let trimmed = filler::trim_symbols(segment);
            let only_joiners = trimmed
                .iter()
                .all(|t| t.word().is_some_and(|w| JOINERS.contains(&w)));
            !(trimmed.is_empty() || only_joiners || filler::is_greeting(segment))
        })
        .collect();
    let mut k = 0;
    while k < segments.len() {
        k = read_segment(&segments, k, src, laid_out, &mut parts, &mut failed)?;
    }
    Ok((parts, failed))
}

/// Reads `segments[k]` into `parts` or `failed`; returns the index of the segment to
/// read next (past the next one when it was read with this one).
fn read_segment(
    segments: &[&[Token]],
    k: usize,
    src: &str,
    laid_out: bool,
    parts: &mut Vec<ParsedPart>,
    failed: &mut Vec<PartError>,
) -> Result<usize, PartError> {
    // After an earlier segment, a segment's leading joining words (`, còn …`, `;
    // and also …`) only join it on.
    let segment = match k {
        0 => segments[0],
        _ => without_lead(segments[k]),
    };
    let k = k + 1;
    let whole = match split_weak(segment, src) {
        Ok(found) => return Ok(read_alone(segment, found, segments, k, src, parts)),
        Err(PartError::TooManyParts) => return Err(PartError::TooManyParts),
        Err(whole) => whole,
    };
    // `nhận 25 triệu, chia đôi`: an amount said among words, then an operation on it
    // (two segments only, the amount first).
    if !laid_out
        && k == 1
        && segments.len() == 2
        && let Some(next) = segments.get(k).map(|s| without_lead(s))
        && let Some(n) = crate::frames::amount_before_operation(segment, next)
    {
        parts.push(ParsedPart {
            text: quote(segment, src),
            query: PartQuery::Math(Expr::Num(n)),
        });
        return Ok(k);
    }
    // A statement and the question about it, in two sentences: `I was born on 12
    // June 1994, how old am I`, `if it's 9am in Paris, what time is it in Seoul`.
    if let Some(next) = segments.get(k).map(|s| without_lead(s))
        && with_next(segment, next, src, parts, failed)
    {
        return Ok(k + 1);
    }
    if let Some(part) = with_earlier(segment, segments, k, parts, src) {
        parts.push(part);
        return Ok(k);
    }
    // A listed part is a request of its own: every reader of a whole request, and
    // the quantity frames, may read it.
    if laid_out
        && let Some(Parsed {
            parts: found,
            failed: none,
        }) = super::read_request(segment, src)
            .ok()
            .or_else(|| frames_reading(segment, src))
        && none.is_empty()
        && !found.is_empty()
    {
        parts.extend(found);
        return Ok(k);
    }
    read_partly(segment, whole, src, parts, failed);
    Ok(k)
}

/// The parts of `segment`, read alone as `found`, pushed to `parts`: a date stated
/// and the question after it read together instead; returns the index of the segment
/// to read next.
fn read_alone(
    segment: &[Token],
    found: Vec<ParsedPart>,
    segments: &[&[Token]],
    k: usize,
    src: &str,
    parts: &mut Vec<ParsedPart>,
) -> usize {
    // `my wedding is on december 28, how many days left`: a statement that
    // reads alone, and a question that only reads with it.
    let states_a_date = matches!(
        found.as_slice(),
        [ParsedPart {
            query: PartQuery::Date(DateQuery::Anchored { .. }),
            ..
        }]
    );
    if states_a_date
        && let Some(next) = segments.get(k).map(|s| without_lead(s))
        && split_weak(next, src).is_err()
    {
        let joined: Vec<Token> = segment.iter().chain(next).cloned().collect();
        if let Ok(query @ PartQuery::Date(_)) = parse_part(&joined, src) {
            parts.push(ParsedPart {
                text: quote(&joined, src),
                query,
            });
            return k + 1;
        }
    }
    parts.extend(found);
    k
}

/// `segment` read with the `next` one into `parts` (or named in `failed`), when it
/// says what the question of the next one needs; whether it was.
fn with_next(
    segment: &[Token],
    next: &[Token],
    src: &str,
    parts: &mut Vec<ParsedPart>,
    failed: &mut Vec<PartError>,
) -> bool {
    let joined: Vec<Token> = segment.iter().chain(next).cloned().collect();
    // (The statement must say something the question needs: read alike without
    // it, it is a part of its own, understood or not.)
    let alone = parse_part(next, src).ok();
    if let Ok(query) = parse_part(&joined, src)
        && alone.as_ref() != Some(&query)
    {
        parts.push(ParsedPart {
            text: quote(&joined, src),
            query,
        });
        return true;
    }
    // A condition not understood: the question after it is not answered alone
    // (the time asked *if* …, never the time now).
    if is_condition(segment) {
        failed.push(PartError::NotUnderstood(quote(&joined, src)));
        return true;
    }
    false
}

/// `segment` (`segments[k - 1]`) read with what an earlier segment or an earlier part
/// gave, as one part.
fn with_earlier(
    segment: &[Token],
    segments: &[&[Token]],
    k: usize,
    parts: &[ParsedPart],
    src: &str,
) -> Option<ParsedPart> {
    // `…, and how many days until that day`: the date of an earlier segment.
    if let Some(part) = with_earlier_date(segment, &segments[..k - 1], src) {
        return Some(part);
    }
    // `the smallest of 4, 9, 2 and their sum`: the numbers of the list before.
    if let Some(part) = over_earlier_list(segment, parts, src) {
        return Some(part);
    }
    // `What's 18% of 250? Also 250 minus that?`: the answer of the part before.
    if let Some(part) = with_earlier_part(segment, parts, src) {
        return Some(part);
    }
    // `2 tuần nữa là ngày mấy, thứ mấy?`: a bare weekday question after a part that
    // gives a date asks that date's weekday.
    if let Some(part) = weekday_of_earlier(segment, parts, src) {
        return Some(part);
    }
    // `Giờ ở London là mấy giờ, còn ở Sydney?`: the segment before, one part replaced.
    k.checked_sub(2)
        .and_then(|j| as_ellipsis(segment, segments[j], src))
}

/// What `segment` reads of its parts, when it does not read whole (`whole` its
/// error): the parts read kept, and another place for the time read from the rest.
fn read_partly(
    segment: &[Token],
    whole: PartError,
    src: &str,
    parts: &mut Vec<ParsedPart>,
    failed: &mut Vec<PartError>,
) {
    let (found, missed) = split_partly(segment, src);
    if found.is_empty() {
        failed.push(whole);
    } else {
        parts.extend(found);
        // `time in toronto and shenzhen right now`: another place for the time.
        for e in missed {
            match e.text().and_then(|t| another_place(&t, parts.last())) {
                Some(part) => parts.push(part),
                None => failed.push(e),
            }
        }
    }
}
