//! The cases that replace a when: a year moved, a date, a day and month, a term, a time,
//! a named day, a weekday — and `d/m` alone, a day and month or a fraction.

use super::words::{OPERATION_WORDS, TERM_UNITS};
use super::{Decided, Parts, phrase_is_whole, pwords_of, replace_phrase};
use crate::lexer::{Tok, Token};
use crate::recall::{date_span, fraction_at, splice};

/// The year after / before the date asked about.
pub(super) fn year_shifted(p: &Parts) -> Decided {
    let words: Vec<&str> = p.core.iter().filter_map(|t| t.word()).collect();
    let years = match words.as_slice() {
        ["the", "year", "after"]
        | ["year", "after"]
        | ["next", "year"]
        | ["the", "next", "year"]
        | ["the", "following", "year"]
        | ["following", "year"]
        | ["a", "year", "later"]
        | ["năm", "sau"] => 1,
        ["the", "year", "before"]
        | ["year", "before"]
        | ["the", "previous", "year"]
        | ["previous", "year"]
        | ["a", "year", "earlier"]
        | ["năm", "trước"] => -1,
        _ => return None,
    };
    Some(year_moved(p, years))
}

/// `previous` with its date moved by `years` (the day before when the day is not in
/// that year: 29 February).
fn year_moved(p: &Parts, years: i32) -> Option<String> {
    let (span, iso) = date_span(&p.ptoks)?;
    let iso = iso?;
    let y: i32 = iso.get(..4)?.parse().ok()?;
    let (m, d): (u32, u32) = (iso.get(5..7)?.parse().ok()?, iso.get(8..10)?.parse().ok()?);
    let moved = crate::lexer::iso_date(y + years, m, d)
        .or_else(|| crate::lexer::iso_date(y + years, m, d - 1))?;
    Some(splice(p.previous, span, &moved))
}

/// A date in place of the date: digits (`30/11/2003`) or words (`1 jan 2000`).
pub(super) fn date_for_date(p: &Parts) -> Decided {
    let ((start, end), _) = date_span(p.core)?;
    Some(date_span(&p.ptoks).map(|(span, _)| splice(p.previous, span, &p.follow[start..end])))
}

/// A day and month in place of the day and month, the date or today (`and the physics
/// one on jan 18?` after `… my calc exam on jan 11`, `same but from jan 4` after `12
/// weeks from today`); other words only name what it is.
pub(super) fn day_month_for_date(p: &Parts) -> Decided {
    let (core, ptoks) = (p.core, &p.ptoks);
    let (k, end) = (0..core.len()).find_map(|k| {
        crate::dates::day_month_end(core, k)
            // (`30/4` is the branch below's: a fraction or a day and month.)
            .filter(|_| !core.get(k + 1).is_some_and(|t| t.is_sym('/')))
            .map(|e| (k, e))
    })?;
    if core[..k].iter().chain(&core[end..]).any(|t| {
        matches!(t.tok, Tok::Num(_)) || t.word().is_some_and(|w| OPERATION_WORDS.contains(&w))
    }) {
        return None;
    }
    let new = &p.follow[core[k].start..core[end - 1].end];
    let old = date_span(ptoks)
        .map(|(span, _)| span)
        .or_else(|| {
            (0..ptoks.len()).find_map(|i| {
                crate::dates::day_month_end(ptoks, i).map(|e| (ptoks[i].start, ptoks[e - 1].end))
            })
        })
        .or_else(|| {
            ptoks
                .iter()
                .find(|t| t.word().is_some_and(|w| matches!(w, "today" | "now")))
                .map(|t| (t.start, t.end))
        });
    Some(old.map(|old| splice(p.previous, old, new)))
}

/// Whether a term starts at `k` of `toks`: a number of periods, said in digits or as
/// `một`/`a`/`one`, not what a rate is per.
fn term_at(toks: &[Token], k: usize) -> bool {
    let count = matches!(toks[k].tok, Tok::Num(_))
        || toks[k]
            .word()
            .is_some_and(|w| matches!(w, "một" | "a" | "one"));
    let unit = toks
        .get(k + 1)
        .and_then(Token::word)
        .is_some_and(|w| TERM_UNITS.contains(&w));
    let rate = k > 0 && toks[k - 1].is_sym('/');
    count && unit && !rate
}

/// A term in place of the term (`còn gửi 6 tháng thì sao` after `gửi 200 triệu, lãi
/// 5,6%/năm, một năm được bao nhiêu tiền lãi`): a number of periods, said in digits or
/// as `một`/`a`/`one`.
pub(super) fn term_for_term(p: &Parts) -> Decided {
    let (core, ptoks) = (p.core, &p.ptoks);
    let core_terms: Vec<usize> = (0..core.len()).filter(|&k| term_at(core, k)).collect();
    let prev_terms: Vec<usize> = (0..ptoks.len()).filter(|&k| term_at(ptoks, k)).collect();
    let core_numbers = core.iter().filter(|t| matches!(t.tok, Tok::Num(_))).count();
    let ([k], [pk], 1) = (core_terms.as_slice(), prev_terms.as_slice(), core_numbers) else {
        return None;
    };
    let only_term = matches!(core[*k].tok, Tok::Num(_))
        && core.iter().enumerate().all(|(j, t)| {
            j == *k
                || j == *k + 1
                || t.word().is_some_and(|w| {
                    // (`thế kỳ hạn 6 tháng thì được bao nhiêu`: a term is named so.)
                    pwords_of(ptoks).contains(&w) || matches!(w, "kỳ" | "hạn" | "term")
                })
        });
    if !only_term {
        return None;
    }
    let span = (ptoks[*pk].start, ptoks[pk + 1].end);
    let new = &p.follow[core[*k].start..core[k + 1].end];
    Some(Some(splice(p.previous, span, new)))
}

