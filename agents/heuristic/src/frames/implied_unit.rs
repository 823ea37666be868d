//! A price said bare beside a quantity counted in a unit is that unit's price: `bán 200kg
//! tiêu giá 145k` is 145k a kilo, read as `giá 145k 1 kg` (the form every reader knows).

use crate::lexer::{Tok, Token};
use crate::normalise::fold::fold;

/// Units a quantity sold by weight, volume or piece is counted in (compared folded).
/// (Not `tạ`, `tấn`: a price beside them is a kilo's, the weights' reader's to say.)
const UNITS: &[&str] = &["kg", "ký", "kí", "lít", "lit", "mét", "cái", "chiếc"];

/// Words naming the price right before it (compared folded).
const PRICE: &[&str] = &["giá"];

/// `toks` with `1 UNIT` after a bare price, when the request says exactly two numbers:
/// a quantity counted in a unit and a price named by `giá` with nothing after it saying
/// what it is for; `None` otherwise.
pub fn price_per_counted_unit(toks: &[Token]) -> Option<Vec<Token>> {
    let is = |t: Option<&Token>, list: &[&str]| {
        t.and_then(Token::word)
            .is_some_and(|w| list.iter().any(|x| fold(x) == fold(w)))
    };
    let nums = crate::lexer::number_positions(toks);
    let [a, b] = nums.as_slice() else {
        return None;
    };
    let (quantity, price) = match (is(toks.get(a + 1), UNITS), is(toks.get(b + 1), UNITS)) {
        (true, false) => (*a, *b),
        (false, true) => (*b, *a),
        _ => return None,
    };
    let named = price > 0 && is(toks.get(price - 1), PRICE);
    // (Nothing after the price but the end, a comma or the question.)
    // (Nothing after the price saying what it is for: `giá 45k một tá` is a dozen's.)
    let bare = match toks.get(price + 1) {
        None => true,
        Some(t) if t.is_sym('/') => false,
        Some(t) => t.word().is_none_or(|w| {
            !is(Some(t), UNITS)
                && ![
                    "một", "mỗi", "per", "a", "an", "each", "tá", "chục", "cặp", "đôi",
                ]
                .iter()
                .any(|x| fold(x) == fold(w))
        }),
    };
    if !named || !bare || crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let unit = toks[quantity + 1].clone();
    let at = &toks[price];
    let mut out = toks.to_vec();
    out.splice(
        price + 1..price + 1,
        [
            Token {
                tok: Tok::Num("1".into()),
                start: at.end,
                end: at.end,
            },
            Token {
                start: at.end,
                end: at.end,
                ..unit
            },
        ],
    );
    Some(out)
}
