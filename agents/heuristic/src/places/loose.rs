//! A clock time converted between two places, told loosely across a request (`khach
//! sydney bay luc 23h45 toi nay gio vn, luc do ben sydney may gio`, `Khách ở Chicago hỏi
//! 10 giờ sáng mai giờ Việt Nam là mấy giờ bên họ`, `paris family wants a video call at
//! 9pm vietnam time, what time is that for them`): the one clock time, the place whose
//! time it is (`giờ vn`, `vietnam time`; here when none), and the place asked (after
//! `ở`/`bên`/`in` once the time is asked, or, named by a pronoun — `bên họ`, `for them`
//! — the other place the request names). Words are compared folded: the request may be
//! typed without marks. Read only when the stricter readers found nothing.

use super::convert::time_at;
use super::place_at;
use crate::dates::DateQuery;
use crate::lexer::Token;
use crate::normalise::fold::fold;

/// Words after a clock time that only say which day it is.
const DAY_WORDS: &[&str] = &[
    "tối",
    "nay",
    "sáng",
    "mai",
    "chiều",
    "trưa",
    "đêm",
    "tonight",
    "tomorrow",
    "today",
    "this",
    "morning",
    "evening",
    "afternoon",
    "night",
    "tmrw",
];

/// Words before a place asked about or named.
const AT: &[&str] = &["ở", "bên", "tại", "in", "at"];

/// Words that ask what time it is.
const ASKS: &[&[&str]] = &[
    &["mấy", "giờ"],
    &["what", "time"],
    &["whats", "that"],
    &["what's", "that"],
    &["whats", "the", "time"],
];

/// Words that point back to a place named elsewhere (`bên họ`, `for them`).
const PRONOUNS: &[&str] = &["họ", "them", "đó", "there", "they"];

/// Whether the place phrase `p` is only a pronoun pointing back to a place (`họ`,
/// `them`): no zone of its own.
pub(super) fn is_pronoun(p: &str) -> bool {
    let p = fold(&p.to_lowercase());
    PRONOUNS.iter().any(|w| fold(w) == p)
}

/// Words after a subject that make the word before it a place (`paris family`,
/// `chicago guest`) or before a place (`khách Sydney`).
const SUBJECT_AFTER: &[&str] = &[
    "family", "guest", "guests", "client", "clients", "team", "office", "friend", "friends",
];
const SUBJECT_BEFORE: &[&str] = &["khách", "đối", "tác", "nhà"];

