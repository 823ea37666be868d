//! One part of the last question replaced by the follow-up: a year, date, time, fraction,
//! number of the same kind, price or place.

use super::ellipsis::NUMBER_DRESSING;
use super::roles::{BASE_BEFORE, COUNT_WORDS, PEOPLE_AFTER, PEOPLE_BEFORE, Role, role_at};
use super::{date_span, fraction_at, splice};
use crate::lexer::{Token, words_at};

/// Words that say a price moved to a new one, beside a price word (`nếu giá tăng lên
/// 25.500`, `if the price goes up to 2.10`): the new price, no change applied.
const PRICE_MOVES: &[&str] = &[
    "tăng", "lên", "giảm", "xuống", "goes", "went", "up", "down", "to", "rises", "drops", "raise",
    "raises", "raised", "cut", "cuts", "drop",
];

/// Words before a number that say what it is to the request (`for 4`, `at 169`).
const PREPOSITIONS: &[&str] = &["for", "at", "to", "by", "of", "with", "cho", "với"];

/// Words that say more people come (`and if 2 more join`): the number counts people.
const JOIN_WORDS: &[&str] = &[
    "join", "joins", "come", "comes", "confirm", "confirms", "attend", "attends",
];

/// The one number of `pnums` (positions in `ptoks`) nearest to `new` by its size —
/// within four times, and at least twice as near as the next — which a bare number in a
/// follow-up replaces (`and for 4?` after `C$7,800 in 3 instalments`, `what about
/// $120` after `$36.50 + 13% hst`); `None` when two are about as near.
fn nearest_in_size(ptoks: &[Token], pnums: &[usize], new: &str) -> Option<usize> {
    let new: f64 = new.parse().ok().filter(|v: &f64| *v > 0.0)?;
    let mut far: Vec<(f64, usize)> = pnums
        .iter()
        .filter_map(|&k| {
            let old: f64 = ptoks[k].number()?.parse().ok().filter(|v: &f64| *v > 0.0)?;
            Some(((new / old).ln().abs(), k))
        })
        .collect();
    far.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (best, k) = *far.first()?;
    let apart = far.get(1).is_none_or(|(next, _)| next - best >= 2f64.ln());
    (best <= 4f64.ln() && apart).then_some(k)
}

/// Whether all of `core` is one phrase that `end_at` reads from its start (a time, a
/// named day, a weekday).
fn phrase_is_whole(core: &[Token], end_at: impl Fn(&[Token], usize) -> Option<usize>) -> bool {
    end_at(core, 0) == Some(core.len())
}

/// `previous` with its first phrase that `end_at` reads replaced by all of `core` (as
/// `follow` writes it); `None` when `previous` has no such phrase.
fn replace_phrase(
    previous: &str,
    ptoks: &[Token],
    core: &[Token],
    follow: &str,
    end_at: impl Fn(&[Token], usize) -> Option<usize>,
) -> Option<String> {
    let (at, pend) = (0..ptoks.len()).find_map(|k| end_at(ptoks, k).map(|e| (k, e)))?;
    let span = (ptoks[at].start, ptoks[pend - 1].end);
    let (first, last) = (core.first()?, core.last()?);
    Some(splice(previous, span, &follow[first.start..last.end]))
}

/// The words of `toks`.
fn pwords_of(toks: &[Token]) -> Vec<&str> {
    toks.iter().filter_map(Token::word).collect()
}

/// Whether the number at `i` of `core` has a unit word after it that follows exactly
/// one number of `ptoks` (`18 m2` after `9.5 m2`).
fn same_unit_counted(ptoks: &[Token], core: &[Token], i: usize) -> bool {
    let Some(unit) = core.get(i + 1).and_then(Token::word) else {
        return false;
    };
    // (`85k 1 lít`: the one unit a price is for is no count.)
    ptoks
        .windows(2)
        .filter(|w| {
            matches!(&w[0].tok, crate::lexer::Tok::Num(n) if n != "1") && w[1].word() == Some(unit)
        })
        .count()
        == 1
}

/// Words naming a price, before it: the number a new price replaces.
const PRICE_WORDS: &[&str] = &["giá", "price", "costs", "cost"];

/// Whether `word` names a price, typed with or without marks (`gia tăng lên` keeps
/// `gia`, as `gia tăng` is a word of its own).
fn price_word(word: &str) -> bool {
    PRICE_WORDS.contains(&word) || crate::normalise::fold::fold(word) == "gia"
}

