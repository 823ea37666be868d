//! Time at places: "what time is it in Tokyo", "mấy giờ rồi ở New York" (`time_in`), and
//! "convert 09:00 Hanoi time to London time", "9 giờ sáng ở Hà Nội là mấy giờ ở London"
//! (`convert_time`). The place is passed as the user wrote it; the date server resolves
//! it against the time-zone database (and says so when it cannot), so no list of cities
//! is kept here.

use crate::dates::DateQuery;
use crate::lexer::{Tok, Token, words_at};

/// Words that ask for the time.
const ASKS_TIME: &[&[&str]] = &[&["time"], &["mấy", "giờ"], &["giờ"], &["thời", "gian"]];

/// Words that may stand around a time question without changing it.
const AROUND: &[&str] = &[
    "what",
    "what's",
    "whats",
    "is",
    "it",
    "the",
    "current",
    "local",
    "now",
    "right",
    "tell",
    "me",
    "please",
    "do",
    "you",
    "know",
    "s",
    "currently",
    "bây",
    "giờ",
    "mấy",
    "rồi",
    "là",
    "hiện",
    "tại",
    "bao",
    "nhiêu",
    "cho",
    "tôi",
    "biết",
    "xem",
    "ạ",
    "nhé",
    "thời",
    "gian",
    "time",
    "hãy",
    "đang",
    "hỏi",
    "that",
    "this",
    "này",
    "back",
    "home",
    "there",
    "then",
    "over",
    "will",
    "be",
    "going",
    "here",
];

/// Words that put the place next: `in Tokyo`, `ở New York`, `tại Luân Đôn`.
const AT: &[&str] = &["in", "at", "ở", "tại", "bên"];

/// Words a place name cannot hold: they end it (`in Tokyo right now`).
const STOP: &[&str] = &[
    "in",
    "at",
    "to",
    "into",
    "from",
    "ở",
    "tại",
    "bên",
    "sang",
    "time",
    "giờ",
    "is",
    "what",
    "là",
    "mấy",
    "it",
    "now",
    "right",
    "rồi",
    "bây",
    "will",
    "be",
    "would",
    "when",
    "thì",
    "sẽ",
    "theo",
    "currently",
    "hiện",
    "please",
    "nhé",
    "ạ",
    "for",
    "then",
    "and",
    "và",
    "also",
    "what's",
    "whats",
    "that",
    "this",
    "there",
    "back",
    "over",
    "tomorrow",
    "tonight",
    "today",
    "yesterday",
    "qua",
    "về",
    "on",
];

/// Words that open a conversion.
const CONVERT: &[&[&str]] = &[
    &["convert"],
    &["chuyển", "đổi"],
    &["quy", "đổi"],
    &["đổi"],
    &["chuyển"],
    &["what", "is"],
    &["what's"],
    &["whats"],
];

/// An hour and the part of the day after it.
const HOUR_PHRASES: &[&[&str]] = &[
    &["giờ", "sáng"],
    &["giờ", "trưa"],
    &["giờ", "chiều"],
    &["giờ", "tối"],
];

/// Words that may name what happens at a stated time (`call is at 2pm LA time`).
const EVENT: &[&str] = &[
    "call", "meeting", "meet", "flight", "game", "match", "show", "event", "webinar", "stream",
    "the", "my", "our", "a", "is", "at", "it's", "its", "starts", "cuộc", "họp", "gọi", "lúc",
    "vào", "trận", "đấu", "chuyến", "bay", "i", "have", "we", "got", "leaves", "departs", "lands",
    "arrives", "begins", "ends", "takes", "off", "kicks", "goes", "live", "call", "calls", "home",
    "you", "they", "he", "she", "will", "leave", "arrive", "land", "start", "uni", "class",
];

/// Words that state the time at one place as a condition: `if it's 9am in Paris, what
/// time is it in Seoul`, `when it is 3pm in London …`, `nếu 8 giờ sáng ở Hà Nội thì …`.
const CONDITIONS: &[&[&str]] = &[
    &["if"],
    &["when"],
    &["suppose"],
    &["say"],
    &["nếu"],
    &["khi"],
    &["giả", "sử"],
];

/// Reads `toks` (from `src`) as a question about the time at places.
pub fn parse(toks: &[Token], src: &str) -> Option<DateQuery> {
    let toks = trim_punctuation(toks);
    convert(toks, src).or_else(|| time_in(toks, src))
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
        "chỗ mình",
        "bên mình",
        "bên này",
    ];
    own.contains(&text.to_lowercase().as_str())
        .then_some("here")
}

