//! A time at one place converted to another, and the time of day it is read from.

use super::place_at;
use super::words::{AROUND, ASKS_TIME, AT, CONDITIONS, CONVERT, EVENT, HOUR_PHRASES, STOP};
use crate::dates::DateQuery;
use crate::lexer::{Tok, Token, words_at};

/// What a trip does at a place named right after it (`flight leaves seoul 08:15`).
const DEPARTS: &[&str] = &["leaves", "departs", "lands", "arrives"];

/// `convert 09:00 Hanoi time to London time`, `9am in Tokyo is what time in London`,
/// `9 giờ sáng ở Hà Nội là mấy giờ ở London`: a time, then two places.
pub(super) fn convert(toks: &[Token], src: &str) -> Option<DateQuery> {
    // (`còn ở melbourne 8h tối thì ở ninh bình mấy giờ`, `con o melbourne …` — `con`, the
    // child speaking: a word opening the turn before the place.)
    let opening = toks
        .first()
        .and_then(Token::word)
        .is_some_and(|w| matches!(w, "còn" | "con" | "vậy" | "thế"))
        && toks
            .get(1)
            .and_then(Token::word)
            .is_some_and(|w| AT.contains(&w));
    if opening {
        return convert_from(&toks[1..], src).or_else(|| convert_from(toks, src));
    }
    convert_from(toks, src)
}