/// Words that make a replaced count relative to the one before: `nếu thêm 1 người
/// nữa` is one person more than before, `2 fewer people` two fewer.
const MORE_WORDS: &[&str] = &["more", "another", "extra", "additional", "thêm"];

/// See [`MORE_WORDS`].
const FEWER_WORDS: &[&str] = &["fewer", "less", "bớt"];

/// Words that say what to do with a number, never shared dressing between a
/// follow-up and the question before it: `chia 3` after `48 chia 6` goes on from the
/// answer, it does not replace the 6.
const OPERATION_WORDS: &[&str] = &[
    "plus",
    "minus",
    "times",
    "divided",
    "multiplied",
    "over",
    "add",
    "subtract",
    "multiply",
    "divide",
    "take",
    "halve",
    "double",
    "cộng",
    "trừ",
    "nhân",
    "chia",
    "lấy",
    "mũ",
    "căn",
    "sqrt",
    "root",
    "square",
    "squared",
    "cube",
    "power",
    "mod",
    "round",
];

/// Words no place is named with: a follow-up made of them asks something else
/// (`and what weekday is that?`), never the time in a place of that name.
const NOT_PLACE_WORDS: &[&str] = &[
    // (`uncle tuan lives there`: who is at the place, no place.)
    "there",
    "lives",
    "works",
    "that",
    "this",
    "those",
    "these",
    "them",
    "it",
    "date",
    "day",
    "days",
    "weekday",
    "time",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "today",
    "tomorrow",
    "yesterday",
    "now",
    "then",
    "after",
    "before",
    "result",
    "answer",
    "number",
    "đó",
    "này",
    "ngày",
    "thứ",
    "giờ",
    "tuần",
    "tháng",
    "năm",
    "nay",
    "mai",
    "kết",
    "quả",
    "số",
    "nó",
];

