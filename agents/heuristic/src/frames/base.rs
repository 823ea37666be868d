//! What a frame's percentages apply to: a rate times its counts (two prices for the
//! same thing added, a chain of rates, a multiplier of a rate), or the one amount.

use crate::expr::{Expr, MathOp};

use super::roles::*;
use super::vocabulary::*;
use super::words::*;

/// What the percentages apply to: a rate times its counts, or the one amount.
pub(super) fn base(w: &Words, rest: &[&Quantity]) -> Option<Expr> {
    // `mỗi ngày 4 chuyến, mỗi chuyến 6 khách`: the trips of the one day asked about
    // are counted, each trip paid its rate.
    let one_period: Vec<Quantity>;
    let rest = if rest
        .iter()
        .filter(|x| matches!(x.role, Role::Rate(_)))
        .count()
        > 1
    {
        let rated = |thing: &str| {
            rest.iter()
                .any(|y| matches!(&y.role, Role::Rate(Some(u)) if same_thing(u, thing)))
        };
        one_period = rest
            .iter()
            .map(|x| match (&x.role, w.word(x.at + 1)) {
                (Role::Rate(Some(p)), Some(next)) if is_period(p) && rated(next) => Quantity {
                    role: Role::Count(vec![next.to_owned()]),
                    ..(*x).clone()
                },
                _ => (*x).clone(),
            })
            .collect();
        one_period.iter().collect::<Vec<_>>()
    } else {
        rest.to_vec()
    };
    let rest = rest.as_slice();
    let rates: Vec<&&Quantity> = rest
        .iter()
        .filter(|x| matches!(x.role, Role::Rate(_)))
        .collect();
    let counts: Vec<&&Quantity> = rest
        .iter()
        .filter(|x| matches!(x.role, Role::Count(_)))
        .collect();
    let amounts: Vec<&&Quantity> = rest.iter().filter(|x| x.role == Role::Amount).collect();
    if rest.iter().any(|x| matches!(x.role, Role::GroupSize(_))) {
        return None;
    }
    // `650/night x 3 nights plus 15 tourism fee per night`: two prices for each of the
    // same thing, added, for every one counted — never one price times the other.
    if let ([a, b], [], [count]) = (rates.as_slice(), amounts.as_slice(), counts.as_slice())
        && let (Role::Rate(Some(ua)), Role::Rate(Some(ub))) = (&a.role, &b.role)
        && same_thing(ua, ub)
        && (a.at + 1..b.at).any(|k| {
            w.toks[k].is_sym('+')
                || w.word(k)
                    .is_some_and(|x| is_in(&["plus", "cộng", "thêm"], x))
        })
    {
        let each = Expr::bin(
            MathOp::Sum,
            Expr::Num(a.value.clone()),
            Expr::Num(b.value.clone()),
        );
        return Some(Expr::bin(
            MathOp::Multiply,
            each,
            Expr::Num(count.value.clone()),
        ));
    }
    // `4 công ruộng, 1 công được 850 kg, bán 7.300 1 kg`: so many of a thing, what one
    // of it yields, and a price for what it yields.
    if let ([a, b], [], [count]) = (rates.as_slice(), amounts.as_slice(), counts.as_slice())
        && let Some(e) =
            super::chains::chain(w, a, b, count).or_else(|| super::chains::chain(w, b, a, count))
    {
        return Some(e);
    }
    match (rates.as_slice(), amounts.as_slice()) {
        // (`dầu 21.500đ 1 lít tăng 4%`: a price for one alone is the amount.)
        ([rate], []) if counts.is_empty() => Some(Expr::Num(rate.value.clone())),
        ([rate], []) => product(rate, &counts).or_else(|| super::chains::each_of(w, rate, &counts)),
        // `10,320/hr and OT is 1.5x, how much is 1 OT hour`: a multiplier of the rate.
        ([rate], [times])
            if w.word(times.at + 1) == Some("x")
                && w.toks
                    .get(times.at + 2)
                    .is_none_or(|t| t.number().is_none()) =>
        {
            let each = product(rate, &counts)?;
            Some(Expr::bin(
                MathOp::Multiply,
                each,
                Expr::Num(times.value.clone()),
            ))
        }
        // `mỗi chuyến 8 khách 150k`: so many of a thing each trip, at a price each.
        ([rate], [amount])
            if amount.at == rate.at + 2 && w.word(rate.at + 1).is_some_and(is_noun) =>
        {
            let each = product(rate, &counts)?;
            Some(Expr::bin(
                MathOp::Multiply,
                each,
                Expr::Num(amount.value.clone()),
            ))
        }
        // `25 staff x 80k`, `180 guests at 1,250,000`: the amount is paid for each;
        // `lương ca 250k … làm 22 ca`: for each of what is named before it.
        ([], [amount]) if !counts.is_empty() => {
            let joined = counts.iter().any(|c| {
                let (a, b) = (c.at.min(amount.at), c.at.max(amount.at));
                (a + 1..b).any(|k| w.word(k).is_some_and(|x| is_in(TIMES, x)))
            });
            // (`17 June 2019`, `tháng 2 năm 2027`: a date, never a price.)
            let year = amount
                .value
                .parse::<u32>()
                .is_ok_and(|y| (1900..=2100).contains(&y));
            let counted = |n: &str| {
                counts
                    .iter()
                    .any(|c| matches!(&c.role, Role::Count(m) if m.first().is_some_and(|m| same_thing(m, n))))
            };
            let named = amount.at >= 1
                && !year
                && (w.word(amount.at - 1).is_some_and(|n| {
                    is_noun(n) && !matches!(n, "nam" | "thang" | "year" | "month") && counted(n)
                }) || named_before(w, amount.at).iter().any(|n| counted(n)));
            // (`ticket is $612.40, how much for 2 people`: a price asked for so many.)
            let for_at = |c: usize| {
                let k = if c >= 2 && w.word(c - 1) == Some("the") {
                    c - 2
                } else {
                    c.saturating_sub(1)
                };
                c > 0 && w.word(k).is_some_and(|k| is_in(&["for", "cho"], k))
            };
            let for_people = matches!(counts.as_slice(), [c] if for_at(c.at)
                && matches!(&c.role, Role::Count(n) if n.iter().any(|n| is_person(n))))
                && w.says(HOW_MUCH);
            if !joined && !named && !for_people {
                return None;
            }
            let rate = Quantity {
                role: Role::Rate(None),
                ..(**amount).clone()
            };
            product(&rate, &counts)
        }
        ([], [amount]) => Some(Expr::Num(amount.value.clone())),
        // `1,300 trees and each one needs 0.4 kg`: what each needs, for every one.
        ([], []) => {
            let each: Vec<&&Quantity> = counts
                .iter()
                .copied()
                .filter(|c| w.near(c.at, 3, 0, &[&["each"], &["every"]]))
                .collect();
            let [rate] = each[..] else { return None };
            let others: Vec<&&Quantity> =
                counts.iter().copied().filter(|c| c.at != rate.at).collect();
            let rate = Quantity {
                role: Role::Rate(None),
                ..(*rate).clone()
            };
            product(&rate, &others)
        }
        _ => None,
    }
}

