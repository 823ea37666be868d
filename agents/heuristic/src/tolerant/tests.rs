//! The tolerant list tests, compiled under #[cfg(test)] only (build.rs, which stops at
//! that mark, learns no word from them).

use super::*;
use crate::expr::MathOp;
use crate::lexer::lex;

fn read(s: &str) -> Option<Expr> {
    list(&lex(s))
}

fn n(s: &str) -> Expr {
    Expr::Num(s.into())
}

#[test]
fn a_cue_and_one_run_of_numbers_make_a_list() {
    assert_eq!(
        read("which one is the greatest 1.5, 2 or 0.25"),
        Some(Expr::bin(
            MathOp::Max,
            Expr::bin(MathOp::Max, n("1.5"), n("2")),
            n("0.25")
        ))
    );
    assert_eq!(
        read("lowest pls: 8 / -3 / 12"),
        Some(Expr::bin(
            MathOp::Min,
            Expr::bin(MathOp::Min, n("8"), n("-3")),
            n("12")
        ))
    );
    assert_eq!(
        read("tìm số bé nhất trong dãy 4; 9; 1"),
        Some(Expr::bin(
            MathOp::Min,
            Expr::bin(MathOp::Min, n("4"), n("9")),
            n("1")
        ))
    );
    assert_eq!(
        read("total it up 2 + 3 + 4"),
        Some(Expr::bin(
            MathOp::Sum,
            Expr::bin(MathOp::Sum, n("2"), n("3")),
            n("4")
        ))
    );
}

#[test]
fn anything_else_leaves_the_part_alone() {
    for q in [
        "largest 4, 9 times 3",
        "biggest 4, 9 and smallest 3, 1",
        "average 4 days, 9 days",
        "sum of 10 / 2 / 5",
        "largest 4 + 9",
        "4, 9 and 3",
        "max 4",
        "largest 4, then 9 and 5",
    ] {
        assert_eq!(read(q), None, "{q}");
    }
}

#[test]
fn what_every_item_counts_and_the_day_it_is_of_only_label_it() {
    let sum = |a: &str, b: &str| Some(Expr::bin(MathOp::Sum, n(a), n(b)));
    assert_eq!(read("5 boxes, 3 boxes, total"), sum("5", "3"));
    assert_eq!(
        read("sold 16 today and 14 yesterday, total?"),
        sum("16", "14")
    );
    assert_eq!(
        read("I cleaned 16 rooms today and 14 yesterday, total"),
        sum("16", "14")
    );
    // A word after one item only, with no day after it, still breaks the run.
    assert_eq!(read("5 boxes and 3, total"), None);
}
