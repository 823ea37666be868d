//! The everyday forms of a percentage: a change in percent, interest, a part in
//! percent of a whole, and a percentage applied to an amount.

use super::asked::Asked;
use super::cues::Cue;
use super::guards::signed_up;
use super::items::{Item, asks_outside};
use super::read::{Decided, Reading, num};
use super::units::{measured, term_and_rate};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Token, words_at};

/// `from $80 to $92, what's the % increase`, `giá từ 40 lên 46 là tăng bao nhiêu phần
/// trăm`: (B − A) × 100 ÷ A; `by what percent did it drop` is the fall, A − B.
pub(super) fn change(r: &Reading) -> Decided {
    let has = |c: Cue| r.has(c);
    let [(ka, a), (kb, b)] = r.nums.as_slice() else {
        return None;
    };
    let fits = r.cue_at(ka.wrapping_sub(1)) == Some(Cue::From)
        && r.cue_at(kb - 1) == Some(Cue::To)
        && r.pcts.is_empty()
        && (has(Cue::WhatPercent) || has(Cue::PercentWord));
    if !fits {
        return None;
    }
    let fall = (has(Cue::Less) || has(Cue::OffAsked)) && !has(Cue::Change) && !has(Cue::More);
    let (x, y) = if fall { (a, b) } else { (b, a) };
    let change = Expr::bin(MathOp::Subtract, num(x), num(y));
    let e = Expr::percent_of(change, num(a));
    Some((!r.outside()).then_some(e))
}

/// Interest: `100 triệu lãi suất 6%/năm`, one period's is P% of A. (Interest that
/// compounds is the quantity frames' to read: `frames/interest.rs`.)
pub(super) fn interest(r: &Reading) -> Decided {
    if r.has(Cue::Compound) {
        return Some(None);
    }
    if !r.has(Cue::Interest) {
        return None;
    }
    // (`lãi 18% trên giá nhập 2tr1 thì bán giá bao nhiêu`: a markup on a cost, the
    // selling price asked — the cost with it.)
    let price_asked = &[
        &["bán", "giá", "bao"][..],
        &["giá", "bán", "bao"],
        &["giá", "bán", "là", "bao"],
        &["bán", "giá", "là", "bao"],
        &["selling", "price"],
        // (`muốn lời 20% thì bán bao nhiêu 1 ký`.)
        &["bán", "bao"],
    ];
    // (`… bán bao nhiêu 1 ký`: the one unit the price is asked per is no amount.)
    let amounts: Vec<&(usize, &str)> = r.nums.iter().filter(|(_, n)| *n != "1").collect();
    if crate::lexer::says(r.toks, price_asked)
        && !crate::lexer::says(r.toks, &[&["giảm"], &["off"], &["discount"]])
        && let ([(_, a)], [p]) = (amounts.as_slice(), r.pcts.as_slice())
    {
        let markup = Expr::bin(MathOp::Percent, num(p), num(a));
        return Some((!r.outside()).then(|| Expr::bin(MathOp::Sum, num(a), markup)));
    }
    Some(simple_interest(r))
}

