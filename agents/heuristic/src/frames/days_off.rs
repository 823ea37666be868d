//! Days off said beside the days worked or a week: `tuần này nghỉ 2 ngày, làm 5 ngày mỗi
//! ngày 850k` works five days (the days off are said, not counted); `takes 2 days off a
//! week and makes 780k a day` works the other five. A count of days off is never a count
//! to multiply a day's pay by.

use crate::lexer::{Tok, Token};
use crate::normalise::fold::fold;

/// Words of a day, compared folded.
const DAY_WORDS: &[&str] = &["day", "days", "ngày"];

/// Words of a week, compared folded.
const WEEK_WORDS: &[&str] = &["week", "wk", "tuần"];

/// Words of taking days off before the count, compared folded (`nghỉ 2 ngày`).
const OFF_BEFORE: &[&str] = &["nghỉ"];

/// Whether `t` is one of `list`, compared folded.
fn is(t: Option<&Token>, list: &[&str]) -> bool {
    t.and_then(Token::word)
        .is_some_and(|w| list.iter().any(|x| fold(x) == fold(w)))
}

/// `toks` without the days off (when the days worked are said too), or with the days
/// off of a week turned into the days worked (`2 days off a week` → `5 days`); `None`
/// when no days off are said.
pub(super) fn worked_days(toks: &[Token]) -> Option<Vec<Token>> {
    // The days off: their count's index and the span of the phrase.
    let (k, span) = (0..toks.len()).find_map(|k| {
        toks[k].number()?;
        if !is(toks.get(k + 1), DAY_WORDS) {
            return None;
        }
        if toks.get(k + 2).and_then(Token::word) == Some("off") {
            return Some((k, k..k + 3));
        }
        (k > 0 && is(toks.get(k - 1), OFF_BEFORE)).then(|| (k, k - 1..k + 2))
    })?;
    let off: u32 = toks[k].number()?.parse().ok()?;
    // Other days counted: the days worked (never `a day`, `mỗi ngày`: a rate's unit).
    let worked = (0..toks.len()).any(|j| {
        !span.contains(&j) && toks[j].number().is_some() && is(toks.get(j + 1), DAY_WORDS)
    });
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    if worked {
        for (j, t) in toks.iter().enumerate() {
            // (With the comma after the phrase: `nghỉ 2 ngày, làm 5 ngày`.)
            let trailing_comma = j == span.end && t.is_sym(',');
            if !span.contains(&j) && !trailing_comma {
                out.push(t.clone());
            }
        }
        return Some(out);
    }
    // Days off a week: the rest of the week is worked.
    let weekly = toks.iter().any(|t| is(Some(t), WEEK_WORDS));
    if !weekly || off >= 7 {
        return None;
    }
    for (j, t) in toks.iter().enumerate() {
        if j == k {
            out.push(Token {
                tok: Tok::Num((7 - off).to_string()),
                start: t.start,
                end: t.end,
            });
        } else if j == k + 1 || !span.contains(&j) {
            out.push(t.clone());
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::worked_days;
    use crate::lexer::lex;

    fn numbers(q: &str) -> Option<Vec<String>> {
        let text = crate::normalise::normalise(q, None).text;
        worked_days(&lex(&text)).map(|t| {
            t.iter()
                .filter_map(|t| t.number().map(str::to_owned))
                .collect()
        })
    }

    #[test]
    fn days_off_are_no_count_of_days_worked() {
        assert_eq!(
            numbers("if he takes 2 days off a week and makes 780 a day, how much in 4 weeks"),
            Some(vec!["5".into(), "780".into(), "4".into()])
        );
        assert_eq!(
            numbers("tuần này nghỉ 2 ngày, làm 5 ngày mỗi ngày 850000"),
            Some(vec!["5".into(), "850000".into()])
        );
        // No days off: nothing to change.
        assert_eq!(numbers("works 5 days a week at 780 a day"), None);
    }
}
