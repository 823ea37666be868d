//! A follow-up that goes on from the last numeric answer (`then halve it`), with the
//! everyday steps on it: a percentage off or on, a total over periods, the change.

use super::Conversation;
use crate::lexer::{Token, words_at};

/// Words that only open a follow-up: `and`, `then`, `what about`, `còn`, `rồi`.
const FOLLOW_UP_LEADS: &[&str] = &["and", "then", "now", "và", "còn", "rồi", "thế", "vậy"];

/// Readings of `query` as going on from one of the conversation's last numeric answers,
/// latest first: `then halve it` after 42 is read as `take 42, then halve it`, `còn nhân
/// 3 thì sao` after 6 as `take 6, then còn nhân 3 thì sao` (the sequence grammar decides
/// whether it continues). Each with the answer it takes.
pub fn continuations(query: &str, conversation: &Conversation) -> Vec<(String, String)> {
    let toks = crate::lexer::lex(query);
    let opens_with_lead = toks
        .first()
        .and_then(Token::word)
        .is_some_and(|w| FOLLOW_UP_LEADS.contains(&w));
    let numbers = conversation
        .answers
        .iter()
        .rev()
        .filter(|a| a.parse::<f64>().is_ok() && !a.contains(':'))
        .take(3);
    // (`10 minus` after 6, `9,900,000 minus the deposit`: a number said first is what the
    // operation takes from or divides — the last answer comes after it, never before.)
    if let Some(first) = minuend_first(&toks) {
        let Some(value) = numbers.clone().next() else {
            return Vec::new();
        };
        // (`100 chia cho` → `100 chia cho 6`: the number and its one or two words, then
        // the answer; `minus the deposit` names another value, no reading here.)
        let rest = &toks[first + 1..];
        return match rest.last() {
            Some(last) if rest.len() <= 2 && rest.iter().all(|t| t.word().is_some()) => {
                let said = &query[toks[first].start..last.end];
                vec![(format!("{said} {value}"), value.clone())]
            }
            _ => Vec::new(),
        };
    }
    // `nhân thêm 3 nữa` ("times 3 more"): `thêm`, `nữa` only say it goes on; `times
    // 46.20 an hour`: a rate after the number only names its unit.
    let rate_at = |k: usize| {
        let after_number = k
            .checked_sub(1)
            .is_some_and(|p| matches!(toks[p].tok, crate::lexer::Tok::Num(_)));
        after_number
            && toks[k]
                .word()
                .is_some_and(|w| matches!(w, "an" | "a" | "per" | "mỗi" | "một"))
            && toks
                .get(k + 1)
                .and_then(Token::word)
                .is_some_and(|w| RATE_UNITS.contains(&w))
    };
    // (`times 4 weeks`, `times 190 kc/hr`: an operation, one number, then only words
    // naming its unit: what it counts, nothing to compute.)
    let operation_first = toks
        .first()
        .and_then(Token::word)
        .is_some_and(|w| crate::normalise::typo::operation(w).is_some() || w == "x");
    let unit_tail = match crate::lexer::number_positions(&toks).as_slice() {
        [n] if operation_first
            && *n + 1 < toks.len()
            && toks[n + 1..].iter().all(|t| {
                t.is_sym('/')
                    || t.word()
                        .is_some_and(|w| crate::normalise::typo::operation(w).is_none() && w != "x")
            }) =>
        {
            Some(n + 1)
        }
        _ => None,
    };
    let mut on: Vec<&Token> = Vec::with_capacity(toks.len());
    let mut k = 0;
    while k < toks.len() {
        if unit_tail.is_some_and(|t| k >= t) {
            break;
        }
        if rate_at(k) {
            k += 2;
            continue;
        }
        // `times 8 for the month`: what the result is for, nothing to compute.
        let purpose = toks[k].word() == Some("for")
            && matches!(
                toks.get(k + 1).and_then(Token::word),
                Some("the" | "a" | "each" | "every" | "one")
            )
            && toks
                .get(k + 2)
                .and_then(Token::word)
                .is_some_and(|w| RATE_UNITS.contains(&w) || matches!(w, "trip" | "whole"));
        if purpose {
            k += 3;
            continue;
        }
        // (`còn nếu chia cho 4 thì sao`: `nếu` only introduces it.)
        if !toks[k]
            .word()
            .is_some_and(|w| matches!(w, "thêm" | "nữa" | "tiếp" | "nếu"))
        {
            on.push(&toks[k]);
        }
        k += 1;
    }
    let plain = (on.len() < toks.len() && !on.is_empty()).then(|| {
        let mut text = String::new();
        for t in on {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&query[t.start..t.end]);
        }
        text
    });
    let joiner = if opens_with_lead { ", " } else { ", then " };
    numbers
        .flat_map(|value| {
            let everyday = on_the_answer(&toks, query, value).map(|t| (t, value.clone()));
            let plain = plain
                .as_ref()
                .map(|p| (format!("take {value}{joiner}{p}"), value.clone()));
            everyday
                .into_iter()
                .chain(std::iter::once((
                    format!("take {value}{joiner}{query}"),
                    value.clone(),
                )))
                .chain(plain)
        })
        .collect()
}

