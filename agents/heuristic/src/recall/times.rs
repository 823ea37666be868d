//! So many of what the last answer priced: `nếu khách lấy 2 đơn như thế thì tổng bao
//! nhiêu`, `what about 3 of those`, `mua 2 cái như vậy`: the last answer times the
//! count. Read as going on from the answer, the count would be added (`tổng`).

use super::Conversation;
use crate::lexer::words_at;

/// Words after a count that point back at what was priced.
const LIKE_THAT: &[&[&str]] = &[
    &["như", "thế"],
    &["như", "vậy"],
    &["y", "vậy"],
    &["like", "that"],
    &["like", "this"],
    &["of", "those"],
    &["of", "these"],
    &["of", "them"],
];

/// `query` as the last answer times its count, when it says one count of what the
/// answer priced.
pub fn so_many_of_that(query: &str, conversation: &Conversation) -> Option<String> {
    let value = conversation
        .answers
        .last()
        .filter(|a| a.parse::<f64>().is_ok())?;
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    if toks.iter().any(|t| t.is_sym('%')) {
        return None;
    }
    let numbers: Vec<usize> = (0..toks.len())
        .filter(|&k| toks[k].number().is_some())
        .collect();
    let [at] = numbers.as_slice() else {
        return None;
    };
    let count = toks[*at].number()?;
    let small = count.parse::<u32>().is_ok_and(|n| (2..=100).contains(&n));
    let pointed =
        (at + 1..(at + 4).min(toks.len())).any(|i| LIKE_THAT.iter().any(|p| words_at(&toks, i, p)));
    (small && pointed).then(|| format!("{value} * {count}"))
}
