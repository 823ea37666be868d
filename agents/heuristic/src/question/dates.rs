//! Questions about dates that read two ways: a numeric date day or month first, a
//! weekday name that could mean two dates.

use chorus_bus::{AnswerOption, Language, TaskContext};

use super::{Expect, Fill, Question};
use crate::lexer::{Tok, Token};

/// A date as an option label: `3 April 2026`, `3 tháng 4 năm 2026`.
fn date_label(iso: &str, language: Language) -> String {
    let mut it = iso.split('-').map(|p| p.parse::<usize>().unwrap_or(0));
    let (y, m, d) = (
        it.next().unwrap_or(0),
        it.next().unwrap_or(1),
        it.next().unwrap_or(1),
    );
    match language.is_vi() {
        true => format!("{d} tháng {m} năm {y}"),
        false => format!("{d} {} {y}", crate::wording::MONTHS[m.clamp(1, 12) - 1]),
    }
}

/// How a numeric date such as `03/04/2026` is read: `Some(true)` day first, `Some(false)`
/// month first, `None` when neither the context nor the language says.
pub fn day_first(ctx: &TaskContext, language: Language) -> Option<bool> {
    if let Some(d) = ctx.day_first {
        return Some(d);
    }
    let tag = ctx
        .language
        .as_deref()
        .unwrap_or(language.as_str())
        .to_ascii_lowercase();
    let region = tag.split(['-', '_']).nth(1);
    match (tag.split(['-', '_']).next(), region) {
        (Some("vi"), _) => Some(true),
        (Some("en"), Some("us" | "ph")) => Some(false),
        (Some("en"), Some(_)) => Some(true),
        _ if language.is_vi() => Some(true),
        _ => None,
    }
}

/// The numeric dates of `toks` whose day and month could be swapped (`03/04/2026`):
/// the text as written and both readings (day first, month first) as ISO dates.
pub fn two_way_dates(toks: &[Token], src: &str) -> Vec<(String, String, String)> {
    toks.iter()
        .filter_map(|t| {
            let Tok::Date(Some(day_first)) = &t.tok else {
                return None;
            };
            let text = &src[t.start..t.end];
            let mut nums = text.split(['/', '.', '-']);
            let (a, b, y) = (nums.next()?, nums.next()?, nums.next()?);
            if a.len() > 2 || y.len() != 4 {
                return None; // ISO (year first) reads one way only
            }
            let (a, b, y): (u32, u32, i32) = (a.parse().ok()?, b.parse().ok()?, y.parse().ok()?);
            let month_first = crate::lexer::iso_date(y, a, b)?;
            // (`03/15/1998` has no day-first reading: the lexer read it month first.)
            let both = a != b && crate::lexer::iso_date(y, b, a).is_some();
            both.then(|| (text.to_owned(), day_first.clone(), month_first))
        })
        .collect()
}

/// The question for a numeric date that reads two ways.
pub fn which_date(text: &str, day_first: &str, month_first: &str, language: Language) -> Question {
    let options = vec![
        AnswerOption {
            label: date_label(day_first, language),
            value: day_first.to_owned(),
        },
        AnswerOption {
            label: date_label(month_first, language),
            value: month_first.to_owned(),
        },
    ];
    let text_q = match language.is_vi() {
        true => format!(
            "\"{text}\" là ngày {} hay ngày {}?",
            options[0].label, options[1].label
        ),
        false => format!(
            "Does \"{text}\" mean {} or {}?",
            options[0].label, options[1].label
        ),
    };
    Question {
        text: text_q,
        options,
        part: text.to_owned(),
        fill: Fill::Replace(text.to_owned()),
        expect: Expect::Option,
    }
}

/// Words that make a day and month without a year (`6/5`) a date, not a fraction: `how
/// many days until 6/5`, `deadline is 3/4, what weekday is that`.
const DATE_WORDS: &[&str] = &[
    "until", "till", "til", "weekday", "day", "days", "date", "due", "deadline", "arrive",
    "arrives", "arriving", "flight", "birthday", "bday", "visit", "from", "since",
];

/// The days and months of `toks` (an English request, lexed from `src`) written `d/m`
/// without a year that read two ways (`6/5`: 6 May or June 5), in a request about a
/// date: the text as written and both readings in words (`6 May`, `5 June`).
pub fn two_way_day_months(toks: &[Token], src: &str) -> Vec<(String, String, String)> {
    let dated = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| DATE_WORDS.contains(&w)));
    if !dated {
        return Vec::new();
    }
    let num = |k: usize| -> Option<u32> { toks.get(k)?.number()?.parse().ok() };
    (0..toks.len())
        .filter_map(|k| {
            let (a, b) = (num(k)?, num(k + 2)?);
            let slash = toks.get(k + 1).is_some_and(|t| t.is_sym('/'));
            // (`6/5/2027` has its year; `3/4 of 20` is a fraction.)
            let year_or_fraction = toks.get(k + 3).is_some_and(|t| t.is_sym('/'))
                || k > 0 && toks[k - 1].is_sym('/')
                || toks.get(k + 3).and_then(Token::word) == Some("of");
            let apart = !year_or_fraction;
            let both = (1..=12).contains(&a) && (1..=12).contains(&b) && a != b;
            (slash && apart && both).then(|| {
                let month = |m: u32| crate::wording::MONTHS[m as usize - 1];
                (
                    src[toks[k].start..toks[k + 2].end].to_owned(),
                    format!("{a} {}", month(b)),
                    format!("{b} {}", month(a)),
                )
            })
        })
        .collect()
}

/// The question for a day and month without a year that reads two ways (`6/5`): the
/// options are the two readings in words.
pub fn which_day_month(text: &str, day_first: &str, month_first: &str) -> Question {
    let options = [day_first, month_first]
        .into_iter()
        .map(|d| AnswerOption {
            label: d.to_owned(),
            value: d.to_owned(),
        })
        .collect();
    Question {
        text: format!("Does \"{text}\" mean {day_first} or {month_first}?"),
        options,
        part: text.to_owned(),
        fill: Fill::Replace(text.to_owned()),
        expect: Expect::Option,
    }
}

/// The question for a weekday name that could mean two dates (`friday`): the coming
/// one or the last one, each as the words the planner reads (`next friday`).
pub fn which_weekday(text: &str, name: &str, language: Language) -> Question {
    // (value, label) of the coming one and of the last one, and the question.
    let (coming, last, q) = match language.is_vi() {
        true => {
            let coming = format!("{text} tới");
            let last = format!("{text} tuần trước");
            let q = format!("\"{text}\" là {coming} hay {last}?");
            ((coming.clone(), coming), (last.clone(), last), q)
        }
        false => (
            (format!("next {name}"), format!("the coming {name}")),
            (format!("last {name}"), format!("last {name}")),
            format!("Which {name} do you mean: the coming one or the last one?"),
        ),
    };
    let options = [coming, last]
        .into_iter()
        .map(|(value, label)| AnswerOption { label, value })
        .collect();
    Question {
        text: q,
        options,
        part: text.to_owned(),
        fill: Fill::Replace(text.to_owned()),
        expect: Expect::Option,
    }
}
