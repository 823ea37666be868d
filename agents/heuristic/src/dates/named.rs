//! Days named rather than written: a named day of the year and the year it is asked
//! in, the end of a month or of the year, a weekday and which one.

use super::NamedYear;
use super::written::MONTH_NAMES;
use crate::lexer::{Tok, Token, words_at};

/// Words naming a year relative to this one, after a named day (`christmas next year`,
/// `20/11 năm sau`) or before it (`next year's christmas`): (words, years from now).
const YEAR_AFTER: &[(&[&str], i64)] = &[
    (&["next", "year"], 1),
    (&["this", "year"], 0),
    (&["last", "year"], -1),
    (&["năm", "sau"], 1),
    (&["năm", "tới"], 1),
    (&["năm", "nay"], 0),
    (&["năm", "ngoái"], -1),
    (&["năm", "trước"], -1),
];

/// A year named in words relative to this one at `i` (`this year`, `năm sau`), with the
/// index after it.
pub(super) fn year_in_words(toks: &[Token], i: usize) -> Option<(NamedYear, usize)> {
    YEAR_AFTER
        .iter()
        .find(|(w, _)| words_at(toks, i, w))
        .map(|(w, offset)| (NamedYear::Offset(*offset), i + w.len()))
}

/// (The lexer reads `year's` as `year`: `next year's christmas`.)
pub(super) const YEAR_BEFORE: &[(&[&str], i64)] = &[
    (&["next", "year"], 1),
    (&["this", "year"], 0),
    (&["last", "year"], -1),
];

/// The year written after a named day ending before `i`: `2027`, `năm 2027`, `in
/// 2027`, `, 2027`, `next year`, `năm sau`; with the index after it.
pub(super) fn year_after(toks: &[Token], i: usize) -> Option<(NamedYear, usize)> {
    if let Some(said) = year_in_words(toks, i) {
        return Some(said);
    }
    let lead = match toks.get(i) {
        Some(t) if t.is_sym(',') => 1,
        Some(t) if matches!(t.word(), Some("năm" | "in" | "of")) => 1,
        _ => 0,
    };
    match &toks.get(i + lead)?.tok {
        Tok::Num(n) if n.len() == 4 => {
            let year: i64 = n.parse().ok()?;
            (1583..=9999)
                .contains(&year)
                .then_some((NamedYear::In(year), i + lead + 1))
        }
        _ => None,
    }
}

/// Words after a weekday naming its week: (words, weeks from this one).
pub(super) const WEEK_AFTER: &[(&[&str], i64)] = &[
    (&["tuần", "này"], 0),
    (&["tuần", "nay"], 0),
    (&["tuần", "sau"], 1),
    (&["tuần", "tới"], 1),
    (&["tuần", "trước"], -1),
    (&["this", "week"], 0),
    (&["next", "week"], 1),
    (&["last", "week"], -1),
    (&["of", "this", "week"], 0),
    (&["of", "next", "week"], 1),
    (&["of", "last", "week"], -1),
];

/// Days from a Sunday to each weekday of the week after it.
pub(super) fn days_from_sunday(name: &str) -> i64 {
    match name {
        "Monday" => 1,
        "Tuesday" => 2,
        "Wednesday" => 3,
        "Thursday" => 4,
        "Friday" => 5,
        "Saturday" => 6,
        _ => 7,
    }
}

/// Named days of the year, longest names first: (words, month, day).
pub(super) const NAMED_DAYS: &[(&[&str], i64, i64)] = &[
    (&["christmas", "eve"], 12, 24),
    (&["christmas", "day"], 12, 25),
    (&["christmas"], 12, 25),
    (&["xmas"], 12, 25),
    (&["new", "year", "eve"], 12, 31),
    (&["new", "year's", "eve"], 12, 31),
    (&["new", "years", "eve"], 12, 31),
    (&["new", "year's", "day"], 1, 1),
    (&["new", "year", "day"], 1, 1),
    (&["new", "years", "day"], 1, 1),
    (&["new", "year's"], 1, 1),
    (&["new", "years"], 1, 1),
    (&["new", "year"], 1, 1),
    (&["halloween"], 10, 31),
    (&["valentine's", "day"], 2, 14),
    (&["valentines", "day"], 2, 14),
    (&["valentine's"], 2, 14),
    (&["valentine"], 2, 14),
    (&["valentines"], 2, 14),
    (&["giáng", "sinh"], 12, 25),
    (&["noel"], 12, 25),
    (&["tết", "dương", "lịch"], 1, 1),
    (&["tết", "dương"], 1, 1),
    (&["tết", "tây"], 1, 1),
    (&["năm", "mới"], 1, 1),
    (&["lễ", "tình", "nhân"], 2, 14),
    (&["quốc", "khánh"], 9, 2),
    (&["nhà", "giáo"], 11, 20),
];

