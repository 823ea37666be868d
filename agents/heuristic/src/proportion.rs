//! One amount for so many of a unit, asked for another number of that unit, read over
//! the whole request: `bike uses 2.1 litres per 100km, rode 148km, how many litres` is
//! 2.1 × 148 ÷ 100; `xe chạy 100km hết 2,1 lít, tuần này chạy 620km thì hết bao nhiêu
//! lít` 2.1 × 620 ÷ 100; `36 trang, 1 ngày làm 4 trang thì mất mấy ngày` 1 × 36 ÷ 4.
//!
//! Exactly three numbers, each followed by its unit: two in one unit (the given and the
//! wanted), one in another said beside the given one, and that other unit asked.

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token};

/// Words asking how many or how much.
const ASKED: &[&str] = &["how", "bao", "bn", "mấy", "what", "whats"];

/// Words tying an amount to so many of a unit.
const TIES: &[&str] = &[
    "per", "hết", "làm", "for", "every", "mỗi", "cho", "uses", "does",
];

/// Units spelt several ways: (spelling, unit).
const SAME: &[(&str, &str)] = &[
    ("litres", "l"),
    ("litre", "l"),
    ("liters", "l"),
    ("liter", "l"),
    ("lít", "l"),
    ("kms", "km"),
    ("kilometres", "km"),
    ("kilometers", "km"),
    ("pages", "page"),
    ("days", "day"),
    ("hours", "hour"),
    ("hrs", "hour"),
    ("hr", "hour"),
    ("tiếng", "hour"),
];

/// The unit word right after the number at `k`, in one spelling.
fn unit_after(toks: &[Token], k: usize) -> Option<&str> {
    let w = toks.get(k + 1)?.word()?;
    Some(SAME.iter().find(|(s, _)| *s == w).map_or(w, |(_, u)| u))
}

/// Whether the word at `i` spells `unit`.
fn spells(toks: &[Token], i: usize, unit: &str) -> bool {
    toks.get(i)
        .and_then(Token::word)
        .is_some_and(|w| w == unit || SAME.iter().any(|(s, u)| *s == w && *u == unit))
}

/// The amount `toks` ask, if a proportion is what they ask.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    if crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let [_, _, _] = nums.as_slice() else {
        return None;
    };
    let units: Vec<&str> = nums
        .iter()
        .map(|&k| unit_after(toks, k))
        .collect::<Option<_>>()?;
    // Two numbers in one unit, one in another.
    let (pair, other) = match (
        units[0] == units[1],
        units[1] == units[2],
        units[0] == units[2],
    ) {
        (true, false, false) => ((0, 1), 2),
        (false, true, false) => ((1, 2), 0),
        (false, false, true) => ((0, 2), 1),
        _ => return None,
    };
    let unit = units[other];
    // (`5 plus 1 minus 0`: operations are no units.)
    let operation = |u: &str| {
        crate::normalise::typo::operation(u).is_some()
            || crate::tolerant::VI_OTHER_OPS.contains(&u)
            || matches!(
                u,
                "k" | "đồng" | "dong" | "usd" | "vnd" | "x" | "cộng" | "and" | "và" | "or"
            )
    };
    if units.iter().any(|u| operation(u)) {
        return None;
    }
    // The given one is the one of the pair tied to the other unit's number: only the
    // first one's unit and a tie word between them (`2.1 litres per 100km`, `100km hết
    // 2,1 lít`, `1 ngày làm 4 trang`, `2,2 lit 100km`); the wanted one is the rest.
    let near = |k: usize| {
        let (a, b) = (k.min(nums[other]), k.max(nums[other]));
        match &toks[a + 2..b] {
            [] => true,
            [t] => t.is_sym('/') || t.word().is_some_and(|w| TIES.contains(&w)),
            _ => false,
        }
    };
    let (given, wanted) = match (near(nums[pair.0]), near(nums[pair.1])) {
        (true, false) => (nums[pair.0], nums[pair.1]),
        (false, true) => (nums[pair.1], nums[pair.0]),
        _ => return None,
    };
    // The other unit asked (`how many litres`, `hết bao nhiêu lít`, `mất mấy ngày`).
    let asked = (0..toks.len()).any(|i| {
        toks[i].word().is_some_and(|w| ASKED.contains(&w))
            && (i + 1..(i + 4).min(toks.len())).any(|j| spells(toks, j, unit))
    });
    if !asked || toks[given].tok == Tok::Num("0".into()) {
        return None;
    }
    let num = |k: usize| Expr::Num(toks[k].number().unwrap_or("0").to_owned());
    Some(Expr::bin(
        MathOp::Divide,
        Expr::bin(MathOp::Multiply, num(nums[other]), num(wanted)),
        num(given),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn prop(x: &str, m: &str, n: &str) -> Option<Expr> {
        let num = |s: &str| Expr::Num(s.into());
        Some(Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, num(x), num(m)),
            num(n),
        ))
    }

    #[test]
    fn an_amount_for_so_many_of_a_unit_scales_to_another_number_of_it() {
        let read = |q: &str| parse(&lex(q));
        assert_eq!(
            read(
                "his bike uses about 2.1 litres per 100km and he rode 148km this week. how many litres is that"
            ),
            prop("2.1", "148", "100")
        );
        assert_eq!(
            read("xe chạy 100km hết 2.1 lít, tuần này chạy 620km thì hết bao nhiêu lít xăng"),
            prop("2.1", "620", "100")
        );
        assert_eq!(
            read("bài dịch 36 trang, 1 ngày làm 4 trang thì mất mấy ngày"),
            prop("1", "36", "4")
        );
    }

    #[test]
    fn other_units_or_no_unit_asked_are_other_questions() {
        let read = |q: &str| parse(&lex(q));
        assert_eq!(read("2.1 litres per 100km and 148km"), None);
        assert_eq!(read("what is 5 plus 1 minus 0 minus two"), None);
        assert_eq!(read("3 kg and 5 kg and 2 bags, how many bags"), None);
        assert_eq!(
            read("12 apples and 3 apples and 4 pears, how many pears"),
            None
        );
    }
}
