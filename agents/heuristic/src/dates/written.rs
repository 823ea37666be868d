//! Dates written in words or without a year: a month name and a day, the Vietnamese
//! form, a year said apart from its day and month, two days and the days between them.

use super::DateQuery;
use crate::lexer::{Tok, Token, iso_date, words_at};

/// A date written in words at `i` — `25 tháng 12 năm 2026`, `12 June 1994`, `June 12,
/// 1994`, `feb 29 2000`, `3rd of May 1990` — as the ISO date (`None` when not a real
/// date) and the index after it.
pub fn written_date(toks: &[Token], i: usize) -> Option<(Option<String>, usize)> {
    vietnamese_date(toks, i).or_else(|| month_name_date(toks, i))
}

/// The first date written in `toks` (digits or words), as an ISO date.
pub fn first_date(toks: &[Token]) -> Option<String> {
    (0..toks.len()).find_map(|i| match &toks[i].tok {
        Tok::Date(d) => d.clone(),
        _ => written_date(toks, i).and_then(|(d, _)| d),
    })
}

/// The month an English month name or short form names (`october`, `oct`); `may` is
/// left out, as it is more often the verb.
pub(crate) fn month_number(word: &str) -> Option<u32> {
    (word != "may")
        .then(|| {
            MONTH_NAMES
                .iter()
                .find(|(n, _)| *n == word)
                .map(|(_, m)| *m)
        })
        .flatten()
}

/// English month names and their usual short forms.
/// `src` (lexed as `toks`) with a year said apart from its day and month put after them
/// (`tet 2027 is feb 6` reads `tet is feb 6 2027`, `Tết năm 2027 là ngày 6 tháng 2`
/// reads `Tết là ngày 6 tháng 2 năm 2027`), or dropped when the date has it already (`tết
/// 2027 là ngày 6/2/2027`); `dương lịch` (the solar calendar every date here is in) is
/// dropped too. `None` when there is nothing to change; a lunar date (`âm lịch`) is
/// left alone.
pub fn year_said_apart(toks: &[Token], src: &str) -> Option<String> {
    // (`tết âm lịch 2027 rơi vào ngày 6 tháng 2`: the festival's name, its date solar.)
    if (0..toks.len()).any(|i| {
        words_at(toks, i, &["âm", "lịch"]) && !(i > 0 && toks[i - 1].word() == Some("tết"))
    }) {
        return None;
    }
    let num = |x: usize| toks.get(x).and_then(Token::number).is_some();
    // (`ngày 6 tháng 2 dương lịch`: said of a date only; `Tết Dương lịch` is a day.)
    let solar = (1..toks.len()).find(|&i| words_at(toks, i, &["dương", "lịch"]) && num(i - 1));
    let year_at = |k: usize| {
        toks[k]
            .number()
            .and_then(|n| n.parse::<i32>().ok())
            .filter(|y| (1900..=2100).contains(y))
    };
    // A year before `is`/`là` and the date after it.
    let apart = (0..toks.len()).find(|&k| {
        year_at(k).is_some()
            && (k + 1..toks.len().min(k + 3))
                .any(|j| matches!(toks[j].word(), Some("is" | "là" | "was" | "falls" | "rơi")))
    });
    // Byte ranges to cut (each with the space before it), and where to put the year.
    let before = |k: usize| k.checked_sub(1).map_or(toks[k].start, |p| toks[p].end);
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    if let Some(i) = solar {
        cuts.push((before(i), toks[i + 1].end));
    }
    let mut insert: Option<(usize, String)> = None;
    if let Some(k) = apart {
        let year = year_at(k)?;
        let lead = k > 0 && matches!(toks[k - 1].word(), Some("năm" | "year"));
        let from = if lead { before(k - 1) } else { before(k) };
        let with_year = toks[k + 1..].iter().any(|t| match &t.tok {
            Tok::Date(Some(d)) => d.starts_with(&year.to_string()),
            _ => false,
        });
        let month = |j: usize| month_at(toks, j).is_some();
        // The day and month after it: `feb 6`, `6 feb`, `ngày 6 tháng 2`.
        let end = (k + 1..toks.len()).find_map(|j| {
            let vi = words_at(toks, j, &["tháng"]) && num(j + 1);
            let day_month = vi || month(j) && num(j + 1) || num(j) && month(j + 1);
            day_month.then_some((j + 2, vi))
        });
        match (with_year, end) {
            (true, _) => cuts.push((from, toks[k].end)),
            // (A day and month with no year of their own: `ngày 6 tháng 2 năm 2027`.)
            (false, Some((end, vi))) if !num(end) => {
                cuts.push((from, toks[k].end));
                let said = if vi {
                    format!(" năm {year}")
                } else {
                    format!(" {year}")
                };
                insert = Some((toks[end - 1].end, said));
            }
            _ => {}
        }
    }
    if cuts.is_empty() {
        return None;
    }
    let mut edits: Vec<(usize, usize, String)> = cuts
        .into_iter()
        .map(|(a, b)| (a, b, String::new()))
        .chain(insert.map(|(p, y)| (p, p, y)))
        .collect();
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = String::new();
    let mut at = 0;
    for (a, b, with) in edits {
        out.push_str(src.get(at..a)?);
        out.push_str(&with);
        at = b;
    }
    out.push_str(src.get(at..)?);
    Some(out)
}