/// Units of a rate after a number: `46.20 an hour`, `200000 một ngày`.
const RATE_UNITS: &[&str] = &[
    "hour", "hr", "day", "week", "month", "year", "giờ", "tiếng", "ngày", "tuần", "tháng", "năm",
];

/// Words that lower the last answer by a percentage: `minus 32% tax`, `trừ 10% thuế`.
pub(super) const LOWER_BY: &[&str] = &[
    "minus", "less", "subtract", "deduct", "off", "after", "trừ", "giảm", "bớt", "khấu",
];

/// Words that raise the last answer by a percentage: `plus 8% VAT`, `cộng thêm 10% phí`.
pub(super) const RAISE_BY: &[&str] = &["plus", "add", "with", "cộng", "thêm", "tăng"];

/// What a percentage on the last answer may be of: `tax`, `thuế`, `phí`.
pub(super) const PERCENT_OF: &[&str] = &[
    "tax",
    "taxes",
    "vat",
    "fee",
    "fees",
    "tip",
    "service",
    "charge",
    "commission",
    "interest",
    "thuế",
    "phí",
    "lãi",
    "tiền",
    "hoa",
    "hồng",
    "vat",
];

/// Words that total the last answer over a number of periods: `12 tháng thì tổng bao
/// nhiêu`, `total for 6 months`.
const TOTAL_WORDS: &[&str] = &["tổng", "total", "altogether", "cả"];

/// Periods a total counts: `12 tháng`, `6 months`.
const PERIODS: &[&str] = &[
    "tháng", "năm", "tuần", "ngày", "kỳ", "lần", "months", "years", "weeks", "days", "times",
    "month", "year", "week", "day",
];

/// Words asking the change from an amount paid for the last total: `khách đưa 500000
/// thối lại bao nhiêu`, `I pay with 50, how much change`.
const CHANGE_PHRASES: &[&[&str]] = &[
    &["thối", "lại"],
    &["trả", "lại"],
    &["tiền", "thừa"],
    &["tiền", "thối"],
    &["thối"],
    &["change"],
];

/// Words that share the last answer out.
const SPLIT_WORDS: &[&str] = &["split", "share", "divide", "chia", "spread"];

/// Words that may say how it is shared: `đều` (evenly), `trả góp` (in instalments),
/// `mỗi tháng`, `each`, `ways`, `over`.
const SHARE_WORDS: &[&str] = &[
    "đều",
    "góp",
    "mỗi",
    "each",
    "ways",
    "evenly",
    "equally",
    "into",
    "among",
    "between",
    "payments",
    "instalments",
    "installments",
    "people",
    "person",
    "month",
    "months",
    "người",
    "ngày",
    "tháng",
    "tuần",
    "kỳ",
    "lần",
    "day",
    "days",
    "week",
    "weeks",
    "cho",
];

/// Words a follow-up on the last answer may be asked with: `thì tổng là bao nhiêu`,
/// `how much change do I get`.
const ASKING_WORDS: &[&str] = &[
    "thì", "là", "bao", "nhiêu", "hết", "lại", "được", "sẽ", "trong", "sau", "khách", "đưa", "tôi",
    "mình", "trả", "bằng", "nữa", "và", "rồi", "của", "how", "much", "what", "what's", "whats",
    "is", "my", "the", "i", "if", "pay", "paid", "give", "gave", "with", "customer", "gives",
    "get", "back", "do", "should", "be", "will", "would", "it", "for", "in", "over", "after", "a",
    "an", "and", "then", "now", "of", "on", "top", "that", "by", "so", "to",
];

