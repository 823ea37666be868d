//! Quantity frames: the last reading of an everyday problem before a request is asked
//! about or refused. Every number is given one role from the words beside it — a
//! percentage, a rate (`1,250,000 per head`, `700k/đêm`, `mỗi bàn 8tr9`), a count of
//! something (`180 guests`, `4 đêm`), the size of a group (`tables of 10`, `bàn 10
//! người`) or a bare amount — and the roles together must fit exactly one frame:
//!
//! - **a rate times its counts**, then any percentages said with a cue
//!   (`staff meal 25 staff x 80k, plus 10% tip on top, total`; `Ăn sáng 50.000đ một
//!   khách, 3 khách ăn 5 buổi sáng`), or one amount and its percentages alone (`phí
//!   phục vụ 5% trên 221 triệu`, `booking ăn 15% trên 4tr5 thì mình còn bao nhiêu`);
//! - **an amount shared by a count** (`tip pool is 4,500,000 split evenly among 18
//!   staff`, `12,600,000 from 18 room nights, avg per night`);
//! - **groups of a size for a count of people** (`137 guests, tables of 10, how many
//!   tables`, `khách 256 người, bàn 10 người, cần bao nhiêu bàn`), rounded up, or the
//!   full groups and who is left over when both are asked;
//! - **a part of a whole as a percentage** (`5 of our 8 rooms are booked, occupancy in
//!   %`, `168 đêm trên tổng số 240 đêm, bao nhiêu phần trăm`).
//!
//! Words are compared folded (without marks), so a word typed without its marks that
//! the normaliser could not settle still counts; for the same reason this file's words
//! are not taught to the normaliser (`build.rs` skips it). A number no role explains, an operator
//! between numbers, a date, a clock time or an age leave the request to be asked about
//! or refused: never a guess.

mod amount_first;
mod base;
mod capacity;
mod categories;
mod chains;
mod change_percent;
mod days_off;
mod difference;
mod follow;
mod implied_unit;
mod in_turn;
mod interest;
mod items;
mod labelled;
mod lists;
mod periods;
mod profit;
mod reach;
mod rest;
mod roles;
mod spelled;
mod stock;
mod unit_price;
pub(crate) mod vocabulary;
pub(crate) use vocabulary::{AFTER_PRICE, COUNTED_APART, DEALS};
mod whole;
mod words;

pub use amount_first::amount_before_operation;
pub use difference::asks_change;
pub use follow::{asks_both_summed, for_periods, go_on, parse_after, rest_of};
pub use implied_unit::price_per_counted_unit;
pub use in_turn::percentages_in_turn;
pub use items::priced_items;
pub use periods::longer_period;
pub use rest::asks_share_and_rest;
pub use spelled::me_and_others;
pub use unit_price::price_of_one;
pub use whole::asks_before_levy;

use crate::expr::Expr;
use crate::lexer::{Tok, Token};

use lists::{listed, only_plus_between};
use roles::roles;
use vocabulary::OTHER_QUESTION;
use whole::{groups, part_of_whole, priced, shared};
use words::Words;

/// Whether `word` is a kin word a Vietnamese name by birth order follows (`anh`,
/// `chị`, `cô`), with its marks: folded, `cô` would be `có` too.
pub fn is_kin_word(word: &str) -> bool {
    vocabulary::KIN.contains(&word)
}

/// Whether `place` (a name as typed) is a country spanning several time zones
/// (`america`, `úc`), compared without marks.
pub fn spans_time_zones(place: &str) -> bool {
    let folded = crate::normalise::fold::fold(&place.to_lowercase());
    vocabulary::MANY_ZONES
        .iter()
        .any(|c| crate::normalise::fold::fold(c) == folded)
}

/// `toks` without the one month named by its number (`tháng 11 thu 38.400.000 trong 30
/// ngày`: when the takings were, no count of months); `None` unless exactly one is.
fn without_month_named(toks: &[Token]) -> Option<Vec<Token>> {
    let named: Vec<usize> = (1..toks.len())
        .filter(|&k| {
            toks[k - 1].word() == Some("tháng")
                && toks[k]
                    .number()
                    .and_then(|n| n.parse::<u32>().ok())
                    .is_some_and(|n| (1..=12).contains(&n))
                && !toks.get(k + 1).is_some_and(|t| t.is_sym('/'))
                // (`mỗi tháng 2 vợ chồng để dành 9tr5`: each month, then a count.)
                && !(k >= 2 && matches!(toks[k - 2].word(), Some("mỗi" | "hàng" | "một")))
        })
        .collect();
    let [at] = named.as_slice() else { return None };
    let mut out = toks.to_vec();
    out.drain(at - 1..=*at);
    Some(out)
}

