//! The everyday forms of amounts and prices: each number's role (a count of people, a
//! price, a multiple), the amount they make, and its share when people split it.

use super::cues::Cue;
use super::guards::{BILLS, count_then_price, people_among, refuses_sum};
use super::items::{Item, asks_outside};
use super::percents;
use super::read::{Reading, num};
use super::units::per_unit_count;
use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token};

/// Each number's role.
struct Roles<'a> {
    /// The numbers that have a role.
    used: Vec<bool>,
    /// A count of people, and where it is.
    count: Option<&'a str>,
    counted_at: Option<usize>,
    /// The price, and every price with where it is: several items each priced (`3
    /// bánh mì 25k một cái với 2 ly cà phê 35k một ly`).
    price: Option<&'a str>,
    prices: Vec<(usize, &'a str)>,
    /// A number times another (`4 pairs`).
    multiple: Option<Expr>,
}

/// The amount the reading's numbers make, with what is applied to it; `None` when no
/// form fits.
pub(super) fn amount(r: &Reading) -> Option<Expr> {
    let has = |c: Cue| r.has(c);
    let mut roles = roles(r)?;
    if roles.prices.len() > 1 {
        // (`2 adults at 412.50 each and 2 kids at 309.90 each`: people priced each are a
        // quantity.)
        if let Some(k) = roles.counted_at {
            roles.used[k] = false;
        }
        return several_items(&r.nums, &roles.prices, &roles.used, r.items, r.decor);
    }
    let amounts = amounts(r, &mut roles);
    let Roles {
        count,
        price,
        multiple,
        ..
    } = roles;
    // (`mua 2 tấn 9tr8 1 tấn, trả trước 12 triệu, còn nợ bao nhiêu`: part paid, what is
    // owed asked — never every amount added up.)
    if shares_an_earlier_amount(r, count, &amounts) || crate::paid::paid_and_owed(r.toks) {
        return None;
    }
    let shares = count.is_some()
        && (has(Cue::Split)
            || billed(r.words)
            || has(Cue::Each)
            || has(Cue::EachOne)
            || has(Cue::EachLead)
            || has(Cue::Among));
    // Amounts only added up ask nothing of their own: a share, a percentage or a
    // price must follow.
    let total_asked = r.toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "total" | "altogether" | "tổng" | "hết"))
    });
    // (`4 hộp mực 450k`: a count and the price of one, read once for the sum's test and
    // the value below.)
    let counted = count_then_price(r.toks, &amounts);
    let plain_sum = multiple.is_none()
        && price.is_none()
        && amounts.len() > 1
        && !total_asked
        && counted.is_none();
    // (`giá tour 1.500.000đ/người, nhóm 6 người được giảm 10%, mỗi người trả bao
    // nhiêu`: a price of each one counted, what each pays asked — the price with its
    // percentage, never the group's total, nor that total shared again.)
    if let (None, Some(p), Some(_), []) = (&multiple, price, count, amounts.as_slice())
        && has(Cue::Each)
        && has(Cue::EachOne)
        && !has(Cue::Split)
        && !has(Cue::Among)
        && r.pcts.len() == 1
    {
        let (value, _) = percents::applied(r, num(p), true)?;
        return (!r.outside()).then_some(value);
    }
    // (`vé tàu 180k, 6 người`: a ticket's price and the people it is for, nothing
    // else asked — what they all pay.)
    if let (None, None, Some(n), [p]) = (&multiple, price, count, amounts.as_slice())
        && r.pcts.is_empty()
        && n != "1"
        && r.items
            .iter()
            .all(|i| matches!(i, Item::Num(_) | Item::Cue(Cue::People | Cue::Plus)))
        && opens_with_ticket(r.toks)
    {
        return Some(Expr::bin(MathOp::Multiply, num(p), num(n)));
    }
    if multiple.is_none()
        && let Some(total) = per_head(r, count, price, &amounts)
    {
        return (!r.outside()).then_some(total);
    }
    if let (None, None, [a, b]) = (&multiple, price, amounts.as_slice())
        && has(Cue::Per)
        && r.pcts.is_empty()
        && count.is_none()
    {
        return per_unit(r, a, b);
    }
    let value = value(r, multiple, price, &amounts, counted)?;
    let cued = matches!(value, Expr::Op(..)) && !plain_sum;
    let (mut value, mut cued) = percents::applied(r, value, cued)?;
    // (`thuê 4 người làm 6 ngày mỗi ngày 350k hết bao nhiêu`, `hire 4 workers for 6 days
    // at 350k a day, total?`: people hired to work are paid each, so the total is
    // theirs together — never the day's pay shared among them.)
    // (`Phòng đôi 450k một đêm, khách ở 3 đêm 2 phòng, tổng bao nhiêu`: rooms booked are
    // paid each too, never the nights' price shared by them.)
    let rooms = count.is_some_and(|n| counts_rooms(r.toks, n));
    let wages = total_asked
        && (hired(r.words) || rooms)
        && !(has(Cue::Split) || has(Cue::Among) || has(Cue::EachOne));
    match count {
        Some(n) if wages => {
            value = Expr::bin(MathOp::Multiply, value, num(n));
            cued = true;
        }
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
    (cued && !r.decor.iter().any(|w| asks_outside(w))).then_some(value)
}

