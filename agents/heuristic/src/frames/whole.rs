//! The frames of one request read whole: groups of a size, a part of a whole, an
//! amount shared, a rate times its counts with percentages, the price before a levy.

use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

use super::base::base;
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
    // (`hoa don 75tr, phi phuc vu 5%`, nothing asked: the bill with it, as `bill 320,
    // service charge 10%`; `VAT 8% là bao nhiêu tiền` asks the levy.)
    let bill_told = w.says(&[&["hóa", "đơn"]])
        && !w.toks.iter().any(|t| t.is_sym('?'))
        && !w.says(&[&["bao", "nhiêu"], &["bn"], &["mấy"], &["how"], &["what"]]);
    let whole = w.says(WHOLE) || bill_told || w.says(&[&["giá"]]) && !w.says(&[&["giá", "trị"]]);
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
        } else if percents.len() == 1
            && p.value.parse::<f64>().is_ok_and(|v| v > 100.0)
            && w.near(p.at, 5, 4, PAY_RATES)
        {
            // (`saturday penalty is 125%`, `public hol rate is 250%`: pay at that
            // share of the base rate.)
            share
        } else {
            return None;
        };
    }
    Some(e)
}

/// Words naming a rate of pay as a share of the base rate (`penalty is 125%`).
const PAY_RATES: &[&[&str]] = &[&["penalty"], &["penalties"], &["loading"], &["rate"]];