/// `previous` with the part `core` (the follow-up's own tokens, from `follow`) names
/// replaced, when exactly one kind of part fits.
pub(super) fn replace_part(previous: &str, core: &[Token], follow: &str) -> Option<String> {
    use crate::lexer::Tok;
    let ptoks = crate::lexer::lex(previous);
    let text = |t: &Token| &follow[t.start..t.end];
    let words: Vec<&str> = core.iter().filter_map(|t| t.word()).collect();
    // The year after / before the date asked about.
    let shift = match words.as_slice() {
        ["the", "year", "after"]
        | ["year", "after"]
        | ["next", "year"]
        | ["the", "next", "year"]
        | ["the", "following", "year"]
        | ["following", "year"]
        | ["a", "year", "later"]
        | ["năm", "sau"] => Some(1),
        ["the", "year", "before"]
        | ["year", "before"]
        | ["the", "previous", "year"]
        | ["previous", "year"]
        | ["a", "year", "earlier"]
        | ["năm", "trước"] => Some(-1),
        _ => None,
    };
    if let Some(years) = shift {
        let (span, iso) = date_span(&ptoks)?;
        let iso = iso?;
        let y: i32 = iso.get(..4)?.parse().ok()?;
        let (m, d): (u32, u32) = (iso.get(5..7)?.parse().ok()?, iso.get(8..10)?.parse().ok()?);
        let moved = crate::lexer::iso_date(y + years, m, d)
            .or_else(|| crate::lexer::iso_date(y + years, m, d - 1))?;
        return Some(splice(previous, span, &moved));
    }
    // A date in place of the date: digits (`30/11/2003`) or words (`1 jan 2000`).
    if let Some(((start, end), _)) = date_span(core) {
        let (span, _) = date_span(&ptoks)?;
        return Some(splice(previous, span, &follow[start..end]));
    }
    // A day and month in place of the day and month, the date or today (`and the physics
    // one on jan 18?` after `… my calc exam on jan 11`, `same but from jan 4` after `12
    // weeks from today`); other words only name what it is.
    if let Some((k, end)) = (0..core.len()).find_map(|k| {
        crate::dates::day_month_end(core, k)
            // (`30/4` is the branch below's: a fraction or a day and month.)
            .filter(|_| !core.get(k + 1).is_some_and(|t| t.is_sym('/')))
            .map(|e| (k, e))
    }) && !core[..k].iter().chain(&core[end..]).any(|t| {
        matches!(t.tok, Tok::Num(_)) || t.word().is_some_and(|w| OPERATION_WORDS.contains(&w))
    }) {
        let new = &follow[core[k].start..core[end - 1].end];
        let old = date_span(&ptoks)
            .map(|(span, _)| span)
            .or_else(|| {
                (0..ptoks.len()).find_map(|i| {
                    crate::dates::day_month_end(&ptoks, i)
                        .map(|e| (ptoks[i].start, ptoks[e - 1].end))
                })
            })
            .or_else(|| {
                ptoks
                    .iter()
                    .find(|t| t.word().is_some_and(|w| matches!(w, "today" | "now")))
                    .map(|t| (t.start, t.end))
            })?;
        return Some(splice(previous, old, new));
    }
    // A term in place of the term (`còn gửi 6 tháng thì sao` after `gửi 200 triệu, lãi
    // 5,6%/năm, một năm được bao nhiêu tiền lãi`): a number of periods, said in digits or
    // as `một`/`a`/`one`.
    const TERM_UNITS: &[&str] = &[
        "tháng", "năm", "months", "month", "years", "year", "tuần", "weeks", "week",
    ];
    let term_at = |toks: &[Token], k: usize| {
        let count = matches!(toks[k].tok, Tok::Num(_))
            || toks[k]
                .word()
                .is_some_and(|w| matches!(w, "một" | "a" | "one"));
        let unit = toks
            .get(k + 1)
            .and_then(Token::word)
            .is_some_and(|w| TERM_UNITS.contains(&w));
        let rate = k > 0 && toks[k - 1].is_sym('/');
        count && unit && !rate
    };
    let core_terms: Vec<usize> = (0..core.len()).filter(|&k| term_at(core, k)).collect();
    let prev_terms: Vec<usize> = (0..ptoks.len()).filter(|&k| term_at(&ptoks, k)).collect();
    let core_numbers = core.iter().filter(|t| matches!(t.tok, Tok::Num(_))).count();
    if let ([k], [pk], 1) = (core_terms.as_slice(), prev_terms.as_slice(), core_numbers)
        && matches!(core[*k].tok, Tok::Num(_))
        && core.iter().enumerate().all(|(j, t)| {
            j == *k
                || j == *k + 1
                || t.word().is_some_and(|w| {
                    // (`thế kỳ hạn 6 tháng thì được bao nhiêu`: a term is named so.)
                    pwords_of(&ptoks).contains(&w) || matches!(w, "kỳ" | "hạn" | "term")
                })
        })
    {
        let span = (ptoks[*pk].start, ptoks[pk + 1].end);
        let new = &follow[core[*k].start..core[k + 1].end];
        return Some(splice(previous, span, new));
    }
    // A time in place of the time (`còn 9h tối` after `9h sáng ở Đà Nẵng là mấy giờ bên
    // Osaka`).
    let time_end = |toks: &[Token], k: usize| crate::places::time_at(toks, k).map(|(_, e)| e);
    if phrase_is_whole(core, time_end)
        && let Some(text) = replace_phrase(previous, &ptoks, core, follow, time_end)
    {
        return Some(text);
    }
    // A named day in place of the named day (`and new year?` after `how many days
    // until christmas`).
    if phrase_is_whole(core, crate::dates::named_day_end)
        && let Some(text) =
            replace_phrase(previous, &ptoks, core, follow, crate::dates::named_day_end)
    {
        return Some(text);
    }
    // A weekday in place of the weekday (`còn thứ 6 tuần sau?` after `thứ 6 tuần này
    // là ngày mấy`): the follow-up is that weekday alone.
    if phrase_is_whole(core, crate::dates::weekday_phrase_end) {
        return replace_phrase(
            previous,
            &ptoks,
            core,
            follow,
            crate::dates::weekday_phrase_end,
        );
    }
    // `d/m` alone: a day and month in place of the date (`thế còn 30/4?`), or a
    // fraction in place of the fraction (`còn 45/50` after `42/50 là bao nhiêu phần
    // trăm`) — whichever the last question had.
    if let [a, _, _] = core
        && let Some((x, y)) = fraction_at(core, 0)
    {
        if let Some((span, iso)) = date_span(&ptoks) {
            let vi = crate::language::detect(previous, None).is_vi();
            let (day, month) = match (x <= 12, y <= 12) {
                (_, true) if vi => (x, y),
                (false, true) => (x, y),
                (true, false) => (y, x),
                _ => return None,
            };
            crate::lexer::iso_date(2000, month, day)?;
            // The year the last date had, kept when its weekday was asked: `còn ngày
            // 31/12?` after `20/12/2026 là thứ mấy` (days until `2/9` is the next 2/9).
            let weekday = ptoks.iter().enumerate().any(|(k, t)| {
                t.word().is_some_and(|w| matches!(w, "weekday" | "week"))
                    || t.word() == Some("thứ")
                        && ptoks
                            .get(k + 1)
                            .and_then(Token::word)
                            .is_some_and(|w| matches!(w, "mấy" | "gì" | "nào"))
            });
            let year = iso.filter(|_| weekday);
            let year = year.as_deref().and_then(|d| d.get(..4)).filter(|y| {
                y.parse::<i32>()
                    .is_ok_and(|y| crate::lexer::iso_date(y, month, day).is_some())
            });
            let written = match (vi, year) {
                (true, Some(y)) => format!("{day} tháng {month} năm {y}"),
                // (As typed, day first: the day and month the user wrote.)
                (true, None) => format!("{day}/{month}"),
                (false, Some(y)) => format!(
                    "{} {day} {y}",
                    crate::wording::MONTHS.get(month as usize - 1)?
                ),
                (false, None) => {
                    format!("{} {day}", crate::wording::MONTHS.get(month as usize - 1)?)
                }
            };
            return Some(splice(previous, span, &written));
        }
        let fractions: Vec<usize> = (0..ptoks.len())
            .filter(|&k| fraction_at(&ptoks, k).is_some())
            .collect();
        let [k] = fractions.as_slice() else {
            return None;
        };
        let span = (ptoks[*k].start, ptoks[k + 2].end);
        return Some(splice(previous, span, &follow[a.start..core[2].end]));
    }
    // A number in place of the number of the same kind (`15%`, `6 people`, `of 150`).
    let nums: Vec<usize> = (0..core.len())
        .filter(|&i| matches!(core[i].tok, Tok::Num(_)))
        .collect();
    if let [_] = nums.as_slice() {
        // `2 more people`: the count is relative, and `people` says what it counts.
        let more = core
            .iter()
            .any(|t| t.word().is_some_and(|w| MORE_WORDS.contains(&w)));
        let fewer = core
            .iter()
            .any(|t| t.word().is_some_and(|w| FEWER_WORDS.contains(&w)));
        let core: Vec<Token> = core
            .iter()
            .filter(|t| {
                !t.word()
                    .is_some_and(|w| MORE_WORDS.contains(&w) || FEWER_WORDS.contains(&w))
            })
            .cloned()
            .collect();
        // (`and if 2 more join`: people who come.)
        let joins = core
            .iter()
            .any(|t| t.word().is_some_and(|w| JOIN_WORDS.contains(&w)));
        let core: Vec<Token> = core
            .iter()
            .filter(|t| !(joins && t.word().is_some_and(|w| JOIN_WORDS.contains(&w))))
            .cloned()
            .collect();
        let core = core.as_slice();
        let i = (0..core.len()).find(|&i| matches!(core[i].tok, Tok::Num(_)))?;
        let (role, marked) = match role_at(core, i) {
            (Role::Plain, _) if joins && (more || fewer) => (Role::People, 0),
            found => found,
        };
        // (`what if they raise it to ¥1,280`: the new value, no change applied.)
        let moved_to = i > 0
            && core[i - 1]
                .word()
                .is_some_and(|w| matches!(w, "to" | "lên" | "xuống"));
        let pwords: Vec<&str> = ptoks.iter().filter_map(Token::word).collect();
        let priced_follow = core.iter().any(|t| t.word().is_some_and(price_word));
        // Every other word only dresses the number or is the last question's own
        // (`what if it's 40% off` after `35% off 240`): a follow-up with words of its own
        // ("nhân thêm 3 nữa", "then 3 more") says what to do with it, and is no
        // ellipsis — replacing the number would answer another question.
        for (j, t) in core.iter().enumerate() {
            let Some(w) = t.word() else {
                continue;
            };
            let role_word = j + 1 == i && (PEOPLE_BEFORE.contains(&w) || BASE_BEFORE.contains(&w))
                || matches!(role, Role::Divisor | Role::People)
                    && j < i
                    && matches!(w, "chia" | "cho" | "divided" | "by" | "split");
            // `and the kitchen, 18 m2?`: a name for what the same unit now counts.
            // (Only a name before the number: `10 weeks before today` is no name.)
            let labels_unit = role == Role::Plain
                && j < i
                && same_unit_counted(&ptoks, core, i)
                && !OPERATION_WORDS.contains(&w)
                && !crate::tolerant::DATE_WORDS.contains(&w);
            if labels_unit {
                continue;
            }
            if j > i && j <= i + marked || role_word {
                continue;
            }
            // (`thêm 40 lít nữa thì tổng là bao nhiêu`: more of it, the total asked.)
            let total_of_more = (more || fewer) && matches!(w, "tổng" | "total" | "altogether");
            // (`thoi chia 3 thoi`: `thôi`, "just", typed without marks and left so.)
            let just = crate::normalise::fold::fold(w) == crate::normalise::fold::fold("thôi");
            if !(NUMBER_DRESSING.contains(&w)
                || just
                || total_of_more
                || price_word(w)
                || (priced_follow || moved_to) && PRICE_MOVES.contains(&w)
                || (pwords.contains(&w) || pwords.contains(&w.trim_end_matches('s')))
                    && !OPERATION_WORDS.contains(&w))
            {
                return None;
            }
        }
        // `split $180 four ways`: a count in words is the count it replaces.
        let pnums: Vec<usize> = (0..ptoks.len())
            .filter(|&k| {
                matches!(ptoks[k].tok, Tok::Num(_))
                    || role == Role::People
                        && ptoks[k].word().is_some_and(|w| COUNT_WORDS.contains(&w))
                        && PEOPLE_AFTER.iter().any(|p| words_at(&ptoks, k + 1, p))
            })
            .collect();
        let at = match role {
            Role::Plain if pnums.len() == 1 => pnums[0],
            // `còn nếu mua 10 hộp thì sao` after `mua 4 hộp … giá 32.500 một hộp`: the
            // number counted in the same unit; `nếu giá tăng lên 25.500` after `giá xăng
            // 24.000 một lít …`: the price.
            Role::Plain => {
                let unit = core.get(i + 1).and_then(Token::word);
                let mut counted: Vec<usize> = pnums
                    .iter()
                    .copied()
                    .filter(|&k| unit.is_some() && ptoks.get(k + 1).and_then(Token::word) == unit)
                    .collect();
                // (`1 tháng trả góp 2tr1, 18 tháng tổng bao nhiêu`: `1 tháng` says what
                // the rate is for; the count replaced is the other.)
                if counted.len() == 2 {
                    counted.retain(|&k| ptoks[k].number() != Some("1"));
                }
                let priced = core.iter().any(|t| t.word().is_some_and(price_word));
                let price_at = pnums.iter().copied().filter(|&k| {
                    (k.saturating_sub(3)..k).any(|j| ptoks[j].word().is_some_and(price_word))
                });
                match (counted.as_slice(), priced) {
                    ([k], _) => *k,
                    // (`còn nếu ngày 3 viên thì sao` after `hộp 60 viên, ngày uống 2
                    // viên`; `chuyến 760 km` after `chuyến 520 km, 28 lít/100 km`: of the
                    // numbers counted in the unit, the one nearest in size.)
                    ([_, _, ..], false) => nearest_in_size(&ptoks, &counted, core[i].number()?)?,
                    // (`and for 32 hrs?` after `27.50 an hour times 40`: the unit is the
                    // rate's, and the count said bare is the one nearest in size.)
                    ([], false)
                        if unit.is_some_and(|u| {
                            let u = u.trim_end_matches('s');
                            ptoks.iter().any(|t| t.word() == Some(u))
                        }) =>
                    {
                        // (Never the rate itself: `12/hr`, `27.50 an hour`.)
                        let tied = |k: usize| {
                            matches!(
                                ptoks.get(k + 1).and_then(Token::word),
                                Some("an" | "a" | "per")
                            ) || ptoks.get(k + 1).is_some_and(|t| t.is_sym('/'))
                        };
                        // (A bare count, nothing after it naming what else it counts:
                        // `times 40`, never `the 3 of us`.)
                        let bare = |k: usize| {
                            ptoks
                                .get(k + 1)
                                .is_none_or(|t| t.word().is_none() || t.word() == unit)
                        };
                        let untied: Vec<usize> = pnums
                            .iter()
                            .copied()
                            .filter(|&k| !tied(k) && bare(k))
                            .collect();
                        nearest_in_size(&ptoks, &untied, core[i].number()?)?
                    }
                    // (`gia len 38k thi sao` after `… 36k 1 chục …`: no word names the
                    // price there; the number nearest in size.)
                    ([], true) => match price_at.collect::<Vec<_>>().as_slice() {
                        [k] => *k,
                        [] => nearest_in_size(&ptoks, &pnums, core[i].number()?)?,
                        _ => return None,
                    },
                    ([], false) if unit.is_none() || moved_to => {
                        // (`what about at 172` after `… at 169 dong per yen`: the number
                        // after the same preposition; `and for 3?` after `recipe for 4
                        // … how much for 10 people` reads two ways.)
                        let ftoks = crate::lexer::lex(follow);
                        let k = ftoks.iter().position(|t| t.start == core[i].start)?;
                        let prep = k
                            .checked_sub(1)
                            .and_then(|j| ftoks[j].word())
                            .filter(|w| PREPOSITIONS.contains(w));
                        let after_prep: Vec<usize> = pnums
                            .iter()
                            .copied()
                            .filter(|&k| k > 0 && prep.is_some() && ptoks[k - 1].word() == prep)
                            .collect();
                        match after_prep.as_slice() {
                            [k] => *k,
                            [] => nearest_in_size(&ptoks, &pnums, core[i].number()?)?,
                            _ => return None,
                        }
                    }
                    _ => return None,
                }
            }
            // (A count of sharers and a divisor stand for each other: `and for 5
            // people?` after `219.952 / 4`, `chia 3` after `… cho 4 nhà`.)
            _ => {
                let of_role = |r: Role| -> Vec<usize> {
                    pnums
                        .iter()
                        .copied()
                        .filter(|&k| role_at(&ptoks, k).0 == r)
                        .collect()
                };
                let mut found = of_role(role);
                if found.is_empty() {
                    found = match role {
                        Role::People => of_role(Role::Divisor),
                        Role::Divisor => of_role(Role::People),
                        _ => Vec::new(),
                    };
                }
                // (`nếu chia 6 đợt thì sao` after `đóng 4 đợt, mỗi đợt bao nhiêu`: the
                // number counted in the same unit is what was divided by.)
                if found.is_empty() && role == Role::Divisor {
                    let unit = core.get(i + 1).and_then(Token::word);
                    found = pnums
                        .iter()
                        .copied()
                        .filter(|&k| {
                            unit.is_some() && ptoks.get(k + 1).and_then(Token::word) == unit
                        })
                        .collect();
                }
                match found.as_slice() {
                    [k] => *k,
                    _ => return None,
                }
            }
        };
        let Tok::Num(new) = &core[i].tok else {
            return None;
        };
        let new = match (more, fewer) {
            (false, false) => text(&core[i]).to_owned(),
            // One more (or fewer) than before: only a count is counted on.
            // (`còn nếu làm thêm 5 ngày nữa thì sao` after `… làm 15 ngày …`: the days
            // counted in the same unit, five more.)
            (true, false) | (false, true)
                if role == Role::People || same_unit_counted(&ptoks, core, i) =>
            {
                let Tok::Num(old) = &ptoks[at].tok else {
                    return None;
                };
                let (old, by): (u64, u64) = (old.parse().ok()?, new.parse().ok()?);
                match more {
                    true => old.checked_add(by)?,
                    false => old.checked_sub(by).filter(|n| *n > 0)?,
                }
                .to_string()
            }
            _ => return None,
        };
        return Some(splice(previous, (ptoks[at].start, ptoks[at].end), &new));
    }
    // A place in place of the place asked about.
    let place_words = !core.is_empty()
        && core.len() <= 5
        && core
            .iter()
            .all(|t| matches!(t.tok, Tok::Word(_) | Tok::Sym('-' | '\'' | '.')))
        && !words
            .iter()
            .any(|w| NOT_PLACE_WORDS.contains(w) || OPERATION_WORDS.contains(w));
    if place_words {
        let asked = match crate::places::parse(&ptoks, previous)
            .or_else(|| crate::places::loose_convert(&ptoks, previous))
            // (`bây giờ London mấy giờ`: the place named without a preposition.)
            .or_else(|| crate::places::time_named(&ptoks, previous))?
        {
            crate::dates::DateQuery::TimeIn { place } => place,
            crate::dates::DateQuery::ConvertTime { to, .. } => to,
            _ => return None,
        };
        let lead = core
            .first()
            .and_then(|t| t.word())
            .is_some_and(|w| matches!(w, "in" | "at" | "ở" | "tại" | "bên"));
        let place = &core[usize::from(lead)..];
        let (first, last) = (place.first()?, place.last()?);
        let new = &follow[first.start..last.end];
        let at = previous.rfind(asked.as_str())?;
        return Some(splice(previous, (at, at + asked.len()), new));
    }
    None
}
