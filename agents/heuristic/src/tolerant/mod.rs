//! The tolerant reading of a list: when the strict grammar finds no list form, a part
//! that names one list operation (the largest, the smallest, the mean, the sum) and
//! holds one run of numbers joined only by separators is read as that operation over
//! them, whatever words surround it: `which is biggest 0.7, 0.65 or 0.699`, `highest
//! one: 45 / 72 / 38 / 61`, `add up 19.99 + 5.49 + 12`, `số lớn nhất trong các số 15, 8,
//! 23, 19`.
//!
//! Exactly one reading or none: two different list operations, an operation word of
//! another kind (`times`, `chia`), a number outside the run, or a date or time word
//! leave the part to the other readers.
//!
//! Likewise a calculation inside chatter ([`expression`]): `need to know 250 divided by
//! 8 asap`, `em muốn biết 250 chia 8`, `hey can you do 250 / 8` — one stretch the
//! strict grammar reads whole, holding every number, with only words around it that
//! could not change what it asks.

mod expression;

use crate::arith::{ListOp, list_expr};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, words_at};
pub use expression::expression;

/// Vietnamese cue phrases (English ones come from the operation words).
const VI_CUES: &[(&[&str], ListOp)] = &[
    (&["lớn", "nhất"], ListOp::Max),
    (&["cao", "nhất"], ListOp::Max),
    (&["to", "nhất"], ListOp::Max),
    (&["nhỏ", "nhất"], ListOp::Min),
    (&["thấp", "nhất"], ListOp::Min),
    (&["bé", "nhất"], ListOp::Min),
    (&["rẻ", "nhất"], ListOp::Min),
    (&["đắt", "nhất"], ListOp::Max),
    (&["nhiều", "nhất"], ListOp::Max),
    (&["lâu", "nhất"], ListOp::Max),
    (&["dài", "nhất"], ListOp::Max),
    (&["trung", "bình", "cộng"], ListOp::Mean),
    (&["trung", "bình"], ListOp::Mean),
    (&["tổng", "cộng"], ListOp::Sum),
    (&["tổng"], ListOp::Sum),
    (&["cộng", "hết"], ListOp::Sum),
    (&["cộng", "lại"], ListOp::Sum),
    (&["add", "up"], ListOp::Sum),
];

/// What the numbers of a list are (`doanh thu` revenue, `lợi nhuận` profit): words
/// that only name them.
const AMOUNT_NAMES: &[&[&str]] = &[
    // (`doanh thu` typed without marks folds to `doanh thứ`, no weekday here.)
    &["doanh", "thứ"],
    &["doanh", "số"],
    &["lợi", "nhuận"],
    // (`tiền thuê` is rent, never `thuế`, tax: typed with its marks it stays so.)
    &["tiền", "thuê"],
    // (`phan bon` is fertiliser, never `phần bốn`, a quarter.)
    &["phân", "bón"],
    // (`tien cong` is a wage, never `tiền cộng`.)
    &["tiền", "công"],
    // (`ngan hang` is a bank, never `ngàn hàng`: `ngàn` would scale.)
    &["ngân", "hàng"],
];

/// Vietnamese words of other operations.
pub(crate) const VI_OTHER_OPS: &[&str] =
    &["nhân", "chia", "trừ", "mũ", "căn", "phần", "bình", "lập"];

/// Days said after the items of a list (`16 today and 14 yesterday`): labels only.
const DAY_LABELS: &[&str] = &["today", "yesterday", "tonight"];

/// Words between two items that only join them.
const JOINS: &[&str] = &["or", "and", "và", "hay", "hoặc", "với"];

/// Date and time words: a part with one is a date or time question.
pub(crate) const DATE_WORDS: &[&str] = &[
    "day", "days", "week", "weeks", "month", "months", "year", "years", "date", "time", "hour",
    "hours", "ngày", "tuần", "tháng", "năm", "giờ", "thứ", "old", "age", "tuổi", "weekday",
];

