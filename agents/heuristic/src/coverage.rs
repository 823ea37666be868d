//! How many whole ones are needed, read over the whole request: `1 bag of mortar covers
//! 2.5 m2 of wall, the wall is 45 m2, how many bags` is 45 ÷ 2.5 rounded up; `each bus
//! holds 16, 45 people, how many buses` 45 ÷ 16 rounded up; `the floor is 4.8m x 3.6m
//! and one box covers 1.44 m2, how many boxes` (4.8 × 3.6) ÷ 1.44 rounded up — with
//! the area first when it is asked too (`1) area 2) how many boxes`).
//!
//! Likewise the periods an amount per period takes to reach a total
//! ([`periods_needed`]).
//!
//! One of them is said to hold an amount (a verb of holding after a single one), the
//! total is the one other amount (or two sides multiplied), and a count is asked.

use crate::expr::{Expr, MathOp};
use crate::lexer::{Token, words_at};

/// Verbs saying what one holds: (phrase).
const HOLDS: &[&[&str]] = &[
    &["covers"],
    &["cover"],
    &["holds"],
    &["hold"],
    &["fits"],
    &["seats"],
    &["carries"],
    &["lát", "được"],
    &["phủ", "được"],
    &["sơn", "được"],
    &["chứa", "được"],
    &["chở", "được"],
    &["đựng", "được"],
    &["chứa"],
    &["chở"],
];

/// Words saying "one of them" before the thing that holds.
const ONE: &[&str] = &["1", "one", "each", "a", "every", "per", "mỗi", "một"];

/// Words asking a count.
const COUNT_ASKED: &[&[&str]] = &[
    &["how", "many"],
    &["bao", "nhiêu"],
    &["cần", "mấy"],
    &["mấy"],
    &["bn"],
];

/// What holds so many people (`thuyền 4 người`, `xe 16 chỗ`).
const CONTAINERS: &[&str] = &[
    "thuyền", "xe", "bàn", "phòng", "ghe", "đò", "lều", "boat", "boats", "van", "vans", "car",
    "cars", "table", "tables", "room", "rooms", "bus", "buses",
];

/// Who or what a container holds, said after its size.
const HELD: &[&str] = &["người", "khách", "chỗ", "people", "guests", "pax", "seats"];

/// `toks` with `mỗi` put before the thing a count is asked of, where it opens a clause
/// right before what one holds (`bao 50 ky thi 3 tan la may bao`: each sack holds 50
/// kg); `None` where it does not.
pub fn container_named_first(toks: &[Token]) -> Option<Vec<Token>> {
    let asked =
        crate::lexer::after_phrases(toks, COUNT_ASKED).find_map(|at| toks.get(at)?.word())?;
    let at = (0..toks.len()).find(|&k| {
        let opens = k == 0 || toks[k - 1].is_sym(',') || toks[k - 1].is_sym(';');
        opens
            && toks[k].word() == Some(asked)
            && toks.get(k + 1).is_some_and(|t| t.number().is_some())
            && toks.get(k + 2).and_then(Token::word).is_some()
    })?;
    let mut out = toks.to_vec();
    let each = Token {
        tok: crate::lexer::Tok::Word("mỗi".to_owned()),
        start: toks[at].start,
        end: toks[at].start,
    };
    out.insert(at, each);
    Some(out)
}

/// How many of a size said inside the question a whole fills: `how many 250g bags can
/// mum fill from 18kg of candy` (the weights in one unit by then) is 18000 ÷ 250, full
/// bags only (rounded down) unless what is needed is asked (rounded up); `None` unless
/// exactly the two numbers.
pub fn sized_asked(toks: &[Token]) -> Option<Expr> {
    let each = crate::lexer::after_phrases(toks, COUNT_ASKED).next()?;
    toks.get(each)?.number()?;
    let unit = toks.get(each + 1)?.word()?;
    toks.get(each + 2)?.word()?;
    let nums = crate::lexer::number_positions(toks);
    let [a, b] = nums[..] else { return None };
    let total = if a == each { b } else { a };
    if toks.get(total + 1).and_then(Token::word) != Some(unit) {
        return None;
    }
    let (t, e): (f64, f64) = (
        toks[total].number()?.parse().ok()?,
        toks[each].number()?.parse().ok()?,
    );
    if e <= 0.0 || t < e {
        return None;
    }
    let share = Expr::bin(
        MathOp::Divide,
        Expr::Num(toks[total].number()?.to_owned()),
        Expr::Num(toks[each].number()?.to_owned()),
    );
    let needed = crate::lexer::says(toks, &[&["need"], &["needed"], &["cần"]]);
    Some(match ((t / e).fract() == 0.0, needed) {
        (true, _) => share,
        (false, true) => Expr::round_up(share),
        (false, false) => Expr::round_down(share),
    })
}