/// The index after the named day (`christmas`, `new year's day`, `giáng sinh`) that
/// starts at `i`, if one does.
pub fn named_day_end(toks: &[Token], i: usize) -> Option<usize> {
    NAMED_DAYS
        .iter()
        .find(|(w, _, _)| words_at(toks, i, w))
        .map(|(w, _, _)| i + w.len())
}

/// A day of next month at `i` and the index after it: `ngày 5 tháng sau`, `mùng 5
/// tháng tới`, `the 5th of next month`. (`5 tháng sau` alone is five months on.)
pub(crate) fn day_of_next_month(toks: &[Token], i: usize) -> Option<(i64, usize)> {
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let day_at = |k: usize| -> Option<i64> {
        let n: i64 = toks.get(k)?.number()?.parse().ok()?;
        (1..=31).contains(&n).then_some(n)
    };
    // `ngày 5 tháng sau`, `mùng 5 tháng tới`
    if matches!(word(i), Some("ngày" | "mùng" | "mồng"))
        && let Some(day) = day_at(i + 1)
        && word(i + 2) == Some("tháng")
        && matches!(word(i + 3), Some("sau" | "tới"))
    {
        return Some((day, i + 4));
    }
    // `the 5th of next month`
    let lead = usize::from(word(i) == Some("the"));
    let day = day_at(i + lead)?;
    let ordinal = usize::from(matches!(
        word(i + lead + 1),
        Some("st" | "nd" | "rd" | "th")
    ));
    let at = i + lead + 1 + ordinal;
    words_at(toks, at, &["of", "next", "month"]).then_some((day, at + 3))
}

/// "The end of the month" in its forms: the `end_of_month` anchor.
pub(super) const END_OF_MONTH: &[&[&str]] = &[
    &["the", "end", "of", "the", "month"],
    &["the", "end", "of", "this", "month"],
    &["end", "of", "the", "month"],
    &["end", "of", "this", "month"],
    &["end", "of", "month"],
    &["the", "last", "day", "of", "the", "month"],
    &["the", "last", "day", "of", "this", "month"],
    &["last", "day", "of", "the", "month"],
    &["last", "day", "of", "this", "month"],
    &["ngày", "cuối", "cùng", "của", "tháng", "này"],
    &["ngày", "cuối", "cùng", "của", "tháng"],
    &["ngày", "cuối", "tháng", "này"],
    &["ngày", "cuối", "tháng"],
    &["cuối", "tháng", "này"],
    &["cuối", "tháng"],
    &["hết", "tháng", "này"],
    &["hết", "tháng"],
    &["left", "in", "the", "month"],
    &["left", "in", "this", "month"],
    &["left", "this", "month"],
];

/// "The end of the year" in its forms, and the year days are left in: December 31.
pub(super) const END_OF_YEAR: &[&[&str]] = &[
    &["the", "end", "of", "the", "year"],
    &["the", "end", "of", "this", "year"],
    &["end", "of", "the", "year"],
    &["end", "of", "this", "year"],
    &["end", "of", "year"],
    &["left", "in", "the", "year"],
    &["left", "in", "this", "year"],
    &["left", "this", "year"],
    &["hết", "năm", "nay"],
    &["hết", "năm"],
    &["cuối", "năm", "nay"],
    &["cuối", "năm"],
];