/// A time in place of the time (`còn 9h tối` after `9h sáng ở Đà Nẵng là mấy giờ bên
/// Osaka`); passes when the last question has none.
pub(super) fn time_for_time(p: &Parts) -> Decided {
    let time_end = |toks: &[Token], k: usize| crate::places::time_at(toks, k).map(|(_, e)| e);
    if !phrase_is_whole(p.core, time_end) {
        return None;
    }
    replace_phrase(p.previous, &p.ptoks, p.core, p.follow, time_end).map(Some)
}

/// A named day in place of the named day (`and new year?` after `how many days
/// until christmas`); passes when the last question has none.
pub(super) fn named_day_for_named_day(p: &Parts) -> Decided {
    let end_at = crate::dates::named_day_end;
    if !phrase_is_whole(p.core, end_at) {
        return None;
    }
    replace_phrase(p.previous, &p.ptoks, p.core, p.follow, end_at).map(Some)
}

/// A weekday in place of the weekday (`còn thứ 6 tuần sau?` after `thứ 6 tuần này
/// là ngày mấy`): the follow-up is that weekday alone.
pub(super) fn weekday_for_weekday(p: &Parts) -> Decided {
    let end_at = crate::dates::weekday_phrase_end;
    if !phrase_is_whole(p.core, end_at) {
        return None;
    }
    Some(replace_phrase(
        p.previous, &p.ptoks, p.core, p.follow, end_at,
    ))
}

/// `d/m` alone: a day and month in place of the date (`thế còn 30/4?`), or a
/// fraction in place of the fraction (`còn 45/50` after `42/50 là bao nhiêu phần
/// trăm`) — whichever the last question had.
pub(super) fn day_month_or_fraction(p: &Parts) -> Decided {
    let [a, _, _] = p.core else {
        return None;
    };
    let (x, y) = fraction_at(p.core, 0)?;
    if let Some((span, iso)) = date_span(&p.ptoks) {
        return Some(day_month_for_whole_date(p, span, iso, (x, y)));
    }
    let fractions: Vec<usize> = (0..p.ptoks.len())
        .filter(|&k| fraction_at(&p.ptoks, k).is_some())
        .collect();
    let [k] = fractions.as_slice() else {
        return Some(None);
    };
    let span = (p.ptoks[*k].start, p.ptoks[k + 2].end);
    Some(Some(splice(
        p.previous,
        span,
        &p.follow[a.start..p.core[2].end],
    )))
}

/// `previous` with its date (at `span`, `iso` when it is a whole date) replaced by the
/// day and month `x/y` reads as.
fn day_month_for_whole_date(
    p: &Parts,
    span: (usize, usize),
    iso: Option<String>,
    (x, y): (u32, u32),
) -> Option<String> {
    let (previous, ptoks) = (p.previous, &p.ptoks);
    let vi = crate::language::detect(previous, None).is_vi();
    let (day, month) = match (x <= 12, y <= 12) {
        (_, true) if vi => (x, y),
        (false, true) => (x, y),
        (true, false) => (y, x),
        _ => return None,
    };
    crate::lexer::iso_date(2000, month, day)?;
    // The year the last date had, kept when its weekday was asked: `còn ngày
    // 31/12?` after `20/12/2026 là thứ mấy` (days until `2/9` is the next 2/9).
    let weekday = ptoks.iter().enumerate().any(|(k, t)| {
        t.word().is_some_and(|w| matches!(w, "weekday" | "week"))
            || t.word() == Some("thứ")
                && ptoks
                    .get(k + 1)
                    .and_then(Token::word)
                    .is_some_and(|w| matches!(w, "mấy" | "gì" | "nào"))
    });
    let year = iso.filter(|_| weekday);
    let year = year.as_deref().and_then(|d| d.get(..4)).filter(|y| {
        y.parse::<i32>()
            .is_ok_and(|y| crate::lexer::iso_date(y, month, day).is_some())
    });
    let written = match (vi, year) {
        (true, Some(y)) => format!("{day} tháng {month} năm {y}"),
        // (As typed, day first: the day and month the user wrote.)
        (true, None) => format!("{day}/{month}"),
        (false, Some(y)) => format!(
            "{} {day} {y}",
            crate::wording::MONTHS.get(month as usize - 1)?
        ),
        (false, None) => {
            format!("{} {day}", crate::wording::MONTHS.get(month as usize - 1)?)
        }
    };
    Some(splice(previous, span, &written))
}
