//! Reading a part as one everyday problem: the form its cues and numbers fit, and
//! the unit its answer is in.
//!
//! [`parse`] reads in stages: what is no everyday problem is refused first, then the
//! forms of a percentage (`percents.rs`) are tried, then the amounts and prices
//! (`priced.rs`).

use chorus_bus::Language;

use super::cues::Cue;
use super::guards::day_months;
use super::items::{Item, asks_outside, items};
use super::units::unit_of;
use super::{percents, priced};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Token, words_at};

/// What the answer to the everyday problem `part` is, to follow its number in a report:
/// `" each"` (`" mỗi người"`) for a share, `"%"` for a percentage asked (`45 is what
/// percent of 180`), `""` otherwise.
pub fn answer_unit(part: &str, language: Language) -> &'static str {
    let toks = crate::lexer::lex(part);
    let Some(items) = items(&toks, part, &mut Vec::new()) else {
        return "";
    };
    let has = |c: Cue| items.contains(&Item::Cue(c));
    let vi = crate::wording::is_vi(language);
    if has(Cue::WhatPercent) {
        "%"
    } else if parse(&toks, part).is_some()
        && (has(Cue::Split) || has(Cue::Each) || has(Cue::EachOne) || has(Cue::Among))
    {
        if vi { " mỗi người" } else { " each" }
    } else {
        ""
    }
}

/// A part read as cues and numbers, what each stage of [`parse`] looks at.
pub(super) struct Reading<'a> {
    pub(super) toks: &'a [Token],
    /// The words of `toks`.
    pub(super) words: &'a [&'a str],
    pub(super) items: &'a [Item],
    /// The decorating words dropped from the items.
    pub(super) decor: &'a [&'a str],
    /// The numbers of `items`, with where they are.
    pub(super) nums: Vec<(usize, &'a str)>,
    /// The percentages of `items`.
    pub(super) pcts: Vec<&'a str>,
    /// The numbers of periods of `items`.
    pub(super) periods: Vec<&'a str>,
}

impl<'a> Reading<'a> {
    fn new(
        toks: &'a [Token],
        words: &'a [&'a str],
        items: &'a [Item],
        decor: &'a [&'a str],
    ) -> Self {
        let nums: Vec<(usize, &str)> = items
            .iter()
            .enumerate()
            .filter_map(|(k, i)| match i {
                Item::Num(n) => Some((k, n.as_str())),
                _ => None,
            })
            .collect();
        let pcts: Vec<&str> = items
            .iter()
            .filter_map(|i| match i {
                Item::Pct(p) => Some(p.as_str()),
                _ => None,
            })
            .collect();
        let periods: Vec<&str> = items
            .iter()
            .filter_map(|i| match i {
                Item::Periods(p) => Some(p.as_str()),
                _ => None,
            })
            .collect();
        Reading {
            toks,
            words,
            items,
            decor,
            nums,
            pcts,
            periods,
        }
    }

    /// Whether the items have the cue `c`.
    pub(super) fn has(&self, c: Cue) -> bool {
        self.items.contains(&Item::Cue(c))
    }

    /// The cue at `k` of the items, if one is there.
    pub(super) fn cue_at(&self, k: usize) -> Option<Cue> {
        match self.items.get(k) {
            Some(Item::Cue(c)) => Some(*c),
            _ => None,
        }
    }

    /// Whether a decorating word asks something outside the tools.
    pub(super) fn outside(&self) -> bool {
        self.decor.iter().any(|w| asks_outside(w))
    }
}

/// A number of the items as an expression.
pub(super) fn num(n: &str) -> Expr {
    Expr::Num(n.to_owned())
}

/// What a form makes of a reading: `None` when it does not fit (the next is tried),
/// `Some` of the expression (or of `None`, no reading) when it does.
pub(super) type Decided = Option<Option<Expr>>;

/// Reads `toks` (lexed from `src`) as an everyday problem, when exactly one form fits.
pub fn parse(toks: &[Token], src: &str) -> Option<Expr> {
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    if no_everyday_problem(toks, &words) {
        return None;
    }
    // (`3 chuyến 650k và 2 chuyến 500k tổng bao nhiêu`, a segment of a longer request:
    // items each priced, never every number added.)
    let found = crate::frames::priced_items(toks)
        .or_else(|| groups_or_rate(toks))
        .or_else(|| super::tallied::at_one_rate(toks))
        .or_else(|| super::area::of_rectangle(toks));
    if let Some(e) = found {
        return Some(e);
    }
    let mut decor = Vec::new();
    let items = items(toks, src, &mut decor)?;
    let r = Reading::new(toks, &words, &items, &decor);
    if r.pcts.len() > 1 || r.nums.is_empty() {
        return None;
    }
    let forms: &[fn(&Reading) -> Decided] = &[
        percents::change,
        percents::interest,
        percents::periods_left,
        percents::what_percent,
        percents::at_share_of,
    ];
    match forms.iter().find_map(|form| form(&r)) {
        Some(decided) => decided,
        None => priced::amount(&r),
    }
}

