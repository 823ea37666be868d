//! A mean weighted by quantities, read over the whole request: `bought 100 shares at
//! 25,000 and 200 at 28,000, what's my average price` is (100 × 25000 + 200 × 28000)
//! ÷ (100 + 200); `mua 500 cp giá 21.5 rồi 300 cp giá 19, giá vốn trung bình bao nhiêu`.
//!
//! Two lots or more, each a quantity and a price joined by `at`, `@`, `giá`; an average
//! asked; nothing else numbered. Likewise what lots come to ([`total`]).

use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

/// Words joining a quantity to its price.
const AT: &[&str] = &["at", "@", "giá", "for"];

/// Words asking an average.
const AVERAGE: &[&[&str]] = &[&["average"], &["avg"], &["mean"], &["trung", "bình"]];

/// The weighted mean `toks` ask, if that is what they ask.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    if crate::lexer::has_percent_or_date(toks) || !crate::lexer::says(toks, AVERAGE) {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    if nums.len() < 4 {
        return None;
    }
    let lots = lots(toks, &nums)?;
    let paid = Expr::chain(
        MathOp::Sum,
        lots.iter()
            .map(|(q, p)| Expr::bin(MathOp::Multiply, q.clone(), p.clone())),
    )?;
    let counted = Expr::chain(MathOp::Sum, lots.iter().map(|(q, _)| q.clone()))?;
    Some(Expr::bin(MathOp::Divide, paid, counted))
}

/// Words asking a grade made of weighted parts.
const GRADE: &[&[&str]] = &[
    &["grade"],
    &["overall"],
    &["weighted"],
    &["final", "mark"],
    &["điểm", "tổng", "kết"],
    &["tổng", "kết"],
    &["điểm", "trung", "bình"],
    &["điểm", "tổng"],
];

/// Scores weighted by percentages that make 100, paired in the order said: `6.5 on the
/// midterm and 8 on the final, the midterm counts 30% and the final 70%` is (6.5 × 30 +
/// 8 × 70) ÷ 100; `giữa kỳ 7,2, cuối kỳ 5,8; giữa kỳ tính 30%, cuối kỳ 70%`.
pub fn weighted_grade(toks: &[Token]) -> Option<Expr> {
    if !crate::lexer::says(toks, GRADE)
        || toks
            .iter()
            .any(|t| matches!(t.tok, crate::lexer::Tok::Date(_)))
    {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    let is_pct = |k: usize| toks.get(k + 1).is_some_and(|t| t.is_sym('%'));
    let (weights, scores): (Vec<usize>, Vec<usize>) = nums.iter().partition(|&&k| is_pct(k));
    if weights.len() < 2 || weights.len() != scores.len() {
        return None;
    }
    let value = |k: usize| toks[k].number().and_then(|n| n.parse::<f64>().ok());
    let total: f64 = weights.iter().map(|&k| value(k)).sum::<Option<f64>>()?;
    if (total - 100.0).abs() > 1e-9 {
        return None;
    }
    let num = |k: usize| Expr::Num(toks[k].number().unwrap_or("0").to_owned());
    let points = Expr::chain(
        MathOp::Sum,
        scores
            .iter()
            .zip(&weights)
            .map(|(&s, &w)| Expr::bin(MathOp::Multiply, num(s), num(w))),
    )?;
    Some(Expr::bin(MathOp::Divide, points, Expr::Num("100".into())))
}

/// Words asking what lots come to.
const TOTAL: &[&[&str]] = &[
    &["total"],
    &["tổng"],
    &["bao", "nhiêu", "tiền"],
    &["how", "much"],
    &["hết", "bao", "nhiêu"],
];

/// What lots at prices come to: `bán được 24 ký cam giá 35k, bao nhiêu tiền` is 24 ×
/// 35000; `37 ký xoài giá 42k với 18 ký cam giá 35k, tổng thu` adds the lots.
pub fn total(toks: &[Token]) -> Option<Expr> {
    // (`mua 1000 cổ phiếu giá 23.500`: what was bought, the cost asked by saying it.)
    let bought = toks
        .first()
        .and_then(Token::word)
        .is_some_and(|w| matches!(w, "mua" | "bought" | "buy" | "nhập"));
    if crate::lexer::has_percent_or_date(toks)
        || !bought && !crate::lexer::says(toks, TOTAL)
        || crate::lexer::says(toks, AVERAGE)
    {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    // (Only `giá` joins a single lot: `3 at 5` alone is the multiplication readers'.)
    let priced = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| crate::normalise::fold::fold(w) == crate::normalise::fold::fold("giá"))
    }) || nums.len() >= 4;
    if !priced {
        return None;
    }
    let lots = lots(toks, &nums)?;
    Expr::chain(
        MathOp::Sum,
        lots.into_iter()
            .map(|(q, p)| Expr::bin(MathOp::Multiply, q, p)),
    )
}

