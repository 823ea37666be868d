//! An amount split in a ratio, read over the whole request: `split 200 triệu 60/40
//! between the two families` is 200000000 × 60 ÷ (60 + 40) and 200000000 × 40 ÷ (60 +
//! 40), a part each; `chia 12 triệu theo tỉ lệ 3:2`.

use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

/// Words saying an amount is split.
const SPLIT: &[&str] = &[
    "split", "divide", "divided", "shared", "share", "chia", "ratio", "tỉ", "tỷ",
];

/// The shares `toks` ask, if an amount split in a ratio is what they ask.
pub fn parse(toks: &[Token]) -> Option<Vec<Expr>> {
    if crate::lexer::has_percent_or_date(toks)
        || !toks
            .iter()
            .any(|t| t.word().is_some_and(|w| SPLIT.contains(&w)))
    {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let [x, y, z] = nums.as_slice() else {
        return None;
    };
    // The ratio: two whole numbers joined by `/` or `:`; the amount the third number.
    let ratio = |a: usize, b: usize| {
        b == a + 2
            && toks
                .get(a + 1)
                .is_some_and(|t| t.is_sym('/') || t.is_sym(':'))
            && [a, b].iter().all(|&k| {
                toks[k]
                    .number()
                    .is_some_and(|n| !n.contains('.') && n != "0" && n.len() <= 3)
            })
    };
    let (a, b, amount) = if ratio(*y, *z) {
        (*y, *z, *x)
    } else if ratio(*x, *y) {
        (*x, *y, *z)
    } else {
        return None;
    };
    let num = |k: usize| Expr::Num(toks[k].number().unwrap_or("0").to_owned());
    let whole = Expr::bin(MathOp::Sum, num(a), num(b));
    let share = |k: usize| {
        Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, num(amount), num(k)),
            whole.clone(),
        )
    };
    Some(vec![share(a), share(b)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    #[test]
    fn an_amount_split_in_a_ratio_gives_a_share_each() {
        let n = |s: &str| Expr::Num(s.into());
        let share = |t: &str, k: &str, a: &str, b: &str| {
            Expr::bin(
                MathOp::Divide,
                Expr::bin(MathOp::Multiply, n(t), n(k)),
                Expr::bin(MathOp::Sum, n(a), n(b)),
            )
        };
        assert_eq!(
            parse(&lex("split 200000000 60/40 between the two families")),
            Some(vec![
                share("200000000", "60", "60", "40"),
                share("200000000", "40", "60", "40")
            ])
        );
        assert_eq!(
            parse(&lex("chia 12000000 theo tỉ lệ 3:2")),
            Some(vec![
                share("12000000", "3", "3", "2"),
                share("12000000", "2", "3", "2")
            ])
        );
        // No split said, or no ratio: another question.
        assert_eq!(parse(&lex("200000000 60/40")), None);
        assert_eq!(parse(&lex("split 200 between 4 and 5")), None);
    }
}
