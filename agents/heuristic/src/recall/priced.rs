//! A price per unit said after an answer counted in that unit: `xăng 21.450 1 lít thì
//! hết bao nhiêu tiền` after `… hết bao nhiêu lít` (3.3), `petrol is 1.89 a litre, how
//! much will that cost` after the litres a trip takes — that many units at the price.

use super::Conversation;
use crate::everyday::units::unit_of;
use crate::lexer::{self, Token};

/// Units a price may be said per, as `unit_of` names them.
const MEASURES: &[&str] = &[
    "kg", "l", "h", "gal", "m", "m2", "km", "kwh", "tấn", "tạ", "bao", "thùng", "hộp", "bó", "gói",
    "chai", "lon", "cái", "chiếc", "bag", "box", "bottle", "can",
];

/// Words asking what it comes to.
const ASKS: &[&[&str]] = &[
    &["bao", "nhiêu"],
    &["bn"],
    &["how", "much"],
    &["cost"],
    &["total"],
    &["tổng"],
];

/// `query` priced per unit (one price, the unit after `a`, `per`, `một`, `mỗi`, `1` or
/// `/`, nothing else counted) where the last question counted that unit and its answer
/// is a positive number: the request with that answer said in the unit first, and the
/// answer it takes.
pub fn priced_last(
    query: &str,
    questions: &[String],
    conversation: &Conversation,
) -> Option<(String, String)> {
    let value = conversation.answers.last()?;
    value.parse::<f64>().ok().filter(|v| *v > 0.0)?;
    let toks = lexer::lex(query);
    let per = |t: &Token| {
        t.is_sym('/')
            || t.number() == Some("1")
            || t.word()
                .is_some_and(|w| matches!(w, "a" | "an" | "per" | "một" | "mỗi" | "each"))
    };
    let at = (1..toks.len()).find(|&i| {
        per(&toks[i - 1])
            && toks[i]
                .word()
                .is_some_and(|w| MEASURES.contains(&unit_of(w).as_str()))
    })?;
    let word = toks[at].word()?;
    let unit = unit_of(word);
    // One price before the unit, and nothing else counted.
    let counted: Vec<usize> = lexer::number_positions(&toks)
        .into_iter()
        .filter(|&k| k + 1 != at)
        .collect();
    if !matches!(counted.as_slice(), [k] if *k < at)
        || toks.iter().any(|t| t.is_sym('%'))
        || !lexer::says(&toks, ASKS)
    {
        return None;
    }
    // (The question as typed: `hết bao nhiêu lit`.)
    let previous = crate::normalise::normalise(questions.last()?, None).text;
    let previous = lexer::lex(&previous);
    previous
        .iter()
        .filter_map(Token::word)
        .any(|w| unit_of(w) == unit)
        .then(|| (format!("{value} {word}, {query}"), value.clone()))
}