/// [`convert`] of `toks` as they start.
fn convert_from(toks: &[Token], src: &str) -> Option<DateQuery> {
    let (lead, mut at) = match CONVERT.iter().find(|w| words_at(toks, 0, w)) {
        Some(w) => (true, w.len()),
        None => (false, 0),
    };
    // A condition: the time stated (`if it's 9am in Paris`), the other place asked.
    if let Some(c) = CONDITIONS.iter().find(|w| words_at(toks, 0, w)) {
        at = c.len();
        while toks.get(at).is_some_and(|t| {
            t.is_sym('\'')
                || t.word()
                    .is_some_and(|w| matches!(w, "it" | "is" | "s" | "it's" | "its" | "là"))
        }) {
            at += 1;
        }
    }
    // `call is at 2pm LA time, …`, `cuộc họp lúc 9 giờ …`, `if I call home at 7pm …`:
    // what happens at the time.
    let place_first = toks
        .get(at)
        .and_then(Token::word)
        .is_some_and(|w| AT.contains(&w));
    if !lead && !place_first && time_at(toks, at).is_none() {
        let from = at;
        at = (from..toks.len().min(from + 10))
            .find(|&j| time_at(toks, j).is_some())
            .filter(|&j| {
                // (`the final is on saturday nov 28 at 20:00`: a day and month may say
                // when, its number no time.)
                let dated: Vec<usize> = (from..j)
                    .filter_map(|k| crate::dates::day_month_end(toks, k).map(|e| k..e))
                    .flatten()
                    .collect();
                let words = (from..j).all(|k| toks[k].word().is_some() || dated.contains(&k));
                // (`standup is at 09:30`: any name before `at`.)
                // (`flight leaves seoul 08:15`: a place right after what happens.)
                let departs = j >= from + 2
                    && toks[j - 1].word().is_some()
                    && toks[j - 2].word().is_some_and(|w| DEPARTS.contains(&w));
                let named = departs
                    || j > from
                        && toks[j - 1].word().is_some_and(|w| {
                            matches!(w, "at" | "lúc" | "starts" | "begins" | "vào")
                                // (`giải đấu bắt đầu 21h ở Seoul`.)
                                || w == "đầu" && j >= 2 && toks[j - 2].word() == Some("bắt")
                        });
                toks[from..j]
                    .iter()
                    .all(|t| t.word().is_some_and(|w| EVENT.contains(&w)))
                    || words && named
            })?;
    }
    let mut places = Vec::new();
    // `nếu ở Hà Nội là 8 giờ tối thì …`, `in Tokyo it's 9am, …`: the place first.
    if time_at(toks, at).is_none()
        && toks
            .get(at)
            .and_then(Token::word)
            .is_some_and(|w| AT.contains(&w))
    {
        let (place, mut next) = place_at(toks, at + 1, src)?;
        while toks.get(next).is_some_and(|t| {
            t.is_sym('\'')
                || t.is_sym(',')
                || t.word()
                    .is_some_and(|w| matches!(w, "it" | "is" | "s" | "it's" | "its" | "là" | "lúc"))
        }) {
            next += 1;
        }
        places.push(place);
        at = next;
    }
    // `client in toronto wants a call at 10am his time`: a place said before the time,
    // which `his time` then names.
    let said_before = (0..at).find_map(|k| {
        toks[k]
            .word()
            .filter(|w| matches!(*w, "in" | "ở" | "tại"))?;
        // The place's words end at the first word of what happens (`wants a call`).
        let end = (k + 1..at)
            .find(|&e| {
                toks[e].word().is_none_or(|w| {
                    EVENT.contains(&w)
                        || matches!(
                            w,
                            "wants"
                                | "want"
                                | "needs"
                                | "wanna"
                                | "closes"
                                | "opens"
                                | "close"
                                | "open"
                                | "are"
                                | "was"
                                | "said"
                                | "says"
                        )
                })
            })
            .unwrap_or(at);
        let (first, last) = (toks.get(k + 1)?, toks.get(end.checked_sub(1)?)?);
        (end > k + 1).then(|| src[first.start..last.end].to_owned())
    });
    // (`flight leaves seoul 08:15, what time is that in vietnam`: the place named right
    // before the time, after what happens there.)
    let said_before = said_before.or_else(|| {
        let place = toks.get(at.checked_sub(1)?)?;
        let verb = toks.get(at.checked_sub(2)?)?.word()?;
        let happens = DEPARTS.contains(&verb) || matches!(verb, "opens" | "closes" | "from");
        let named = place
            .word()
            .is_some_and(|w| !STOP.contains(&w) && !AROUND.contains(&w));
        (happens && named).then(|| src[place.start..place.end].to_owned())
    });
    let (time, mut i) = time_at(toks, at)?;
    let mut asks = false;
    // How many places were said before the time was asked about outright.
    let mut before_ask: Option<usize> = None;
    while i < toks.len() {
        // (Asked outright: `what time is that`, `what time is it`, `what's that`.)
        let outright = [
            &["what", "time", "is", "that"][..],
            &["what", "time", "is", "it"],
            &["what", "time", "in"],
            &["what's", "that"],
            &["whats", "that"],
        ]
        .iter()
        .any(|p| words_at(toks, i, p));
        if outright && before_ask.is_none() {
            before_ask = Some(places.len());
        }
        let theirs = toks[i]
            .word()
            .is_some_and(|w| matches!(w, "his" | "her" | "their" | "your"))
            && toks.get(i + 1).and_then(Token::word) == Some("time");
        if theirs && let Some(place) = said_before.clone() {
            places.push(place);
            i += 2;
            continue;
        }
        // (`what's that in Berlin`: the stated time, asked elsewhere.)
        asks |= ASKS_TIME.iter().any(|p| words_at(toks, i, p))
            || [
                &["what's", "that"][..],
                &["whats", "that"],
                &["what", "is", "that"],
                &["that", "in"],
            ]
            .iter()
            .any(|p| words_at(toks, i, p));
        // `… in Berlin for my colleague`: who it is for ends the question; `what time
        // is that for me in hanoi` only says who asks.
        if toks[i].word() == Some("for") {
            if places.len() >= 2 {
                break;
            }
            let who = toks.get(i + 1).and_then(Token::word);
            i += 1 + usize::from(matches!(who, Some("me" | "us" | "him" | "her" | "them")));
            // `for my client in toronto`: who, up to the place after `in`.
            if let Some(k) = (i..toks.len().min(i + 4)).find(|&k| toks[k].word() == Some("in"))
                && toks[i..k].iter().all(|t| t.word().is_some())
            {
                i = k;
            }
            continue;
        }
        match &toks[i].tok {
            Tok::Word(w) if STOP.contains(&w.as_str()) || AROUND.contains(&w.as_str()) => {
                i += 1;
            }
            Tok::Word(_) => {
                let (place, next) = place_at(toks, i, src)?;
                places.push(place);
                i = next;
            }
            // (`5:45pm here = what time in hanoi`)
            Tok::Sym(',' | '\'' | '=') => i += 1,
            _ => return None,
        }
    }
    // `supplier in shenzhen closes at 6pm, what time is that for my client in toronto`:
    // the place said before the time is where the time is.
    let said_before_kept = said_before.clone();
    if let ([to], Some(from)) = (places.as_slice(), said_before) {
        places = vec![from, to.clone()];
    }
    // `my shift ends at 1:30am, what time is that in hanoi`: from here; `a call at 8pm
    // vietnam time, what time is that for me`: to here. (`… for them`, `… what time is
    // it there`: someone else's place, never here.)
    let elsewhere = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "them" | "him" | "her" | "there" | "their" | "his"))
    });
    if let ([place], None, Some(before), false) =
        (places.as_slice(), said_before_kept, before_ask, elsewhere)
    {
        let here = "here".to_owned();
        places = match before {
            0 => vec![here, place.clone()],
            _ => vec![place.clone(), here],
        };
    }
    match places.as_slice() {
        [from, to] if lead || asks => Some(DateQuery::ConvertTime {
            time,
            from: from.clone(),
            to: to.clone(),
        }),
        _ => None,
    }
}

