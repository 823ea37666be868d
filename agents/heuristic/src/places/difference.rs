//! How many hours one place is ahead of another, and the time now at a place named
//! without a preposition.

use super::words::STOP;
use crate::dates::DateQuery;
use crate::lexer::{Tok, Token, words_at};

/// Words after a place that only say "now" (`melbourne rn`).
const NOW_WORDS: &[&str] = &["now", "rn", "right", "currently", "today", "bây", "giờ"];

/// How many hours one place's clocks are ahead of another's, asked: `how many hours
/// ahead of hanoi is seoul`, `how many hours is Paris behind Hanoi`, `time difference
/// between Hanoi and Paris`, `Seoul nhanh hơn Hà Nội mấy tiếng`, `Hà Nội và Paris lệch
/// nhau mấy tiếng`. Places are one to three words.
pub fn time_difference(toks: &[Token], src: &str) -> Option<DateQuery> {
    if toks
        .iter()
        .any(|t| t.number().is_some() || matches!(t.tok, Tok::Date(_)))
    {
        return None;
    }
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let place = |lo: usize, hi: usize| -> Option<String> {
        let mut hi = hi.min(toks.len());
        // (`bên perth nhanh hơn vn`: the word before a place is no part of it.)
        // (`so osaka is …`: a word going on from the last turn neither.)
        // (`còn ở melbourne nhanh hơn mình mấy tiếng`: two such words.)
        // (`giờ KL nhanh hơn Việt Nam`: the clock of the place.)
        let mut lo = lo;
        while hi > lo + 1
            && matches!(
                word(lo),
                Some("bên" | "ở" | "tại" | "so" | "and" | "ok" | "okay" | "còn" | "con" | "giờ")
            )
        {
            lo += 1;
        }
        while hi > lo
            && (toks[hi - 1].is_sym('?') || word(hi - 1).is_some_and(|w| NOW_WORDS.contains(&w)))
        {
            hi -= 1;
        }
        let span = &toks[lo..hi];
        // (`how many hrs ahead of me is tokyo`: the user's own clock.)
        if let [one] = span
            && one
                .word()
                .is_some_and(|w| matches!(w, "me" | "us" | "mình"))
        {
            return Some("here".to_owned());
        }
        (!span.is_empty() && span.len() <= 3 && span.iter().all(|t| t.word().is_some()))
            .then(|| src[span[0].start..span[span.len() - 1].end].to_owned())
    };
    let find = |phrase: &[&str]| (0..toks.len()).find(|&i| words_at(toks, i, phrase));
    let hours_asked = find(&["how", "many", "hours"])
        .or_else(|| find(&["mấy", "tiếng"]))
        .or_else(|| find(&["bao", "nhiêu", "tiếng"]));
    let query =
        |from: String, to: String, absolute: bool| DateQuery::TimeDifference { from, to, absolute };
    // `time difference between X and Y`, `chênh lệch giờ giữa X và Y`.
    if let Some(b) = find(&["difference", "between"])
        .map(|i| i + 2)
        .or_else(|| find(&["giữa"]).map(|i| i + 1))
    {
        let and = (b..toks.len()).find(|&k| matches!(word(k), Some("and" | "và")))?;
        return Some(query(place(b, and)?, place(and + 1, toks.len())?, true));
    }
    // `time diff berlin to hanoi`, `time difference tokyo vs london`.
    if let Some(d) = find(&["time", "diff"]).or_else(|| find(&["time", "difference"])) {
        let lo = d + 2;
        let sep = (lo..toks.len()).find(|&k| matches!(word(k), Some("to" | "and" | "vs")))?;
        return Some(query(place(lo, sep)?, place(sep + 1, toks.len())?, true));
    }
    // `X và Y lệch nhau mấy tiếng`.
    if let Some(l) = find(&["lệch", "nhau"]) {
        let and = (0..l).find(|&k| word(k) == Some("và"))?;
        return Some(query(place(0, and)?, place(and + 1, l)?, true));
    }
    let h = hours_asked?;
    let after_ask = h + if word(h) == Some("how") { 3 } else { 2 };
    // `ahead of X is Y`, `behind X is Y`: right after the question.
    for (rel, ahead) in [(&["ahead", "of"][..], true), (&["behind"][..], false)] {
        let start = after_ask + rel.len();
        if words_at(toks, after_ask, rel)
            && let Some(is) = (start..toks.len()).find(|&k| matches!(word(k), Some("is" | "are")))
        {
            let (x, y) = (place(start, is)?, place(is + 1, toks.len())?);
            return Some(match ahead {
                true => query(x, y, false),
                false => query(y, x, false),
            });
        }
    }
    // `how many hours ahead is Y vs X` (or `than X`, `compared to X`); `how many hours
    // ahead is Y` alone: of the user's own clock (`here`).
    for (rel, ahead) in [("ahead", true), ("behind", false)] {
        if word(after_ask) != Some(rel) || !matches!(word(after_ask + 1), Some("is" | "are")) {
            continue;
        }
        let lo = after_ask + 2;
        let sep = (lo..toks.len()).find_map(|k| match word(k)? {
            "vs" | "versus" | "than" | "of" | "from" => Some((k, 1)),
            "compared" if word(k + 1) == Some("to") => Some((k, 2)),
            _ => None,
        });
        let (y, x) = match sep {
            Some((k, len)) => (place(lo, k)?, place(k + len, toks.len())?),
            None => (place(lo, toks.len())?, "here".to_owned()),
        };
        return Some(match ahead {
            true => query(x, y, false),
            false => query(y, x, false),
        });
    }
    // `Y is how many hours ahead of X`, `how many hours is Y ahead of X`, `Y nhanh hơn
    // X mấy tiếng`.
    let rel = (0..toks.len()).find_map(|i| {
        [
            (&["ahead", "of"][..], true),
            (&["behind"][..], false),
            (&["nhanh", "hơn"][..], true),
            (&["chậm", "hơn"][..], false),
            // (`Việt Nam đi trước Ba Lan mấy tiếng`.)
            (&["đi", "trước"][..], true),
            (&["đi", "sau"][..], false),
        ]
        .iter()
        .find(|(p, _)| words_at(toks, i, p))
        .map(|(p, ahead)| (i, p.len(), *ahead))
    });
    let (r, len, ahead) = rel?;
    let y = if h < r {
        // `how many hours is Y ahead of X`, or `Y is how many hours ahead of X`.
        let lo = if matches!(word(after_ask), Some("is" | "are")) {
            after_ask + 1
        } else {
            after_ask
        };
        place(lo, r).or_else(|| {
            place(
                0,
                h.checked_sub(1)
                    .filter(|&k| matches!(word(k), Some("is" | "are")))?,
            )
        })?
    } else {
        place(0, r)?
    };
    let x_end = if h > r { h } else { toks.len() };
    let x = place(r + len, x_end)?;
    Some(match ahead {
        true => query(x, y, false),
        false => query(y, x, false),
    })
}

