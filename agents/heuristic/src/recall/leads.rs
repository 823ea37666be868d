//! Words that only open a follow-up (acknowledgements, `and`, `what about`, `còn`), and
//! the request without them.

use crate::lexer::{Token, words_at};

/// Words that only acknowledge before a follow-up: `ok add that to the 160`.
const ACKNOWLEDGEMENTS: &[&str] = &[
    "ok", "okay", "alright", "great", "cool", "thanks", "so", "well", "right", "ừ", "ờ", "vâng",
    "dạ", "được",
];

/// `query` without an acknowledgement before it and a `the` before a number (`ok add
/// that to the 160` → `add that to 160`), when it had one.
pub fn tidied(query: &str) -> Option<String> {
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let mut drop: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    while toks
        .get(k)
        .and_then(Token::word)
        .is_some_and(|w| ACKNOWLEDGEMENTS.contains(&w))
    {
        let end = toks.get(k + 1).map_or(text.len(), |t| t.start);
        drop.push((toks[k].start, end));
        k += 1;
        if toks.get(k).is_some_and(|t| t.is_sym(',')) {
            let end = toks.get(k + 1).map_or(text.len(), |t| t.start);
            drop.push((toks[k].start, end));
            k += 1;
        }
    }
    for j in k..toks.len() {
        let number_next = matches!(
            toks.get(j + 1).map(|t| &t.tok),
            Some(crate::lexer::Tok::Num(_))
        );
        if toks[j].word() == Some("the") && number_next {
            drop.push((toks[j].start, toks[j + 1].start));
        }
    }
    if drop.is_empty() || k >= toks.len() {
        return None;
    }
    let mut out = text.clone();
    for (start, end) in drop.into_iter().rev() {
        out.replace_range(start..end, "");
    }
    Some(out)
}

/// Words that close a follow-up asking the last question again with a part changed
/// (`thêm 15 khách nữa thì sao`, `thêm 3 người nữa thì bn`); as phrases, they also teach
/// the normaliser to read `nua thi` typed without marks as `nữa thì`.
const ASKED_AGAIN: &[&[&str]] = &[
    &["thì", "sao"],
    &["nữa", "thì", "bn"],
    &["nữa", "thì", "bao", "nhiêu"],
];

/// Words that open a follow-up asking the last question again with a part replaced:
/// `and 4/30?`, `what about 6 people`, `còn 30/4?`, `thế còn …`, `nếu …`.
const ELLIPSIS_LEADS: &[&[&str]] = &[
    &["and"],
    &["what", "about"],
    &["how", "about"],
    &["what", "if"],
    &["còn"],
    &["thế", "còn"],
    &["vậy", "còn"],
    &["nếu"],
];

/// Whether `query` opens as a follow-up asking the last question again with a part
/// replaced (`and …`, `what about …`, `còn …`): its ellipsis reading comes before the
/// reading of it alone, so `còn 30/4?` after a date question is that date, never 30 ÷ 4.
pub fn opens_ellipsis(query: &str) -> bool {
    // Most requests open with none of these words, typed with or without marks: a look
    // at the first word before normalising.
    let first = query
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .find(|w| !w.is_empty())
        .map(str::to_lowercase);
    // (`thêm 15 khách nữa thì sao`: asked again with a part changed, said at the end.)
    let folded = crate::normalise::fold::fold(&query.to_lowercase());
    let end = folded.trim_end_matches(|c: char| !c.is_alphanumeric());
    let asks_again = ASKED_AGAIN.iter().any(|tail| {
        let tail: Vec<String> = tail
            .iter()
            .map(|w| crate::normalise::fold::fold(w))
            .collect();
        end.ends_with(&tail.join(" "))
    });
    if asks_again {
        return true;
    }
    let may = first.as_deref().is_some_and(|w| {
        ELLIPSIS_LEADS.iter().any(|l| {
            let lead = crate::normalise::fold::fold(l[0]);
            lead == crate::normalise::fold::fold(w)
        }) || ACKNOWLEDGEMENTS.contains(&w)
            || w == "the"
    });
    if !may {
        return false;
    }
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let skip = toks
        .iter()
        .take_while(|t| t.word().is_some_and(|w| ACKNOWLEDGEMENTS.contains(&w)) || t.is_sym(','))
        .count();
    ELLIPSIS_LEADS.iter().any(|l| words_at(&toks, skip, l))
}

/// `query` without the words that open it as a follow-up (`what about 5pm new york
/// time in tokyo` → `5pm new york time in tokyo`), when it had them and more follows.
pub fn without_lead(query: &str) -> Option<String> {
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let skip = toks
        .iter()
        .take_while(|t| t.word().is_some_and(|w| ACKNOWLEDGEMENTS.contains(&w)) || t.is_sym(','))
        .count();
    let lead = ELLIPSIS_LEADS.iter().find(|l| words_at(&toks, skip, l))?;
    let rest = toks.get(skip + lead.len())?;
    Some(text[rest.start..].to_owned())
}
