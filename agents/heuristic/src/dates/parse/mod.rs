//! Reading a part as a date question: its pieces found in turn (the question they
//! make is decided in `decide.rs`).

mod decide;

use super::named::{
    END_OF_MONTH, END_OF_YEAR, NAMED_DAYS, WEEK_AFTER, YEAR_BEFORE, end_of_named_month, weekday_at,
    year_after, year_in_words,
};
use super::stated::said_date;
use super::words::{EVENTS, Flag, HARMLESS, KIN, PHRASES, WHOSE_BIRTH};
use super::written::{month_day, written_date};
use super::{Anchor, DateParse, DateQuery, NamedThen, NamedYear};
use crate::lexer::{Tok, Token, iso_date, words_at};
use crate::numbers;
use decide::decide;

/// Sets the question's anchor to `new`, unless one is set already: then `false` (two
/// dates to find), except for one day named twice (`ngày nhà giáo 20/11 năm sau`, a
/// holiday and its date restated), where the year said with either holds.
fn restate(anchor: &mut Option<Anchor>, new: Anchor) -> bool {
    let Some(was) = *anchor else {
        *anchor = Some(new);
        return true;
    };
    match (was, new) {
        (
            Anchor::Named {
                month,
                day,
                year,
                said,
            },
            Anchor::Named {
                month: m,
                day: d,
                year: y,
                said: s,
            },
        ) if month == m && day == d => {
            let year = match (year, y) {
                (NamedYear::Next, y) => y,
                (year, NamedYear::Next) => year,
                (year, y) if year == y => year,
                _ => return false,
            };
            let said = said && s;
            *anchor = Some(Anchor::Named {
                month,
                day,
                year,
                said,
            });
            true
        }
        _ => false,
    }
}

pub(super) fn unit(word: &str) -> Option<&'static str> {
    Some(match word {
        // `how many sleeps till christmas`: nights, counted as days.
        "day" | "days" | "ngày" | "sleeps" => "days",
        // A stay's nights move the date a day each (`check in dec 29 for 5 nights`).
        "night" | "nights" | "đêm" => "days",
        // Monday to Friday (`crate::workdays`).
        crate::workdays::WORD => "working_days",
        "week" | "weeks" | "tuần" => "weeks",
        "month" | "months" | "tháng" => "months",
        "year" | "years" | "năm" => "years",
        "hour" | "hours" | "giờ" | "tiếng" => "hours",
        "minute" | "minutes" | "min" | "mins" | "phút" => "minutes",
        _ => return None,
    })
}