/// The month the word at `k` names (`feb`, `february` → 2), if it names one.
fn month_at(toks: &[Token], k: usize) -> Option<u32> {
    let w = toks.get(k)?.word()?;
    MONTH_NAMES.iter().find(|(n, _)| *n == w).map(|(_, m)| *m)
}

pub(super) const MONTH_NAMES: &[(&str, u32)] = &[
    ("january", 1),
    ("jan", 1),
    ("february", 2),
    ("feb", 2),
    ("march", 3),
    ("mar", 3),
    ("april", 4),
    ("apr", 4),
    ("may", 5),
    ("june", 6),
    ("jun", 6),
    ("july", 7),
    ("jul", 7),
    ("august", 8),
    ("aug", 8),
    ("september", 9),
    ("sept", 9),
    ("sep", 9),
    ("october", 10),
    ("oct", 10),
    ("november", 11),
    ("nov", 11),
    ("december", 12),
    ("dec", 12),
];

/// `12 June 1994`, `12th of June, 1994`, `June 12 1994`, `June 12th, 1994`: a day, a
/// month name and a four-digit year.
fn month_name_date(toks: &[Token], i: usize) -> Option<(Option<String>, usize)> {
    let num = |k: usize| match &toks.get(k)?.tok {
        Tok::Num(n) => n.parse::<u32>().ok(),
        _ => None,
    };
    let month = |k: usize| month_at(toks, k);
    let skip = |k: usize, words: &[&str]| {
        k + usize::from(
            toks.get(k)
                .and_then(Token::word)
                .is_some_and(|w| words.contains(&w)),
        )
    };
    let ordinal = ["st", "nd", "rd", "th"];
    let (d, m, mut k) = if let Some(m) = month(i) {
        let d = num(i + 1)?;
        (d, m, skip(i + 2, &ordinal))
    } else {
        let d = num(i)?;
        let k = skip(skip(i + 1, &ordinal), &["of"]);
        (d, month(k)?, k + 1)
    };
    if toks.get(k).is_some_and(|t| t.is_sym(',')) {
        k += 1;
    }
    let y = match &toks.get(k)?.tok {
        Tok::Num(n) if n.len() == 4 => n.parse::<i32>().ok()?,
        _ => return None,
    };
    Some((iso_date(y, m, d), k + 1))
}

/// Words asking the days or nights between two days.
const DAYS_ASKED: &[&[&str]] = &[
    &["how", "many", "days"],
    &["how", "many", "nights"],
    &["days", "between"],
    &["nights", "between"],
    &["bao", "nhiêu", "ngày"],
    &["bao", "nhiêu", "đêm"],
    &["mấy", "ngày"],
    &["mấy", "đêm"],
    &["bn", "ngày"],
    &["bn", "đêm"],
];