/// Each number's role, from the cues beside it; `None` when two numbers take one role.
fn roles<'a>(r: &Reading<'a>) -> Option<Roles<'a>> {
    let mut used = vec![false; r.items.len()];
    let mut count: Option<&str> = None;
    let mut counted_at: Option<usize> = None;
    let mut price: Option<&str> = None;
    let mut prices: Vec<(usize, &str)> = Vec::new();
    let mut multiple: Option<Expr> = None;
    for &(k, n) in &r.nums {
        let before = r.cue_at(k.wrapping_sub(1));
        let after = r.cue_at(k + 1);
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
    Some(Roles {
        used,
        count,
        counted_at,
        price,
        prices,
        multiple,
    })
}

/// The numbers with no role: the amounts.
fn amounts<'a>(r: &Reading<'a>, roles: &mut Roles<'a>) -> Vec<&'a str> {
    let has = |c: Cue| r.has(c);
    let mut amounts: Vec<&str> = r
        .nums
        .iter()
        .filter(|(k, _)| !roles.used[*k])
        .map(|&(_, n)| n)
        .collect();
    // `2 kids at 309.90 each`: people priced each are a quantity, not sharers.
    if roles.price.is_some()
        && amounts.is_empty()
        && !has(Cue::Split)
        && !has(Cue::Among)
        && !has(Cue::EachOne)
        && !has(Cue::PerHead)
        && let Some(c) = roles.count.take()
    {
        amounts.push(c);
    }
    amounts
}

/// `actually 2 left early, split it 4 ways`: the amount shared is an earlier one
/// ("it"), and the other number counts people who came or went — no amount here.
fn shares_an_earlier_amount(r: &Reading, count: Option<&str>, amounts: &[&str]) -> bool {
    let toks = r.toks;
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
    earlier && count.is_some() && r.has(Cue::Split) && amounts.iter().all(|a| counts_people(a))
}

/// Whether `words` say people are hired or set to work (`thuê`, `hire`, `làm`, `work`).
fn hired(words: &[&str]) -> bool {
    words.iter().any(|w| {
        matches!(
            *w,
            "thuê" | "làm" | "hire" | "hired" | "hiring" | "work" | "working" | "worked"
        )
    })
}

/// `izakaya bill ¥24,600 for 4 ppl`, `hóa đơn 2.760.000, 4 người`, `tiền điện 1tr260, ở
/// 3 người`: a bill for so many people asks each one's share.
/// (Compared without marks, as typed; written with them, never taught as English;
/// folded only when a count of people is said.)
fn billed(words: &[&str]) -> bool {
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
}

/// The amount everything else applies to.
/// `li xì 6 đứa cháu mỗi đứa 200k`: the people counted times what each gets; `paid
/// 3 guys for 4 days at $260/day each`, `2 thợ làm 15 ngày, mỗi người 400k/ngày`:
/// the people, the days and the rate each earns.
fn per_head(
    r: &Reading,
    count: Option<&str>,
    price: Option<&str>,
    amounts: &[&str],
) -> Option<Expr> {
    if !(r.has(Cue::PerHead) && r.pcts.is_empty()) {
        return None;
    }
    match (count, price, amounts) {
        (Some(c), Some(p), []) => Some(Expr::bin(MathOp::Multiply, num(c), num(p))),
        (Some(c), Some(p), &[n]) | (None, Some(p), &[c, n]) => Some(Expr::bin(
            MathOp::Multiply,
            Expr::bin(MathOp::Multiply, num(c), num(n)),
            num(p),
        )),
        _ => None,
    }
}

/// `342 miles on 9 gallons, miles per gallon`; `24 cans for 180,000, price per
/// can`: the number counted in the unit after `per` divides.
fn per_unit(r: &Reading, a: &str, b: &str) -> Option<Expr> {
    let outside = r.decor.iter().any(|w| asks_outside(w));
    let (x, y) = match per_unit_count(r.toks) {
        Some(n) if n == a => (b, a),
        _ => (a, b),
    };
    (!outside).then(|| Expr::bin(MathOp::Divide, num(x), num(y)))
}

