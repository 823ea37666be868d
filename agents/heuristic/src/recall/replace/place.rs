//! A place in place of the place asked about.

use super::words::{NOT_PLACE_WORDS, OPERATION_WORDS};
use super::{Decided, Parts};
use crate::lexer::Tok;
use crate::recall::splice;

/// A place in place of the place asked about: decides when the follow-up is a few
/// words that may name a place.
pub(super) fn place_for_place(p: &Parts) -> Decided {
    let core = p.core;
    let words: Vec<&str> = core.iter().filter_map(|t| t.word()).collect();
    let place_words = !core.is_empty()
        && core.len() <= 5
        && core
            .iter()
            .all(|t| matches!(t.tok, Tok::Word(_) | Tok::Sym('-' | '\'' | '.')))
        && !words
            .iter()
            .any(|w| NOT_PLACE_WORDS.contains(w) || OPERATION_WORDS.contains(w));
    place_words.then(|| place_replaced(p))
}

/// `previous` with the place it asks the time in (or converts a time to) replaced by
/// the follow-up's.
fn place_replaced(p: &Parts) -> Option<String> {
    let (previous, ptoks, core) = (p.previous, &p.ptoks, p.core);
    let asked = match crate::places::parse(ptoks, previous)
        .or_else(|| crate::places::loose_convert(ptoks, previous))
        // (`bây giờ London mấy giờ`: the place named without a preposition.)
        .or_else(|| crate::places::time_named(ptoks, previous))?
    {
        crate::dates::DateQuery::TimeIn { place } => place,
        crate::dates::DateQuery::ConvertTime { to, .. } => to,
        _ => return None,
    };
    let lead = core
        .first()
        .and_then(|t| t.word())
        .is_some_and(|w| matches!(w, "in" | "at" | "ở" | "tại" | "bên"));
    let place = &core[usize::from(lead)..];
    let (first, last) = (place.first()?, place.last()?);
    let new = &p.follow[first.start..last.end];
    let at = previous.rfind(asked.as_str())?;
    Some(splice(previous, (at, at + asked.len()), new))
}