/// The interest of one period, or of the periods or term the reading names.
fn simple_interest(r: &Reading) -> Option<Expr> {
    let ([(_, a)], [p]) = (r.nums.as_slice(), r.pcts.as_slice()) else {
        return None;
    };
    let e = match r.periods.as_slice() {
        // `kỳ hạn 12 tháng, lãi suất 5,6%/năm`: a term in months at a yearly rate is
        // that many twelfths of a year's interest.
        [n] if let Some((term, rate)) = term_and_rate(r.toks).filter(|(t, r)| t != r) => {
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
    (!r.outside()).then_some(e)
}

/// Periods with no interest to count them: no reading.
pub(super) fn periods_left(r: &Reading) -> Decided {
    (!r.periods.is_empty()).then_some(None)
}

/// `worked 7.5 hrs on sunday at 150% of $34.20`: a count at a percentage of a rate,
/// N × (P% of R).
pub(super) fn at_share_of(r: &Reading) -> Decided {
    let [(kn, n), (ka, a)] = r.nums.as_slice() else {
        return None;
    };
    let [p] = r.pcts.as_slice() else {
        return None;
    };
    let at_share = ka >= &3
        && r.items[ka - 3..*ka]
            == [
                Item::Cue(Cue::At),
                Item::Pct((*p).to_owned()),
                Item::Cue(Cue::Of),
            ];
    if !at_share {
        return None;
    }
    let rest_cued =
        r.items.iter().enumerate().any(|(k, i)| {
            matches!(i, Item::Cue(c) if !matches!(c, Cue::At | Cue::Of)) && k != kn + 1
        });
    if rest_cued {
        return None;
    }
    let share = Expr::bin(MathOp::Percent, num(p), num(a));
    Some((!r.outside()).then(|| Expr::bin(MathOp::Multiply, num(n), share)))
}

/// `45 is what percent of 180`, `what percent of 160 is 36`.
pub(super) fn what_percent(r: &Reading) -> Decided {
    if !r.has(Cue::WhatPercent) {
        return None;
    }
    let [(ka, a), (kb, b)] = r.nums.as_slice() else {
        return Some(None);
    };
    let base_first = r.cue_at(ka.wrapping_sub(1)) == Some(Cue::Of);
    let (part, whole) = match (base_first, r.cue_at(kb - 1) == Some(Cue::Of)) {
        (true, false) => (b, a),
        (false, true) => (a, b),
        _ => return Some(None),
    };
    let only = r
        .items
        .iter()
        .all(|i| matches!(i, Item::Num(_)) || matches!(i, Item::Cue(Cue::WhatPercent | Cue::Of)));
    let only = only && !r.decor.iter().any(|w| asks_outside(w));
    Some(only.then(|| Expr::percent_of(num(part), num(whole))))
}

/// `value` with the reading's one percentage applied (or none), and whether a cue now
/// says what is asked (`cued`, kept when no percentage applies); `None` when the
/// percentage or a cue that needs one reads no way.
pub(super) fn applied(r: &Reading, mut value: Expr, mut cued: bool) -> Option<(Expr, bool)> {
    let (toks, has) = (r.toks, |c: Cue| r.has(c));
    // `mua 2 ký thì sao, vẫn giảm 10%`: a weight or a length is no price to take a
    // percentage off (an ellipsis of a question before, not read alone).
    if let (Some(Expr::Num(a)), [_]) = (Some(&value), r.pcts.as_slice())
        && measured(toks, a)
    {
        return None;
    }
    if let [p] = r.pcts.as_slice() {
        let share = Expr::bin(MathOp::Percent, num(p), value.clone());
        let asked = super::asked::asked(toks);
        value = if asked == Some(Asked::Share) && (has(Cue::Less) || has(Cue::Of))
            // (`net is 77% of gross, gross 1620, how much net`: the share kept.)
            || super::asked::kept_is_share(toks)
        {
            // `kiwisaver takes 3% of my gross 2,150, how much is that`: the levy itself.
            share
        } else if asked == Some(Asked::Rest) && !has(Cue::More) && !signed_up(toks)
            // (`how much is left after 10% tax on 1850`: a tax, what is left asked.)
            || has(Cue::Tax) && !has(Cue::Plus) && super::asked::asks_left_over(toks)
        {
            // `the kommune pays 75% of it, what do i pay myself`: the rest; `they take
            // 9.4% for insurance n tax, what do i actually get`: a tax taken from pay
            // leaves the rest too.
            Expr::bin(MathOp::Subtract, value, share)
        } else if signed_up(toks) {
            // `weekend shifts pay +35%, base 14.35/h`: a percentage signed `+` raises.
            Expr::bin(MathOp::Sum, value, share)
        } else if has(Cue::OffAsked) || super::asked::discount_named_first(toks) {
            // `30% off 450000, how much do I save`: the amount taken off.
            share
        } else if has(Cue::Less) {
            Expr::bin(MathOp::Subtract, value, share)
        } else if has(Cue::More)
            || (has(Cue::Tip) || has(Cue::Tax) || on_top(toks)) && has(Cue::Plus)
            // (`1320 an hour plus 25%`: one amount raised, as `45 plus 10%` is.)
            || r.nums.len() == 1 && plus_percent(toks)
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
    Some((value, cued))
}

/// Whether `toks` say `on top` (`with 7% tax on top of 144`): the share is added to
/// the amount, never the answer alone.
fn on_top(toks: &[Token]) -> bool {
    (0..toks.len()).any(|i| words_at(toks, i, &["on", "top"]))
}

/// Whether a percentage in `toks` is added in so many words: `plus 25%`, `+ 25%`.
fn plus_percent(toks: &[Token]) -> bool {
    toks.windows(3).any(|w| {
        (w[0].is_sym('+') || w[0].word() == Some("plus"))
            && w[1].number().is_some()
            && w[2].is_sym('%')
    })
}
