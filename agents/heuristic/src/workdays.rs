//! Working days, as people say them: `15 working days from today`, `10 ngày làm việc
//! nữa`, `5 days from now, no weekends`, `5 ngày nữa, không tính t7 cn`. The phrase
//! becomes one word, `workdays`, a unit the date readers know (the date tool's
//! `working_days`: Monday to Friday, no public holidays); a clause that only leaves
//! weekends out makes the days before it working days and is dropped.

use crate::lexer::{Tok, Token, words_at};

/// The one word working days become.
pub const WORD: &str = "workdays";

/// Phrases naming working days (`workdays` typed as one word is already the word).
const WORKING: &[&[&str]] = &[
    &["working", "days"],
    &["working", "day"],
    &["business", "days"],
    &["business", "day"],
    &["work", "days"],
    &["ngày", "làm", "việc"],
];

/// Phrases opening a clause that leaves weekends out.
const NO_WEEKENDS: &[&[&str]] = &[
    &["no", "weekends"],
    &["excluding", "weekends"],
    &["not", "counting", "weekends"],
    &["skip", "weekends"],
    &["skipping", "weekends"],
    &["without", "weekends"],
    &["không", "tính"],
    &["không", "tinh"],
    &["trừ", "thứ"],
    &["trừ", "t7"],
];

/// Words that may follow `không tính` in such a clause: the weekend's days.
const WEEKEND: &[&str] = &[
    "t7", "t", "cn", "thứ", "7", "bảy", "chủ", "nhật", "cuối", "tuần", "weekends", "weekend", "và",
];

/// `toks` with working days made one word and a weekends clause dropped, when they
/// say either.
pub fn merged(toks: &[Token]) -> Option<Vec<Token>> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut changed = false;
    let mut excluded = false;
    let mut i = 0;
    while i < toks.len() {
        if let Some(p) = WORKING.iter().find(|p| words_at(toks, i, p)) {
            out.push(Token {
                tok: Tok::Word(WORD.to_owned()),
                start: toks[i].start,
                end: toks[i + p.len() - 1].end,
            });
            i += p.len();
            changed = true;
            continue;
        }
        if let Some(p) = NO_WEEKENDS.iter().find(|p| words_at(toks, i, p)) {
            // The clause: the phrase, the weekend's days, a closing bracket.
            let mut j = i + p.len();
            while toks.get(j).is_some_and(|t| match &t.tok {
                Tok::Word(w) => WEEKEND.contains(&w.as_str()),
                Tok::Num(n) => n == "7",
                Tok::Sym(c) => *c == ')' || *c == '+' || *c == '&',
                Tok::Date(_) => false,
            }) {
                j += 1;
            }
            // (`không tính` alone says nothing of weekends.)
            if p.len() == 2 && p[0] == "không" && j == i + 2 {
                out.push(toks[i].clone());
                i += 1;
                continue;
            }
            // A comma or bracket opening it goes too.
            if out.last().is_some_and(|t| t.is_sym(',') || t.is_sym('(')) {
                out.pop();
            }
            excluded = true;
            changed = true;
            i = j;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    // `5 days from now, no weekends`: the days counted are working days.
    if excluded && !out.iter().any(|t| t.word() == Some(WORD)) {
        for k in 1..out.len() {
            let days = out[k]
                .word()
                .is_some_and(|w| matches!(w, "days" | "day" | "ngày"));
            if days && out[k - 1].number().is_some() {
                out[k].tok = Tok::Word(WORD.to_owned());
                break;
            }
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn words(q: &str) -> Vec<String> {
        merged(&lex(q))
            .unwrap_or_default()
            .iter()
            .map(|t| match &t.tok {
                Tok::Word(w) => w.clone(),
                Tok::Num(n) => n.clone(),
                Tok::Sym(c) => c.to_string(),
                Tok::Date(d) => format!("{d:?}"),
            })
            .collect()
    }

    #[test]
    fn working_days_become_one_word_and_weekend_clauses_go() {
        assert_eq!(
            words("whats the date 15 working days from today (no weekends)"),
            ["whats", "the", "date", "15", WORD, "from", "today"]
        );
        assert_eq!(
            words("5 ngày làm việc nữa là ngày nào, không tinh t7 cn"),
            ["5", WORD, "nữa", "là", "ngày", "nào"]
        );
        assert_eq!(
            words("5 days from now, no weekends"),
            ["5", WORD, "from", "now"]
        );
        assert!(merged(&lex("không tính tiền ship")).is_none());
        assert!(merged(&lex("10 days from now")).is_none());
    }
}