/// Words asking the area as well.
const AREA_ASKED: &[&str] = &["area", "diện"];

/// Words joining two sides of an area.
const BY: &[&str] = &["x", "by", "nhân"];

/// The parts `toks` ask: how many are needed (rounded up), after the area when that is
/// asked too.
pub fn parse(toks: &[Token]) -> Option<Vec<Expr>> {
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let verb = (0..toks.len()).find_map(|i| {
        HOLDS
            .iter()
            .find(|p| words_at(toks, i, p))
            .map(|p| (i, i + p.len()))
    });
    let (v, after) = verb?;
    // One of them before the verb, within a few words (`one box of tile covers`).
    let one = (v.saturating_sub(5)..v).find(|&k| {
        toks[k].number() == Some("1") || word(k).is_some_and(|w| ONE[1..].contains(&w))
    })?;
    if !crate::lexer::says(toks, COUNT_ASKED) {
        return None;
    }
    // What one holds: the first number after the verb.
    let per = (after..(after + 2).min(toks.len())).find(|&k| toks[k].number().is_some())?;
    let others: Vec<usize> = crate::lexer::number_positions(toks)
        .into_iter()
        // (`1)`, `2)` only number the questions.)
        .filter(|&k| k != per && k != one && !toks.get(k + 1).is_some_and(|t| t.is_sym(')')))
        .collect();
    let num = |k: usize| toks[k].number().map(|n| Expr::Num(n.to_owned()));
    let (total, sides) = match others.as_slice() {
        [k] => (num(*k)?, false),
        // Two sides (`4.8m x 3.6m`): the area.
        [a, b]
            if (a + 1..*b)
                .any(|k| word(k).is_some_and(|w| BY.contains(&w)) || toks[k].is_sym('*')) =>
        {
            (Expr::bin(MathOp::Multiply, num(*a)?, num(*b)?), true)
        }
        _ => return None,
    };
    if toks.iter().any(|t| t.is_sym('%')) {
        return None;
    }
    let needed = Expr::round_up(Expr::bin(MathOp::Divide, total.clone(), num(per)?));
    let area_asked = sides
        && toks
            .iter()
            .any(|t| t.word().is_some_and(|w| AREA_ASKED.contains(&w)));
    Some(match area_asked {
        true => vec![total, needed],
        false => vec![needed],
    })
}