/// The last day of a month asked by its name (`left in november`, `end of march`, `the
/// last day of february 2027`, `hết tháng 12`, `cuối tháng 2 năm 2027`): its month, the
/// index after it, and the year said after it. February's last day depends on the year:
/// it is read only with one.
pub(super) fn end_of_named_month(toks: &[Token], i: usize) -> Option<(i64, usize, Option<i64>)> {
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let named = |k: usize| {
        MONTH_NAMES
            .iter()
            .find(|(n, _)| Some(*n) == word(k))
            .map(|m| m.1)
    };
    // (`ngày cuối tháng 2 năm 2027`: the day named first.)
    if word(i) == Some("ngày") && word(i + 1) == Some("cuối") {
        return end_of_named_month(toks, i + 1);
    }
    let (month, end) = match word(i)? {
        "end" if word(i + 1) == Some("of") => (named(i + 2)?, i + 3),
        "last" if word(i + 1) == Some("day") && word(i + 2) == Some("of") => (named(i + 3)?, i + 4),
        "in" | "of" => (named(i + 1)?, i + 2),
        "hết" | "cuối" if word(i + 1) == Some("tháng") => match &toks.get(i + 2)?.tok {
            Tok::Num(n) => (
                n.parse::<u32>().ok().filter(|m| (1..=12).contains(m))?,
                i + 3,
            ),
            _ => return None,
        },
        _ => return None,
    };
    // `in november` asks days left in it only with `left`/`end` before it.
    let asked = i > 0 && matches!(word(i - 1), Some("left" | "remaining" | "end"))
        || matches!(word(i), Some("hết" | "cuối" | "end" | "last"));
    // The year said after it: `february 2027`, `tháng 2 năm 2027`.
    let year_at = |k: usize| {
        toks.get(k)
            .and_then(Token::number)
            .filter(|n| n.len() == 4)
            .and_then(|n| n.parse::<i64>().ok())
    };
    let (year, end) = match (word(end), year_at(end), year_at(end + 1)) {
        (_, Some(y), _) => (Some(y), end + 1),
        (Some("năm"), None, Some(y)) => (Some(y), end + 2),
        _ => (None, end),
    };
    (asked && (month != 2 || year.is_some())).then_some((i64::from(month), end, year))
}

/// Weekday names: (words, the English name the tools take).
const WEEKDAY_NAMES: &[(&[&str], &str)] = &[
    (&["monday"], "Monday"),
    (&["tuesday"], "Tuesday"),
    (&["wednesday"], "Wednesday"),
    (&["thursday"], "Thursday"),
    (&["friday"], "Friday"),
    (&["saturday"], "Saturday"),
    (&["sunday"], "Sunday"),
    (&["thứ", "hai"], "Monday"),
    (&["thứ", "ba"], "Tuesday"),
    (&["thứ", "tư"], "Wednesday"),
    (&["thứ", "năm"], "Thursday"),
    (&["thứ", "sáu"], "Friday"),
    (&["thứ", "bảy"], "Saturday"),
    (&["chủ", "nhật"], "Sunday"),
];

/// Words before a weekday name saying which one: (words, the last one before today).
const WEEKDAY_BEFORE: &[(&[&str], bool)] = &[
    (&["this", "coming"], false),
    (&["the", "coming"], false),
    (&["coming"], false),
    (&["next"], false),
    (&["this"], false),
    (&["last"], true),
    (&["previous"], true),
    (&["past"], true),
];

/// Words after a weekday name saying which one (Vietnamese): (words, last).
const WEEKDAY_AFTER: &[(&[&str], bool)] = &[
    (&["tuần", "tới"], false),
    (&["tuần", "sau"], false),
    (&["tuần", "này"], false),
    (&["sắp", "tới"], false),
    (&["tới"], false),
    (&["này"], false),
    (&["tuần", "trước"], true),
    (&["vừa", "rồi"], true),
    (&["vừa", "qua"], true),
    (&["trước"], true),
];

