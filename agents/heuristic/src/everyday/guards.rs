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
            && (word(k + 1).is_some_and(super::items::counts_guests)
                || before(1) == Some("of") && matches!(before(2), Some("group" | "party"))
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

/// A count said with what it counts, then the price of one (`4 hộp mực 450k`, `Bán 4
/// cân chè giá 250k`): the two amounts of a reading, the count a whole number up to
/// 1,000 with its word after it, the price a thousand times it or more within four
/// words after — no sum, the count times the price. Never when a total is said between
/// (`40 khăn tổng 4tr8`) or the two are listed apart (a separator between).
pub(super) fn count_then_price<'a>(
    toks: &[Token],
    amounts: &[&'a str],
) -> Option<(&'a str, &'a str)> {
    let [a, b] = amounts else { return None };
    if crate::lexer::number_positions(toks).len() != 2 {
        return None;
    }
    let i = toks.iter().position(|t| t.number() == Some(a))?;
    let count: u32 = a.parse().ok().filter(|n| (2..=1000).contains(n))?;
    let word = toks.get(i + 1).and_then(Token::word)?;
    // (`2 tạ`, `Lương 9 chuyến 25.200.000đ`: see [`crate::frames::COUNTED_APART`].)
    // (`ban 40kg toi 115k`: a weight glued to its count counts it too.)
    let glued_weight = toks[i].end == toks[i + 1].start && matches!(word, "kg" | "lít");
    let short_or_glued = word.chars().count() < 2 || toks[i].end == toks[i + 1].start;
    if short_or_glued && !glued_weight || crate::frames::COUNTED_APART.contains(&word) {
        return None;
    }
    // Only a sale or a purchase said before the count (`mỗi tháng 2 vợ chồng để dành
    // 9tr5` counts people).
    if !toks[..i]
        .iter()
        .all(|t| t.word().is_some_and(|w| crate::frames::DEALS.contains(&w)))
    {
        return None;
    }
    let j = (i + 2..(i + 6).min(toks.len())).find(|&j| toks[j].number() == Some(b))?;
    // (`bán sỉ 12 thùng, thùng 680k`: the unit named again before its price.)
    let named_again = toks[j - 1].word() == Some(word) && j > i + 2;
    let between_ok = toks[i + 1..j].iter().all(|t| {
        named_again && t.is_sym(',')
            || t.word().is_some_and(|w| {
                !matches!(
                    w,
                    "tổng"
                        | "total"
                        | "hết"
                        | "all"
                        | "for"
                        | "cả"
                        | "altogether"
                        | "và"
                        | "với"
                        | "and"
                        | "with"
                        | "plus"
                        | "cộng"
                        | "trả"
                        | "paid"
                        | "mất"
                )
            })
    });
    // (`2 kids 4000 miles away`: the larger said with a unit of its own is no price.)
    let priced = toks.get(j + 1).is_none_or(|t| {
        t.word()
            .is_none_or(|w| crate::frames::AFTER_PRICE.contains(&w))
    });
    let large: f64 = b.parse().ok()?;
    (between_ok && priced && large >= 1000.0 * f64::from(count)).then_some((*a, *b))
}
