//! A pronoun for a place already named (`there`, `bên đó`), replaced by that place.

use super::place_at;
use super::words::{ASKS_TIME, AT};
use crate::lexer::{Tok, Token, words_at};

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

/// Whom one calls, never a place: `call mum at 7pm`.
const PEOPLE: &[&str] = &[
    "mum", "mom", "dad", "mother", "father", "grandma", "grandpa", "nan", "wife", "husband", "son",
    "daughter", "sister", "brother", "cousin", "aunt", "uncle", "friend", "boss", "him", "her",
    "them", "me", "us", "home", "you", "my", "our", "his", "their",
];

/// `src` (lexed as `toks`) with a pronoun for a place (`there`, `bên đó`) replaced by
/// the one place the request names after `in`/`ở`/`bên`/`from`/`từ`/`call` (`my cousins in LA,
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
        // (`if i call frankfurt at 7pm melbourne time, what time is it there`.)
        let names =
            |w: &str| AT.contains(&w) || matches!(w, "from" | "từ" | "call" | "calling" | "ring");
        if toks[i].word().is_some_and(names)
            && pronoun_at(i).is_none()
            && pronoun_at(i + 1).is_none()
            && let Some((place, end)) = place_at(toks, i + 1, src)
            && !place.to_lowercase().split(' ').any(|w| PEOPLE.contains(&w))
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
    if copied == 0 {
        return None;
    }
    out.push_str(&src[copied..]);
    // (`gf is in osaka, what time is it there`: where someone is only says which place
    // the question means; the question names it now, so the telling goes.)
    let asking = (end..toks.len()).find(|&k| {
        toks[k]
            .word()
            .is_some_and(|w| matches!(w, "what" | "whats" | "what's" | "how"))
    });
    let told = |t: &Token| matches!(t.tok, Tok::Num(_) | Tok::Date(_)) || t.is_sym(':');
    match asking {
        Some(k) if !toks[..k].iter().any(told) && toks[k].start > 0 => {
            Some(out[toks[k].start..].to_owned())
        }
        _ => Some(out),
    }
}
