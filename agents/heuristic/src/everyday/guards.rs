//! What keeps an everyday reading from being made, or changes its form: a day and month
//! among the words, a bill shared by the people it is for, counts that are no amounts to
//! add, a percentage signed `+`.

use crate::lexer::Token;

/// Whether `toks` say a day and month as `d/m` after a word that dates it (`từ 24/12
/// đến 28/12`, `from 3/4`, `ngày 5/6`).
pub(super) fn day_months(toks: &[Token]) -> bool {
    (1..toks.len()).any(|k| {
        let small = |j: usize, most: u32| {
            toks.get(j)
                .and_then(Token::number)
                .and_then(|n| n.parse::<u32>().ok())
                .is_some_and(|n| (1..=most).contains(&n))
        };
        toks[k - 1].word().is_some_and(|w| {
            matches!(
                w,
                "từ" | "đến" | "tới" | "ngày" | "from" | "to" | "until" | "till" | "on"
            )
        }) && small(k, 31)
            && toks.get(k + 1).is_some_and(|t| t.is_sym('/'))
            && small(k + 2, 12)
    })
}

/// Vietnamese names of a bill shared by the people it is for (`tiền điện 1tr260, ở 3
/// người`).
pub(super) const BILLS: &[(&str, &str)] = &[
    ("hóa", "đơn"),
    ("hoá", "đơn"),
    ("tiền", "điện"),
    ("tiền", "nước"),
    ("tiền", "nhà"),
    ("tiền", "phòng"),
];

/// Whether amounts said with a total are no sum: a count beside money with one
/// percentage, or a count of people among them.
pub(super) fn refuses_sum(toks: &[Token], amounts: &[&str], percentages: usize) -> bool {
    percentages == 1 && count_beside_money(toks, amounts) || people_among(toks, amounts)
}

/// Whether a percentage is written with a `+` before it (`+35%`).
pub(super) fn signed_up(toks: &[Token]) -> bool {
    (1..toks.len()).any(|k| {
        toks[k - 1].is_sym('+')
            && toks[k].number().is_some()
            && toks.get(k + 1).is_some_and(|t| t.is_sym('%'))
            && (k < 2 || toks[k - 2].number().is_none())
    })
}

/// Whether one of `amounts` counts people (`4 khách`, `group of 6`, `nhóm 6`): a count
/// of people is never added to money (`dive trip $85 per person, group of 6, whats the
/// total` had been 91).
pub(super) fn people_among(toks: &[Token], amounts: &[&str]) -> bool {
    (0..toks.len()).any(|k| {
        let Some(n) = toks[k].number() else {
            return false;
        };
        let word = |j: usize| toks.get(j).and_then(Token::word);
        let before = |back: usize| k.checked_sub(back).and_then(word);
        amounts.contains(&n)
            && (word(k + 1).is_some_and(|w| {
                super::items::counts_people(w) || matches!(w, "khách" | "guests" | "pax")
            }) || before(1) == Some("of") && matches!(before(2), Some("group" | "party"))
                || matches!(before(1), Some("nhóm" | "đoàn")))
    })
}

/// Whether a few of a thing are said beside money (`40 khan tổng 4tr8`, `the big one
/// … the 1440 rent`): the smallest amount is a count (a word other than a currency
/// follows it) and the largest is a thousand times it or more — no sum to take a
/// percentage of.
fn count_beside_money(toks: &[Token], amounts: &[&str]) -> bool {
    let value = |a: &str| a.parse::<f64>().unwrap_or(f64::NAN);
    let Some(small) = amounts
        .iter()
        .copied()
        .min_by(|a, b| value(a).total_cmp(&value(b)))
    else {
        return false;
    };
    let large = amounts.iter().map(|a| value(a)).fold(f64::MIN, f64::max);
    const MONEY: &[&str] = &[
        "k", "đ", "d", "vnd", "usd", "eur", "euro", "euros", "dollar", "dollars", "bucks", "đồng",
        "dong", "nghìn", "nghin", "ngàn", "triệu", "trieu", "tr", "won", "yen",
    ];
    let counted = toks.iter().enumerate().any(|(i, t)| {
        t.number() == Some(small)
            && toks
                .get(i + 1)
                .and_then(Token::word)
                .is_some_and(|w| w.chars().count() > 1 && !MONEY.contains(&w))
    }) || small == "1" && toks.iter().any(|t| t.word() == Some("one"));
    counted && large >= 1000.0 * value(small)
}
