//! The frames of one request read whole: groups of a size, a part of a whole, an
//! amount shared, a rate times its counts with percentages, the price before a levy.

use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

use super::roles::*;
use super::vocabulary::*;
use super::words::*;

/// Whether `toks` ask the price before a levy the price includes.
pub fn asks_before_levy(toks: &[Token]) -> bool {
    toks.iter().any(|t| t.is_sym('%')) && before_levy(&Words::new(toks))
}

/// [`asks_before_levy`] of words already read, the `%` checked by the caller.
fn before_levy(w: &Words) -> bool {
    // (`whats $115 before GST (gst is 15%)`: an amount said right before it includes it.)
    // (Only `before`: `12.450.000 chưa VAT` is an amount without it.)
    let amount_before = (1..w.toks.len()).any(|i| {
        w.toks[i - 1].number().is_some() && w.word(i) == Some("before") && w.says(BEFORE_LEVY)
    });
    w.says(BEFORE_LEVY) && (w.says(INCLUDES) || amount_before)
}

/// The full groups and who is left over, or the groups needed (rounded up).
pub(super) fn groups(w: &Words, q: &[Quantity]) -> Option<Vec<Expr>> {
    let [size] = only(q, |r| matches!(r, Role::GroupSize(_)))[..] else {
        return None;
    };
    let others: Vec<&Quantity> = q.iter().filter(|x| x.at != size.at).collect();
    let [total] = others[..] else { return None };
    let people = matches!(&total.role, Role::Count(n) if n.iter().any(|n| is_person(n)))
        || total.role == Role::Amount;
    if !people || !w.says(HOW_MANY) {
        return None;
    }
    let t = Expr::Num(total.value.clone());
    let s = Expr::Num(size.value.clone());
    if w.says(FULL) && w.says(LEFT_OVER) {
        let full = Expr::round_down(Expr::bin(MathOp::Divide, t.clone(), s.clone()));
        return Some(vec![full, Expr::bin(MathOp::Modulo, t, s)]);
    }
    Some(vec![Expr::round_up(Expr::bin(MathOp::Divide, t, s))])
}

/// A part of a whole as a percentage: two numbers, `of`/`out of`/`trên` between them,
/// a percentage asked and none given.
pub(super) fn part_of_whole(w: &Words, q: &[Quantity]) -> Option<Vec<Expr>> {
    let [a, b] = q else { return None };
    if a.role == Role::Percent || b.role == Role::Percent {
        return None;
    }
    // (A percentage word or sign after no number asks one.)
    let unattached = |i: usize| i == 0 || w.toks[i - 1].number().is_none();
    let asks_percent = w.says(PERCENT_ASKED)
        || (0..w.toks.len()).any(|i| {
            (w.toks[i].is_sym('%') || PERCENT_WORDS.iter().any(|p| w.at(i, p))) && unattached(i)
        });
    let between = (a.at + 1..b.at).any(|k| matches!(w.word(k), Some("of" | "tren" | "/")));
    (asks_percent && between).then(|| {
        let part = Expr::Num(a.value.clone());
        let whole = Expr::Num(b.value.clone());
        vec![Expr::bin(
            MathOp::Multiply,
            Expr::bin(MathOp::Divide, part, whole),
            Expr::Num("100".into()),
        )]
    })
}

/// An amount shared by a count of people (or of what can share): amount ÷ count.
pub(super) fn shared(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.iter()
        .any(|x| matches!(x.role, Role::Percent | Role::Rate(_)))
    {
        return None;
    }
    let [amount, count] = q else { return None };
    if let Some(e) = per_period(w, amount, count) {
        return Some(e);
    }
    let (amount, count) = match (&amount.role, &count.role) {
        (Role::Amount, Role::Count(_)) => (amount, count),
        (Role::Count(_), Role::Amount) => (count, amount),
        _ => return None,
    };
    let Role::Count(nouns) = &count.role else {
        return None;
    };
    let sharer = nouns
        .iter()
        .any(|n| is_person(n) || is_in(SHARERS, n) || is_period(n));
    // (`chạy 26 ngày, mỗi ngày lời 420 nghìn`: the amount is each one's, said right
    // after `mỗi ngày`; no share. `avg rate per night` after the amount asks one.)
    let each_one = (0..w.toks.len()).any(|i| {
        w.word(i).is_some_and(|k| is_in(&["mỗi", "each"], k))
            && w.word(i + 1)
                .is_some_and(|k| nouns.iter().any(|n| is_key(n, k)))
            && (i + 2..(i + 4).min(w.toks.len())).any(|j| j == amount.at)
    });
    // (`car loan $9,600 over 24 months, how much a month`: one of the periods counted,
    // asked after the count, shares the amount.)
    let per_one_asked = nouns.first().is_some_and(|n| is_period(n))
        && (count.at + 2..w.toks.len()).any(|i| {
            w.word(i)
                .is_some_and(|k| is_in(&["a", "per", "each", "mỗi", "một"], k))
                && w.word(i + 1).is_some_and(|u| same_thing(u, &nouns[0]))
        });
    if !sharer || each_one || !(w.says(SPLIT) || per_one_asked) {
        return None;
    }
    let share = Expr::bin(
        MathOp::Divide,
        Expr::Num(amount.value.clone()),
        Expr::Num(count.value.clone()),
    );
    // (`312.60 for the year between 3 of us, how much per person per month`: a year's
    // amount asked by the month is a twelfth of each share.)
    let by_month = w.says(FOR_A_YEAR) && w.says(BY_THE_MONTH) && !is_period(&nouns[0]);
    Some(if by_month {
        Expr::bin(MathOp::Divide, share, Expr::Num("12".into()))
    } else {
        share
    })
}

