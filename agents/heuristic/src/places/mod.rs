//! Time at places: "what time is it in Tokyo", "mấy giờ rồi ở New York" (`time_in`), and
//! "convert 09:00 Hanoi time to London time", "9 giờ sáng ở Hà Nội là mấy giờ ở London"
//! (`convert_time`). The place is passed as the user wrote it; the date server resolves
//! it against the time-zone database (and says so when it cannot), so no list of cities
//! is kept here.

use crate::dates::DateQuery;
use crate::lexer::{Tok, Token, words_at};
use convert::convert;
use words::{AROUND, ASKS_TIME, AT, STOP};

mod convert;
mod difference;
mod loose;
mod pronouns;
mod words;

pub use convert::time_at;
pub use difference::{time_difference, time_named};
pub use loose::loose_convert;
pub use pronouns::pronoun_place;

/// Reads `toks` (from `src`) as a question about the time at places.
pub fn parse(toks: &[Token], src: &str) -> Option<DateQuery> {
    let toks = trim_punctuation(toks);
    // (A place that is a pronoun, `giờ bên họ`, names no zone: the loose reader finds
    // the place it points back to.)
    let named = |p: &str| !loose::is_pronoun(p);
    convert(toks, src)
        .filter(|q| match q {
            DateQuery::ConvertTime { from, to, .. } => named(from) && named(to),
            _ => true,
        })
        .or_else(|| time_in(toks, src))
}

fn trim_punctuation(toks: &[Token]) -> &[Token] {
    let end = toks
        .iter()
        .rposition(|t| !matches!(t.tok, Tok::Sym('?' | '!' | '.')))
        .map_or(0, |k| k + 1);
    &toks[..end]
}

/// The place name from `i`: a run of words (and `-`, `'`, `.`) up to a stop word; its
/// text and the index after it.
fn place_at(toks: &[Token], i: usize, src: &str) -> Option<(String, usize)> {
    let mut end = i;
    while let Some(t) = toks.get(end) {
        let ok = match &t.tok {
            Tok::Word(w) => !STOP.contains(&w.as_str()),
            Tok::Sym('-' | '\'' | '.') => end > i,
            _ => false,
        };
        if !ok || end - i >= 5 {
            break;
        }
        end += 1;
    }
    let first = toks.get(i)?;
    (end > i && first.word().is_some()).then(|| {
        let text = &src[first.start..toks[end - 1].end];
        (own_place(text).unwrap_or(text).to_owned(), end)
    })
}

/// The user's own place as people name it (`9pm my time`, `ở đây`, `ở nhà mình`): the
/// date tools' `here`, the call's own time zone.
fn own_place(text: &str) -> Option<&'static str> {
    let own = [
        "my",
        "me",
        "mine",
        "here",
        "local",
        "đây",
        "mình",
        "nhà mình",
        "nhà",
        "chỗ mình",
        "bên mình",
        "bên này",
    ];
    own.contains(&text.to_lowercase().as_str())
        .then_some("here")
}

/// `what time is it in Tokyo`: every word asks for the time, but one place after `in`.
fn time_in(toks: &[Token], src: &str) -> Option<DateQuery> {
    // Whether a token only asks for the time (`what`, `is`, `it`, `?`).
    let fits = |t: &Token| match &t.tok {
        Tok::Word(w) => AROUND.contains(&w.as_str()),
        Tok::Sym(c) => "'?".contains(*c),
        _ => false,
    };
    // `what time is it here`: the user's own clock.
    if let Some(h) = toks.iter().rposition(|t| t.word().is_some())
        && toks[h].word() == Some("here")
        && toks[..h].iter().all(fits)
        && toks[h + 1..].iter().all(fits)
        && (0..h).any(|i| ASKS_TIME.iter().any(|p| words_at(toks, i, p)))
    {
        return Some(DateQuery::TimeIn {
            place: "here".to_owned(),
        });
    }
    let k = toks
        .iter()
        .position(|t| t.word().is_some_and(|w| AT.contains(&w)))?;
    let (place, after) = place_at(toks, k + 1, src)?;
    let asks = (0..toks.len())
        .filter(|i| *i < k || *i >= after)
        .any(|i| ASKS_TIME.iter().any(|p| words_at(toks, i, p)));
    let rest_fits = toks[..k].iter().chain(&toks[after..]).all(fits);
    (asks && rest_fits).then_some(DateQuery::TimeIn { place })
}

#[cfg(test)]
mod tests;