/// How many groups of a size hold a total, rounded up: `180 guests, tables of 10, how
/// many tables` is ⌈180 ÷ 10⌉; `180 khách, mỗi bàn 10 người, cần bao nhiêu bàn`; `45
/// people, each van takes 7, how many vans`.
pub fn groups(toks: &[Token]) -> Option<Expr> {
    if crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let [a, b] = nums.as_slice() else {
        return None;
    };
    let word = |k: usize| toks.get(k).and_then(Token::word);
    // The group said with its size: `tables of 10`, `mỗi bàn (ngồi) 10`, `each van
    // takes 7`.
    let singular = crate::shares::singular;
    let sized = |k: usize| -> Option<&str> {
        if word(k.checked_sub(1)?) == Some("of") {
            let things = word(k.checked_sub(2)?)?;
            return things.ends_with('s').then(|| singular(things));
        }
        let verb = |i: usize| {
            matches!(
                word(i),
                Some("có" | "ngồi" | "chứa" | "holds" | "seats" | "fits" | "takes" | "is" | "gồm")
            )
        };
        let at = if k >= 2 && verb(k - 1) {
            k - 2
        } else {
            k.checked_sub(1)?
        };
        let each = matches!(
            word(at.checked_sub(1)?),
            Some("mỗi" | "each" | "every" | "per" | "one")
        );
        each.then(|| word(at).map(singular)).flatten()
    };
    // Their count asked (`how many tables`, `cần bao nhiêu bàn`).
    let asked = |thing: &str| {
        (0..toks.len()).any(|i| {
            COUNT_ASKED.iter().any(|p| words_at(toks, i, p))
                && (i + 1..(i + 4).min(toks.len()))
                    .any(|j| word(j).is_some_and(|w| singular(w) == thing))
        })
    };
    // (`đoàn 38 khách, thuyền 4 người, cần mấy thuyền`: a group named before its size,
    // the people it holds after, when their count is what is asked.)
    let holds = |k: usize| -> Option<&str> {
        let group = word(k.checked_sub(1)?)?;
        let people = word(k + 1).is_some_and(|w| HELD.contains(&w));
        (people && CONTAINERS.contains(&group) && asked(group)).then_some(group)
    };
    let (size, total, thing) = match (sized(*a), sized(*b)) {
        (Some(t), None) => (*a, *b, t),
        (None, Some(t)) => (*b, *a, t),
        (None, None) => match (holds(*a), holds(*b)) {
            (Some(t), None) => (*a, *b, t),
            (None, Some(t)) => (*b, *a, t),
            _ => return None,
        },
        _ => return None,
    };
    if !asked(thing) {
        return None;
    }
    let num = |k: usize| toks[k].number().map(|n| Expr::Num(n.to_owned()));
    Some(Expr::round_up(Expr::bin(
        MathOp::Divide,
        num(total)?,
        num(size)?,
    )))
}

/// Periods an amount is saved or paid per, and what asks their count.
const PERIODS: &[(&str, &[&str])] = &[
    ("week", &["weeks", "tuần"]),
    ("month", &["months", "tháng"]),
    ("day", &["days", "ngày"]),
    ("tuần", &["weeks", "tuần"]),
    ("tháng", &["months", "tháng"]),
    ("ngày", &["days", "ngày"]),
];