/// `Chạy 1.240 km mất 22 tiếng, trung bình mỗi giờ được bao nhiêu km`: a count of a
/// thing over a count of periods, asked for one period (`mỗi giờ`, `per hour`).
fn per_period(w: &Words, thing: &Quantity, periods: &Quantity) -> Option<Expr> {
    let (Role::Count(things), Role::Count(spans)) = (&thing.role, &periods.role) else {
        return None;
    };
    let (t, p) = (things.first()?, spans.first()?);
    let asked = (periods.at + 1..w.toks.len()).any(|i| {
        w.word(i)
            .is_some_and(|k| is_in(&["mỗi", "per", "an", "a"], k))
            && w.word(i + 1).is_some_and(|u| same_thing(u, p))
    });
    (is_period(p) && !is_period(t) && !is_person(t) && asked).then(|| {
        Expr::bin(
            MathOp::Divide,
            Expr::Num(thing.value.clone()),
            Expr::Num(periods.value.clone()),
        )
    })
}

/// Words that say an amount is a whole year's (`for the year`, `cả năm`).
const FOR_A_YEAR: &[&[&str]] = &[
    &["for", "the", "year"],
    &["a", "year"],
    &["per", "year"],
    &["yearly"],
    &["annual"],
    &["cả", "năm"],
];

/// Words that ask an amount by the month (`per month`, `mỗi tháng`).
const BY_THE_MONTH: &[&[&str]] = &[
    &["per", "month"],
    &["a", "month"],
    &["each", "month"],
    &["monthly"],
    &["mỗi", "tháng"],
];

/// A rate times what it is paid for (or one amount), then each percentage with its cue.
pub(super) fn priced(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let percents = only(q, |r| *r == Role::Percent);
    let rest: Vec<&Quantity> = q.iter().filter(|x| x.role != Role::Percent).collect();
    let base = base(w, &rest)?;
    if percents.is_empty() {
        // A product alone must be one: a rate times its counts.
        return matches!(base, Expr::Op(..)).then_some(base);
    }
    // `Giá đã gồm VAT 10% là 236.500đ, giá chưa thuế`: the price before the levy is
    // A × 100 ÷ (100 + p).
    if w.toks.iter().any(|t| t.is_sym('%')) && before_levy(w) {
        let ([p], Expr::Num(_)) = (percents.as_slice(), &base) else {
            return None;
        };
        let hundred = || Expr::Num("100".into());
        return Some(Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, base, hundred()),
            Expr::bin(MathOp::Sum, hundred(), Expr::Num(p.value.clone())),
        ));
    }
    // What is asked, the same for every percentage.
    let left = w.says(LEFT);
    // (`giá` is the price asked, `giá trị` only the value a fee is taken on.)
    let whole = w.says(WHOLE) || w.says(&[&["giá"]]) && !w.says(&[&["giá", "trị"]]);
    let mut e = base;
    for p in &percents {
        let pct = Expr::Num(p.value.clone());
        let share = Expr::bin(MathOp::Percent, pct, e.clone());
        let added = w.near(p.at, 5, 4, ADD);
        let down = w.near(p.at, 5, 4, DOWN);
        // (`minus the 10% tax they withhold`: an operation said outright beats what
        // the levy's name would add.)
        let up = added || w.near(p.at, 5, 4, UP) && !(down && w.near(p.at, 5, 4, OUTRIGHT_DOWN));
        let paid = w.near(p.at, 5, 4, SHARE) || w.near(p.at, 5, 4, TAKEN);
        // (`they take 9.4% for insurance n tax, what do i actually get`: a levy taken
        // off what is left, whatever it is for.)
        let taken = left && w.near(p.at, 5, 4, TAKEN);
        let (up, paid) = (up && !taken, paid || taken);
        if [up, down, paid].iter().filter(|c| **c).count() > 1 {
            return None;
        }
        e = if up && (added || whole || percents.len() > 1) {
            Expr::bin(MathOp::Sum, e, share)
        } else if down || paid && left {
            Expr::bin(MathOp::Subtract, e, share)
        } else if up || paid {
            if percents.len() > 1 {
                return None;
            }
            share
        } else {
            return None;
        };
    }
    Some(e)
}

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
