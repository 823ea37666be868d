//! One part of the last question replaced by the follow-up: a year, date, time, fraction,
//! number of the same kind, price or place.
//!
//! Each kind of part is read by one function, tried in turn (see [`CASES`]): a case that
//! does not fit passes, one that fits decides — with the new question or with none.

mod number;
mod place;
mod when;
mod words;

use super::splice;
use crate::lexer::Token;
use words::PRICE_WORDS;

/// What a case reads: the last question (`previous`, lexed as `ptoks`) and the
/// follow-up's own tokens (`core`, from `follow`).
struct Parts<'a> {
    previous: &'a str,
    ptoks: Vec<Token>,
    core: &'a [Token],
    follow: &'a str,
}

/// What a case makes of the parts: `None` when it does not fit (the next is tried),
/// `Some` of the new question (or of `None`, no question) when it does.
type Decided = Option<Option<String>>;

/// The cases, in the order they are tried.
const CASES: &[fn(&Parts) -> Decided] = &[
    when::year_shifted,
    when::date_for_date,
    when::day_month_for_date,
    when::term_for_term,
    when::time_for_time,
    when::named_day_for_named_day,
    when::weekday_for_weekday,
    when::day_month_or_fraction,
    number::swapped,
    number::number_for_number,
    place::place_for_place,
];

/// `previous` with the part `core` (the follow-up's own tokens, from `follow`) names
/// replaced, when exactly one kind of part fits.
pub(super) fn replace_part(previous: &str, core: &[Token], follow: &str) -> Option<String> {
    let parts = Parts {
        previous,
        ptoks: crate::lexer::lex(previous),
        core,
        follow,
    };
    CASES.iter().find_map(|case| case(&parts)).flatten()
}

/// The one number of `pnums` (positions in `ptoks`) nearest to `new` by its size —
/// within four times, and at least twice as near as the next — which a bare number in a
/// follow-up replaces (`and for 4?` after `C$7,800 in 3 instalments`, `what about
/// $120` after `$36.50 + 13% hst`); `None` when two are about as near.
fn nearest_in_size(ptoks: &[Token], pnums: &[usize], new: &str) -> Option<usize> {
    let new: f64 = new.parse().ok().filter(|v: &f64| *v > 0.0)?;
    let mut far: Vec<(f64, usize)> = pnums
        .iter()
        .filter_map(|&k| {
            let old: f64 = ptoks[k].number()?.parse().ok().filter(|v: &f64| *v > 0.0)?;
            Some(((new / old).ln().abs(), k))
        })
        .collect();
    far.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (best, k) = *far.first()?;
    let apart = far.get(1).is_none_or(|(next, _)| next - best >= 2f64.ln());
    (best <= 4f64.ln() && apart).then_some(k)
}

/// Whether all of `core` is one phrase that `end_at` reads from its start (a time, a
/// named day, a weekday).
fn phrase_is_whole(core: &[Token], end_at: impl Fn(&[Token], usize) -> Option<usize>) -> bool {
    end_at(core, 0) == Some(core.len())
}

/// `previous` with its first phrase that `end_at` reads replaced by all of `core` (as
/// `follow` writes it); `None` when `previous` has no such phrase.
fn replace_phrase(
    previous: &str,
    ptoks: &[Token],
    core: &[Token],
    follow: &str,
    end_at: impl Fn(&[Token], usize) -> Option<usize>,
) -> Option<String> {
    let (at, pend) = (0..ptoks.len()).find_map(|k| end_at(ptoks, k).map(|e| (k, e)))?;
    let span = (ptoks[at].start, ptoks[pend - 1].end);
    let (first, last) = (core.first()?, core.last()?);
    Some(splice(previous, span, &follow[first.start..last.end]))
}

/// The words of `toks`.
fn pwords_of(toks: &[Token]) -> Vec<&str> {
    toks.iter().filter_map(Token::word).collect()
}

/// Whether the number at `i` of `core` has a unit word after it that follows exactly
/// one number of `ptoks` (`18 m2` after `9.5 m2`).
fn same_unit_counted(ptoks: &[Token], core: &[Token], i: usize) -> bool {
    let Some(unit) = core.get(i + 1).and_then(Token::word) else {
        return false;
    };
    // (`85k 1 lít`: the one unit a price is for is no count.)
    // (`7.5 hr shift`, then `and for 9 hours?`: one unit however spelt.)
    let unit = crate::everyday::unit_of(unit);
    ptoks
        .windows(2)
        .filter(|w| {
            matches!(&w[0].tok, crate::lexer::Tok::Num(n) if n != "1")
                && w[1]
                    .word()
                    .is_some_and(|u| crate::everyday::unit_of(u) == unit)
        })
        .count()
        == 1
}

/// Whether `word` names a price, typed with or without marks (`gia tăng lên` keeps
/// `gia`, as `gia tăng` is a word of its own).
fn price_word(word: &str) -> bool {
    PRICE_WORDS.contains(&word) || crate::normalise::fold::fold(word) == "gia"
}