/// Reads `toks` (from the query `src`) as a date question.
pub fn parse(toks: &[Token], src: &str) -> DateParse {
    let mut dates: Vec<String> = Vec::new();
    let mut durations: Vec<(i64, &'static str)> = Vec::new();
    let mut flags: Vec<Flag> = Vec::new();
    // A unit named without an amount (`how many weeks until`): the tools count days.
    let mut counted_in: Option<&str> = None;
    let mut anchor: Option<Anchor> = None;
    // A weekday named without saying which one (`friday`): the next one only where the
    // question settles it (`days until friday`).
    let mut undirected = false;
    // A day and month written `20/11` (which could be a division): a date only where
    // the request asks something of a date.
    let mut slashed = false;
    // The last day of a month named (`cuối tháng 2 năm 2027`): a day found, so its
    // weekday is given with it.
    let mut month_end = false;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // Every anchor starts with a word: numbers and symbols skip the tables.
        let found = if t.word().is_none() {
            None
        } else if let Some((month, end, said)) = end_of_named_month(toks, i) {
            let leap = |y: i64| y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
            let day = match (month, said) {
                (2, Some(y)) if leap(y) => 29,
                (2, _) => 28,
                (4 | 6 | 9 | 11, _) => 30,
                _ => 31,
            };
            let year = said.map_or(NamedYear::Next, NamedYear::In);
            month_end = true;
            Some((Anchor::end_of(month, day, year), end))
        } else if let Some((day, end)) = super::named::day_of_next_month(toks, i) {
            Some((Anchor::DayOfNextMonth { day }, end))
        } else if let Some(w) = END_OF_MONTH.iter().find(|w| words_at(toks, i, w)) {
            if w[0] == "left" {
                flags.push(Flag::Until);
            }
            Some((Anchor::EndOfMonth, i + w.len()))
        } else if let Some(w) = END_OF_YEAR.iter().find(|w| words_at(toks, i, w)) {
            if w[0] == "left" {
                flags.push(Flag::Until);
            }
            let (month, day, year) = (12, 31, NamedYear::Next);
            Some((Anchor::end_of(month, day, year), i + w.len()))
        } else if let Some((before, offset)) = YEAR_BEFORE
            .iter()
            .find(|(w, _)| words_at(toks, i, w))
            .and_then(|(w, offset)| {
                let at = i + w.len();
                NAMED_DAYS
                    .iter()
                    .find(|(n, _, _)| words_at(toks, at, n))
                    .map(|named| (named, (*offset, at)))
            })
        {
            let (words, month, day) = before;
            let (offset, at) = offset;
            let (month, day, year) = (*month, *day, NamedYear::Offset(offset));
            Some((Anchor::named(month, day, year), at + words.len()))
        } else if let Some((words, month, day)) =
            NAMED_DAYS.iter().find(|(w, _, _)| words_at(toks, i, w))
        {
            let (month, day) = (*month, *day);
            let end = i + words.len();
            let (year, end) = year_after(toks, end).unwrap_or((NamedYear::Next, end));
            Some((Anchor::named(month, day, year), end))
        } else if let Some((name, last, next)) = weekday_at(toks, i) {
            // `thứ 6 tuần sau`, `friday next week`: the weekday of that week.
            // (`tuần sau thứ 6`, `next week friday`: the week said before it.)
            let before = WEEK_AFTER
                .iter()
                .find(|(w, _)| i >= w.len() && words_at(toks, i - w.len(), w))
                .map(|(_, weeks)| (*weeks, next));
            let week = before.or_else(|| {
                (i..=next).rev().find_map(|k| {
                    WEEK_AFTER
                        .iter()
                        .find(|(w, _)| words_at(toks, k, w))
                        .map(|(w, weeks)| (*weeks, k + w.len()))
                })
            });
            match week {
                Some((weeks, end)) if end >= next => {
                    Some((Anchor::WeekdayOfWeek { name, weeks }, end))
                }
                _ => {
                    undirected = last.is_none();
                    let last = last.unwrap_or(false);
                    Some((Anchor::Weekday { name, last }, next))
                }
            }
        } else {
            None
        };
        if let Some((a, next)) = found {
            if !restate(&mut anchor, a) {
                return DateParse::NotDate; // two dates to find: not one question
            }
            i = next;
            continue;
        }
        // (`he turns 18 on 2027-05-09, how many days to go`: the age reached that day
        // only names it.)
        if matches!(t.word(), Some("turns" | "turning"))
            && toks.get(i + 1).is_some_and(|n| n.number().is_some())
            && toks.get(i + 2).and_then(Token::word) == Some("on")
        {
            i += 3;
            continue;
        }
        // `xmas is on what day this yr`: the year of the day named, said after the question.
        if let Some(Anchor::Named { year, .. }) = &mut anchor
            && *year == NamedYear::Next
            && let Some((said, next)) = year_in_words(toks, i)
        {
            *year = said;
            i = next;
            continue;
        }
        // `tuần sau thứ 6`: the week before its weekday, read with the weekday.
        if let Some((w, _)) = WEEK_AFTER.iter().find(|(w, _)| words_at(toks, i, w))
            && weekday_at(toks, i + w.len()).is_some()
        {
            i += w.len();
            continue;
        }
        if let Tok::Date(d) = &t.tok {
            match d {
                Some(iso) => dates.push(iso.clone()),
                None => return DateParse::InvalidDate(src[t.start..t.end].to_owned()),
            }
            i += 1;
            continue;
        }
        // `July 4`, `4th of July`, `31 tháng 12`: the next such day (no year written).
        if let Some((month, day, next)) = month_day(toks, i) {
            slashed |= toks.get(i + 1).is_some_and(|t| t.is_sym('/'));
            let (year, next) = year_after(toks, next).unwrap_or((NamedYear::Next, next));
            // (`15/12`, `dec 18` are the user's date; `4th of july` names a day.)
            let said = said_date(toks, i, month, day);
            let named = Anchor::Named {
                month,
                day,
                year,
                said,
            };
            // `ngày nhà giáo 20/11`: the named day with its date restated.
            if !restate(&mut anchor, named) {
                return DateParse::NotDate;
            }
            i = next;
            continue;
        }
        if let Some((date, next)) = written_date(toks, i) {
            match date {
                Some(iso) => dates.push(iso),
                None => {
                    let raw = &src[t.start..toks[next - 1].end];
                    return DateParse::InvalidDate(raw.to_owned());
                }
            }
            i = next;
            continue;
        }
        if let Some((amount, next)) = amount_at(toks, i)
            && let Some(u) = toks.get(next).and_then(Token::word).and_then(unit)
        {
            let Ok(amount) = amount.parse::<i64>() else {
                return DateParse::NotDate;
            };
            durations.push((amount, u));
            i = next + 1;
            continue;
        }
        if let Some((phrase, fs)) = PHRASES.iter().find(|(p, _)| words_at(toks, i, p)) {
            flags.extend_from_slice(fs);
            i += phrase.len();
            continue;
        }
        if let Some(u) = t.word().and_then(unit)
            && matches!(u, "weeks" | "months" | "years")
            && t.word() != Some("năm")
        {
            counted_in = Some(u);
        }
        let harmless = match &t.tok {
            Tok::Word(w) => {
                HARMLESS.contains(&w.as_str())
                    || KIN.contains(&w.as_str())
                    || EVENTS.contains(&w.as_str())
            }
            // (`payday = last day of the month`: `=` says what it is.)
            Tok::Sym(c) => "?!.:\"'=".contains(*c),
            _ => false,
        };
        if !harmless {
            return DateParse::NotDate;
        }
        i += 1;
    }
    let has = |f: Flag| flags.contains(&f);
    if let Some(anchor) = anchor {
        // `45 days after dec 1 is what date`: a shift from the day found.
        if let ([], [(amount, unit)]) = (dates.as_slice(), durations.as_slice())
            && counted_in.is_none()
            && !has(Flag::Age)
            && matches!(
                *unit,
                "days" | "working_days" | "weeks" | "months" | "years"
            )
            && has(Flag::Later) != has(Flag::Ago)
            && matches!(anchor, Anchor::Named { .. })
        {
            let then = NamedThen::Shift {
                add: has(Flag::Later),
                amount: *amount,
                unit,
                weekday: has(Flag::Weekday) || has(Flag::AskDay),
            };
            return DateParse::Query(DateQuery::Anchored { anchor, then });
        }
        // `how many days between jan 5 and march 20 2027`: the day and month in the
        // other date's year.
        if let (
            [to],
            [],
            Anchor::Named {
                month,
                day,
                year: NamedYear::Next,
                ..
            },
        ) = (dates.as_slice(), durations.as_slice(), anchor)
            && has(Flag::Between)
            && let Some(year) = to.get(..4).and_then(|y| y.parse::<i32>().ok())
            && let Some(from) = iso_date(year, month as u32, day as u32)
                // (`từ 23/11 đến 15/1/2027`: the day before the date, in the year before.)
                .filter(|from| from.as_str() <= to.as_str())
                .or_else(|| iso_date(year - 1, month as u32, day as u32))
        {
            let days = DateQuery::Difference {
                from,
                to: to.clone(),
            };
            return match counted_in {
                None => DateParse::Query(days),
                Some("weeks") => DateParse::Query(DateQuery::InWeeks(Box::new(days))),
                Some(_) => DateParse::NotDate,
            };
        }
        if !dates.is_empty() || !durations.is_empty() || counted_in.is_some() || has(Flag::Age) {
            return DateParse::NotDate;
        }
        // `how many days since christmas`: the last one, counted to today.
        let mut anchor = anchor;
        let since = has(Flag::Since) && !has(Flag::Until);
        if since || has(Flag::Past) && !has(Flag::Until) {
            match &mut anchor {
                Anchor::Named { year, .. } if *year == NamedYear::Next => *year = NamedYear::Last,
                Anchor::Named { .. } => {}
                _ if since => return DateParse::NotDate,
                _ => {}
            }
        }
        let then = if since {
            NamedThen::DaysSince
        } else if has(Flag::Until) {
            NamedThen::DaysUntil
        } else if has(Flag::IsoWeek) {
            NamedThen::IsoWeek
        } else if has(Flag::DayOfYear) {
            NamedThen::DayOfYear
        } else if (has(Flag::Weekday) || has(Flag::AskDay))
            && !matches!(
                anchor,
                Anchor::Weekday { .. } | Anchor::WeekdayOfWeek { .. }
            )
        {
            NamedThen::Weekday
        } else {
            NamedThen::Date
        };
        if slashed && then == NamedThen::Date {
            return DateParse::NotDate;
        }
        if month_end
            && then == NamedThen::Weekday
            && let Anchor::Named { said, .. } = &mut anchor
        {
            *said = false;
        }
        // `friday` alone reads two ways (this week's or next); `days until friday` not.
        if undirected && then != NamedThen::DaysUntil {
            return DateParse::NotDate;
        }
        return DateParse::Query(DateQuery::Anchored { anchor, then });
    }
    // `were they born on` with no date asks about a date written elsewhere, never today.
    let born = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| matches!(w, "born" | "sinh")))
        || crate::lexer::says(toks, WHOSE_BIRTH);
    if born && dates.is_empty() {
        return DateParse::NotDate;
    }
    // A birth date asks an age or a weekday, never the days until it.
    let birth_question = has(Flag::Age) || has(Flag::Weekday) || has(Flag::AskDay);
    if born && !birth_question {
        return DateParse::NotDate;
    }
    // `tuần này là tuần thứ mấy` names weeks; `how many years old` years.
    let counts = |unit: &str| counted_in.is_none_or(|u| u == unit);
    if durations.is_empty() && dates.len() <= 1 {
        let date = dates.first().cloned();
        if has(Flag::Age) && counts("years") {
            return match date {
                Some(born) => DateParse::Query(DateQuery::Age { born }),
                None => DateParse::NotDate,
            };
        }
        if has(Flag::IsoWeek) && counts("weeks") {
            return DateParse::Query(DateQuery::IsoWeek { date });
        }
        if has(Flag::DayOfYear) && counts("days") {
            return DateParse::Query(DateQuery::DayOfYear { date });
        }
    }
    if has(Flag::Age) || has(Flag::IsoWeek) || has(Flag::DayOfYear) {
        return DateParse::NotDate;
    }
    match decide(&dates, &durations, &flags) {
        Some(q @ (DateQuery::Difference { .. } | DateQuery::DaysUntil { .. }))
            if counted_in == Some("weeks") =>
        {
            DateParse::Query(DateQuery::InWeeks(Box::new(q)))
        }
        Some(DateQuery::Difference { .. } | DateQuery::DaysUntil { .. })
            if counted_in.is_some() =>
        {
            DateParse::NotDate
        }
        Some(q) => DateParse::Query(q),
        None => DateParse::NotDate,
    }
}

/// A whole amount before a unit: digits, number words, or `a`/`an`.
fn amount_at(toks: &[Token], i: usize) -> Option<(String, usize)> {
    match &toks.get(i)?.tok {
        Tok::Num(n) => Some((n.clone(), i + 1)),
        Tok::Word(w) if w == "a" || w == "an" => Some(("1".into(), i + 1)),
        // (`the day before 2027-01-15`, `the week after that`: one of them; never
        // `the day before yesterday`, a day of its own.)
        Tok::Word(w)
            if w == "the"
                && toks
                    .get(i + 1)
                    .and_then(Token::word)
                    .and_then(unit)
                    .is_some()
                && matches!(
                    toks.get(i + 2).and_then(Token::word),
                    Some("before" | "after")
                )
                && !matches!(
                    toks.get(i + 3).and_then(Token::word),
                    Some("yesterday" | "tomorrow" | "next" | "last")
                ) =>
        {
            Some(("1".into(), i + 1))
        }
        Tok::Word(_) => numbers::parse_words(toks, i, false),
        _ => None,
    }
}
