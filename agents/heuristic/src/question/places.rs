//! Questions about the place a time is asked for: `there` with no place named (`what
//! time is it there now`, `bên đó giờ mấy giờ rồi`), and a country whose clocks differ
//! from coast to coast (`what time is it in america right now`).

use chorus_bus::Language;

use super::{Expect, Fill, Question};
use crate::dates::DateQuery;
use crate::lexer::{Token, words_at};
use crate::normalise::fold::fold;

/// The words a place is pointed at with, not named: `there`, `bên đó`.
fn there_at(toks: &[Token], i: usize) -> Option<usize> {
    if toks[i].word() == Some("there") {
        // (`is there …`, `there are …`: no place.)
        let next = toks.get(i + 1).and_then(Token::word);
        return (!matches!(next, Some("is" | "are" | "'s" | "was"))).then_some(1);
    }
    ["bên", "ở", "chỗ"]
        .iter()
        .any(|w| words_at(toks, i, &[w, "đó"]) || words_at(toks, i, &[w, "kia"]))
        .then_some(2)
}

/// The words of a request asking the time somewhere pointed at, and nothing else.
const ONLY_TIME_WORDS: &[&str] = &[
    "what", "time", "is", "it", "there", "over", "now", "right", "rn", "the", "whats", "what's",
    "bên", "đó", "kia", "ở", "chỗ", "giờ", "mấy", "rồi", "bây", "là", "hiện", "lúc", "này", "nay",
];

/// Whether `toks` ask a time (`what time`, `mấy giờ`, `giờ mấy`).
fn asks_time(toks: &[Token]) -> bool {
    (0..toks.len()).any(|i| {
        words_at(toks, i, &["what", "time"])
            || words_at(toks, i, &["mấy", "giờ"])
            || words_at(toks, i, &["giờ", "mấy"])
    })
}

/// Whether `place`, as a time request names it, is only pointed at (`there`, `đó`).
fn pointed(place: &str) -> bool {
    matches!(
        fold(place.trim()).as_str(),
        "there" | "over there" | "do" | "ben do" | "o do" | "kia" | "ben kia"
    )
}

/// The question when `toks` (lexed from `src`) ask the time `there` and name no place:
/// where? The city named is put in the request (`… in Tokyo`, `bên Tokyo …`).
pub fn where_there(toks: &[Token], src: &str) -> Option<Question> {
    if !asks_time(toks) {
        return None;
    }
    // (Only a request that says nothing but the time asked there: `if i call frankfurt
    // at 7pm … what time is it there` names its place without a preposition.)
    let only_asks = toks.iter().all(|t| match t.word() {
        Some(w) => ONLY_TIME_WORDS.contains(&w),
        None => t.is_sym('?') || t.is_sym(','),
    });
    if !only_asks {
        return None;
    }
    let (i, len) = (0..toks.len()).find_map(|i| there_at(toks, i).map(|n| (i, n)))?;
    // (`my cousins in LA, what time is it there`: a place named anywhere is the one.)
    let pointing = |w: &str| matches!(w, "there" | "đó" | "kia");
    let elsewhere = (0..toks.len()).any(|k| {
        matches!(
            toks[k].word(),
            Some("in" | "at" | "from" | "ở" | "tại" | "bên" | "từ")
        ) && toks
            .get(k + 1)
            .and_then(Token::word)
            .is_some_and(|w| !pointing(w) && w.chars().all(char::is_alphabetic))
    });
    let named = elsewhere
        || match crate::places::parse(toks, src) {
            Some(DateQuery::TimeIn { place }) => !pointed(&place),
            Some(DateQuery::ConvertTime { .. } | DateQuery::TimeDifference { .. }) => true,
            _ => false,
        };
    if named {
        return None;
    }
    let said = &src[toks[i].start..toks[i + len - 1].end];
    Some(match len {
        1 => Question {
            text: format!(
                "Where do you mean by \"{said}\"? Tell me the city (e.g. Tokyo), and I will give its time."
            ),
            options: Vec::new(),
            part: said.to_owned(),
            fill: Fill::Appended(" in {}".to_owned()),
            expect: Expect::Text,
        },
        _ => {
            // (`bên đó` → `bên Tokyo`: the city in place of the pointing word.)
            let pointing = &src[toks[i + 1].start..toks[i + 1].end];
            Question {
                text: format!(
                    "\"{said}\" là ở đâu? Cho mình biết tên thành phố (ví dụ Tokyo) để xem giờ."
                ),
                options: Vec::new(),
                part: said.to_owned(),
                fill: Fill::Replace(pointing.to_owned()),
                expect: Expect::Text,
            }
        }
    })
}

/// The question when `toks` (lexed from `src`) ask the time in a country whose clocks
/// differ across it: which city? The city replaces the country in the request.
pub fn which_city(toks: &[Token], src: &str, language: Language) -> Option<Question> {
    if !asks_time(toks) {
        return None;
    }
    // (After `in`, `ở`, `bên`: one to three words, `america`, `the united states`.)
    let place = (0..toks.len()).find_map(|k| {
        if !matches!(toks[k].word(), Some("in" | "at" | "ở" | "tại" | "bên")) {
            return None;
        }
        (1..=3).find_map(|n| {
            let words: Option<Vec<&str>> = (k + 1..=k + n).map(|j| toks.get(j)?.word()).collect();
            let said = words?.join(" ");
            crate::frames::spans_time_zones(&said)
                .then(|| src[toks[k + 1].start..toks[k + n].end].to_owned())
        })
    })?;
    // (`bên úc ở melbourne`: the city is named too.)
    let places_named = (0..toks.len())
        .filter(|&k| {
            matches!(toks[k].word(), Some("in" | "at" | "ở" | "tại" | "bên"))
                && toks.get(k + 1).and_then(Token::word).is_some()
        })
        .count();
    if places_named > 1 {
        return None;
    }
    let text = match language.is_vi() {
        true => format!(
            "{place} có nhiều múi giờ: thành phố nào? (ví dụ New York, Los Angeles, Sydney)"
        ),
        false => format!(
            "{place} spans several time zones: which city do you mean? (e.g. New York, Los Angeles, Sydney)"
        ),
    };
    Some(Question {
        text,
        options: Vec::new(),
        part: place.clone(),
        fill: Fill::Replace(place),
        expect: Expect::Text,
    })
}
