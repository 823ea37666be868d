//! An amount said among words, then an operation on it in the next sentence: `nhận 25
//! triệu, chia đôi`, `got 300 from grandma, split it 3 ways`. (Here, in a folder whose
//! words are not learnt by the normaliser: its Vietnamese operators would otherwise
//! weigh on how `cong` typed without marks is read.)

use crate::lexer::{Tok, Token};

/// Words that start an operation on the amount said before.
const OPERATION_FIRST: &[&str] = &[
    "chia", "nhân", "trừ", "cộng", "divide", "split", "halve", "times", "minus", "plus", "double",
    "triple", "gấp",
];

/// Words that make a segment more than an amount said.
const NOT_AN_AMOUNT: &[&str] = &[
    "chia", "nhân", "trừ", "cộng", "x", "times", "plus", "minus", "divide", "divided", "split",
    "of", "của", "each", "mỗi", "per",
];

/// The one amount of `segment` when it says nothing else to compute and `next` starts
/// with an operation (`nhận 25 triệu`, then `chia đôi`).
pub fn amount_before_operation(segment: &[Token], next: &[Token]) -> Option<String> {
    let starts = next
        .first()
        .and_then(Token::word)
        .is_some_and(|w| OPERATION_FIRST.contains(&w));
    let numbers: Vec<&Token> = segment.iter().filter(|t| t.number().is_some()).collect();
    let [n] = numbers.as_slice() else {
        return None;
    };
    let plain = segment.iter().all(|t| match &t.tok {
        Tok::Word(w) => {
            !NOT_AN_AMOUNT.contains(&w.as_str())
                && !crate::tolerant::DATE_WORDS.contains(&w.as_str())
        }
        Tok::Num(_) => true,
        Tok::Sym(c) => matches!(c, ',' | '.' | ':' | '$' | '€' | '£'),
        Tok::Date(_) => false,
    });
    (starts && plain).then(|| n.number().map(str::to_owned))?
}
