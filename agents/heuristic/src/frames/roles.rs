//! Every number's one role in a request: a percentage, a rate, a count, a group's
//! size or an amount.

use crate::lexer::Token;

use super::vocabulary::*;
use super::words::*;

/// What a number is in the request.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Role {
    /// `15%`.
    Percent,
    /// Paid for each one of `unit` (`None`: each of whatever is counted).
    Rate(Option<String>),
    /// A count of what the one or two words after it name (`18 room nights`).
    Count(Vec<String>),
    /// The size of a group of `group`.
    GroupSize(String),
    /// A bare amount.
    Amount,
}

/// One number and its role.
#[derive(Debug, Clone)]
pub(super) struct Quantity {
    pub(super) value: String,
    pub(super) at: usize,
    pub(super) role: Role,
}

/// Every number with its role (a number no other role fits is an amount).
pub(super) fn roles(w: &Words) -> Vec<Quantity> {
    let toks = w.toks;
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let Some(value) = t.number() else { continue };
        let next = w.word(i + 1);
        let percent_word = PERCENT_WORDS.iter().any(|p| w.at(i + 1, p));
        let role = if toks.get(i + 1).is_some_and(|t| t.is_sym('%')) || percent_word {
            Role::Percent
        } else if let Some(g) = group_size(w, i) {
            Role::GroupSize(g)
        } else if next.is_some_and(|n| is_in(EACH, n)) {
            Role::Rate(None)
        } else if let Some(unit) = tied_unit(w, i) {
            Role::Rate(Some(unit))
        } else if i >= 2 && w.word(i - 2) == Some("moi") && w.word(i - 1).is_some_and(is_noun) {
            Role::Rate(w.word(i - 1).map(str::to_owned))
        } else if let Some(unit) = rate_said_before(w, i) {
            // (`mỗi chuyến hết 1,5 lít`, `một ngày bán được 3tr2`)
            Role::Rate(Some(unit))
        } else if let Some(noun) = next.filter(|n| is_noun(n) && !labels_next(w, i)) {
            let mut nouns = vec![noun.to_owned()];
            nouns.extend(w.word(i + 2).filter(|n| is_noun(n)).map(str::to_owned));
            // (`15 tourism fee per night`: a fee for each night is a rate.)
            let after = i + 1 + nouns.len();
            let fee = nouns.iter().any(|n| is_in(FEES, n));
            match w.word(after).filter(|t| fee && is_in(TIES, t)) {
                Some(_) => match w.word(after + 1).filter(|u| is_noun(u)) {
                    Some(unit) => Role::Rate(Some(unit.to_owned())),
                    None => Role::Count(nouns),
                },
                None => Role::Count(nouns),
            }
        } else {
            Role::Amount
        };
        out.push(Quantity {
            value: value.to_owned(),
            at: i,
            role,
        });
    }
    // (`150k 1 người`: the one a rate is for is the rate's tie, no count.)
    let tie_of_rate = |k: usize, q: &[Quantity]| {
        q[k].value == "1"
            && k > 0
            && q[k - 1].at + 1 == q[k].at
            && matches!(q[k - 1].role, Role::Rate(_))
    };
    // (`Hóa đơn tháng 11 là 9.850.000`: a month named by its number, its amount after.)
    let month_name = |x: &Quantity| {
        x.at > 0
            && w.word(x.at - 1)
                .is_some_and(|m| is_in(&["tháng", "month", "quý", "quarter"], m))
            && x.value.parse::<u32>().is_ok_and(|n| (1..=12).contains(&n))
            && (w
                .word(x.at + 1)
                .is_some_and(|n| is_in(&["là", "is", "was"], n))
                || w.toks.get(x.at + 1).is_some_and(|t| t.is_sym(':')))
    };
    // (`Tour 2 ngày 1 đêm giá 1.850.000đ/khách`: days and nights said together name
    // the tour, unless something is priced per day or night.)
    let per_period = out
        .iter()
        .any(|x| matches!(&x.role, Role::Rate(Some(u)) if is_period(u)));
    let length = |k: usize, q: &[Quantity]| {
        let days_nights = |a: &Quantity, b: &Quantity| {
            b.at == a.at + 2
                && matches!(&a.role, Role::Count(n) if n.first().is_some_and(|n| is_in(&["ngày", "day"], n)))
                && matches!(&b.role, Role::Count(n) if n.first().is_some_and(|n| is_in(&["đêm", "night"], n)))
        };
        !per_period
            && (q.get(k + 1).is_some_and(|b| days_nights(&q[k], b))
                || k > 0 && days_nights(&q[k - 1], &q[k]))
    };
    // (`tour 3 ngay gia 4tr8 mot khach`: the days right after what is sold name its
    // length, unless something is priced per day.)
    let named_length = |x: &Quantity| {
        !per_period
            && x.at > 0
            && w.word(x.at - 1)
                .is_some_and(|t| is_in(&["tour", "trip", "package", "gói", "khóa", "course"], t))
            && matches!(&x.role, Role::Count(n) if n.first().is_some_and(|n| is_in(&["ngày", "day", "đêm", "night", "tuần", "week"], n)))
    };
    let keep: Vec<bool> = (0..out.len())
        .map(|k| {
            !tie_of_rate(k, &out)
                && !month_name(&out[k])
                && !length(k, &out)
                && !named_length(&out[k])
        })
        .collect();
    let out: Vec<Quantity> = out
        .into_iter()
        .zip(keep)
        .filter_map(|(q, keep)| keep.then_some(q))
        .collect();
    priced_then_counted(w, one_then_rate(w, out))
}