/// `toks` without a day and month written `d/m` whose day cannot be a month (`20/11`),
/// none before it a number; `None` when there is none.
fn without_day_month(toks: &[Token]) -> Option<Vec<Token>> {
    let small = |k: usize, least: u32, most: u32| {
        toks.get(k)
            .and_then(Token::number)
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| (least..=most).contains(&n))
    };
    let at = (0..toks.len()).find(|&k| {
        small(k, 13, 31)
            && toks.get(k + 1).is_some_and(|t| t.is_sym('/'))
            && small(k + 2, 1, 12)
            && !toks.get(k + 3).is_some_and(|t| t.is_sym('/'))
            && !(k > 0 && toks[k - 1].is_sym('/'))
            && !(k > 0 && toks[k - 1].number().is_some())
    })?;
    let mut out = toks.to_vec();
    out.drain(at..at + 3);
    Some(out)
}

/// Whether `word` says who is helped after `giúp`/`giùm` (`tôi`, `em`), with its marks.
pub fn is_helped_word(word: &str) -> bool {
    vocabulary::HELPED.contains(&word)
}

/// Whether `toks` write a calculation with its operators between labelled numbers
/// (`31900 minus 2,500 dorm minus 1,062 health insurance`): its words only name the
/// numbers, so a word that would name a request outside the tools (`broker`) does not.
pub fn labelled_calculation(toks: &[Token]) -> bool {
    labelled::labelled(&Words::new(toks)).is_some()
}

/// The calculation `toks` write with operators between labelled numbers (`12 bình
/// khí x 180k`), the labels dropped.
pub fn labelled_expr(toks: &[Token]) -> Option<Expr> {
    // (A clock time, said or asked, is another question: `… 9am, what time is it`.)
    let clock = crate::lexer::has_clock_time(toks)
        || toks
            .iter()
            .any(|t| matches!(t.word(), Some("am" | "pm" | "time" | "giờ")));
    let w = Words::new(toks);
    if clock || from_to(&w) {
        return None;
    }
    labelled::labelled(&w)
}

/// The parts `toks` ask, read as one quantity frame; `None` unless exactly one fits.
pub fn parse(toks: &[Token]) -> Option<Vec<Expr>> {
    // (`pay is every 2 weeks, last one was fri 20 nov, when's the next`: a day and a
    // month named in words make a date question, no quantities — had been 2 × 20.)
    let dated = (0..toks.len()).any(|i| {
        crate::dates::day_month_end(toks, i)
            .is_some_and(|end| toks[i..end].iter().any(|t| t.word().is_some()))
    });
    if dated {
        return None;
    }
    // (`12 hrs at time and a half of 46.82`, `10 hours at double time, rate 30`: the
    // pay at that multiple of the rate, one answer; `grab to work is 46k each way, 22
    // work days`: a fare each way is paid twice a day.)
    const MULTIPLES: &[(&[&str], &str)] = &[
        (&["time", "and", "a", "half"], "1.5"),
        (&["double", "time"], "2"),
        (&["triple", "time"], "3"),
        (&["each", "way"], "2"),
        (&["mỗi", "chiều"], "2"),
    ];
    let multiple = MULTIPLES
        .iter()
        .find(|(p, _)| crate::lexer::says(toks, &[p]))
        .map(|(_, m)| *m);
    match (parse_frames(toks, true)?, multiple) {
        (found, None) => Some(found),
        (found, Some(m)) => match found.as_slice() {
            [Expr::Op(crate::expr::MathOp::Multiply, _)] if !toks.iter().any(|t| t.is_sym('%')) => {
                Some(vec![Expr::bin(
                    crate::expr::MathOp::Multiply,
                    found[0].clone(),
                    Expr::Num(m.to_owned()),
                )])
            }
            _ => None,
        },
    }
}

