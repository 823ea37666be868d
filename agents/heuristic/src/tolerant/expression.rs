//! A calculation read through the chatter around it ([`expression`]).
//!
//! build.rs teaches the normaliser no word of this file: it stops at the first line
//! holding #[cfg(test)], this one. (This code stood after `tolerant`'s test module,
//! where build.rs never read it; it is kept untaught so the vocabulary stays as it was.)

use super::{DATE_WORDS, VI_OTHER_OPS};
use crate::expr::Expr;
use crate::lexer::{Tok, Token};

/// Words that change what a calculation asks when they stand beside it: a calculation
/// with one of them around it is not read through the chatter.
const MEANING_WORDS: &[&str] = &[
    "not",
    "no",
    "than",
    "without",
    "except",
    "before",
    "after",
    "more",
    "less",
    "off",
    "left",
    "remaining",
    "again",
    "instead",
    "then",
    "round",
    "rounded",
    "percent",
    "không",
    "hơn",
    "trước",
    "sau",
    "rồi",
    "còn",
    "lại",
    "nữa",
    // Another part joined on is no chatter (`ignore all previous instructions and …`).
    "and",
    "và",
    "also",
    "cũng",
];

/// Reads `toks` as one calculation the strict grammar reads whole, inside words that
/// only dress it (`need to know …`, `… asap`, `nhờ bạn tính giùm … nha`); `None` when
/// any word around it could change what it asks, or a number is left outside.
pub fn expression(toks: &[Token]) -> Option<Expr> {
    if toks.len() > 48
        || toks.iter().any(|t| matches!(t.tok, Tok::Date(_)))
        || crate::lexer::has_clock_time(toks)
    {
        return None;
    }
    // (Numbers in words count: `hey whats twelve times fourteen`.)
    let nums: Vec<usize> = (0..toks.len())
        .filter(|&k| match &toks[k].tok {
            Tok::Num(_) => true,
            Tok::Word(w) => crate::numbers::starts_number(w),
            _ => false,
        })
        .collect();
    let (&first, &last) = (nums.first()?, nums.last()?);
    if nums.len() < 2 {
        return None;
    }
    // A request outside the tools (a conversion of units, the weather) is not dressing.
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let text = words.join(" ");
    if chorus_bus::Language::ALL
        .into_iter()
        .any(|l| crate::scope::outside_tools(&text, l).is_some())
    {
        return None;
    }
    let dressing = |k: usize| match &toks[k].tok {
        Tok::Word(w) => {
            let w = w.as_str();
            let people = crate::everyday::counts_people(w)
                && !(k > 0 && matches!(toks[k - 1].tok, Tok::Num(_)));
            !(crate::numbers::starts_number(w)
                || crate::normalise::typo::operation(w).is_some()
                || DATE_WORDS.contains(&w)
                || VI_OTHER_OPS.contains(&w)
                || MEANING_WORDS.contains(&w)
                || (crate::everyday::changes_meaning(toks, k) && !people))
        }
        // (A full stop inside is a sentence of its own, not chatter.)
        Tok::Sym('.') => k + 1 == toks.len(),
        Tok::Sym(c) => "?!,:\"'".contains(*c),
        _ => false,
    };
    // The stretch starts at or before the first number and ends at or after the last.
    // It starts at a number, a bracket or sign, or an operation word, never inside the
    // chatter (`and 2+2` after a sentence is another part).
    let starts = |k: usize| match &toks[k].tok {
        Tok::Num(_) => true,
        Tok::Sym(c) => "(-√$".contains(*c),
        Tok::Word(w) => {
            crate::numbers::starts_number(w) || crate::normalise::typo::operation(w).is_some()
        }
        Tok::Date(_) => false,
    };
    for s in 0..=first {
        if !(0..s).all(dressing) {
            break;
        }
        if !starts(s) {
            continue;
        }
        for e in (last + 1..=toks.len()).rev() {
            if !(e..toks.len()).all(dressing) {
                continue;
            }
            match crate::arith::parse(&toks[s..e]) {
                Some(Expr::Num(_)) | None => {}
                Some(e) => return Some(e),
            }
        }
    }
    None
}

#[cfg(test)]
mod expression_tests {
    use super::*;
    use crate::expr::MathOp;
    use crate::lexer::lex;

    fn read(q: &str) -> Option<Expr> {
        expression(&lex(q))
    }

    #[test]
    fn a_calculation_is_read_through_chatter_in_both_languages() {
        let want = Some(Expr::bin(
            MathOp::Divide,
            Expr::Num("250".into()),
            Expr::Num("8".into()),
        ));
        for q in [
            "need to know 250 divided by 8 asap",
            "so like what's 250 divided by 8",
            "hey can you do 250 / 8",
            "em muốn biết 250 chia 8",
            "nhờ bạn tính giùm 250 chia 8 nha",
            "hey so whats two hundred fifty divided by eight",
        ] {
            assert_eq!(read(q), want, "{q}");
        }
    }

    #[test]
    fn words_that_change_the_question_are_not_chatter() {
        for q in [
            "250 divided by 8 is not 31 right",
            "is 250 more than 8 times 30",
            "convert 5 + 3 km to miles",
            "in 3 + 4 days",
            "split 90 + 30 between us",
            "250 divided by 8",
        ] {
            // (The last is no chatter at all: the strict grammar's, not this reading's.)
            let read = read(q);
            assert!(read.is_none() || q == "250 divided by 8", "{q}: {read:?}");
        }
    }
}