/// Whether `toks` (with `words`) ask what no form here reads.
fn no_everyday_problem(toks: &[Token], words: &[&str]) -> bool {
    // The price before a levy, from the price with it (`giá đã gồm VAT 10% là 236.500,
    // giá chưa thuế`): a division none of these forms makes; the quantity frames read it.
    if crate::frames::asks_before_levy(toks) {
        return true;
    }
    // A booking (`book me a table for 4 at 7pm`) is no sum of its numbers (a hotel's
    // price per night is: `hotel is 189 a night`).
    let booking = words.windows(2).any(|w| {
        matches!(w[0], "book" | "booked")
            && matches!(
                w[1],
                "me" | "us" | "a" | "an" | "the" | "table" | "tickets" | "ticket" | "room"
            )
    }) || words
        .iter()
        .any(|w| matches!(*w, "reserve" | "reservation"));
    // `meeting is at 10:00`, `a table for 4 at 7pm`: a clock time is no amount.
    let am_pm = toks.windows(2).any(|w| {
        w[0].number()
            .is_some_and(|n| n.parse::<u32>().is_ok_and(|h| (1..=12).contains(&h)))
            && matches!(w[1].word(), Some("am" | "pm"))
    });
    if booking || am_pm || crate::lexer::has_clock_time(toks) {
        return true;
    }
    // (`khách ở từ 24/12 đến 28/12`: a day and month, no amounts to add; `paid with
    // 600k, how much change`: money handed over is the frames' to read, never added.)
    let change_asked = words.iter().any(|w| matches!(*w, "change" | "thối"))
        && words
            .iter()
            .any(|w| matches!(*w, "paid" | "pays" | "gave" | "handed" | "đưa"));
    day_months(toks) || change_asked || plus_share_of(toks)
}

/// Whether an amount is added to a share of another in so many words (`15 + 1.5% of
/// 1200`, `6.50 plus 0.8% of 1500`): arithmetic as written, never the share of both.
fn plus_share_of(toks: &[Token]) -> bool {
    toks.windows(6).any(|w| {
        w[0].number().is_some()
            && (w[1].is_sym('+') || matches!(w[1].word(), Some("plus" | "cộng")))
            && w[2].number().is_some()
            && w[3].is_sym('%')
            && matches!(w[4].word(), Some("of" | "của"))
            && w[5].number().is_some()
    })
}

/// Two numbers read as groups or a rate over time: `100 gauze pads packed in bags of 12,
/// how many are left over` is 100 mod 12 (what no whole group takes); `1000 mL over 8
/// hours, rate in mL/hr?` is 1000 ÷ 8 (an amount over a time, per hour).
fn groups_or_rate(toks: &[Token]) -> Option<Expr> {
    let per_one_hour = |k: usize| {
        toks[k].number() == Some("1")
            && toks
                .get(k + 1)
                .and_then(Token::word)
                .is_some_and(|w| unit_of(w) == "h")
    };
    let nums: Vec<usize> = crate::lexer::number_positions(toks)
        .into_iter()
        .filter(|&k| !per_one_hour(k))
        .collect();
    let one_hour = nums.len() < crate::lexer::number_positions(toks).len();
    let [a, b] = nums.as_slice() else {
        return None;
    };
    let (a, b) = (*a, *b);
    let num = |k: usize| toks[k].number().map(|n| Expr::Num(n.to_owned()));
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let has = |p: &[&str]| (0..toks.len()).any(|i| words_at(toks, i, p));
    let left_over = has(&["left", "over"]) || has(&["leftover"]) || has(&["leftovers"]);
    if left_over && b > 0 && word(b - 1) == Some("of") {
        return Some(Expr::bin(MathOp::Modulo, num(a)?, num(b)?));
    }
    let hours = word(b + 1).is_some_and(|w| unit_of(w) == "h");
    // (`trung bình bao nhiêu km 1 giờ`, `hourly rate`, `average speed`: a rate an hour.)
    let per_hour = has(&["per", "hour"])
        || has(&["an", "hour"])
        || has(&["mỗi", "giờ"])
        || has(&["hourly"])
        || has(&["speed"])
        || has(&["tốc", "độ"])
        || one_hour
        || (0..toks.len())
            .any(|i| toks[i].is_sym('/') && word(i + 1).is_some_and(|w| unit_of(w) == "h"));
    // (`1000 mL over 8 hours`, `210km in 5 hours`, `đi 210km mất 5 tiếng`, `$1,098 for
    // 36 hrs`: an amount over a time.)
    let over = b > 0 && matches!(word(b - 1), Some("over" | "in" | "mất" | "trong" | "for"));
    // (`$14.50/hr for 38 hrs`: the amount is the rate already, and the pay is asked.)
    let rate_first = (toks.get(a + 1).is_some_and(|t| t.is_sym('/'))
        || word(a + 1).is_some_and(|w| matches!(w, "per" | "an" | "a" | "mỗi" | "một")))
        && word(a + 2).is_some_and(|w| unit_of(w) == "h");
    if over && hours && per_hour && !rate_first {
        return Some(Expr::bin(MathOp::Divide, num(a)?, num(b)?));
    }
    None
}
