//! A date stated among other words, with one question asked of it (the days until
//! or since, an age, whole years), or a start date, a duration and the end asked.

use super::named::NAMED_DAYS;
use super::parse::unit;
use super::written::{month_day, written_date};
use super::{Anchor, DateQuery, NamedThen, NamedYear};
use crate::lexer::{Tok, Token, words_at};

/// Words that ask the days until a date stated among other words: `còn mấy ngày`,
/// `how many days left`, `bao lâu nữa`.
const UNTIL_ASKS: &[&[&str]] = &[
    &["còn", "mấy", "ngày"],
    &["còn", "bao", "nhiêu", "ngày"],
    &["còn", "bao", "lâu"],
    &["bao", "lâu", "nữa"],
    // (`còn` may have been read as the word joining the sentence on.)
    &["mấy", "ngày"],
    &["bao", "nhiêu", "ngày"],
    &["how", "many", "days"],
    &["how", "long", "until"],
    &["how", "long", "till"],
    &["days", "left"],
    &["days", "until"],
    &["days", "till"],
    &["days", "to", "go"],
    &["days", "from", "now"],
    &["days", "from", "today"],
];

/// Words before a small number that only says which one is meant (`kỳ 1`, `hk1`,
/// `lớp 3`, `term 2`): no number asked about.
const NAMES_WHICH: &[&str] = &[
    "kỳ", "ky", "hk", "hki", "lớp", "lop", "phòng", "tầng", "term", "semester", "grade", "class",
    "room", "floor", "unit", "level",
];

/// Words that ask another question of a date (an age, a shift, a span, a weekday): a
/// date stated among other words is not read with one of them.
const OTHER_ASKS: &[&str] = &[
    "ago", "since", "before", "after", "from", "between", "old", "age", "born", "tuổi", "sau",
    "trước", "từ", "giữa", "weekday", "thứ", "week", "tuần", "hours", "giờ", "time", "cách",
    "nhau", "apart", "both", "hai",
];

/// Words that ask the days since a date stated among other words, beside a count
/// asked ([`UNTIL_ASKS`]): `how many days since …`, `từ … đến nay`.
const SINCE_ASKS: &[&[&str]] = &[
    &["since"],
    &["đến", "nay"],
    &["tới", "nay"],
    &["đến", "hôm", "nay"],
    &["tới", "hôm", "nay"],
    &["kể", "từ"],
    &["ago"],
];

/// Words that ask the weekday of a date stated among other words (`what day of the
/// week is my defence, 18 june 2027`).
const WEEKDAY_ASKS: &[&[&str]] = &[
    &["day", "of", "the", "week"],
    // (`flight home leaves jan 29 2027 what day is that`: the date said before.)
    &["what", "day", "is", "that"],
    &["what", "day", "is", "it"],
    &["what", "day", "will", "that", "be"],
    &["what", "weekday"],
    &["which", "weekday"],
    &["thứ", "mấy"],
];

/// Words that ask an age: with a birth word ([`BIRTH_WORDS`]) and one full date, the
/// age of whoever was born then.
const AGE_ASKS: &[&[&str]] = &[
    &["how", "old"],
    &["mấy", "tuổi"],
    &["bao", "nhiêu", "tuổi"],
    &["what", "age"],
];

/// Words that ask the whole years since a date.
const YEARS_ASKS: &[&[&str]] = &[
    &["how", "many", "years"],
    &["bao", "nhiêu", "năm"],
    &["mấy", "năm"],
];

/// Words saying a date is a birth date.
const BIRTH_WORDS: &[&str] = &["born", "birth", "sinh", "dob", "bday", "birthday"];

/// What a date stated among other words is asked about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// The days until it.
    Until,
    /// The days since it.
    Since,
    /// The age of someone born on it.
    Age,
    /// Its weekday.
    Weekday,
}