/// Words that point back to a place already named (`what time is it there`, `giờ bên
/// đó mấy giờ`, `giờ bên họ`).
const PRONOUNS: &[&[&str]] = &[
    &["over", "there"],
    &["there"],
    &["bên", "đó"],
    &["ở", "đó"],
    &["bên", "ấy"],
    &["bên", "họ"],
    &["chỗ", "đó"],
];

/// `src` (lexed as `toks`) with a pronoun for a place (`there`, `bên đó`) replaced by
/// the one place the request names after `in`/`ở`/`bên`/`from`/`từ` (`my cousins in LA,
/// what time is it there`, `khách Mỹ ở New York, giờ bên đó mấy giờ rồi`); `None`
/// unless exactly one place is named and a pronoun after it points to it. A new text,
/// not new tokens: a token copied out of place would break the spans parts are quoted
/// by.
pub fn pronoun_place(toks: &[Token], src: &str) -> Option<String> {
    let pronoun_at = |i: usize| {
        PRONOUNS
            .iter()
            .find(|p| words_at(toks, i, p))
            .map(|p| p.len())
    };
    if !(0..toks.len()).any(|i| pronoun_at(i).is_some()) {
        return None;
    }
    // (A pronoun is no place of its own: `bên đó` names none.)
    let mut named: Vec<(usize, String)> = Vec::new();
    for i in 0..toks.len() {
        let names = |w: &str| AT.contains(&w) || matches!(w, "from" | "từ");
        if toks[i].word().is_some_and(names)
            && pronoun_at(i).is_none()
            && pronoun_at(i + 1).is_none()
            && let Some((place, end)) = place_at(toks, i + 1, src)
        {
            named.push((end, place));
        }
    }
    let (end, place) = named.first()?.clone();
    if named
        .iter()
        .any(|(_, p)| p.to_lowercase() != place.to_lowercase())
    {
        return None;
    }
    let mut out = String::new();
    let mut copied = 0;
    let mut i = end;
    while i < toks.len() {
        let Some(len) = pronoun_at(i) else {
            i += 1;
            continue;
        };
        // (Only in a sentence that asks the time: `cousin lives there` is context.)
        let boundary = |t: &Token| matches!(t.tok, Tok::Sym('?' | '.' | ',' | '!' | ';'));
        let from = toks[..i].iter().rposition(boundary).map_or(0, |b| b + 1);
        let to = toks[i..]
            .iter()
            .position(boundary)
            .map_or(toks.len(), |b| i + b);
        let asks = (from..to).any(|k| ASKS_TIME.iter().any(|p| words_at(toks, k, p)));
        if !asks {
            i += len;
            continue;
        }
        // (`in`/`ở` before the place, wherever it was named from: `bay từ Sydney`, then
        // `bên đó` is `ở Sydney`.)
        let at = match toks[i].word() {
            Some("there" | "over") => "in",
            _ => "ở",
        };
        out.push_str(&src[copied..toks[i].start]);
        out.push_str(&format!("{at} {place}"));
        copied = toks[i + len - 1].end;
        i += len;
    }
    (copied > 0).then(|| {
        out.push_str(&src[copied..]);
        out
    })
}

/// `what time is it in Tokyo`: every word asks for the time, but one place after `in`.
fn time_in(toks: &[Token], src: &str) -> Option<DateQuery> {
    let k = toks
        .iter()
        .position(|t| t.word().is_some_and(|w| AT.contains(&w)))?;
    let (place, after) = place_at(toks, k + 1, src)?;
    let around: Vec<&Token> = toks[..k].iter().chain(&toks[after..]).collect();
    let asks = (0..toks.len())
        .filter(|i| *i < k || *i >= after)
        .any(|i| ASKS_TIME.iter().any(|p| words_at(toks, i, p)));
    let rest_fits = around.iter().all(|t| match &t.tok {
        Tok::Word(w) => AROUND.contains(&w.as_str()),
        Tok::Sym(c) => "'?".contains(*c),
        _ => false,
    });
    (asks && rest_fits).then_some(DateQuery::TimeIn { place })
}

