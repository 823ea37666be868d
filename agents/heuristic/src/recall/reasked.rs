//! A percentage asked of the last request's numbers, with none of its own: `tăng bao
//! nhiêu phần trăm?` after `Doanh thu tháng này 42.500.000đ, tháng trước
//! 36.800.000đ, tăng bao nhiêu?`. The last request up to its last number, then the new
//! question, is a whole request to plan anew.

use crate::lexer::{Tok, Token};

/// Words that ask a percentage of numbers (`bao nhiêu phần trăm`, `what %`): only
/// such a question is asked again of the last request's numbers (a part of one request
/// that asks `how much each` is its parts' own business).
const ASKS: &[&[&str]] = &[
    &["what", "percent"],
    &["phần", "trăm"],
    &["percent"],
    &["percentage"],
];

/// `previous` up to its last number, then `follow` (whose tokens are `toks`), when
/// `follow` asks a question with no number of its own and `previous` holds two
/// numbers or more.
pub(super) fn reasked(previous: &str, toks: &[Token], follow: &str) -> Option<String> {
    let own_number = toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Num(_) | Tok::Date(_)));
    let asks = (0..toks.len()).any(|i| ASKS.iter().any(|p| crate::lexer::words_at(toks, i, p)));
    if own_number || !asks {
        return None;
    }
    let ptoks = crate::lexer::lex(previous);
    let numbers: Vec<&Token> = ptoks.iter().filter(|t| t.number().is_some()).collect();
    let [_, .., last] = numbers.as_slice() else {
        return None;
    };
    // (The words right after the last number say what it is: `36.800.000đ`.)
    let end = ptoks
        .iter()
        .skip_while(|t| t.start < last.end)
        .take_while(|t| t.word().is_some())
        .take(1)
        .last()
        .map_or(last.end, |t| t.end);
    Some(format!("{}, {}", previous[..end].trim_end(), follow.trim()))
}