/// A date stated among any other words with one question asked of it: the days until
/// it (`ngày 28/12 thi môn Kinh tế vi mô, còn mấy ngày`, `my final exam is on december
/// 14, how many days left`), the days since it (`how many days has it been since the
/// kids went back to school on September 1st?`) or, a birth date, the age (`bé nhà mình
/// sinh ngày 17/3/2020, giờ bé mấy tuổi rồi`). Read only where the strict reading
/// found nothing, with exactly one date and no other number, and no word asking
/// something else of it.
pub fn tolerant(toks: &[Token]) -> Option<DateQuery> {
    let has = |table: &[&[&str]]| crate::lexer::says(toks, table);
    let word = |w: &str| toks.iter().any(|t| t.word() == Some(w));
    let born = BIRTH_WORDS.iter().any(|w| word(w));
    // `t sinh 17/3/2009, còn bao nhiêu ngày nữa là sinh nhật t`: the days until the next
    // birthday, never until the birth date.
    let birthday = word("birthday")
        || word("bday")
        || (0..toks.len()).any(|i| words_at(toks, i, &["sinh", "nhật"]));
    // `ông bà cưới nhau ngày 20/1/1975, tính đến nay được bao nhiêu năm rồi`, `how many
    // years have i been a nurse if i started june 17 2019`: whole years since, as an age.
    let years = has(YEARS_ASKS) && !word("will") && !word("sẽ");
    let asked = match (has(AGE_ASKS), has(UNTIL_ASKS), has(SINCE_ASKS)) {
        (false, false, false) if has(WEEKDAY_ASKS) && !born => Asked::Weekday,
        (true, false, false) if born && !word("will") && !word("sẽ") => Asked::Age,
        (false, false, _) if years => Asked::Age,
        (false, true, true) => Asked::Since,
        (false, true, false) => Asked::Until,
        _ => return None,
    };
    // Words asking another question of the date; those of the question asked are
    // harmless (`from now` is until; `since`, `từ`, `born`, `tuổi` are its own words).
    let other = (0..toks.len()).any(|k| {
        let Some(w) = toks[k].word() else {
            return false;
        };
        let own = match asked {
            Asked::Until if birthday => matches!(w, "born" | "sinh"),
            Asked::Until => {
                words_at(toks, k, &["from", "now"])
                    || words_at(toks, k, &["from", "today"])
                    || words_at(toks, k, &["từ", "hôm", "nay"])
            }
            Asked::Since => matches!(w, "since" | "từ" | "ago"),
            Asked::Weekday => matches!(w, "week" | "weekday" | "thứ"),
            Asked::Age => matches!(
                w,
                "old" | "age" | "born" | "tuổi" | "sinh" | "giờ" | "bây" | "từ" | "since" | "nhau"
            ),
        };
        // (`Tết Nguyên Đán năm sau mùng 1 là ngày 6/2/2027`: `năm sau` only names the
        // year of the date given in full.)
        let next_year = w == "sau" && k > 0 && toks[k - 1].word() == Some("năm");
        // (`how many days till reading week, feb 16`: a week only names the date, unless
        // counted.)
        let named_week = w == "week"
            && k > 0
            && toks[k - 1].word().is_some_and(|p| {
                !matches!(
                    p,
                    "the" | "of" | "this" | "next" | "last" | "a" | "per" | "every" | "each"
                )
            })
            && toks
                .get(k + 1)
                .is_none_or(|t| !matches!(t.tok, Tok::Num(_)));
        OTHER_ASKS.contains(&w) && !own && !next_year && !named_week
    });
    // (`book me a flight and what weekday is 2026-12-25`: a part outside the tools is no
    // label of the date; `10/10 năm nay là thứ mấy`: the year said is another reader's.)
    // (`flight home is feb 3 2027`: what is booked only names the date, unless a
    // booking is asked.)
    let booking = has(&[&["book"], &["booking"], &["reserve"], &["đặt"]]);
    let outside = asked == Asked::Weekday
        && toks.iter().any(|t| {
            t.word().is_some_and(|w| {
                (booking || !matches!(w, "flight" | "flights" | "ticket" | "tickets" | "hotel"))
                    && crate::scope::outside_tools(w, chorus_bus::Language::En).is_some()
            })
        });
    let year_said = has(&[
        &["năm", "nay"],
        &["năm", "sau"],
        &["năm", "ngoái"],
        &["this", "year"],
        &["next", "year"],
        &["last", "year"],
    ]);
    if other || outside {
        return None;
    }
    let mut found: Option<(DateQuery, usize, usize)> = None;
    let mut i = 0;
    while i < toks.len() {
        let full = match &toks[i].tok {
            Tok::Date(Some(iso)) => Some((iso.clone(), i + 1)),
            _ => written_date(toks, i).and_then(|(d, next)| Some((d?, next))),
        };
        let here = match (full, asked) {
            (Some((date, next)), Asked::Until) if birthday => {
                let (month, day) = (
                    date.get(5..7)?.parse().ok()?,
                    date.get(8..10)?.parse().ok()?,
                );
                let anchor = Anchor::Named {
                    month,
                    day,
                    year: NamedYear::Next,
                    said: true,
                };
                let then = NamedThen::DaysUntil;
                Some((DateQuery::Anchored { anchor, then }, next))
            }
            (Some((date, next)), Asked::Until) => Some((DateQuery::DaysUntil { date }, next)),
            (Some((date, next)), Asked::Since) => Some((DateQuery::DaysSince { date }, next)),
            (Some((born, next)), Asked::Age) => Some((DateQuery::Age { born }, next)),
            (Some((date, next)), Asked::Weekday) => Some((DateQuery::Weekday { date }, next)),
            (None, Asked::Age) => None,
            (None, Asked::Weekday) if year_said => None,
            (None, _) => month_day(toks, i).map(|(month, day, next)| {
                let (year, then) = match asked {
                    Asked::Since => (NamedYear::Last, NamedThen::DaysSince),
                    Asked::Weekday => (NamedYear::Next, NamedThen::Weekday),
                    _ => (NamedYear::Next, NamedThen::DaysUntil),
                };
                let said = said_date(toks, i, month, day);
                let anchor = Anchor::Named {
                    month,
                    day,
                    year,
                    said,
                };
                (DateQuery::Anchored { anchor, then }, next)
            }),
        };
        match here {
            Some((q, next)) if found.is_none() => {
                found = Some((q, i, next));
                i = next;
            }
            Some(_) => return None,
            None => i += 1,
        }
    }
    let (query, start, end) = found?;
    // No number outside the date (`2 days`, a price): another question. (`mùng 1`, the
    // first day of a lunar month, only names the day the date gives.)
    let lunar_day = |k: usize| k > 0 && matches!(toks[k - 1].word(), Some("mùng" | "mồng"));
    // (`thi cuối kỳ 1`, `hk1`, `lớp 3`, `room 4`: a small number naming which one.)
    let names_which = |k: usize| {
        k > 0
            && toks[k]
                .number()
                .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n < 100))
            && toks[k - 1].word().is_some_and(|w| NAMES_WHICH.contains(&w))
    };
    let other_number = toks.iter().enumerate().any(|(k, t)| {
        !(start..end).contains(&k)
            && matches!(t.tok, Tok::Num(_))
            && !lunar_day(k)
            && !names_which(k)
    });
    (!other_number).then_some(query)
}