/// The list operation `word` names in English, if any; `Err` for a word of another
/// operation.
fn english_cue(word: &str) -> Result<Option<ListOp>, ()> {
    // (`my best one`, `the worst`: of a list only, never a typo's target.)
    match word {
        "best" | "top" => return Ok(Some(ListOp::Max)),
        "worst" => return Ok(Some(ListOp::Min)),
        _ => {}
    }
    match crate::normalise::typo::operation(word) {
        Some("mean") => Ok(Some(ListOp::Mean)),
        Some("min") => Ok(Some(ListOp::Min)),
        Some("max") => Ok(Some(ListOp::Max)),
        Some("sum") => Ok(Some(ListOp::Sum)),
        Some(_) => Err(()),
        None => Ok(None),
    }
}

/// Whether `toks` name a list operation (`thấp nhất`, `trung bình`, `biggest`).
pub fn names_list_op(toks: &[Token]) -> bool {
    (0..toks.len()).any(|i| {
        VI_CUES.iter().any(|(p, _)| words_at(toks, i, p))
            || toks[i]
                .word()
                .is_some_and(|w| matches!(english_cue(w), Ok(Some(_))))
    })
}

/// Reads `toks` as one list operation over one run of numbers, when exactly that fits.
pub fn list(toks: &[Token]) -> Option<Expr> {
    match list_ops(toks)?.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// Reads `toks` as two list operations over one run of numbers (`BP readings 128, 142,
/// 119, lowest and highest?`, `scores 78 85 91, my avg and my best one`): each, in the
/// order named.
pub fn lists(toks: &[Token]) -> Option<Vec<Expr>> {
    list_ops(toks).filter(|found| found.len() == 2)
}

/// Whether `toks` ask a list put in order (`sort these smallest to largest`,
/// `smallest first`): no tool sorts, and its smallest and largest are no answer to it.
pub fn asks_sorted(toks: &[Token]) -> bool {
    const ORDERED: &[&[&str]] = &[
        &["sort"],
        &["sorted"],
        &["order"],
        &["ascending"],
        &["descending"],
        &["smallest", "first"],
        &["largest", "first"],
        &["lowest", "first"],
        &["highest", "first"],
        &["biggest", "first"],
        &["cheapest", "first"],
        &["sắp", "xếp"],
        &["thứ", "tự"],
    ];
    crate::lexer::says(toks, ORDERED)
}

/// One or two list operations over one run of numbers, in the order named; none for a
/// list asked in order ([`asks_sorted`]).
fn list_ops(toks: &[Token]) -> Option<Vec<Expr>> {
    if asks_sorted(toks) {
        return None;
    }
    let mut kinds: Vec<ListOp> = Vec::new();
    // Where the first list operation is named.
    let mut named_at: Option<usize> = None;
    let mut set = |k: ListOp, at: usize| {
        if !kinds.contains(&k) {
            kinds.push(k);
        }
        named_at.get_or_insert(at);
        kinds.len() <= 2
    };
    // The run of items: (start, end) in `toks`.
    let mut run: Option<(usize, usize)> = None;
    let mut items: Vec<Expr> = Vec::new();
    // `my last 5 shifts: 12, 12.5, 11.75, 13, 12`, `tiền nhà 5 phòng: 3tr, …`: a count
    // of the items said before them, with what they are, counts them (skipped with its
    // word).
    let count = counted_before(toks);
    // Whether an item is a count times a price.
    let mut products = false;
    let mut i = 0;
    while i < toks.len() {
        if count == Some(i) {
            i += 2;
            continue;
        }
        if let Some((phrase, k)) = VI_CUES.iter().find(|(p, _)| words_at(toks, i, p)) {
            if !set(*k, i) {
                return None;
            }
            i += phrase.len();
            continue;
        }
        if let Some(name) = AMOUNT_NAMES.iter().find(|p| words_at(toks, i, p)) {
            i += name.len();
            continue;
        }
        // (`cheapest one - 12.5; 9.8`: a dash with a space after it, after a word, only
        // introduces the list — a sign is written against its number.)
        let dash = i > 0
            && toks[i - 1].word().is_some()
            && toks.get(i + 1).is_some_and(|n| n.start > toks[i].end);
        let signed = toks[i].is_sym('-')
            && !dash
            && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Num(_)));
        match &toks[i].tok {
            Tok::Num(_) => {}
            _ if signed => {}
            Tok::Word(w) if crate::normalise::WEEKDAY_LABELS.contains(&w.as_str()) => {
                // `mon 3.5, tue 4, thu off`: the day an item is of only labels it; a
                // day off holds no item.
                let next = toks.get(i + 1);
                if next.is_some_and(|t| t.word() == Some("off")) {
                    i += 2;
                    if toks.get(i).is_some_and(|t| t.is_sym(',')) {
                        i += 1;
                    }
                    continue;
                }
                // (`9.5 hrs mon, 10 tue and 8 wed`: the day said after its item.)
                let after_item = i > 0 && toks[i - 1].number().is_some()
                    || i > 1 && toks[i - 2].number().is_some() && toks[i - 1].word().is_some();
                if next.is_none_or(|t| t.number().is_none()) && !after_item {
                    return None;
                }
                i += 1;
                continue;
            }
            Tok::Word(w) => {
                // `128cm, 134cm`: a unit glued to an item only decorates it.
                let glued = i > 0
                    && toks[i - 1].end == toks[i].start
                    && matches!(toks[i - 1].tok, Tok::Num(_));
                // `5 chuyến, 3 chuyến, 6 chuyến`, `8 hrs, 6 hrs`: a word said after
                // every item only names what they count.
                // (`… and 14 yesterday`: the day the last item is of.)
                let day = i > 0
                    && matches!(toks[i - 1].tok, Tok::Num(_))
                    && DAY_LABELS.contains(&w.as_str());
                let repeated = i > 0
                    && matches!(toks[i - 1].tok, Tok::Num(_))
                    && after_every_item(toks, w)
                    && names_items(w);
                if (glued || repeated || day) && english_cue(w) == Ok(None) {
                    if let Some((_, end)) = run.as_mut().filter(|(_, end)| *end == i) {
                        *end = i + 1;
                    }
                    i += 1;
                    continue;
                }
                // (`vé 180k, 6 người, tổng bao nhiêu`: a count of people is no item of a
                // list of money.)
                let headcount = i > 0
                    && matches!(toks[i - 1].tok, Tok::Num(_))
                    && (crate::everyday::counts_people(w)
                        || matches!(w.as_str(), "khách" | "guests"));
                if headcount {
                    return None;
                }
                if DATE_WORDS.contains(&w.as_str()) && !period_decoration(toks, i)
                    || VI_OTHER_OPS.contains(&w.as_str())
                {
                    return None;
                }
                match english_cue(w) {
                    Err(()) => return None,
                    Ok(Some(k)) if !set(k, i) => return None,
                    _ => {}
                }
                i += 1;
                continue;
            }
            Tok::Date(_) => return None,
            // (`96,400,000 + 5% service charge`: a percentage is no item.)
            Tok::Sym('%') => return None,
            Tok::Sym(_) => {
                i += 1;
                continue;
            }
        }
        // A number (maybe signed): it must start the run or continue it.
        if run.is_some_and(|(_, end)| !joined(&toks[end..i])) {
            return None;
        }
        let (value, next) = match signed {
            true => match &toks[i + 1].tok {
                Tok::Num(n) => (format!("-{n}"), i + 2),
                _ => return None,
            },
            false => match &toks[i].tok {
                Tok::Num(n) => (n.clone(), i + 1),
                _ => return None,
            },
        };
        // (`roti canai 2x1.80, teh tarik 2x2.50, maggi 7.50. total`: an item bought so
        // many times at its price is their product.)
        let times = toks
            .get(next)
            .is_some_and(|t| t.word() == Some("x") || t.is_sym('*'));
        let (item, next) = match toks.get(next + 1).map(|t| &t.tok) {
            Some(Tok::Num(price)) if times && !signed => {
                products = true;
                let price = Expr::Num(price.clone());
                (
                    Expr::bin(MathOp::Multiply, Expr::Num(value), price),
                    next + 2,
                )
            }
            _ => (Expr::Num(value), next),
        };
        items.push(item);
        run = Some((run.map_or(i, |(s, _)| s), next));
        i = next;
    }
    if products && kinds != [ListOp::Sum] {
        return None;
    }
    let (s, e) = run?;
    // (`tips mon 18, tue 12.50, wed 22, thu 9.80`, `tiền tip tuần này 50k, 120k, 80k`:
    // money taken in or paid out, listed under its name with nothing asked, is totalled.)
    if kinds.is_empty() && totalled_before(&toks[..s]) && e == toks.len() {
        kinds.push(ListOp::Sum);
    }
    if kinds.is_empty() || items.len() < 2 || items.len() > 16 {
        return None;
    }
    // `/` joins items only where a choice or a mean is asked (a sum of `a / b` divides).
    let slash = toks[s..e].iter().any(|t| t.is_sym('/'));
    let plus = toks[s..e].iter().any(|t| t.is_sym('+'));
    let sum = kinds.contains(&ListOp::Sum);
    // (`tips this wk: 12 / 8.50 / 20 / 5 / 14.20 total`: three items or more between
    // slashes, the sum named after them, are a list — `sum of 10 / 2 / 5` divides.)
    let listed_first = items.len() >= 3 && named_at.is_some_and(|at| at >= e);
    if slash && sum && !listed_first || plus && (!sum || kinds.len() > 1) {
        return None;
    }
    kinds
        .into_iter()
        .map(|k| list_expr(k, items.clone()))
        .collect()
}

