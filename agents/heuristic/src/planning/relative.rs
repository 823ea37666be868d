//! A date said relative to the conversation's last date without naming it: `and the
//! day before that, what weekday`, `i want to start revising 3 weeks before, which date`
//! after `exam is 2027-01-15, how many days left` — counted from that date, never from
//! today, and never from the last answer's number.

use chorus_bus::Language;

use super::Planning;
use crate::{PlanOutcome, lexer};

/// Words relating a date to another.
const RELATIONS: &[&str] = &["before", "after", "earlier", "later", "trước", "sau"];

/// Units a date is moved by.
const UNITS: &[&str] = &[
    "day", "days", "week", "weeks", "month", "months", "ngày", "tuần", "tháng",
];

/// Words asking a weekday.
const WEEKDAY_ASKED: &[&[&str]] = &[
    &["weekday"],
    &["what", "day"],
    &["which", "day"],
    &["day", "of", "the", "week"],
    &["thứ", "mấy"],
];

/// Words naming a date of their own after the relation: the date is said.
const OWN_DATE: &[&str] = &["today", "now", "tomorrow", "yesterday", "hôm", "nay", "mai"];

impl Planning<'_> {
    /// The follow-up `toks` (of `query`) with the last date put where it relates to it,
    /// planned; `None` when it names a date of its own or relates none.
    pub(super) fn relative_to_last_date(
        &self,
        toks: &[lexer::Token],
        query: &str,
        language: Language,
    ) -> Option<PlanOutcome> {
        if !self.continuations || toks.iter().any(|t| matches!(t.tok, lexer::Tok::Date(_))) {
            return None;
        }
        let at = relation_at(toks)?;
        let date = self.date_just_said()?;
        // Only the count, the relation and what is asked are read: the rest is chatter
        // (`i want to start revising …`).
        let count = toks[at - 2].number().unwrap_or("1");
        let (unit, relation) = (toks[at - 1].word()?, toks[at].word()?);
        let weekday = crate::normalise::lexicon::asks_weekday_alone(&super::folded_words(toks))
            || lexer::says(toks, WEEKDAY_ASKED);
        let moved = format!("{count} {unit} {relation} {date}");
        let text = match (language.is_vi(), weekday) {
            (true, true) => format!("{moved} là thứ mấy"),
            (true, false) => format!("{moved} là ngày nào"),
            (false, true) => format!("what weekday is {moved}"),
            (false, false) => format!("what date is {moved}"),
        };
        self.on_answers(&text, &[&date], query, language)
    }
}

/// Where `toks` relate a date to another by a count of days, weeks or months (`3 weeks
/// before`, `the day before that`, `10 ngày sau đó`), with nothing after the relation
/// naming a date of its own.
fn relation_at(toks: &[lexer::Token]) -> Option<usize> {
    let word = |k: usize| toks.get(k).and_then(lexer::Token::word);
    (2..toks.len()).find(|&k| {
        let related = word(k).is_some_and(|w| RELATIONS.contains(&w))
            && word(k - 1).is_some_and(|w| UNITS.contains(&w))
            && (toks[k - 2].number().is_some() || matches!(word(k - 2), Some("the" | "a" | "one")));
        let own = word(k + 1).is_some_and(|w| OWN_DATE.contains(&w))
            || toks.get(k + 1).is_some_and(|t| t.number().is_some());
        related && !own
    })
}
