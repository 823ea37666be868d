//! Reading a part as one everyday problem: the form its cues and numbers fit, and
//! the unit its answer is in.

use chorus_bus::Language;

use super::asked::Asked;
use super::cues::Cue;
use super::guards::{BILLS, day_months, refuses_sum, signed_up};
use super::items::{Item, asks_outside, items};
use super::units::{measured, per_unit_count, term_and_rate, unit_of};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, words_at};

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

/// Reads `toks` (lexed from `src`) as an everyday problem, when exactly one form fits.
pub fn parse(toks: &[Token], src: &str) -> Option<Expr> {
    // The price before a levy, from the price with it (`giá đã gồm VAT 10% là 236.500,
    // giá chưa thuế`): a division none of these forms makes; the quantity frames read it.
    if crate::frames::asks_before_levy(toks) {
        return None;
    }
    // A booking (`book me a table for 4 at 7pm`) is no sum of its numbers (a hotel's
    // price per night is: `hotel is 189 a night`).
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let booking = words.windows(2).any(|w| {
        w[0] == "book"
            && matches!(
                w[1],
                "me" | "us" | "a" | "an" | "the" | "table" | "tickets" | "ticket" | "room"
            )
    }) || words
        .iter()
        .any(|w| matches!(*w, "reserve" | "reservation"));
    // `meeting is at 10:00`: a clock time is no amount.
    if booking || crate::lexer::has_clock_time(toks) {
        return None;
    }
    // (`khách ở từ 24/12 đến 28/12`: a day and month, no amounts to add; `paid with
    // 600k, how much change`: money handed over is the frames' to read, never added.)
    let change_asked = words.iter().any(|w| matches!(*w, "change" | "thối"))
        && words
            .iter()
            .any(|w| matches!(*w, "paid" | "pays" | "gave" | "handed" | "đưa"));
    if day_months(toks) || change_asked {
        return None;
    }
    if let Some(e) = groups_or_rate(toks) {
        return Some(e);
    }
    let mut decor = Vec::new();
    let items = items(toks, src, &mut decor)?;
    let has = |c: Cue| items.contains(&Item::Cue(c));
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
    let cue_at = |k: usize| match items.get(k) {
        Some(Item::Cue(c)) => Some(*c),
        _ => None,
    };
    let num = |n: &str| Expr::Num(n.to_owned());
    if pcts.len() > 1 || nums.is_empty() {
        return None;
    }
    let outside = || decor.iter().any(|w| asks_outside(w));
    // `from $80 to $92, what's the % increase`, `giá từ 40 lên 46 là tăng bao nhiêu phần
    // trăm`: (B − A) × 100 ÷ A; `by what percent did it drop` is the fall, A − B.
    if let [(ka, a), (kb, b)] = nums.as_slice()
        && cue_at(ka.wrapping_sub(1)) == Some(Cue::From)
        && cue_at(kb - 1) == Some(Cue::To)
        && pcts.is_empty()
        && (has(Cue::WhatPercent) || has(Cue::PercentWord))
    {
        let fall = (has(Cue::Less) || has(Cue::OffAsked)) && !has(Cue::Change) && !has(Cue::More);
        let (x, y) = if fall { (a, b) } else { (b, a) };
        let change = Expr::bin(MathOp::Subtract, num(x), num(y));
        let e = Expr::percent_of(change, num(a));
        return (!outside()).then_some(e);
    }
    let periods: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::Periods(p) => Some(p.as_str()),
            _ => None,
        })
        .collect();
    // Interest: `100 triệu lãi suất 6%/năm`, one period's is P% of A. (Interest that
    // compounds is the quantity frames' to read: `frames/interest.rs`.)
    if has(Cue::Compound) {
        return None;
    }
    if has(Cue::Interest) {
        let ([(_, a)], [p]) = (nums.as_slice(), pcts.as_slice()) else {
            return None;
        };
        let e = match periods.as_slice() {
            // `kỳ hạn 12 tháng, lãi suất 5,6%/năm`: a term in months at a yearly rate is
            // that many twelfths of a year's interest.
            [n] if let Some((term, rate)) = term_and_rate(toks).filter(|(t, r)| t != r) => {
                let periods = match term {
                    1 => num(n),
                    _ => Expr::bin(MathOp::Multiply, num(n), num(&term.to_string())),
                };
                Expr::bin(
                    MathOp::Divide,
                    Expr::bin(
                        MathOp::Multiply,
                        Expr::bin(MathOp::Percent, num(p), num(a)),
                        periods,
                    ),
                    num(&rate.to_string()),
                )
            }
            [] | ["1"] => Expr::bin(MathOp::Percent, num(p), num(a)),
            [n] => Expr::bin(
                MathOp::Multiply,
                Expr::bin(MathOp::Percent, num(p), num(a)),
                num(n),
            ),
            _ => return None,
        };
        return (!outside()).then_some(e);
    }
    if !periods.is_empty() {
        return None;
    }
    // `45 is what percent of 180`, `what percent of 160 is 36`.
    if has(Cue::WhatPercent) {
        let [(ka, a), (kb, b)] = nums.as_slice() else {
            return None;
        };
        let base_first = cue_at(ka.wrapping_sub(1)) == Some(Cue::Of);
        let (part, whole) = match (base_first, cue_at(kb - 1) == Some(Cue::Of)) {
            (true, false) => (b, a),
            (false, true) => (a, b),
            _ => return None,
        };
        let only = items.iter().all(|i| {
            matches!(i, Item::Num(_)) || matches!(i, Item::Cue(Cue::WhatPercent | Cue::Of))
        });
        let only = only && !decor.iter().any(|w| asks_outside(w));
        return only.then(|| Expr::percent_of(num(part), num(whole)));
    }
    // Each number's role.
    let mut used = vec![false; items.len()];
    let mut count: Option<&str> = None;
    let mut counted_at: Option<usize> = None;
    let mut price: Option<&str> = None;
    // Every price, where they are: several items each priced (`3 bánh mì 25k một cái
    // với 2 ly cà phê 35k một ly`).
    let mut prices: Vec<(usize, &str)> = Vec::new();
    let mut multiple: Option<Expr> = None;
    for &(k, n) in &nums {
        let before = cue_at(k.wrapping_sub(1));
        let after = cue_at(k + 1);
        if let Some(Cue::Times(m)) = after {
            if multiple.is_some() {
                return None;
            }
            multiple = Some(Expr::bin(MathOp::Multiply, num(n), num(m)));
            used[k] = true;
            used[k + 1] = true;
        } else if matches!(after, Some(Cue::People))
            || matches!(before, Some(Cue::Among)) && !matches!(after, Some(Cue::Each))
        {
            if count.replace(n).is_some() {
                return None;
            }
            counted_at = Some(k);
            used[k] = true;
        } else if matches!(before, Some(Cue::At | Cue::EachLead | Cue::PerHead))
            || matches!(after, Some(Cue::Each))
        {
            prices.push((k, n));
            price = Some(n);
            used[k] = true;
        }
    }
    if prices.len() > 1 {
        // (`2 adults at 412.50 each and 2 kids at 309.90 each`: people priced each are a
        // quantity.)
        if let Some(k) = counted_at {
            used[k] = false;
        }
        return several_items(&nums, &prices, &used, &items, &decor);
    }
    let mut amounts: Vec<&str> = nums
        .iter()
        .filter(|(k, _)| !used[*k])
        .map(|&(_, n)| n)
        .collect();
    // `2 kids at 309.90 each`: people priced each are a quantity, not sharers.
    if price.is_some()
        && amounts.is_empty()
        && !has(Cue::Split)
        && !has(Cue::Among)
        && !has(Cue::EachOne)
        && !has(Cue::PerHead)
        && let Some(c) = count.take()
    {
        amounts.push(c);
    }
    // `actually 2 left early, split it 4 ways`: the amount shared is an earlier one
    // ("it"), and the other number counts people who came or went — no amount here.
    let earlier = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "it" | "that" | "this"))
    });
    let counts_people = |n: &str| {
        toks.windows(2).any(|w| {
            matches!(&w[0].tok, Tok::Num(x) if x == n)
                && w[1].word().is_some_and(|v| {
                    matches!(
                        v,
                        "left" | "went" | "joined" | "came" | "more" | "fewer" | "less"
                    )
                })
        })
    };
    if earlier && count.is_some() && has(Cue::Split) && amounts.iter().all(|a| counts_people(a)) {
        return None;
    }
    // `izakaya bill ¥24,600 for 4 ppl`, `hóa đơn 2.760.000, 4 người`, `tiền điện 1tr260, ở
    // 3 người`: a bill for so many people asks each one's share.
    // (Compared without marks, as typed; written with them, never taught as English;
    // folded only when a count of people is said.)
    let billed = || {
        let fold = crate::normalise::fold::fold;
        let folded: Vec<String> = words.iter().map(|w| fold(w)).collect();
        folded
            .iter()
            .any(|w| matches!(w.as_str(), "bill" | "tab" | "check"))
            || folded.windows(2).any(|w| {
                BILLS
                    .iter()
                    .any(|(a, b)| w[0] == fold(a) && w[1] == fold(b))
            })
    };
    let shares = count.is_some()
        && (has(Cue::Split)
            || billed()
            || has(Cue::Each)
            || has(Cue::EachOne)
            || has(Cue::EachLead)
            || has(Cue::Among));
    // Amounts only added up ask nothing of their own: a share, a percentage or a
    // price must follow.
    let total_asked = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "total" | "altogether" | "tổng" | "hết"))
    });
    let plain_sum = multiple.is_none() && price.is_none() && amounts.len() > 1 && !total_asked;
    // The amount everything else applies to.
    // `li xì 6 đứa cháu mỗi đứa 200k`: the people counted times what each gets; `paid
    // 3 guys for 4 days at $260/day each`, `2 thợ làm 15 ngày, mỗi người 400k/ngày`:
    // the people, the days and the rate each earns.
    if has(Cue::PerHead) && multiple.is_none() && pcts.is_empty() {
        let total = match (count, price, amounts.as_slice()) {
            (Some(c), Some(p), []) => Some(Expr::bin(MathOp::Multiply, num(c), num(p))),
            (Some(c), Some(p), &[n]) | (None, Some(p), &[c, n]) => Some(Expr::bin(
                MathOp::Multiply,
                Expr::bin(MathOp::Multiply, num(c), num(n)),
                num(p),
            )),
            _ => None,
        };
        if let Some(total) = total {
            return (!outside()).then_some(total);
        }
    }
    let mut value = match (multiple, price, amounts.as_slice()) {
        // Pairs are priced by the pair (`4 pairs at 3.50 each`), dozens by the item.
        (Some(Expr::Op(_, m)), Some(p), []) if m.get(1) == Some(&num("2")) => {
            Expr::bin(MathOp::Multiply, m[0].clone(), num(p))
        }
        (Some(m), Some(p), []) => Expr::bin(MathOp::Multiply, m, num(p)),
        (Some(m), None, []) => m,
        (None, Some(p), [n]) => Expr::bin(MathOp::Multiply, num(n), num(p)),
        (None, None, [a]) => num(a),
        // `$312 plus $48 fuel`: amounts added up.
        (None, None, [_, _, ..])
            if has(Cue::Plus) && !(has(Cue::Per) || refuses_sum(toks, &amounts, pcts.len())) =>
        {
            Expr::chain(MathOp::Sum, amounts.iter().map(|n| num(n)))?
        }
        // `materials $1,850 plus 6 hrs labour at $95/hr`: the amount nearest before the
        // price is its quantity, the others are added.
        (None, Some(p), [_, _, ..]) if has(Cue::Plus) => {
            let at = items.iter().position(|i| *i == Item::Num(p.to_owned()))?;
            let k = nums
                .iter()
                .filter(|(k, n)| *k < at && amounts.contains(n))
                .map(|(_, n)| *n)
                .next_back()?;
            let priced = Expr::bin(MathOp::Multiply, num(k), num(p));
            let others = Expr::chain(
                MathOp::Sum,
                amounts.iter().filter(|n| **n != k).map(|n| num(n)),
            )?;
            Expr::bin(MathOp::Sum, others, priced)
        }
        // `342 miles on 9 gallons, miles per gallon`; `24 cans for 180,000, price per
        // can`: the number counted in the unit after `per` divides.
        (None, None, [a, b]) if has(Cue::Per) && pcts.is_empty() && count.is_none() => {
            let outside = decor.iter().any(|w| asks_outside(w));
            let (x, y) = match per_unit_count(toks) {
                Some(n) if n == *a => (b, a),
                _ => (a, b),
            };
            return (!outside).then(|| Expr::bin(MathOp::Divide, num(x), num(y)));
        }
        _ => return None,
    };
    let mut cued = matches!(value, Expr::Op(..)) && !plain_sum;
    // `mua 2 ký thì sao, vẫn giảm 10%`: a weight or a length is no price to take a
    // percentage off (an ellipsis of a question before, not read alone).
    if let (Some(Expr::Num(a)), [_]) = (Some(&value), pcts.as_slice())
        && measured(toks, a)
    {
        return None;
    }
    if let [p] = pcts.as_slice() {
        let share = Expr::bin(MathOp::Percent, num(p), value.clone());
        let asked = super::asked::asked(toks);
        value = if asked == Some(Asked::Share) && (has(Cue::Less) || has(Cue::Of)) {
            // `kiwisaver takes 3% of my gross 2,150, how much is that`: the levy itself.
            share
        } else if asked == Some(Asked::Rest) && (has(Cue::Of) || has(Cue::Tax)) {
            // `the kommune pays 75% of it, what do i pay myself`: the rest; `they take
            // 9.4% for insurance n tax, what do i actually get`: a tax taken from pay
            // leaves the rest too.
            Expr::bin(MathOp::Subtract, value, share)
        } else if signed_up(toks) {
            // `weekend shifts pay +35%, base 14.35/h`: a percentage signed `+` raises.
            Expr::bin(MathOp::Sum, value, share)
        } else if has(Cue::OffAsked) {
            // `30% off 450000, how much do I save`: the amount taken off.
            share
        } else if has(Cue::Less) {
            Expr::bin(MathOp::Subtract, value, share)
        } else if has(Cue::More)
            || (has(Cue::Tip) || has(Cue::Tax) || on_top(toks)) && has(Cue::Plus)
        {
            Expr::bin(MathOp::Sum, value, share)
        } else if has(Cue::Tip) || has(Cue::Tax) || has(Cue::Of) {
            share
        } else {
            return None;
        };
        cued = true;
    } else if has(Cue::Tip) || has(Cue::Less) || has(Cue::More) {
        return None;
    }
    match count {
        Some(n) if shares => {
            value = Expr::bin(MathOp::Divide, value, num(n));
            cued = true;
        }
        Some(_) => return None,
        None if has(Cue::Split) => return None,
        None => {}
    }
    // A decorating word that asks something outside the tools (the weather, a price):
    // no reading. Looked at last, as it costs more than the reading.
    (cued && !decor.iter().any(|w| asks_outside(w))).then_some(value)
}