/// Names of money taken in or paid out over a time, whose list asks its total.
const TOTALLED: &[&str] = &[
    "tips", "tip", "takings", "sales", "earnings", "expenses", "spending", "doanh", "boa",
];

/// Whether `before` (what precedes a list) names it as money totalled ([`TOTALLED`])
/// and asks nothing else: no number, no question word.
fn totalled_before(before: &[Token]) -> bool {
    let words: Vec<&str> = before.iter().filter_map(Token::word).collect();
    words.iter().any(|w| TOTALLED.contains(w))
        && before.iter().all(|t| t.number().is_none())
        && !words.iter().any(|w| {
            matches!(
                *w,
                "how" | "what" | "which" | "bao" | "mấy" | "nào" | "average" | "trung"
            )
        })
}

/// The index of a count said before a list that counts its items (`5 shifts: 12, 12.5,
/// 11.75, 13, 12`): the first number, a whole one followed by a word, equal to how many
/// numbers follow it.
fn counted_before(toks: &[Token]) -> Option<usize> {
    let nums = crate::lexer::number_positions(toks);
    let (&first, rest) = nums.split_first()?;
    let n: usize = toks[first].number()?.parse().ok()?;
    let word = toks.get(first + 1).and_then(Token::word)?;
    // (A word of its own, not a unit glued on: `2kg`.)
    let spaced = toks[first].end < toks[first + 1].start;
    // (`roti 2 x 1.80, …`: a count bought at a price, no heading.)
    let counts = spaced && english_cue(word) == Ok(None) && !operator(word);
    // The items listed with separators (`200000 1 cái` is no list of two).
    let listed = rest.windows(2).all(|w| {
        toks[w[0] + 1..w[1]]
            .iter()
            .any(|t| t.is_sym(',') || t.is_sym(';') || t.word().is_some_and(|w| JOINS.contains(&w)))
    });
    // (`2 lượt mỗi lượt 950k, 4 khách`: a count with a rate after it is no heading of
    // the items that follow.)
    let rated = rest.first().is_some_and(|&r| {
        toks.get(first + 2..r).is_some_and(|between| {
            between.iter().any(|t| {
                t.word()
                    .is_some_and(|w| matches!(w, "mỗi" | "each" | "per" | "every"))
            })
        })
    });
    (rest.len() >= 2 && n == rest.len() && counts && listed && rest[0] > first + 1 && !rated)
        .then_some(first)
}