/// What an amount is said to be the price of, a few words before it: the thing before
/// `is` (`biweekly check is 1,684.22` … `26 checks`), or the period of an adjective
/// (`monthly pass is $189.50` … `4 months`).
fn named_before(w: &Words, at: usize) -> Vec<String> {
    let from = at.saturating_sub(4);
    let mut names: Vec<String> = (from..at)
        .filter_map(|k| {
            let a = w.word(k)?;
            PERIOD_ADJECTIVES
                .iter()
                .find(|(adj, _)| *adj == a)
                .map(|(_, p)| (*p).to_owned())
        })
        .collect();
    let is = at
        .checked_sub(2)
        .filter(|&k| matches!(w.word(k + 1), Some("is" | "was" | "are")));
    names.extend(
        is.and_then(|k| w.word(k))
            .filter(|n| is_noun(n))
            .map(str::to_owned),
    );
    names
}

/// Adjectives that say an amount is paid each period, and the period.
const PERIOD_ADJECTIVES: &[(&str, &str)] = &[
    ("monthly", "month"),
    ("weekly", "week"),
    ("daily", "day"),
    ("nightly", "night"),
    ("hourly", "hour"),
    ("yearly", "year"),
    ("annual", "year"),
];

/// `rate` times each count it is paid for; `None` when a count is of something else.
pub(super) fn product(rate: &Quantity, counts: &[&&Quantity]) -> Option<Expr> {
    if counts.is_empty() {
        return None;
    }
    let Role::Rate(unit) = &rate.role else {
        return None;
    };
    let mut factors = vec![Expr::Num(rate.value.clone())];
    let mut paired = false;
    for c in counts {
        let Role::Count(nouns) = &c.role else {
            return None;
        };
        let fits = match unit {
            Some(u) => nouns.iter().any(|n| same_thing(u, n)),
            None => !paired,
        };
        let again = nouns
            .iter()
            .any(|n| is_period(n) || is_person(n) && unit.as_deref().is_some_and(is_period));
        if fits && !paired {
            paired = true;
        } else if !again {
            return None;
        }
        factors.push(Expr::Num(c.value.clone()));
    }
    if !paired {
        return None;
    }
    Expr::chain(MathOp::Multiply, factors)
}