/// `query` (lexed as `toks`) as an everyday step on the last answer `value`: a
/// percentage taken off or added (`minus 32% tax` → `decrease 2310 by 32%`), a total
/// over periods (`12 tháng thì tổng bao nhiêu` → `600000 * 12`), the change from an
/// amount paid (`khách đưa 500000 thối lại bao nhiêu` → `500000 - 255000`).
fn on_the_answer(toks: &[Token], query: &str, value: &str) -> Option<String> {
    let nums = crate::lexer::number_positions(toks);
    // Compared without marks too: `rồi cong VAT 8%` keeps `cong` unmarked.
    let fold = crate::normalise::fold::fold;
    let is_in = |w: &str, list: &[&str]| list.contains(&w) || list.iter().any(|l| fold(l) == w);
    let has = |list: &[&str]| {
        toks.iter()
            .any(|t| t.word().is_some_and(|w| is_in(w, list)))
    };
    // `split it between me and my sister`: the one asking and one other.
    let me_and = (0..toks.len()).any(|i| {
        words_at(toks, i, &["me", "and"])
            || words_at(toks, i, &["tôi", "và"])
            || words_at(toks, i, &["mình", "và"])
    });
    if nums.is_empty() && me_and && has(SPLIT_WORDS) {
        let known = toks.iter().all(|t| match t.word() {
            Some(w) => {
                ASKING_WORDS.contains(&w)
                    || SPLIT_WORDS.contains(&w)
                    || SHARE_WORDS.contains(&w)
                    || matches!(w, "me" | "ok" | "okay" | "between" | "giữa" | "với")
                    || crate::dates::KIN.contains(&w)
            }
            None => !matches!(t.tok, crate::lexer::Tok::Num(_)),
        });
        return known.then(|| format!("{value} / 2"));
    }
    let [k] = nums.as_slice() else {
        return None;
    };
    let k = *k;
    let n = &query[toks[k].start..toks[k].end];
    let words = |skip: &[usize], also: &[&str]| {
        toks.iter().enumerate().all(|(j, t)| match t.word() {
            Some(w) => skip.contains(&j) || is_in(w, ASKING_WORDS) || is_in(w, also),
            None => j == k || t.is_sym('%') || t.is_sym('?') || t.is_sym(','),
        })
    };
    // A percentage.
    if toks.get(k + 1).is_some_and(|t| t.is_sym('%')) {
        let lower = has(LOWER_BY);
        let raise = has(RAISE_BY);
        let ok = words(&[], &[LOWER_BY, RAISE_BY, PERCENT_OF].concat());
        return match (lower, raise) {
            (true, false) if ok => Some(format!("decrease {value} by {n}%")),
            (false, true) if ok => Some(format!("increase {value} by {n}%")),
            _ => None,
        };
    }
    // The last answer shared out: `chia đều cho 5 ngày thì mỗi ngày bao nhiêu`, `chia
    // trả góp 4 tháng`, `split that over 3 payments`.
    if has(SPLIT_WORDS) && words(&[k + 1], &[SPLIT_WORDS, SHARE_WORDS].concat()) {
        return Some(format!("{value} / {n}"));
    }
    // A total over periods.
    let period = toks
        .get(k + 1)
        .and_then(Token::word)
        .is_some_and(|w| PERIODS.contains(&w));
    if period && has(TOTAL_WORDS) && words(&[k + 1], TOTAL_WORDS) {
        return Some(format!("{value} * {n}"));
    }
    // The change from an amount paid.
    let change = (0..toks.len()).find_map(|i| {
        CHANGE_PHRASES
            .iter()
            .find(|p| words_at(toks, i, p))
            .map(|p| (i..i + p.len()).collect::<Vec<_>>())
    })?;
    words(&change, &[]).then(|| format!("{n} - {value}"))
}

/// The position of a number opening `toks` (after a lead word) when an operation that
/// takes from or divides it follows and no other number does: `10 minus`, `9,900,000
/// minus the deposit`, `100 chia cho`.
fn minuend_first(toks: &[Token]) -> Option<usize> {
    let first = toks
        .iter()
        .position(|t| !t.word().is_some_and(|w| FOLLOW_UP_LEADS.contains(&w)))?;
    toks[first].number()?;
    let op = toks.get(first + 1)?.word()?;
    let takes = matches!(op, "minus" | "less" | "trừ" | "bớt" | "divided" | "chia");
    let alone = toks[first + 1..]
        .iter()
        .all(|t| t.number().is_none() && !t.is_sym('%'));
    (takes && alone).then_some(first)
}
