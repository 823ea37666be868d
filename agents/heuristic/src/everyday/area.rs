//! The area or perimeter of a rectangle said by its two sides: `mảnh đất dài 20m rộng
//! 5m, diện tích bao nhiêu` is 20 × 5, `room is 4m by 3.5m, area?` 4 × 3.5, `chu vi`
//! or `perimeter` 2 × (20 + 5).

use super::read::num;
use crate::expr::{Expr, MathOp};
use crate::lexer::{Token, number_positions, words_at};

/// Units of length a side is said in.
const LENGTHS: &[&str] = &[
    "m", "cm", "mm", "km", "mét", "metre", "metres", "meter", "meters", "ft", "feet", "foot",
];

/// Words naming a side before its length.
const SIDES: &[&str] = &[
    "dài", "rộng", "ngang", "long", "wide", "length", "width", "cao", "high", "height",
];

/// Words asking the area.
const AREA: &[&[&str]] = &[
    &["diện", "tích"],
    &["area"],
    &["m2"],
    &["m²"],
    &["mét", "vuông"],
    &["square", "metres"],
    &["square", "meters"],
    &["square", "feet"],
    &["sq", "ft"],
];

/// Words asking the perimeter.
const PERIMETER: &[&[&str]] = &[&["chu", "vi"], &["perimeter"]];

/// The area (or perimeter) `toks` ask of two sides, when both are said and no other
/// number is (but a label: `ao 1`, `room 2`).
pub(super) fn of_rectangle(toks: &[Token]) -> Option<Expr> {
    let says = |p: &[&[&str]]| (0..toks.len()).any(|i| p.iter().any(|w| words_at(toks, i, w)));
    let (area, perimeter) = (says(AREA), says(PERIMETER));
    if area == perimeter {
        return None;
    }
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let mut sides = Vec::new();
    for k in number_positions(toks) {
        let measured = word(k + 1).is_some_and(|w| LENGTHS.contains(&w))
            || k > 0 && word(k - 1).is_some_and(|w| SIDES.contains(&w));
        let by = word(k + 1) == Some("by") || k > 0 && word(k - 1) == Some("by");
        let label = toks[k].number() == Some("1") && k > 0 && word(k - 1).is_some()
            || word(k + 1).is_some_and(|w| SIDES.contains(&w)) && toks[k].number() == Some("1");
        match (measured || by, label) {
            (true, _) => sides.push(toks[k].number()?),
            (false, true) => {}
            (false, false) => return None,
        }
    }
    let [a, b] = sides.as_slice() else {
        return None;
    };
    let (a, b) = (num(a), num(b));
    Some(match area {
        true => Expr::bin(MathOp::Multiply, a, b),
        false => Expr::bin(MathOp::Multiply, num("2"), Expr::bin(MathOp::Sum, a, b)),
    })
}
