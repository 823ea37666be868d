//! The readers of the whole request that answer it in one part (or a part per
//! question), tried before its segments are read one by one. None of them reads a
//! request laid out as a list of parts.

use super::parse_request;
use crate::compound::context::rounding_after;
use crate::compound::parts::quote;
use crate::compound::whole::{frames_reading, math_parts, whole_problem};
use crate::compound::{Parsed, PartQuery};
use crate::expr::Expr;
use crate::filler;
use crate::lexer::Token;

/// The whole request `toks` (lexed from `src`) read at once, when one of its readers
/// reads it; `laid_out` when it is a list of parts (then none does).
pub(super) fn read_whole(toks: &[Token], src: &str, laid_out: bool) -> Option<Parsed> {
    one_date(toks, src, laid_out)
        .or_else(|| one_frame(toks, src, laid_out))
        .or_else(|| one_calculation(toks, src, laid_out))
        .or_else(|| a_part_each(toks, src, laid_out))
}

/// The one answer of the rest rounded, when a sentence of its own says a rounding.
pub(super) fn rounded(toks: &[Token], src: &str, laid_out: bool) -> Option<Parsed> {
    // `my hourly went from 38.50 to 42.80, what % raise is that? 1 decimal is fine`: a
    // rounding said in a sentence of its own rounds the one answer of the rest.
    if !laid_out
        && let Some((rest, places)) = rounding_after(toks)
        && let Ok(rest) = parse_request(rest, src)
        && let Some(e) = rest.only_math()
    {
        let rounded = Expr::bin(crate::expr::MathOp::Round, e.clone(), places);
        return Some(Parsed::one(quote(toks, src), PartQuery::Math(rounded)));
    }
    None
}

/// One date or time asked of the whole request.
fn one_date(toks: &[Token], src: &str, laid_out: bool) -> Option<Parsed> {
    // `check in 23/12, check out 27/12, how many nights`: the days between two days.
    // `how many hours ahead of hanoi is seoul`: the hours between two places' clocks.
    // `giờ chicago mấy giờ rồi`: the time at a place named without a preposition.
    if !laid_out
        && let Some(q) = crate::dates::between_day_months(toks)
            .map(|q| crate::dates::inclusive_if_said(toks, q))
            .or_else(|| crate::places::time_difference(toks, src))
            .or_else(|| crate::places::time_named(toks, src))
            .or_else(|| {
                // (A conversion told loosely, only when no part reads it strictly; the loose
                // reader, which looks for one clock time first, is the cheaper test.)
                crate::places::loose_convert(toks, src)
                    .filter(|_| crate::places::parse(toks, src).is_none())
            })
    {
        return Some(Parsed::one(quote(toks, src), PartQuery::Date(q)));
    }
    None
}

/// The whole request as one everyday frame.
fn one_frame(toks: &[Token], src: &str, laid_out: bool) -> Option<Parsed> {
    // Priced items summed (`4 ly bạc xỉu 29k với 3 ly đen đá 20k, tổng tiền`): one
    // part over the whole request, never every number added.
    // The price of one from a pack's (`30 viên giá 145k, 1 viên bao nhiêu`), likewise.
    // An amount for one period asked for a longer one (`£68.50 a day and she goes 3 days a
    // week. how much is that a fortnight`), likewise.
    if !laid_out
        && let Some(e) = crate::frames::priced_items(toks)
            .or_else(|| crate::frames::price_of_one(toks))
            .or_else(|| crate::frames::longer_period(toks))
    {
        // (`… mỗi thứ được bao nhiêu tiền`, `how much for each item`: each item's
        // amount, never their sum.)
        if asks_each_item(toks) {
            let mut items = Vec::new();
            summands(e.clone(), &mut items);
            if items.len() > 1 {
                return Some(math_parts(toks, src, items));
            }
        }
        return Some(whole_problem(toks, src, e));
    }
    // The price before a levy it includes (`giá đã gồm VAT 10% là 236.500đ, giá chưa
    // thuế`): the whole request is one frame, never its first sentence's percentage.
    // A share and the rest asked together (`how much tax and what's left`), likewise.
    // Change from money handed over (`paid with 600k, how much change`), likewise.
    if !laid_out
        && (crate::frames::asks_before_levy(toks)
            || crate::frames::asks_share_and_rest(toks)
            || crate::frames::asks_change(toks))
        && let Some(parsed) = frames_reading(toks, src)
    {
        return Some(parsed);
    }
    None
}