/// Two days written without a year and the days (or nights) between them asked:
/// `check in 23/12, check out 27/12, how many nights`, `how many days from dec 23 to
/// dec 27`, `khách nhận phòng 23/12, trả phòng 27/12, ở mấy đêm`. No other number.
pub fn between_day_months(toks: &[Token]) -> Option<DateQuery> {
    if !crate::lexer::says(toks, DAYS_ASKED) {
        return None;
    }
    let mut days = Vec::new();
    // (`Khách ở homestay từ 26/12/2026 đến 29/12/2026 là mấy đêm`: two full dates.)
    let mut dates: Vec<String> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some((m, d, next)) = month_day(toks, i) {
            days.push((m, d));
            i = next;
            continue;
        }
        if let Tok::Date(Some(iso)) = &toks[i].tok {
            dates.push(iso.clone());
            i += 1;
            continue;
        }
        // (`on 9 Feb 2027 and back on 2 March 2027`: full dates written in words.)
        if let Some((Some(iso), next)) = written_date(toks, i) {
            dates.push(iso);
            i = next;
            continue;
        }
        if toks[i].number().is_some() || matches!(toks[i].tok, Tok::Date(_)) {
            return None;
        }
        i += 1;
    }
    // (`từ hôm nay tới 31/12 …, mà 31/12 là thứ mấy`: one day said twice, counted from
    // today, and a weekday asked — other questions.)
    let other = (0..toks.len()).any(|i| {
        words_at(toks, i, &["hôm", "nay"])
            || words_at(toks, i, &["thứ", "mấy"])
            || toks[i]
                .word()
                .is_some_and(|w| matches!(w, "today" | "now" | "weekday"))
    });
    match (days.as_slice(), dates.as_slice()) {
        ([from, to], []) if from != to && !other => Some(DateQuery::DaysBetweenDays {
            from: *from,
            to: *to,
        }),
        ([], [from, to]) if from != to && !other && !own_question(toks) => {
            Some(DateQuery::Difference {
                from: from.clone(),
                to: to.clone(),
            })
        }
        _ => None,
    }
}

/// Whether a request naming two full dates asks something of one of them alone (`what
/// day of the week is 31 October 1999, and how many days until 15 August 2027`): not
/// the days between them.
fn own_question(toks: &[Token]) -> bool {
    toks.iter().any(|t| {
        t.word().is_some_and(|w| {
            matches!(
                w,
                "until" | "till" | "since" | "ago" | "week" | "old" | "age" | "born" | "weekday"
            )
        })
    })
}

/// A month and a day with no year at `i` (`July 4`, `4th of July`, `31 tháng 12`): the
/// month, the day and the index after them. A year after them makes it a full date
/// ([`written_date`]), not this.
/// The index after a day and month written without a year at `i` (`dec 14`, `14/12`,
/// `31 tháng 12`), if one starts there.
pub(crate) fn day_month_end(toks: &[Token], i: usize) -> Option<usize> {
    month_day(toks, i).map(|(_, _, next)| next)
}

pub(super) fn month_day(toks: &[Token], i: usize) -> Option<(i64, i64, usize)> {
    if written_date(toks, i).is_some() {
        return None;
    }
    let num = |k: usize| match &toks.get(k)?.tok {
        Tok::Num(n) => n.parse::<u32>().ok(),
        _ => None,
    };
    let month = |k: usize| month_at(toks, k);
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let ordinal = |k: usize| usize::from(matches!(word(k), Some("st" | "nd" | "rd" | "th")));
    let (m, d, next) = if toks.get(i + 1).is_some_and(|t| t.is_sym('/')) {
        // `20/11`, `12/25`: the order a number above 12 shows, else day first in a
        // Vietnamese request (a full date `20/11/2027` is one token already).
        if toks.get(i + 3).is_some_and(|t| t.is_sym('/')) {
            return None;
        }
        let (a, b) = (num(i)?, num(i + 2)?);
        let vietnamese = toks.iter().any(|t| t.word().is_some_and(|w| !w.is_ascii()));
        match (a > 12, b > 12) {
            (true, false) => (b, a, i + 3),
            (false, true) => (a, b, i + 3),
            (false, false) if vietnamese || a == b => (b, a, i + 3),
            _ => return None,
        }
    } else if let Some(m) = month(i) {
        let d = num(i + 1)?;
        (m, d, i + 2 + ordinal(i + 2))
    } else if word(i + 1) == Some("tháng") {
        // `31 tháng 12` (`năm` after it would be a full date).
        (num(i + 2)?, num(i)?, i + 3)
    } else {
        let d = num(i)?;
        let k = i + 1 + ordinal(i + 1);
        let k = k + usize::from(word(k) == Some("of"));
        (month(k)?, d, k + 1)
    };
    // The day must exist in some year (29 February included).
    iso_date(2000, m, d)?;
    Some((i64::from(m), i64::from(d), next))
}