/// `convert 09:00 Hanoi time to London time`, `9am in Tokyo is what time in London`,
/// `9 giờ sáng ở Hà Nội là mấy giờ ở London`: a time, then two places.
fn convert(toks: &[Token], src: &str) -> Option<DateQuery> {
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
                let named = j > from
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
    let (time, mut i) = time_at(toks, at)?;
    let mut asks = false;
    while i < toks.len() {
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
            Tok::Sym(',' | '\'') => i += 1,
            _ => return None,
        }
    }
    // `supplier in shenzhen closes at 6pm, what time is that for my client in toronto`:
    // the place said before the time is where the time is.
    if let ([to], Some(from)) = (places.as_slice(), said_before) {
        places = vec![from, to.clone()];
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
        while hi > lo
            && (toks[hi - 1].is_sym('?') || word(hi - 1).is_some_and(|w| NOW_WORDS.contains(&w)))
        {
            hi -= 1;
        }
        let span = &toks[lo..hi];
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
    // `Y is how many hours ahead of X`, `how many hours is Y ahead of X`, `Y nhanh hơn
    // X mấy tiếng`.
    let rel = (0..toks.len()).find_map(|i| {
        [
            (&["ahead", "of"][..], true),
            (&["behind"][..], false),
            (&["nhanh", "hơn"][..], true),
            (&["chậm", "hơn"][..], false),
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_pronoun_is_the_one_place_named() {
        let text = |q: &str| pronoun_place(&lex(q), q);
        assert_eq!(
            text("my sister is in Lima, what time is it over there").as_deref(),
            Some("my sister is in Lima, what time is it in Lima")
        );
        assert_eq!(
            text("flying in from Oslo on friday, what time is it there").as_deref(),
            Some("flying in from Oslo on friday, what time is it in Oslo")
        );
        assert_eq!(
            text("khách bay từ Sydney qua, bên đó mấy giờ").as_deref(),
            Some("khách bay từ Sydney qua, ở Sydney mấy giờ")
        );
        // Two places named: which one `there` is cannot be told; `there` in a sentence
        // that asks no time is context.
        assert_eq!(text("in Lima or in Quito, time there"), None);
        assert_eq!(text("what time is it in Lima? my cousin lives there"), None);
        // No pronoun: nothing to rewrite.
        assert_eq!(text("time in Lima"), None);
    }

    use super::*;
    use crate::lexer::lex;

    fn q(s: &str) -> Option<DateQuery> {
        parse(&lex(s), s)
    }

    fn time_in(place: &str) -> Option<DateQuery> {
        Some(DateQuery::TimeIn {
            place: place.into(),
        })
    }

    fn convert(time: &str, from: &str, to: &str) -> Option<DateQuery> {
        Some(DateQuery::ConvertTime {
            time: time.into(),
            from: from.into(),
            to: to.into(),
        })
    }

    #[test]
    fn the_time_at_a_place_named_without_a_preposition() {
        let named = |q: &str| time_named(&lex(q), q);
        let at = |p: &str| Some(DateQuery::TimeIn { place: p.into() });
        assert_eq!(named("giờ chicago mấy giờ rồi"), at("chicago"));
        assert_eq!(named("giờ singapore bây giờ là mấy giờ"), at("singapore"));
        assert_eq!(named("singapore time now?"), at("singapore"));
        assert_eq!(named("what time now?"), None);
        assert_eq!(named("giờ là mấy giờ"), None);
    }

    #[test]
    fn hours_between_two_places_clocks() {
        let diff = |q: &str| time_difference(&lex(q), q);
        let signed = |from: &str, to: &str| {
            Some(DateQuery::TimeDifference {
                from: from.into(),
                to: to.into(),
                absolute: false,
            })
        };
        assert_eq!(
            diff("how many hours ahead of hanoi is seoul"),
            signed("hanoi", "seoul")
        );
        assert_eq!(
            diff("how many hours ahead of saigon is melbourne rn"),
            signed("saigon", "melbourne")
        );
        assert_eq!(
            diff("how many hours is Paris behind Hanoi?"),
            signed("Paris", "Hanoi")
        );
        assert_eq!(
            diff("Sydney is how many hours ahead of Paris"),
            signed("Paris", "Sydney")
        );
        assert_eq!(
            diff("Seoul nhanh hơn Hà Nội mấy tiếng"),
            signed("Hà Nội", "Seoul")
        );
        assert_eq!(
            diff("what's the time difference between Hanoi and Paris"),
            Some(DateQuery::TimeDifference {
                from: "Hanoi".into(),
                to: "Paris".into(),
                absolute: true
            })
        );
        assert_eq!(diff("how many hours until 5pm"), None);
    }

    #[test]
    fn the_time_at_a_place_in_both_languages() {
        assert_eq!(q("what time is it in Tokyo"), time_in("Tokyo"));
        assert_eq!(
            q("What time is it in New York right now?"),
            time_in("New York")
        );
        assert_eq!(q("current time in São Paulo"), time_in("São Paulo"));
        assert_eq!(q("mấy giờ rồi ở New York"), time_in("New York"));
        assert_eq!(q("bây giờ ở Tokyo là mấy giờ"), time_in("Tokyo"));
        assert_eq!(q("giờ ở Hà Nội"), time_in("Hà Nội"));
        // Not a time question, or no place.
        assert_eq!(q("what day is it in 10 days"), None);
        assert_eq!(q("what time is it"), None);
        assert_eq!(q("the weather in Paris"), None);
    }

    #[test]
    fn what_happens_at_the_time_may_be_said_before_it() {
        assert_eq!(
            q("flight leaves at 23:15 in hanoi, what time is that in paris"),
            convert("23:15", "hanoi", "paris")
        );
        assert_eq!(
            q("the match kicks off at 8pm in london, what time in hanoi"),
            convert("20:00", "london", "hanoi")
        );
        assert_eq!(
            q("whats 3pm london time in new york"),
            convert("15:00", "london", "new york")
        );
    }

    #[test]
    fn who_asks_and_what_happens_around_a_conversion_do_not_change_it() {
        // (Phrasings of our own, of the classes batch 7 found.)
        assert_eq!(
            q("standup is at 09:30 in Berlin, what's that in Tokyo for my team"),
            convert("09:30", "Berlin", "Tokyo")
        );
        assert_eq!(
            q("class starts 6pm london time, what time is that for me in hanoi"),
            convert("18:00", "london", "hanoi")
        );
        assert_eq!(
            q("if we call home at 8pm Paris time, what time will it be in Seoul"),
            convert("20:00", "Paris", "Seoul")
        );
        assert_eq!(
            q("if its 7am in Denver whats the time in Singapore"),
            convert("07:00", "Denver", "Singapore")
        );
    }

    #[test]
    fn the_place_may_come_before_its_time() {
        assert_eq!(
            q("Nếu ở Hà Nội là 8 giờ tối thì ở New York là mấy giờ"),
            convert("20:00", "Hà Nội", "New York")
        );
        assert_eq!(
            q("in Tokyo it's 9am, what time is it in London"),
            convert("09:00", "Tokyo", "London")
        );
        assert_eq!(
            q("if in London it is 3pm what time is it in Hanoi"),
            convert("15:00", "London", "Hanoi")
        );
        // A place and no stated time is the time there now.
        assert_eq!(q("in Tokyo what time is it"), time_in("Tokyo"));
    }

    #[test]
    fn a_time_at_one_place_converted_to_another() {
        assert_eq!(
            q("convert 09:00 Hanoi time to London time"),
            convert("09:00", "Hanoi", "London")
        );
        // What happens at the time may be named first.
        assert_eq!(
            q("the meeting is at 4pm Berlin time, what time is that in Denver"),
            convert("16:00", "Berlin", "Denver")
        );
        assert_eq!(q("the weather at 4pm in Berlin in Denver"), None);
        assert_eq!(
            q("7 giờ tối ở Hà Nội thì bên Sydney là mấy giờ"),
            convert("19:00", "Hà Nội", "Sydney")
        );
        assert_eq!(
            q("what is 9am in Tokyo in London time?"),
            convert("09:00", "Tokyo", "London")
        );
        assert_eq!(
            q("9:30 pm New York time is what time in Tokyo"),
            convert("21:30", "New York", "Tokyo")
        );
        assert_eq!(
            q("9 giờ sáng ở Hà Nội là mấy giờ ở London"),
            convert("09:00", "Hà Nội", "London")
        );
        assert_eq!(
            q("đổi 3 giờ chiều giờ Tokyo sang giờ Hà Nội"),
            convert("15:00", "Tokyo", "Hà Nội")
        );
        assert_eq!(
            q("if it's 3pm in London, what time is it in Sydney"),
            convert("15:00", "London", "Sydney")
        );
        assert_eq!(
            q("when it is 9:30 am in Paris what time is it in Seoul?"),
            convert("09:30", "Paris", "Seoul")
        );
        assert_eq!(
            q("nếu 8 giờ sáng ở Hà Nội thì ở New York là mấy giờ"),
            convert("08:00", "Hà Nội", "New York")
        );
        assert_eq!(q("if it's 3pm in London"), None);
        assert_eq!(q("convert 25:00 Hanoi time to London time"), None);
        assert_eq!(q("convert 9 Hanoi to London"), None);
    }
}