/// The whole request as one calculation across its sentences.
fn one_calculation(toks: &[Token], src: &str, laid_out: bool) -> Option<Parsed> {
    // Two amounts compared across its sentences (`… tháng trước 740.000đ, tháng này
    // 856.000đ, tăng bao nhiêu`): one part over the whole request.
    // An amount per one period asked per another (`4200 a month, how much a year`).
    // A recipe scaled (`250g for 4 people, we'll be 6`).
    // What is left of an amount (`had 500, spent 175 and 60, how much left`).
    // Hours between two clock times, overtime at a multiple of a rate.
    // One list operation over one run of numbers, the question in another sentence
    // (`Sales this week were 1200, 950 and 1320. What's the average per day?`).
    if !laid_out
        && let Some(e) = crate::change::parse(toks)
            .or_else(|| crate::rates::parse(toks))
            .or_else(|| crate::rates::months_of(toks))
            .or_else(|| crate::rates::over_periods(toks))
            .or_else(|| crate::scaling::parse(toks))
            .or_else(|| crate::remaining::parse(toks))
            .or_else(|| crate::remaining::percent_lost(toks))
            .or_else(|| crate::shifts::hours_between(toks))
            .or_else(|| crate::shifts::overtime_after(toks))
            .or_else(|| crate::shifts::overtime(toks))
            .or_else(|| crate::shares::parse(toks))
            .or_else(|| crate::shares::percent_of_count(toks))
            .or_else(|| crate::shares::total_of_average(toks))
            .or_else(|| crate::proportion::parse(toks))
            .or_else(|| crate::exchange::parse(toks))
            .or_else(|| crate::coverage::periods_needed(toks))
            .or_else(|| crate::coverage::groups(toks))
            .or_else(|| crate::coverage::sized_asked(toks))
            .or_else(|| crate::averages::parse(toks))
            .or_else(|| crate::averages::total(toks))
            .or_else(|| crate::averages::weighted_grade(toks))
            .or_else(|| crate::tolerant::list(filler::trim_symbols(toks)))
    {
        return Some(Parsed::one(quote(toks, src), PartQuery::Math(e)));
    }
    None
}

/// The whole request as one part per question.
fn a_part_each(toks: &[Token], src: &str, laid_out: bool) -> Option<Parsed> {
    // Two list operations over one run of numbers (`128, 142, 119, lowest and
    // highest?`): a part each.
    // How many whole ones hold a total (`1 bag covers 2.5 m2, the wall is 45 m2, how
    // many bags`), after the area when that is asked too.
    // An amount split in a ratio (`split 200 triệu 60/40`): a share each.
    let found = crate::tolerant::lists(filler::trim_symbols(toks))
        .or_else(|| crate::coverage::parse(toks))
        .or_else(|| crate::ratio::parse(toks));
    if !laid_out && let Some(found) = found {
        return Some(math_parts(toks, src, found));
    }
    None
}

/// Whether `toks` ask each item's amount (`mỗi thứ`, `từng loại`, `each item`).
fn asks_each_item(toks: &[Token]) -> bool {
    const EACH: &[&[&str]] = &[
        &["mỗi", "thứ"],
        &["từng", "thứ"],
        &["mỗi", "loại"],
        &["từng", "loại"],
        &["mỗi", "món"],
        &["từng", "món"],
        &["each", "item"],
        &["each", "one"],
        &["for", "each"],
    ];
    crate::lexer::says(toks, EACH)
}

/// The terms of a sum `e`, in order (`e` itself when it is no sum).
fn summands(e: Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Op(crate::expr::MathOp::Sum, args) => {
            for a in args {
                summands(a, out);
            }
        }
        other => out.push(other),
    }
}