/// `vé 685, mua 2 vé`, `ticket 685, buy 2 tickets`, `áo 385k, mua 3 cái`: an amount
/// right after the thing it prices (a few words back at most), that thing counted
/// later — a rate for each one, the count its count.
fn priced_then_counted(w: &Words, mut q: Vec<Quantity>) -> Vec<Quantity> {
    // (One price only: prices by kind, `người lớn 200k, trẻ em 120k`, are categories.)
    if q.iter().filter(|x| x.role == Role::Amount).count() != 1 {
        return q;
    }
    for k in 0..q.len() {
        if q[k].role != Role::Amount || q[k].at == 0 {
            continue;
        }
        // (The words right before the amount, back to a number or a mark; none a
        // verb of buying or selling — `áo nhập 150k` is a cost — and the first not
        // counted itself — `20 viên giá 100k` prices the pack.)
        let at = q[k].at;
        let run: Vec<usize> = (at.saturating_sub(5)..at)
            .rev()
            .take_while(|&i| w.word(i).is_some())
            .collect();
        let first = run.last().copied().unwrap_or(at);
        let counted_before = first > 0 && w.toks[first - 1].number().is_some();
        let named: Vec<&str> = run.iter().filter_map(|&i| w.word(i)).collect();
        if counted_before || named.iter().any(|n| is_in(TRADE_VERBS, n)) {
            continue;
        }
        let named: Vec<&str> = named.into_iter().filter(|n| is_noun(n)).collect();
        let counted = q[k + 1..].iter().find_map(|x| match &x.role {
            Role::Count(nouns) => nouns.first().filter(|n| {
                !is_period(n)
                    && (named.iter().any(|m| same_thing(m, n))
                        || (!named.is_empty() && is_in(ANY_ONE, n)))
            }),
            _ => None,
        });
        if let Some(noun) = counted.cloned() {
            q[k].role = Role::Rate(Some(noun));
        }
    }
    q
}

/// Verbs between a thing and what each one takes or brings (`mỗi chuyến hết 1,5 lít`,
/// `1 ngày bán 1tr2`, `1 mét mất 3 ngày`).
const RATE_VERBS: &[&str] = &[
    "hết", "tốn", "mất", "được", "bán", "ăn", "dùng", "uống", "lời", "lãi", "kiếm", "takes",
    "costs", "uses", "makes", "earns",
];

/// The unit of a rate said before its amount with a verb or two between (`mỗi chuyến
/// hết 1,5 lít`, `một ngày bán được 3tr2`): `mỗi` or `một` and a noun, then only verbs
/// of spending or earning.
fn rate_said_before(w: &Words, i: usize) -> Option<String> {
    let verbs = (1..=2)
        .take_while(|&k| i > k && w.word(i - k).is_some_and(|v| is_in(RATE_VERBS, v)))
        .count();
    if verbs == 0 || i < verbs + 2 {
        return None;
    }
    let noun = i - verbs - 1;
    (matches!(w.word(noun - 1), Some("moi" | "mot")) && w.word(noun).is_some_and(is_noun))
        .then(|| w.word(noun).map(str::to_owned))
        .flatten()
}

/// `salary 4,800 rent 1,650`: an amount named by the word before it, the word after it
/// naming the next amount — a list of labelled amounts, no count of rents.
fn labels_next(w: &Words, i: usize) -> bool {
    i > 0
        && w.word(i - 1).is_some_and(is_noun)
        && w.toks[i].number().is_some_and(big)
        && w.toks.get(i + 2).and_then(Token::number).is_some()
}

/// Words naming a fee: one said `per` something is a rate, no count.
const FEES: &[&str] = &["fee", "fees", "charge", "levy", "tax", "phí"];