/// A weekday at `i` (`next friday`, `last monday`, `thứ hai tới`, `thứ 6 tuần trước`,
/// `chủ nhật`): its English name, which one (`Some(true)` the last, `Some(false)` the
/// next, `None` when not said) and the index after it.
pub(super) fn weekday_at(toks: &[Token], i: usize) -> Option<(&'static str, Option<bool>, usize)> {
    let (before, at) = match WEEKDAY_BEFORE.iter().find(|(w, _)| words_at(toks, i, w)) {
        Some((w, last)) => (Some(*last), i + w.len()),
        None => (None, i),
    };
    let (name, after_name) =
        if let Some((w, name)) = WEEKDAY_NAMES.iter().find(|(w, _)| words_at(toks, at, w)) {
            (*name, at + w.len())
        } else if toks.get(at).and_then(Token::word) == Some("thứ")
            && let Some(Tok::Num(n)) = toks.get(at + 1).map(|t| &t.tok)
        {
            // `thứ 2` … `thứ 7`: Monday … Saturday.
            let k: usize = n.parse().ok().filter(|k| (2..=7).contains(k))?;
            (WEEKDAY_NAMES[7 + k - 2].1, at + 2)
        } else if let Some(k) = toks
            .get(at)
            .and_then(Token::word)
            .and_then(|w| w.strip_prefix('t').or_else(|| w.strip_prefix('T')))
            .and_then(|d| d.parse::<usize>().ok())
            .filter(|k| (2..=7).contains(k))
        {
            // `t2` … `t7`, written short (one word: the lexer's).
            (WEEKDAY_NAMES[7 + k - 2].1, at + 1)
        } else {
            return None;
        };
    if let Some((w, last)) = WEEKDAY_AFTER
        .iter()
        .find(|(w, _)| words_at(toks, after_name, w))
    {
        return Some((name, before.or(Some(*last)), after_name + w.len()));
    }
    Some((name, before, after_name))
}

/// The end of a weekday phrase starting at `i` (`next friday`, `thứ 6 tuần sau`,
/// `friday next week`), if one does: a follow-up naming another replaces it.
pub fn weekday_phrase_end(toks: &[Token], i: usize) -> Option<usize> {
    let (_, _, next) = weekday_at(toks, i)?;
    let week = WEEK_AFTER
        .iter()
        .find(|(w, _)| words_at(toks, next, w))
        .map_or(0, |(w, _)| w.len());
    Some(next + week)
}

/// The first weekday named without saying which one (`friday`, `thứ sáu`): its text as
/// written and its English name.
pub fn bare_weekday(toks: &[Token], src: &str) -> Option<(String, &'static str)> {
    (0..toks.len()).find_map(|i| {
        let (name, last, next) = weekday_at(toks, i)?;
        let text = &src[toks[i].start..toks[next - 1].end];
        last.is_none().then(|| (text.to_owned(), name))
    })
}

/// `tháng này còn bao nhiêu ngày`, `năm nay còn mấy ngày`: the days this month (year)
/// still has, said period first; as the request the planner reads (`còn bao nhiêu ngày
/// nữa hết tháng`).
pub fn period_left_said_first(toks: &[Token]) -> Option<String> {
    let period = match (toks.first()?.word()?, toks.get(1)?.word()?) {
        ("tháng", "này") => "tháng",
        ("năm", "nay") => "năm",
        _ => return None,
    };
    let rest: Vec<&str> = toks[2..].iter().filter_map(Token::word).collect();
    let asks = matches!(
        rest.as_slice(),
        ["còn", "bao", "nhiêu", "ngày", ..] | ["còn", "mấy", "ngày", ..]
    );
    asks.then(|| format!("còn bao nhiêu ngày nữa hết {period}"))
}

/// `ngày 20/1/2027 cách hôm nay bao nhiêu ngày`: a date's distance from today asked as
/// the days until it (`cách hôm nay` dropped), when the request states a full date.
pub fn apart_from_today(toks: &[Token], src: &str) -> Option<String> {
    let at = (0..toks.len()).find(|&k| words_at(toks, k, &["cách", "hôm", "nay"]))?;
    let dated = toks.iter().any(|t| matches!(t.tok, Tok::Date(Some(_))));
    let asks = (0..toks.len()).any(|k| {
        words_at(toks, k, &["bao", "nhiêu", "ngày"]) || words_at(toks, k, &["mấy", "ngày"])
    });
    (dated && asks).then(|| {
        format!(
            "{} {}",
            src[..toks[at].start].trim_end(),
            src[toks[at + 2].end..].trim_start()
        )
    })
}