/// Two numbers read as groups or a rate over time: `100 gauze pads packed in bags of 12,
/// how many are left over` is 100 mod 12 (what no whole group takes); `1000 mL over 8
/// hours, rate in mL/hr?` is 1000 ÷ 8 (an amount over a time, per hour).
fn groups_or_rate(toks: &[Token]) -> Option<Expr> {
    let nums = crate::lexer::number_positions(toks);
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
    let per_hour = has(&["per", "hour"])
        || has(&["an", "hour"])
        || has(&["mỗi", "giờ"])
        || (0..toks.len())
            .any(|i| toks[i].is_sym('/') && word(i + 1).is_some_and(|w| unit_of(w) == "h"));
    if b > 0 && word(b - 1) == Some("over") && hours && per_hour {
        return Some(Expr::bin(MathOp::Divide, num(a)?, num(b)?));
    }
    None
}

/// Whether `toks` say `on top` (`with 7% tax on top of 144`): the share is added to
/// the amount, never the answer alone.
fn on_top(toks: &[Token]) -> bool {
    (0..toks.len()).any(|i| words_at(toks, i, &["on", "top"]))
}

/// Several items each priced (`3 bánh mì 25k một cái với 2 ly cà phê 35k một ly`): each
/// price takes the nearest quantity before it, and the total is the sum. Every number
/// must be a quantity or a price, and nothing else may be asked (no percentage, share
/// or multiple): otherwise no reading.
fn several_items(
    nums: &[(usize, &str)],
    prices: &[(usize, &str)],
    used: &[bool],
    items: &[Item],
    decor: &[&str],
) -> Option<Expr> {
    let only_sums = items.iter().all(|i| {
        matches!(
            i,
            // (`2 kids at 309.90 each`: who the items are only names them.)
            Item::Num(_) | Item::Cue(Cue::Each | Cue::EachLead | Cue::At | Cue::Plus | Cue::People)
        )
    });
    if !only_sums || decor.iter().any(|w| asks_outside(w)) {
        return None;
    }
    let mut taken = used.to_vec();
    let mut lines = Vec::with_capacity(prices.len());
    for &(k, p) in prices {
        let &(q, n) = nums.iter().rev().find(|(q, _)| *q < k && !taken[*q])?;
        taken[q] = true;
        lines.push(Expr::bin(
            MathOp::Multiply,
            Expr::Num(n.to_owned()),
            Expr::Num(p.to_owned()),
        ));
    }
    let total = Expr::chain(MathOp::Sum, lines)?;
    nums.iter().all(|(k, _)| taken[*k]).then_some(total)
}
