//! Reading a whole request: its segments read in turn, and what each is read as. The
//! few questions asked of the request as a whole are in `asks.rs`; the stages of a
//! reading in `rewrites.rs` (rewritten and read again), `whole_request.rs` (read as a
//! whole), `segments.rs` (read segment by segment) and `after.rs` (passes over the
//! parts read).

mod after;
mod asks;
mod both;
mod rewrites;
mod segments;
mod whole_request;

use super::parts::chain_continuations;
use super::whole::frames_reading;
use super::{Parsed, PartError, PartQuery};
use crate::lexer::Token;
pub(super) use asks::asks_what_is_left;

/// Reads every part of the request `toks` (lexed from `src`). A part that cannot be
/// read is named in `failed` and the rest is kept; it is an error only when no part
/// could be read (the first part's error), or when a sentence has too many `and`s.
pub fn parse_request(toks: &[Token], src: &str) -> Result<Parsed, PartError> {
    let parsed = read_request(toks, src)?;
    // `… total yen? and in dong at 170?`: the first of two questions answered too.
    Ok(both::with_first_answer(toks, parsed, |first| {
        read_request(first, src)
            .ok()
            .filter(|p| p.failed.is_empty())
            .or_else(|| frames_reading(first, src))
    }))
}

/// The whole request read as one quantity frame ([`frames_reading`]), the first of two
/// questions asked in turn answered too (`sending 25,000 yen 4 times, total yen? and
/// in dong at 170?`).
pub fn frames_reading_each(toks: &[Token], src: &str) -> Option<Parsed> {
    let parsed = frames_reading(toks, src)?;
    Some(both::with_first_answer(toks, parsed, |first| {
        read_request(first, src)
            .ok()
            .filter(|p| p.failed.is_empty())
            .or_else(|| frames_reading(first, src))
    }))
}

/// `toks` read with a weight asked in another unit than their weights are said in, the
/// one answer shifted into the unit asked (`1 gói 250g, 40 gói là mấy ký`: 10).
fn in_asked_unit(toks: &[Token], src: &str) -> Option<Parsed> {
    let (said, places) = crate::weights::asked::in_said_unit(toks)?;
    let value = match read_request(&said, src) {
        Ok(p) => p.only_math()?.clone(),
        // (`1 sao được 380kg nhân, nhà có 25 sao`: a quantity frame over the whole.)
        Err(_) => frames_reading(&said, src)
            .and_then(|p| p.only_math().cloned())
            .or_else(|| crate::weights::asked::one_weight(&said))?,
    };
    let e = crate::weights::asked::shifted(value, places)?;
    Some(Parsed::one(
        super::parts::quote(toks, src),
        PartQuery::Math(e),
    ))
}

/// [`parse_request`] before a first question is answered on its own.
fn read_request(toks: &[Token], src: &str) -> Result<Parsed, PartError> {
    // `1. 8 x 35k 2. cong 50k tien com`: a request laid out as a list of parts is read
    // part by part, never as one problem over all its numbers.
    let laid_out = super::separators::laid_out(toks);
    // (A rounding said at the end rounds the rest however it is read, rewritten too:
    // `… 10% off then 9.5% tax, what do i pay to the cent`.)
    if let Some(parsed) = whole_request::rounded(toks, src, laid_out) {
        return Ok(parsed);
    }
    if let Some(parsed) = in_asked_unit(toks, src) {
        return Ok(parsed);
    }
    // (Counts within counts, `3 chuyến, mỗi chuyến 18 bao, mỗi bao 50 ký`: their product,
    // before any rewrite or segment takes one count for a list's item.)
    if !laid_out && let Some(e) = crate::within::parse(toks) {
        return Ok(Parsed::one(
            super::parts::quote(toks, src),
            PartQuery::Math(e),
        ));
    }
    if let Some(read) = rewrites::read_rewritten(toks, src) {
        return read;
    }
    if let Some(parsed) = whole_request::read_whole(toks, src, laid_out) {
        return Ok(parsed);
    }
    let (mut parts, mut failed) = segments::read_segments(toks, src, laid_out)?;
    after::merge_bare_dates(&mut parts);
    if let Some(parsed) = after::only_answer_asked(toks, src, laid_out, &parts, &mut failed) {
        return Ok(parsed);
    }
    let mut parts = match chain_continuations(parts, laid_out) {
        Ok(parts) if failed.is_empty() => parts,
        read => match after::read_as_one(toks, src, laid_out) {
            Some(parsed) => return Ok(parsed),
            None => read?,
        },
    };
    after::for_people(toks, &mut parts, &mut failed);
    after::unanswered(&mut parts, &mut failed);
    after::summed(toks, src, laid_out, &mut parts, &mut failed);
    after::both_asked(toks, &mut parts);
    match (parts.is_empty(), failed.is_empty()) {
        (true, false) => Err(failed.swap_remove(0)),
        _ => Ok(Parsed { parts, failed }),
    }
}