/// Words before a period that make it the time the numbers belong to (`sales this
/// week`, `the average per day`, `doanh số mỗi tháng`), not a date question.
const PERIOD_BEFORE: &[&str] = &["this", "last", "per", "each", "every", "a", "the", "mỗi"];

/// Words after a period that do the same (`tuần này`, `tháng trước`, `tuần vừa rồi`).
const PERIOD_AFTER: &[&str] = &["này", "nay", "trước", "qua", "vừa"];

/// Whether the date word at `i` only says what period the numbers are of.
fn period_decoration(toks: &[Token], i: usize) -> bool {
    let word = |k: Option<usize>| k.and_then(|k| toks.get(k)).and_then(Token::word);
    let unit = matches!(
        toks[i].word(),
        Some(
            "day"
                | "days"
                | "week"
                | "weeks"
                | "month"
                | "months"
                | "year"
                | "ngày"
                | "tuần"
                | "tháng"
                | "năm"
        )
    );
    // (`avg hours of …`, `the average day rate`: what the list operation is over.)
    let after_cue = word(i.checked_sub(1)).is_some_and(|w| matches!(english_cue(w), Ok(Some(_))));
    let time_unit = matches!(
        toks[i].word(),
        Some("hour" | "hours" | "minutes" | "minute")
    );
    // (`avg of my shift hours this month: 6, 7.5, 5`: the unit before the colon that
    // opens the list names its numbers.)
    let before_colon = (i + 1..(i + 7).min(toks.len())).any(|k| toks[k].is_sym(':'))
        && toks[i + 1..]
            .iter()
            .take_while(|t| !t.is_sym(':'))
            .all(|t| t.word().is_some() || t.is_sym('\''));
    // (`how many hrs total`: the unit the sum is counted in.)
    let counted = word(i.checked_sub(1)) == Some("many") && word(i.checked_sub(2)) == Some("how");
    // (`5, 6.5, 7 and 4.5 hrs`: the unit after an item names the items' — unless an
    // amount is per that unit: `mỗi tháng 1tr750, 24 tháng` counts the months.)
    let per_unit = (1..toks.len()).any(|k| {
        toks[k].word() == toks[i].word()
            && toks[k - 1]
                .word()
                .is_some_and(|w| matches!(w, "mỗi" | "per" | "a" | "an" | "every" | "một"))
    });
    let after_item = i > 0 && toks[i - 1].number().is_some() && !per_unit;
    if (unit || time_unit) && (counted || after_item) {
        return true;
    }
    (unit || time_unit && (after_cue || before_colon))
        && (word(i.checked_sub(1)).is_some_and(|w| PERIOD_BEFORE.contains(&w))
            || word(Some(i + 1)).is_some_and(|w| PERIOD_AFTER.contains(&w))
            || after_cue
            || before_colon)
}