/// A start date, a duration and its end asked, among other words (`project starts dec 7,
/// 8 weeks of work, when does it finish`, `hợp đồng từ 1/12/2026, 6 tháng, ngày nào hết
/// hạn`): the date that long after the start. One date, one whole duration in days, weeks,
/// months or years, no other number, and the end asked.
pub fn tolerant_shift(toks: &[Token]) -> Option<DateQuery> {
    const ENDS: &[&[&str]] = &[
        &["when", "does", "it", "finish"],
        &["when", "does", "it", "end"],
        &["when", "will", "it", "finish"],
        &["when", "will", "it", "end"],
        &["when", "is", "it", "done"],
        &["finish", "date"],
        &["end", "date"],
        &["completion", "date"],
        &["due", "date"],
        &["when", "is", "it", "due"],
        &["checkout", "date"],
        &["check", "out", "date"],
        &["checkout", "day"],
        &["when", "do", "they", "leave"],
        &["trả", "phòng"],
        &["what", "date"],
        &["ngày", "nào"],
        &["ngày", "mấy"],
        &["hết", "hạn"],
        &["thứ", "mấy"],
    ];
    if !crate::lexer::says(toks, ENDS) {
        return None;
    }
    let mut date: Option<(Anchor, usize, usize)> = None;
    let mut full: Option<(String, usize, usize)> = None;
    let mut duration: Option<(i64, &'static str, usize)> = None;
    let mut i = 0;
    while i < toks.len() {
        if let Tok::Date(Some(iso)) = &toks[i].tok {
            full = Some((iso.clone(), i, i + 1));
            i += 1;
            continue;
        }
        if let Some((month, day, next)) = month_day(toks, i) {
            let anchor = Anchor::Named {
                month,
                day,
                year: NamedYear::Next,
                said: true,
            };
            date = Some((anchor, i, next));
            i = next;
            continue;
        }
        if let (Some(n), Some(u)) = (
            toks[i].number().and_then(|n| n.parse::<i64>().ok()),
            toks.get(i + 1).and_then(Token::word).and_then(unit),
        ) && matches!(u, "days" | "working_days" | "weeks" | "months" | "years")
            // (`thi cuối kỳ 1 ngày 6/1/2027`: `ngày` before a date introduces it.)
            && !toks
                .get(i + 2)
                .is_some_and(|t| t.number().is_some() || matches!(t.tok, Tok::Date(_)))
        {
            if duration.replace((n, u, i)).is_some() {
                return None;
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    let (amount, unit, at) = duration?;
    let spans: Vec<(usize, usize)> = [
        full.as_ref().map(|f| (f.1, f.2)),
        date.as_ref().map(|d| (d.1, d.2)),
    ]
    .into_iter()
    .flatten()
    .collect();
    // `hạn nộp đồ án là 3 tuần nữa kể từ hôm nay, là ngày nào, thứ mấy`: from today.
    let today = toks.iter().any(|t| t.word() == Some("today"))
        || (0..toks.len()).any(|i| words_at(toks, i, &["hôm", "nay"]));
    let weekday = (0..toks.len()).any(|i| {
        words_at(toks, i, &["thứ", "mấy"])
            || words_at(toks, i, &["what", "day"])
            || toks[i].word() == Some("weekday")
    });
    // `Khách hẹn lấy đồ sau 10 ngày nữa, là ngày nào, thứ mấy`: from now.
    let from_now = at > 0 && matches!(toks[at - 1].word(), Some("sau" | "in"))
        || toks.get(at + 2).and_then(Token::word) == Some("nữa");
    let (start, end) = match spans.as_slice() {
        [(s, e)] => (*s, *e),
        [] if today || from_now => (0, 0),
        _ => return None,
    };
    // No other number.
    if toks
        .iter()
        .enumerate()
        .any(|(k, t)| matches!(t.tok, Tok::Num(_)) && k != at && !(start..end).contains(&k))
    {
        return None;
    }
    let back = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "before" | "trước" | "ago"))
    });
    match (full, date) {
        (Some((iso, ..)), None) => Some(DateQuery::Shift {
            add: !back,
            amount,
            unit,
            date: Some(iso),
            weekday,
        }),
        (None, None) => Some(DateQuery::Shift {
            add: !back,
            amount,
            unit,
            date: None,
            weekday,
        }),
        (None, Some((mut anchor, ..))) => Some(DateQuery::Anchored {
            anchor: {
                // (`thả giống ngày 20/10, 85 ngày nữa`: a day the user wrote, with no
                // year, is the one nearest now — never next year's when this year's has
                // just passed; a start said to come, `starts march 2`, is the next.)
                let coming = toks.iter().any(|t| {
                    t.word().is_some_and(|w| {
                        matches!(
                            w,
                            "starts"
                                | "start"
                                | "starting"
                                | "will"
                                | "check"
                                | "leave"
                                | "leaves"
                                | "leaving"
                                | "arrive"
                                | "arrives"
                                | "flight"
                                | "sẽ"
                                | "next"
                        )
                    })
                });
                if !coming
                    && let Anchor::Named {
                        said: true,
                        year: year @ NamedYear::Next,
                        ..
                    } = &mut anchor
                {
                    *year = NamedYear::Nearest;
                }
                anchor
            },
            then: NamedThen::Shift {
                add: !back,
                amount,
                unit,
                weekday,
            },
        }),
        _ => None,
    }
}

/// Whether the day and month at `i` are the user's own date (`15/12`, `dec 18`,
/// `september 1st`) rather than a day the calendar names (`4th of july`, `dec 25`):
/// the days until it are then the whole answer, its date is not shown.
pub(super) fn said_date(toks: &[Token], i: usize, month: i64, day: i64) -> bool {
    let digits = toks.get(i + 1).is_some_and(|t| t.is_sym('/'));
    let named =
        NAMED_DAYS.iter().any(|(_, m, d)| (*m, *d) == (month, day)) || (month, day) == (7, 4);
    digits || !named
}