/// The conversion a request tells loosely; `None` unless one time and a place asked
/// other than the one the time is in are found.
pub fn loose_convert(toks: &[Token], src: &str) -> Option<DateQuery> {
    let word = |k: usize| {
        toks.get(k)
            .and_then(Token::word)
            .map(|w| fold(&w.to_lowercase()))
    };
    // (The lists are written with their marks, compared folded: the request may be
    // typed without them. Marked, they teach the normaliser no English word.)
    let is = |k: usize, list: &[&str]| word(k).is_some_and(|w| list.iter().any(|l| fold(l) == w));
    let at_phrase = |k: usize, p: &[&str]| {
        p.iter()
            .enumerate()
            .all(|(j, w)| word(k + j).is_some_and(|t| t == fold(w)))
    };
    let times: Vec<(usize, String, usize)> = (0..toks.len())
        .filter_map(|k| time_at(toks, k).map(|(t, e)| (k, t, e)))
        .collect();
    let [(start, time, end)] = times.as_slice() else {
        return None;
    };
    let asked = (0..toks.len()).find(|&k| ASKS.iter().any(|p| at_phrase(k, p)))?;
    // The place whose time it is: `giờ vn`, `gio ben ho`, `vietnam time`, `my time`.
    let mut k = *end;
    while is(k, DAY_WORDS) {
        k += 1;
    }
    let from = if is(k, &["here"]) || is(k, &["ở"]) && is(k + 1, &["đây"]) {
        // (`if its 7pm here`, `7h tối ở đây`: the user's own zone, said.)
        Some("here".to_owned())
    } else if is(k, &["giờ"]) && !is(k + 1, &["mấy"]) {
        let at = k + 1 + usize::from(is(k + 1, AT));
        place_at(toks, at, src).map(|(p, _)| p)
    } else {
        (k..(k + 4).min(toks.len()))
            .find(|&j| is(j, &["time"]))
            .filter(|&j| {
                // (Words only, none asking: `9am, what time` names no place.)
                j > k
                    && (k..j).all(|i| {
                        toks[i].word().is_some() && !is(i, &["what", "whats", "is", "it", "that"])
                    })
            })
            .map(|j| {
                let text = &src[toks[k].start..toks[j - 1].end];
                match fold(&text.to_lowercase()).as_str() {
                    "my" | "our" | "local" => "here".to_owned(),
                    // (`8pm her time`: the place named for her, found below.)
                    "her" | "his" | "their" => "them".to_owned(),
                    _ => text.to_owned(),
                }
            })
    };
    // (`night shift ends 6am poland, whats that in saigon`, `… 6am in poland, …`: the
    // place right after the time, closed by the question, is where it is.)
    let from = from.or_else(|| {
        let at = k + usize::from(is(k, AT));
        let (place, next) = place_at(toks, at, src)?;
        let closed = toks.get(next).is_some_and(|t| t.is_sym(','))
            || is(next, &["what", "whats", "what's", "là", "thì"]);
        (closed && next - at <= 2 && !is_pronoun(&place)).then_some(place)
    });
    // The place asked: after `ở`/`bên`/`in` near the question.
    let window = asked.saturating_sub(4)..(asked + 9).min(toks.len());
    let mut to = window
        .clone()
        .filter(|&j| is(j, AT) && j > *end)
        .find_map(|j| place_at(toks, j + 1, src).map(|(p, _)| p));
    let pronoun = is_pronoun;
    let points_back = to.as_deref().is_some_and(pronoun)
        || (to.is_none() && window.clone().any(|j| is(j, &["them", "họ"])));
    // (`Khách ở Chicago …`, `khach sydney …`, `paris family …`: the other place.)
    let named = || -> Option<String> {
        (0..*start).find_map(|j| {
            if is(j, AT) || is(j, SUBJECT_BEFORE) {
                place_at(toks, j + 1, src)
                    .map(|(p, _)| p)
                    .filter(|p| !pronoun(p))
            } else if is(j + 1, SUBJECT_AFTER)
                // (`a guest's sydney office`: an article names no place.)
                && toks[j].word().is_some_and(|w| {
                    !matches!(w, "a" | "an" | "the" | "my" | "our" | "his" | "her" | "their" | "your")
                })
            {
                Some(src[toks[j].start..toks[j].end].to_owned())
            } else {
                None
            }
        })
    };
    // (`sydney office opens 10:30am, what time is that here`: here is asked, the place
    // named before the time is where it is.)
    let here_asked = to.is_none()
        && (*end..toks.len()).any(|j| {
            at_phrase(j, &["that", "here"])
                || at_phrase(j, &["it", "here"])
                || at_phrase(j, &["ở", "đây"])
        });
    let from = match from {
        None if here_asked => {
            to = Some("here".to_owned());
            named()
        }
        f => f,
    };
    if points_back || to.is_none() {
        to = named();
    }
    let to = to?;
    let from = match from {
        Some(f) if pronoun(&f) => Some(named().filter(|n| *n != to)?),
        f => f,
    };
    // (With no place the time is in, only `that`, `lúc đó` or `tức là` ask the time
    // converted: `… 9am, what time is it in rome` asks the time now.)
    let refers = (0..toks.len()).any(|j| {
        at_phrase(j, &["is", "that"])
            || at_phrase(j, &["whats", "that"])
            || at_phrase(j, &["what's", "that"])
            || at_phrase(j, &["lúc", "đó"])
            || at_phrase(j, &["tức", "là"])
    });
    // (`we dock in nassau 8am, what time is that in saigon`: the place right before the
    // time is where it is, when the time is referred to.)
    let from = from.or_else(|| {
        if !refers {
            return None;
        }
        (0..*start).find_map(|j| {
            is(j, AT)
                .then(|| place_at(toks, j + 1, src))
                .flatten()
                .filter(|(p, next)| *next == *start && !pronoun(p) && *p != to)
                .map(|(p, _)| p)
        })
    });
    if from.is_none() && !refers {
        return None;
    }
    let from = from.unwrap_or_else(|| "here".to_owned());
    (fold(&from.to_lowercase()) != fold(&to.to_lowercase())).then(|| DateQuery::ConvertTime {
        time: time.clone(),
        from,
        to,
    })
}