/// The lots `nums` (in `toks`) form: each a quantity, a word or two, a joining word and
/// a price; `None` unless every number is in one.
fn lots(toks: &[Token], nums: &[usize]) -> Option<Vec<(Expr, Expr)>> {
    if nums.is_empty() || nums.len() % 2 == 1 {
        return None;
    }
    // Each lot: a quantity, up to two words (`shares`, `cp`), a joining word, a price.
    let joined = |q: usize, p: usize| {
        let between = &toks[q + 1..p];
        between.len() <= 3
            && between.iter().any(|t| {
                t.is_sym('@')
                    || t.word().is_some_and(|w| {
                        // (`gia` typed without its mark, which no phrase restores.)
                        AT.contains(&w)
                            || crate::normalise::fold::fold(w)
                                == crate::normalise::fold::fold("giá")
                    })
            })
            && between.iter().all(|t| t.word().is_some() || t.is_sym('@'))
    };
    let mut lots = Vec::new();
    for pair in nums.chunks(2) {
        let (q, p) = (pair[0], pair[1]);
        if !joined(q, p) {
            return None;
        }
        let num = |k: usize| Expr::Num(toks[k].number().unwrap_or("0").to_owned());
        lots.push((num(q), num(p)));
    }
    Some(lots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn n(s: &str) -> Expr {
        Expr::Num(s.into())
    }

    #[test]
    fn lots_at_prices_average_by_quantity() {
        let read = |q: &str| parse(&lex(q));
        let mean = |lots: &[(&str, &str)]| {
            let paid = Expr::chain(
                MathOp::Sum,
                lots.iter()
                    .map(|(q, p)| Expr::bin(MathOp::Multiply, n(q), n(p))),
            )
            .unwrap();
            let count = Expr::chain(MathOp::Sum, lots.iter().map(|(q, _)| n(q))).unwrap();
            Some(Expr::bin(MathOp::Divide, paid, count))
        };
        assert_eq!(
            read("bought 100 shares at 25000 and 200 shares at 28000, what's my average price"),
            mean(&[("100", "25000"), ("200", "28000")])
        );
        assert_eq!(
            read("mua 500 cp giá 21.5 rồi 300 cp giá 19, giá vốn trung bình bao nhiêu"),
            mean(&[("500", "21.5"), ("300", "19")])
        );
        let total = |q: &str| super::total(&lex(q));
        assert_eq!(
            total("bán được 24 ký cam giá 35000, bao nhiêu tiền"),
            Some(Expr::bin(MathOp::Multiply, n("24"), n("35000")))
        );
        assert_eq!(
            total(
                "hôm nay bán được 37 ký xoài giá 42000 với 18 ký cam giá 35000, tổng thu bao nhiêu"
            ),
            Some(Expr::bin(
                MathOp::Sum,
                Expr::bin(MathOp::Multiply, n("37"), n("42000")),
                Expr::bin(MathOp::Multiply, n("18"), n("35000"))
            ))
        );
        assert_eq!(total("3 at 5, how much"), None);
        let grade = |q: &str| weighted_grade(&lex(q));
        let weighted = |pairs: &[(&str, &str)]| {
            Some(Expr::bin(
                MathOp::Divide,
                Expr::chain(
                    MathOp::Sum,
                    pairs
                        .iter()
                        .map(|(s, w)| Expr::bin(MathOp::Multiply, n(s), n(w))),
                )
                .unwrap(),
                n("100"),
            ))
        };
        assert_eq!(
            grade(
                "she scored 6.5 on the midterm and 8 on the final. The midterm counts 30% and the final 70%, overall grade?"
            ),
            weighted(&[("6.5", "30"), ("8", "70")])
        );
        assert_eq!(
            grade(
                "Điểm giữa kỳ 7.2, cuối kỳ 5.8; giữa kỳ tính 30%, cuối kỳ 70%. Điểm tổng kết là bao nhiêu?"
            ),
            weighted(&[("7.2", "30"), ("5.8", "70")])
        );
        assert_eq!(grade("grade: 30% of 8 and 60% of 7"), None);
        // A plain average, or lots without prices, are other questions.
        assert_eq!(read("average of 4, 8, 15 and 16"), None);
        assert_eq!(read("100 shares and 200 shares, average"), None);
    }
}