/// A time of day at `i`: `09:00`, `9:30 pm`, `9am`, `9 p.m.`, `9h30`, `9 giờ 30`,
/// `3 giờ chiều`. As `HH:MM` (24-hour) and the index after it.
pub fn time_at(toks: &[Token], i: usize) -> Option<(String, usize)> {
    let number = |k: usize| match &toks.get(k)?.tok {
        Tok::Num(n) if !n.contains('.') => n.parse::<u32>().ok(),
        _ => None,
    };
    let h = number(i)?;
    let mut k = i + 1;
    let mut m = 0;
    let word = |k: usize| toks.get(k).and_then(Token::word);
    if toks.get(k).is_some_and(|t| t.is_sym(':')) {
        m = number(k + 1)?;
        k += 2;
    } else if matches!(word(k), Some("h" | "giờ")) {
        k += 1;
        if let Some(mm) = number(k) {
            m = mm;
            k += 1;
            if word(k) == Some("phút") {
                k += 1;
            }
        }
    } else if let Some(part) = (word(k) == Some("in") && word(k + 1) == Some("the"))
        .then(|| word(k + 2))
        .flatten()
        .filter(|w| matches!(*w, "morning" | "afternoon" | "evening"))
    {
        // `9 in the morning`, `3 in the afternoon`.
        let hour = match part {
            "morning" => h % 12,
            _ => h % 12 + 12,
        };
        return (hour < 24).then(|| (format!("{hour:02}:00"), k + 3));
    } else if !matches!(word(k), Some("am" | "pm" | "a" | "p")) {
        return None; // a bare number is not a time
    }
    // (`10:30am`: its `30am` is no time — a clock of twelve hours has no hour 30.)
    if matches!(word(k), Some("am" | "pm" | "a" | "p")) && h > 12 {
        return None;
    }
    let mut hour = h;
    // `7 giờ tối`, `7h toi`: the part of the day after the hour (the phrases also teach
    // the folded reading `toi` → `tối` after `giờ`).
    let part_of_day = HOUR_PHRASES
        .iter()
        .find(|p| word(k.wrapping_sub(1)) == Some(p[0]) && word(k) == Some(p[1]))
        .map(|p| p[1]);
    match part_of_day.or(word(k)) {
        Some("am" | "sáng") => {
            hour = h % 12;
            k += 1;
        }
        Some("pm" | "chiều" | "tối") => {
            hour = h % 12 + 12;
            k += 1;
        }
        Some("trưa") => k += 1,
        // (`11h đêm` is 23:00, `2 giờ đêm` 02:00, `12 giờ đêm` midnight.)
        Some("đêm") => {
            hour = match h {
                6..=11 => h + 12,
                12 => 0,
                _ => h,
            };
            k += 1;
        }
        Some(half @ ("a" | "p")) if toks.get(k + 1).is_some_and(|t| t.is_sym('.')) => {
            // `9 a.m.`, `9 p.m.`
            if word(k + 2) != Some("m") {
                return None;
            }
            hour = h % 12 + if half == "p" { 12 } else { 0 };
            k += 3;
            if toks.get(k).is_some_and(|t| t.is_sym('.')) {
                k += 1;
            }
        }
        _ => {}
    }
    // (`7 giờ tối nay`, `9am tomorrow`: the day after the time only says which day.)
    if matches!(word(k), Some("tonight" | "tomorrow" | "today"))
        || part_of_day.is_some() && matches!(word(k), Some("nay" | "mai"))
    {
        k += 1;
    }
    (hour < 24 && m < 60).then(|| (format!("{hour:02}:{m:02}"), k))
}