/// Verbs of buying and selling: an amount after one is what was paid or taken.
const TRADE_VERBS: &[&str] = &[
    "mua", "bán", "nhập", "trả", "bought", "sold", "paid", "pay", "buy", "sell", "spent",
];

/// `1 ngày bán 1tr2`, `1 mét mất 3 ngày`: one of a thing, then a verb and what it takes
/// or brings — a rate for that thing; the one is no count. (Without the verb, `1 nón
/// 80k` is one bought at its price.)
fn one_then_rate(w: &Words, mut q: Vec<Quantity>) -> Vec<Quantity> {
    let Some(k) = (0..q.len().saturating_sub(1)).find(|&k| {
        let (one, next) = (&q[k], &q[k + 1]);
        let Role::Count(nouns) = &one.role else {
            return false;
        };
        // (`1 ngày bán 1tr2`; `1 cái áo mất 2 ngày`: the thing may take a second word.)
        let verb = |k: usize| w.word(k).is_some_and(|v| is_in(RATE_VERBS, v));
        let verb_between = next.at == one.at + 3 && verb(one.at + 2)
            || next.at == one.at + 4 && nouns.len() == 2 && verb(one.at + 3);
        one.value == "1"
            && nouns.first().is_some_and(|n| is_noun(n))
            && matches!(next.role, Role::Amount | Role::Count(_))
            && (verb_between
                // (`1 suất 350k x 120 khách`: the price of one, times a count.)
                || next.at == one.at + 2 && w.word(next.at + 1).is_some_and(|t| is_in(TIMES, t)))
    }) else {
        return q;
    };
    let Role::Count(nouns) = q[k].role.clone() else {
        return q;
    };
    q[k + 1].role = Role::Rate(nouns.first().cloned());
    q.remove(k);
    q
}

/// The one thing the number at `i` is paid for: `per head`, `a night`, `/đêm`, `một
/// người` or `1 khách` after an amount of money.
pub(super) fn tied_unit(w: &Words, i: usize) -> Option<String> {
    let value = w.toks[i].number()?;
    let tie = match (w.word(i + 1), w.toks.get(i + 1).and_then(Token::number)) {
        (Some(t), _) if is_in(TIES, t) => t,
        (None, Some("1")) => "1",
        _ => return None,
    };
    // (`1 khách` after an amount is a rate's one; `3 một ngày` is no price.)
    if matches!(tie, "1" | "mot") && !big(value) {
        return None;
    }
    w.word(i + 2).filter(|u| is_noun(u)).map(str::to_owned)
}

/// Whether `value` is an amount of money rather than a count of a few.
pub(super) fn big(value: &str) -> bool {
    value.parse::<f64>().is_ok_and(|v| v >= 1000.0)
}

/// Whether `value` is a small whole number (a group's size).
pub(super) fn small_whole(value: &str) -> bool {
    value.parse::<u32>().is_ok_and(|v| (2..100).contains(&v))
}

/// The group the number at `i` gives the size of: `tables of 10`, `10 per table`, `10
/// người một bàn`, `bàn 10 người`.
pub(super) fn group_size(w: &Words, i: usize) -> Option<String> {
    let value = w.toks[i].number()?;
    if !small_whole(value) {
        return None;
    }
    let word = |k: usize| w.word(k);
    // `tables of 10`
    if i >= 2 && word(i - 1) == Some("of") && word(i - 2).is_some_and(is_group) {
        return word(i - 2).map(str::to_owned);
    }
    // `bàn 10 người` (but `nhóm 5 người`, one group of five, counts the people, unless
    // groups are made: `chia nhóm 5 người`).
    let one_group = i >= 1
        && word(i - 1).is_some_and(|g| is_in(&["nhóm", "đoàn", "group"], g))
        && !(i >= 2 && word(i - 2).is_some_and(|v| is_in(&["chia", "mỗi", "thành", "into"], v)));
    if one_group {
        return None;
    }
    if i >= 1 && word(i - 1).is_some_and(is_group) && word(i + 1).is_some_and(is_person) {
        return word(i - 1).map(str::to_owned);
    }
    // `10 per table`, `10 người một bàn`, `10 người/bàn`
    let after = match word(i + 1) {
        Some(n) if is_person(n) => i + 2,
        _ => i + 1,
    };
    if word(after).is_some_and(|t| is_in(TIES, t))
        && let Some(g) = word(after + 1).filter(|g| is_group(g))
    {
        return Some(g.to_owned());
    }
    None
}

/// The quantities whose role `pick` accepts.
pub(super) fn only(q: &[Quantity], pick: impl Fn(&Role) -> bool) -> Vec<&Quantity> {
    q.iter().filter(|x| pick(&x.role)).collect()
}