/// The Vietnamese written form `25 tháng 12 năm 2026` at `i`: the ISO date (`None` when
/// not a real date) and the index after it.
fn vietnamese_date(toks: &[Token], i: usize) -> Option<(Option<String>, usize)> {
    let num = |k: usize| match &toks.get(k)?.tok {
        Tok::Num(n) => n.parse::<u32>().ok(),
        _ => None,
    };
    let (d, m, y) = (num(i)?, num(i + 2)?, num(i + 4)?);
    let shaped = toks.get(i + 1).and_then(Token::word) == Some("tháng")
        && toks.get(i + 3).and_then(Token::word) == Some("năm");
    if !shaped {
        return None;
    }
    let y = i32::try_from(y).ok()?;
    Some((iso_date(y, m, d), i + 5))
}

/// `src` (lexed as `toks`) with a birth date said year first (`sinh năm 1970 ngày 5/8`,
/// `sinh 2003 tháng 2 ngày 28`) written as one date (`sinh ngày 5/8/1970`), so the
/// age is counted from it; `None` when no such date is said.
pub fn birth_year_first(toks: &[Token], src: &str) -> Option<String> {
    let born = toks
        .iter()
        .position(|t| matches!(t.word(), Some("sinh" | "born")))?;
    let num = |k: usize| toks.get(k).and_then(Token::number);
    let mut k = born + 1;
    let start = k;
    if toks.get(k).and_then(Token::word) == Some("năm") {
        k += 1;
    }
    let year: i32 = num(k)?.parse().ok().filter(|y| (1900..=2100).contains(y))?;
    k += 1;
    let small = |k: usize, most: u32| {
        num(k)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..=most).contains(n))
    };
    let (day, month, end) = if toks.get(k).and_then(Token::word) == Some("ngày")
        && toks.get(k + 2).is_some_and(|t| t.is_sym('/'))
    {
        (small(k + 1, 31)?, small(k + 3, 12)?, k + 3)
    } else if toks.get(k).and_then(Token::word) == Some("tháng")
        && toks.get(k + 2).and_then(Token::word) == Some("ngày")
    {
        (small(k + 3, 31)?, small(k + 1, 12)?, k + 3)
    } else {
        return None;
    };
    Some(format!(
        "{}ngày {day}/{month}/{year}{}",
        &src[..toks[start].start],
        &src[toks[end].end..]
    ))
}

#[cfg(test)]
mod year_apart_tests {
    #[test]
    fn a_year_said_apart_goes_with_its_day_and_month() {
        let text = |q: &str| super::year_said_apart(&crate::lexer::lex(q), q);
        assert_eq!(
            text("tet 2027 is feb 6. how many days left").as_deref(),
            Some("tet is feb 6 2027. how many days left")
        );
        assert_eq!(
            text("Tết năm 2027 là ngày 6 tháng 2 dương lịch, còn mấy ngày").as_deref(),
            Some("Tết là ngày 6 tháng 2 năm 2027, còn mấy ngày")
        );
        assert_eq!(
            text("tết 2027 là ngày 6/2/2027, còn bn ngày").as_deref(),
            Some("tết là ngày 6/2/2027, còn bn ngày")
        );
        // A lunar date is never moved, `Tết Dương lịch` is a day; nothing apart, nothing
        // to change.
        assert_eq!(text("rằm tháng 8 âm lịch năm 2027 là ngày nào"), None);
        assert_eq!(text("tết dương lịch là ngày nào"), None);
        assert_eq!(text("feb 6 2027 is a saturday"), None);
    }
}