/// The amount the numbers' roles make, before a percentage or a share applies.
fn value(
    r: &Reading,
    multiple: Option<Expr>,
    price: Option<&str>,
    amounts: &[&str],
    counted: Option<(&str, &str)>,
) -> Option<Expr> {
    let has = |c: Cue| r.has(c);
    let value = match (multiple, price, amounts) {
        // Pairs are priced by the pair (`4 pairs at 3.50 each`), dozens by the item.
        (Some(Expr::Op(_, m)), Some(p), []) if m.get(1) == Some(&num("2")) => {
            Expr::bin(MathOp::Multiply, m[0].clone(), num(p))
        }
        (Some(m), Some(p), []) => Expr::bin(MathOp::Multiply, m, num(p)),
        (Some(m), None, []) => m,
        // (`1125, then plus 180 each`: a price said after `plus` is added to each
        // one's share, a bare amount, never multiplied by it; `3 shirts plus 20 each`
        // counts the shirts.)
        (None, Some(p), [n])
            if r.items
                .iter()
                .position(|i| *i == Item::Num(p.to_owned()))
                .is_some_and(|at| at > 0 && r.items[at - 1] == Item::Cue(Cue::Plus))
                && r.toks
                    .iter()
                    .position(|t| t.number() == Some(n))
                    .is_some_and(|k| r.toks.get(k + 1).is_none_or(|t| t.word().is_none())) =>
        {
            Expr::bin(MathOp::Sum, num(n), num(p))
        }
        (None, Some(p), [n]) => Expr::bin(MathOp::Multiply, num(n), num(p)),
        // (`3 nights, 12h each at 46.82/hr`: so many for each one counted, priced.)
        (None, Some(p), [a, b]) if each_of_count(r.toks, b) => Expr::bin(
            MathOp::Multiply,
            Expr::bin(MathOp::Multiply, num(a), num(b)),
            num(p),
        ),
        // (`khách lặn 2 lượt mỗi lượt 950k, 4 khách`: what one guest does, priced, for
        // so many guests.)
        (None, Some(p), [a, b]) if people_said_first(r.toks, amounts) => Expr::bin(
            MathOp::Multiply,
            Expr::bin(MathOp::Multiply, num(a), num(b)),
            num(p),
        ),
        (None, None, [a]) => num(a),
        // (`4 hộp mực 450k tổng bao nhiêu`: a count and the price of one, had been their
        // sum.)
        (None, None, [_, _]) if counted.is_some() => {
            let (n, p) = counted?;
            Expr::bin(MathOp::Multiply, num(n), num(p))
        }
        // `$312 plus $48 fuel`: amounts added up.
        (None, None, [_, _, ..])
            if has(Cue::Plus) && !(has(Cue::Per) || refuses_sum(r.toks, amounts, r.pcts.len())) =>
        {
            Expr::chain(MathOp::Sum, amounts.iter().map(|n| num(n)))?
        }
        // `materials $1,850 plus 6 hrs labour at $95/hr`: the amount nearest before the
        // price is its quantity, the others are added.
        // (Never a count of people added: `khách lặn 2 lượt mỗi lượt 950k, 4 khách, tổng`
        // had been 4 + 2 × 950k.)
        // (`sent home 15k, 18k and 20k NTD this year, all at 805`: the price of all of
        // them, their sum priced.)
        (None, Some(p), [_, _, ..]) if has(Cue::Plus) && priced_all(r.toks, p) => {
            let sum = Expr::chain(MathOp::Sum, amounts.iter().map(|n| num(n)))?;
            Expr::bin(MathOp::Multiply, sum, num(p))
        }
        (None, Some(p), [_, _, ..]) if has(Cue::Plus) && !people_among(r.toks, amounts) => {
            let at = r.items.iter().position(|i| *i == Item::Num(p.to_owned()))?;
            let k = r
                .nums
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
        _ => return None,
    };
    Some(value)
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

/// Whether the number `b` in `toks` is said with its unit and `each` after it (`12h
/// each`, `12 hours each`): so many for each one counted before it.
fn each_of_count(toks: &[Token], b: &str) -> bool {
    toks.windows(3)
        .any(|w| w[0].number() == Some(b) && w[1].word().is_some() && w[2].word() == Some("each"))
}

/// Whether the number `n` in `toks` counts rooms (`2 phòng`, `3 rooms`).
fn counts_rooms(toks: &[Token], n: &str) -> bool {
    toks.windows(2).any(|w| {
        w[0].number() == Some(n) && matches!(w[1].word(), Some("phòng" | "rooms" | "room"))
    })
}

/// Whether one of `amounts` counts people named by a word that also opens the request,
/// before any number (`khách lặn 2 lượt mỗi lượt 950k, 4 khách`): what is priced is
/// what each of them does.
fn people_said_first(toks: &[Token], amounts: &[&str]) -> bool {
    let Some(first) = toks.iter().position(|t| t.number().is_some()) else {
        return false;
    };
    (first..toks.len()).any(|k| {
        toks[k].number().is_some_and(|n| amounts.contains(&n))
            && toks
                .get(k + 1)
                .and_then(Token::word)
                .is_some_and(super::items::counts_guests)
            && toks[..first].iter().any(|t| t.word() == toks[k + 1].word())
    })
}

/// Whether the price `p` in `toks` is said of all the amounts (`all at 805`).
fn priced_all(toks: &[Token], p: &str) -> bool {
    toks.iter()
        .position(|t| t.number() == Some(p))
        .is_some_and(|k| {
            k >= 2 && toks[k - 1].word() == Some("at") && toks[k - 2].word() == Some("all")
        })
}

/// Whether `toks` open with a ticket or a portion, priced for each one, before any
/// number (`vé tàu 180k, 6 người`).
fn opens_with_ticket(toks: &[Token]) -> bool {
    toks.iter().take_while(|t| t.number().is_none()).any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "vé" | "ticket" | "tickets" | "suất"))
    })
}