/// [`parse`], with the labelled calculation (`14 bao x 685k`) read only when
/// `labels`: a follow-up's operator words go on from the answer ([`go_on`]).
fn parse_frames(toks: &[Token], labels: bool) -> Option<Vec<Expr>> {
    // (A weight in another unit than its price's is read in the price's unit first:
    // `3 tạ … 98.500đ/kg` is 300 kg.)
    let rewritten =
        crate::weights::in_price_unit(toks).or_else(|| crate::weights::in_one_unit(toks));
    let toks = rewritten.as_deref().unwrap_or(toks);
    // (`bốn anh em`, `3 of us`: a count of people spelled out.)
    let spelled = spelled::people_counts(toks);
    let toks = spelled.as_deref().unwrap_or(toks);
    // (`nghỉ 2 ngày, làm 5 ngày`, `2 days off a week`: the days worked.)
    let worked = days_off::worked_days(toks);
    let toks = worked.as_deref().unwrap_or(toks);
    // (`chi 1tr250 liên hoan 20/11`, `tháng 11 thu …`: a day and month, or a month,
    // names when, no amounts.)
    let undated = without_day_month(toks).or_else(|| without_month_named(toks));
    let toks = undated.as_deref().unwrap_or(toks);
    let w = Words::new(toks);
    // (The interest and the amount with it, both asked: two answers.)
    if rest::asks_share_and_rest(toks)
        && let Some(both) = rest::share_and_rest(&w, &roles(&w))
    {
        return Some(both);
    }
    // (Interest is another question to every other frame.)
    if let Some(e) = interest::interest(&w) {
        return Some(vec![e]);
    }
    // (Change from money handed over, whatever the purchase is called: `bought 3
    // bottles …, paid with 600k, how much change`.)
    if difference::asks_change(toks)
        && let Some(e) = difference::difference(&w, &roles(&w))
    {
        return Some(vec![e]);
    }
    if another_question(&w, false) || from_to(&w) {
        return None;
    }
    // (`14 bao x 685k`: operators between labelled numbers.)
    if let Some(e) = labelled::labelled(&w).filter(|_| labels) {
        return Some(vec![e]);
    }
    // (`9.5 + 12 + 7.5 + 11` among words: a list summed, the only frame an operator
    // between numbers may belong to.)
    if operator_between_numbers(toks) {
        return only_plus_between(toks)
            .then(|| listed(&w, &roles(&w)))
            .flatten()
            .map(|e| vec![e]);
    }
    let quantities = roles(&w);
    // (An amount for one period asked for a longer one: `… a month, … a whole year`.)
    if let Some(e) = periods::for_longer_period(&w, &quantities) {
        return Some(vec![e]);
    }
    if quantities.len() < 2 {
        return None;
    }
    // (A share and the rest, both asked: two answers.)
    if let Some(both) = rest::share_and_rest(&w, &quantities) {
        return Some(both);
    }
    if let Some(e) = listed(&w, &quantities) {
        return Some(vec![e]);
    }
    // (`đầu tư 150 triệu, nay còn 132 triệu, lỗ bao nhiêu phần trăm`: a change asked,
    // never the part one amount is of the other.)
    groups(&w, &quantities)
        .or_else(|| change_percent::change_percent(&w, &quantities).map(|e| vec![e]))
        .or_else(|| part_of_whole(&w, &quantities))
        .or_else(|| capacity::capacity(&w, &quantities).map(|e| vec![e]))
        .or_else(|| difference::difference(&w, &quantities).map(|e| vec![e]))
        .or_else(|| shared(&w, &quantities).map(|e| vec![e]))
        .or_else(|| unit_price::unit_price(&w, &quantities).map(|e| vec![e]))
        .or_else(|| priced(&w, &quantities).map(|e| vec![e]))
        .or_else(|| stock::deductions(&w, &quantities).map(|e| vec![e]))
        .or_else(|| stock::listed_deductions(&w, &quantities).map(|e| vec![e]))
        .or_else(|| stock::supply(&w, &quantities).map(|e| vec![e]))
        .or_else(|| categories::categories(&w, &quantities).map(|e| vec![e]))
        .or_else(|| reach::reach(&w, &quantities).map(|e| vec![e]))
        .or_else(|| profit::profit(&w, &quantities).map(|e| vec![e]))
}

/// Whether the request asks another question than a frame answers: a date, a clock
/// time, a word of another question (an age, a weekday, a purchase, an exchange rate)
/// — or, with `percent`, a percentage, which no follow-up or list of items takes.
fn another_question(w: &Words, percent: bool) -> bool {
    w.toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Date(_)) || percent && t.is_sym('%'))
        || crate::lexer::has_clock_time(w.toks)
        || w.says(OTHER_QUESTION)
}

/// Whether an operator joins two numbers (`5 + 3`): the arithmetic readers' request.
fn operator_between_numbers(toks: &[Token]) -> bool {
    toks.windows(3).any(|t| {
        t[0].number().is_some()
            && matches!(t[1].tok, Tok::Sym('+' | '-' | '^' | '='))
            && t[2].number().is_some()
    }) || toks.iter().any(|t| matches!(t.tok, Tok::Sym('^' | '=')))
        || grouped_arithmetic(toks)
}

/// Whether brackets group arithmetic (`(2+4)*3`), not an aside (`(26 checks)`): an
/// operator inside or right beside them, or a bracket left open.
fn grouped_arithmetic(toks: &[Token]) -> bool {
    let op = |t: Option<&Token>| {
        t.is_some_and(|t| matches!(t.tok, Tok::Sym('+' | '-' | '*' | '/' | '^')))
    };
    let mut open: Option<usize> = None;
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Sym('(') if open.is_none() => open = Some(i),
            Tok::Sym(')') => {
                let Some(o) = open.take() else { return true };
                if toks[o + 1..i].iter().any(|t| op(Some(t)))
                    || op(o.checked_sub(1).and_then(|k| toks.get(k)))
                    || op(toks.get(i + 1))
                {
                    return true;
                }
            }
            Tok::Sym('(') => return true,
            _ => {}
        }
    }
    open.is_some()
}

/// Whether a change is told (`went from 180 to 212`, `từ 21.000 lên 23.520`).
fn from_to(w: &Words) -> bool {
    let n = w.toks.len();
    (0..n).any(|i| {
        matches!(w.word(i), Some("from" | "tu"))
            && w.toks.get(i + 1).and_then(Token::number).is_some()
            && matches!(w.word(i + 2), Some("to" | "len" | "xuong"))
    })
}

#[cfg(test)]
mod tests;