/// How many periods an amount per period takes to reach a total, rounded up: `phone
/// costs 8 triệu, i save 150k a week, how many weeks` is ⌈8000000 ÷ 150000⌉; `tiết kiệm
/// mỗi tháng 2 triệu, mua xe 45 triệu thì mất mấy tháng`.
pub fn periods_needed(toks: &[Token]) -> Option<Expr> {
    if crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let [a, b] = nums.as_slice() else {
        return None;
    };
    let word = |k: usize| toks.get(k).and_then(Token::word);
    // The amount per period: `150000 a week`, `150000/week`, `mỗi tháng 2000000`.
    let per = |k: usize| -> Option<&'static [&'static str]> {
        let after = matches!(
            word(k + 1),
            Some("a" | "an" | "per" | "every" | "each" | "một" | "mỗi")
        ) || toks.get(k + 1).is_some_and(|t| t.is_sym('/'));
        let named = |i: usize| {
            PERIODS
                .iter()
                .find(|(p, _)| word(i) == Some(p))
                .map(|(_, asked)| *asked)
        };
        let tie = |i: usize| matches!(word(i), Some("a" | "an" | "per" | "every" | "each" | "mỗi"));
        match after {
            true => named(k + 2),
            // (`put 4500 aside each month`: one word between.)
            false if word(k + 1).is_some() && tie(k + 2) => named(k + 3),
            false => k
                .checked_sub(2)
                .filter(|&i| matches!(word(i), Some("mỗi" | "every" | "each")))
                .and_then(|i| named(i + 1))
                // (`mỗi tháng trả 1tr5`: the verb between.)
                .or_else(|| {
                    k.checked_sub(3)
                        .filter(|&i| matches!(word(i), Some("mỗi" | "every" | "each")))
                        .and_then(|i| named(i + 1))
                }),
        }
    };
    let (rate, total, asked) = match (per(*a), per(*b)) {
        (Some(asked), None) => (*a, *b, asked),
        (None, Some(asked)) => (*b, *a, asked),
        _ => return None,
    };
    // `how many weeks`, `mất mấy tháng`, `bao nhiêu tuần`.
    let counted = (0..toks.len()).any(|i| {
        COUNT_ASKED.iter().any(|p| words_at(toks, i, p))
            && (i + 1..(i + 4).min(toks.len())).any(|j| word(j).is_some_and(|w| asked.contains(&w)))
    });
    if !counted {
        return None;
    }
    let num = |k: usize| toks[k].number().map(|n| Expr::Num(n.to_owned()));
    Some(Expr::round_up(Expr::bin(
        MathOp::Divide,
        num(total)?,
        num(rate)?,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn n(s: &str) -> Expr {
        Expr::Num(s.into())
    }

    fn up(a: Expr, b: &str) -> Expr {
        Expr::round_up(Expr::bin(MathOp::Divide, a, n(b)))
    }

    fn area(a: &str, b: &str) -> Expr {
        Expr::bin(MathOp::Multiply, n(a), n(b))
    }

    #[test]
    fn the_count_needed_is_rounded_up() {
        let read = |s: &str| parse(&lex(s));
        assert_eq!(
            read("1 bag of mortar covers 2.5 m2 of wall, the wall is 45 m2. how many bags"),
            Some(vec![up(n("45"), "2.5")])
        );
        assert_eq!(
            read("each bus holds 16 people, we are 45, how many buses do we need"),
            Some(vec![up(n("45"), "16")])
        );
        assert_eq!(
            read("phòng 20 m2, mỗi thùng gạch lát được 1.5 m2, cần mấy thùng"),
            Some(vec![up(n("20"), "1.5")])
        );
        assert_eq!(
            read("the floor is 4.8m x 3.6m and one box covers 1.44 m2, how many boxes"),
            Some(vec![up(area("4.8", "3.6"), "1.44")])
        );
        assert_eq!(
            read(
                "bathroom floor is 4.8m x 3.6m and one box of tile covers 1.44 m2. 1) area 2) how many boxes"
            ),
            Some(vec![area("4.8", "3.6"), up(area("4.8", "3.6"), "1.44")])
        );
    }

    #[test]
    fn groups_of_a_size_to_hold_a_total_are_rounded_up() {
        let read = |s: &str| groups(&lex(s));
        assert_eq!(
            read("180 guests, tables of 10, how many tables"),
            Some(up(n("180"), "10"))
        );
        assert_eq!(
            read("185 khách, mỗi bàn 10 người, cần bao nhiêu bàn"),
            Some(up(n("185"), "10"))
        );
        assert_eq!(
            read("45 people, each van takes 7, how many vans"),
            Some(up(n("45"), "7"))
        );
        // No count of the groups asked: another question.
        assert_eq!(read("180 guests, tables of 10"), None);
    }

    #[test]
    fn periods_to_save_a_total_are_rounded_up() {
        let read = |s: &str| periods_needed(&lex(s));
        assert_eq!(
            read("phone costs 8000000, i save 150000 a week, how many weeks"),
            Some(up(n("8000000"), "150000"))
        );
        assert_eq!(
            read("tiết kiệm mỗi tháng 2000000, mua xe 45000000 thì mất mấy tháng"),
            Some(up(n("45000000"), "2000000"))
        );
        // A rate converted, or no count asked: other questions.
        assert_eq!(read("150000 a week, how much a year"), None);
        assert_eq!(read("save 150000 a week for 8 weeks"), None);
    }

    #[test]
    fn without_one_holding_or_a_count_asked_it_is_another_question() {
        let read = |s: &str| parse(&lex(s));
        assert_eq!(read("the wall is 45 m2, how many bags"), None);
        assert_eq!(read("1 bag covers 2.5 m2 and the wall is 45 m2"), None);
        assert_eq!(
            read("1 bag covers 2.5 m2, walls of 45, 30 and 12 m2, how many bags"),
            None
        );
    }
}