/// Whether `word`, said after an item, may only name what the items count: no
/// operation (`1 x 1 x zero plus three`), no date or time word.
fn names_items(word: &str) -> bool {
    !DATE_WORDS.contains(&word) && !operator(word)
}

/// Whether `word` says an operation between numbers (`x`, `plus`, `chia`).
fn operator(word: &str) -> bool {
    VI_OTHER_OPS.contains(&word)
        || crate::normalise::typo::operation(word).is_some()
        || matches!(
            word,
            "x" | "by" | "over" | "into" | "of" | "cộng" | "plus" | "minus"
        )
}

/// Whether `word` follows every number of `toks`, and there are two or more.
fn after_every_item(toks: &[Token], word: &str) -> bool {
    let nums = crate::lexer::number_positions(toks);
    nums.len() >= 2
        && nums
            .iter()
            .all(|&k| toks.get(k + 1).and_then(Token::word) == Some(word))
}

/// Whether the tokens between two items only join them: one separator (`,` `;` `/` `+`
/// `&`, `or`, `và`…), maybe with an Oxford comma before a joining word.
fn joined(between: &[Token]) -> bool {
    let sep = |t: &Token| {
        matches!(t.tok, Tok::Sym(',' | ';' | '/' | '+' | '&'))
            || t.word().is_some_and(|w| JOINS.contains(&w))
    };
    // (`mon 3.5, tue 4`, `…, thu off, fri 1.02`: the days labelling the items.)
    let label = |t: &Token| {
        t.word().is_some_and(|w| {
            crate::normalise::WEEKDAY_LABELS.contains(&w) || DAY_LABELS.contains(&w) || w == "off"
        })
    };
    let mut kept: Vec<&Token> = between.iter().filter(|t| !label(t)).collect();
    if kept.len() < between.len() {
        // (`16 rooms today and 14 yesterday`: what the first item counts, said once.)
        if kept.len() > 1
            && kept[0]
                .word()
                .is_some_and(|w| !JOINS.contains(&w) && english_cue(w) == Ok(None) && !operator(w))
        {
            kept.remove(0);
        }
        return kept.iter().all(|t| sep(t)) && kept.len() <= 2;
    }
    match between {
        // `điểm của em là 8 9 7 10 6`: numbers side by side.
        [] => true,
        [a] => sep(a),
        [a, b] => a.is_sym(',') && b.word().is_some_and(|w| JOINS.contains(&w)),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
