//! A weight asked in another unit than the request says its weights in: `1 gói 250g,
//! 40 gói là mấy ký` is 10 kg (not 10,000), `1 sao được 380kg, nhà có 25 sao, được bao
//! nhiêu tấn` 9.5, `4 yến muối là bao nhiêu ký` 40.
//!
//! The request is read with the asked unit written as the one its weights are said in,
//! and the answer shifted by the units' difference: a power of ten, exact.

use super::{power, shift};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token};

/// Words asking a quantity, before its unit (`mấy ký`, `bao nhiêu tấn`, `how many kg`).
const ASKING: &[&[&str]] = &[
    &["mấy"],
    &["bao", "nhiêu"],
    &["bn"],
    &["how", "many"],
    &["how", "much"],
];

/// Where `toks` ask a weight unit, and its power of ten grams.
fn asked(toks: &[Token]) -> Option<(usize, i32)> {
    crate::lexer::after_phrases(toks, ASKING)
        .find_map(|at| Some((at, power(toks.get(at)?.word()?)?)))
}

/// `toks` with the weight unit they ask written as the one unit their other weights
/// are said in, and the power of ten the answer is then to be shifted by; `None` unless
/// a weight unit is asked and every other weight is said in one other unit.
pub fn in_said_unit(toks: &[Token]) -> Option<(Vec<Token>, i32)> {
    let (at, wanted) = asked(toks)?;
    let mut said = (0..toks.len())
        .filter(|&k| k != at && toks[k].number().is_some())
        .filter_map(|k| Some((k + 1, power(toks.get(k + 1)?.word()?)?)));
    let (unit_at, unit) = said.next()?;
    if unit == wanted || said.any(|(_, u)| u != unit) {
        return None;
    }
    let mut out = toks.to_vec();
    out[at].tok = toks[unit_at].tok.clone();
    Some((out, unit - wanted))
}

/// `value` (in the unit said) in the unit asked, `places` powers of ten apart.
pub fn shifted(value: Expr, places: i32) -> Option<Expr> {
    // (`4 yến là bao nhiêu ký`: the weight alone, converted, is a step too.)
    let factor = shift("1", places)?;
    Some(Expr::bin(MathOp::Multiply, value, Expr::Num(factor)))
}

/// Whether `toks` are one weight and nothing else to compute (`7,5 tạ là mấy tấn`): the
/// weight alone is the answer, in the unit asked.
pub fn one_weight(toks: &[Token]) -> Option<Expr> {
    let nums: Vec<usize> = crate::lexer::number_positions(toks);
    let [k] = nums.as_slice() else { return None };
    power(toks.get(k + 1)?.word()?)?;
    let Tok::Num(n) = &toks[*k].tok else {
        return None;
    };
    Some(Expr::Num(n.clone()))
}

/// The unit an answer to `question` (normalised) is in: the weight unit it asks, else
/// the one unit its weights are said in.
fn answer_unit(question: &[Token]) -> Option<i32> {
    if let Some((_, unit)) = asked(question) {
        return Some(unit);
    }
    let mut said = (0..question.len())
        .filter(|&k| question[k].number().is_some())
        .filter_map(|k| power(question.get(k + 1)?.word()?));
    let unit = said.next()?;
    said.all(|u| u == unit).then_some(unit)
}

/// `vậy là mấy tấn` after `12 bao mỗi bao 50 ký là bao nhiêu ký` (1000): the last answer
/// `value` in the weight unit `query` asks, as a calculation to read, and the value it
/// goes on from; `None` unless `query` asks a weight unit, says no number, and the last
/// question's answer was a weight in another unit.
pub fn last_in_unit(query: &str, question: &str, value: &str) -> Option<(String, String)> {
    let norm = |s: &str| crate::lexer::lex(&crate::normalise::normalise(s, None).text);
    let toks = norm(query);
    if !crate::lexer::number_positions(&toks).is_empty() {
        return None;
    }
    let (_, wanted) = asked(&toks)?;
    let unit = answer_unit(&norm(question))?;
    value.parse::<f64>().ok()?;
    if unit == wanted {
        return None;
    }
    let factor = shift("1", unit - wanted)?;
    Some((format!("{value} * {factor}"), value.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    #[test]
    fn the_asked_unit_becomes_the_said_one() {
        let (toks, places) = in_said_unit(&lex("1 gói 250g, 40 gói là mấy ký")).unwrap();
        assert_eq!(places, -3);
        assert!(!toks.iter().any(|t| t.word() == Some("ký")), "{toks:?}");
        let (_, places) = in_said_unit(&lex("4 tấn là bao nhiêu kg")).unwrap();
        assert_eq!(places, 3);
        // The same unit, or weights in two units: nothing to do here.
        assert_eq!(
            in_said_unit(&lex("mỗi bao 50 kg, 3 bao là bao nhiêu kg")),
            None
        );
        assert_eq!(in_said_unit(&lex("500 g và 2 kg là bao nhiêu tấn")), None);
        assert_eq!(in_said_unit(&lex("40 gói 250 g")), None);
    }

    #[test]
    fn an_answer_shifts_exactly() {
        let four = Expr::Num("4".into());
        assert_eq!(
            shifted(four.clone(), 1),
            Some(Expr::bin(MathOp::Multiply, four, Expr::Num("10".into())))
        );
        let e = Expr::bin(
            MathOp::Multiply,
            Expr::Num("40".into()),
            Expr::Num("250".into()),
        );
        assert_eq!(
            shifted(e.clone(), -3),
            Some(Expr::bin(MathOp::Multiply, e, Expr::Num("0.001".into())))
        );
    }
}