/// The time now at a place named without a preposition: `giờ chicago mấy giờ rồi`,
/// `giờ singapore bây giờ là mấy giờ`, `singapore time now?`, `tokyo time rn`. The whole
/// request is that shape; the place one to three words.
pub fn time_named(toks: &[Token], src: &str) -> Option<DateQuery> {
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let words: Vec<usize> = (0..toks.len()).filter(|&k| !toks[k].is_sym('?')).collect();
    if words.len() != toks.iter().filter(|t| t.word().is_some()).count() {
        return None;
    }
    let place = |lo: usize, hi: usize| -> Option<String> {
        let span = &toks[lo..hi];
        let plain = !span.is_empty()
            && span.len() <= 3
            && span.iter().all(|t| {
                t.word()
                    .is_some_and(|w| !STOP.contains(&w) && !NOW_WORDS.contains(&w) && w != "mấy")
            });
        plain.then(|| src[span[0].start..span[span.len() - 1].end].to_owned())
    };
    // `giờ X (bây giờ) (là) mấy giờ (rồi)`.
    if word(0) == Some("giờ") {
        let end = (1..toks.len()).find(|&k| matches!(word(k), Some("bây" | "là" | "mấy")))?;
        let rest: Vec<&str> = toks[end..].iter().filter_map(Token::word).collect();
        let asked = matches!(
            rest.as_slice(),
            ["mấy", "giờ"]
                | ["mấy", "giờ", "rồi"]
                | ["là", "mấy", "giờ"]
                | ["là", "mấy", "giờ", "rồi"]
                | ["bây", "giờ", "là", "mấy", "giờ"]
                | ["bây", "giờ", "mấy", "giờ"]
        );
        return asked
            .then(|| place(1, end))
            .flatten()
            .map(|place| DateQuery::TimeIn { place });
    }
    // `dubai bây giờ mấy giờ`, `tokyo mấy giờ rồi`: the place first, then the question.
    const ASKED: &[&[&str]] = &[
        &["mấy", "giờ"],
        &["mấy", "giờ", "rồi"],
        &["là", "mấy", "giờ"],
        &["là", "mấy", "giờ", "rồi"],
        &["bây", "giờ", "là", "mấy", "giờ"],
        &["bây", "giờ", "mấy", "giờ"],
        &["bây", "giờ", "mấy", "giờ", "rồi"],
    ];
    let said: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    // (The longest question said: `bây giờ mấy giờ` before `mấy giờ`.)
    if let Some(tail) = ASKED
        .iter()
        .filter(|t| said.ends_with(t))
        .max_by_key(|t| t.len())
    {
        let end = toks.iter().filter(|t| t.word().is_some()).count() - tail.len();
        // (`ở dubai …`, `bên tokyo …`: the word before the place.)
        // (`còn hà nội mấy giờ`: a joining word before it.)
        let start = (0..end)
            .find(|&k| !word(k).is_some_and(|w| matches!(w, "ở" | "bên" | "tại" | "còn" | "và")))
            .unwrap_or(end);
        let named = place(start, end)
            .filter(|p| !super::loose::is_pronoun(p))
            .filter(|p| {
                !p.to_lowercase().split(' ').any(|w| {
                    crate::tolerant::DATE_WORDS.contains(&w)
                        || matches!(w, "hôm" | "nay" | "mai" | "này" | "đây" | "here" | "mình")
                })
            });
        return named.map(|place| DateQuery::TimeIn { place });
    }
    // `X time (now|rn|right now)?`.
    let time = (1..toks.len()).find(|&k| word(k) == Some("time"))?;
    let tail_ok = toks[time + 1..].iter().all(|t| {
        t.is_sym('?')
            || t.word()
                .is_some_and(|w| matches!(w, "now" | "rn" | "right"))
    });
    tail_ok
        .then(|| place(0, time))
        .flatten()
        .map(|place| DateQuery::TimeIn { place })
}
