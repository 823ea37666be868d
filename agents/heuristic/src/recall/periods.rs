//! So many periods of the last answer, an amount for one of them: `26 ngay thi bao
//! nhieu` after `ngay cheo 3 chuyen moi chuyen 180k`, `and for 26 days?` after `a day i
//! do 3 trips at 180 each` — the answer times 26.

use super::Conversation;

use crate::lexer::Token;

/// Period words, by the period they name.
const PERIODS: &[(&str, &[&str])] = &[
    ("day", &["ngày", "day", "days"]),
    ("week", &["tuần", "week", "weeks"]),
    ("shift", &["ca", "shift", "shifts"]),
];

/// Words that say one period before its word (`1 ngày`, `mỗi ngày`, `a day`, `per day`).
const ONE: &[&str] = &["1", "một", "mỗi", "a", "per", "each", "every"];

/// Words a follow-up asking so many periods may hold besides its count and period.
const DRESSING: &[&str] = &[
    "and", "for", "what", "about", "how", "much", "then", "if", "in", "thì", "bao", "nhiêu", "sao",
    "còn", "vậy", "nếu", "được", "là", "làm", "tổng", "total", "bn",
];

/// `ANSWER * N` (`ANSWER nhân N` in Vietnamese) when `query` asks `N` periods of the
/// kind the last question's amount was for one of, and says nothing else.
pub fn so_many_periods(
    query: &str,
    questions: &[String],
    conversation: &Conversation,
) -> Option<String> {
    let (last, follow, hint) = super::rewrites::last_and_follow(query, questions)?;
    let (ltoks, ftoks) = (crate::lexer::lex(&last), crate::lexer::lex(&follow));
    let numbers: Vec<usize> = crate::lexer::number_positions(&ftoks);
    let [k] = numbers.as_slice() else {
        return None;
    };
    let unit = ftoks.get(k + 1).and_then(Token::word)?;
    let (_, words) = PERIODS.iter().find(|(_, ws)| ws.contains(&unit))?;
    let only = ftoks
        .iter()
        .enumerate()
        .all(|(i, t)| i == *k || i == k + 1 || t.word().is_none_or(|w| DRESSING.contains(&w)));
    // The last question's amount was for one such period: said first (`ngay cheo …`),
    // or after `1`, `mỗi`, `a`, `per` (`a day i do …`, `mỗi ngày chở …`).
    let one = (0..ltoks.len()).any(|i| {
        ltoks[i].word().is_some_and(|w| words.contains(&w))
            && (i == 0
                || ltoks[i - 1]
                    .word()
                    .or(ltoks[i - 1].number())
                    .is_some_and(|w| ONE.contains(&w)))
    });
    let others = ltoks
        .iter()
        .filter(|t| t.word().is_some_and(|w| words.contains(&w)))
        .count();
    let value = conversation
        .answers
        .last()
        .filter(|a| a.parse::<f64>().is_ok())?;
    let n = ftoks[*k].number()?;
    (only && one && others == 1 && n != "1").then(|| match hint.is_vi() {
        true => format!("{value} nhân {n}"),
        false => format!("{value} * {n}"),
    })
}
