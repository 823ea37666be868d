//! Follow-ups on two earlier answers or questions: their sum, product or difference,
//! what is left after a share, the days between two dates asked about.

use super::{Conversation, date_span};
use crate::lexer::{Token, words_at};

/// Words naming earlier answers together: `hai kết quả đó`, `the two results`.
const TWO_ANSWERS: &[&[&str]] = &[
    &["hai", "kết", "quả"],
    &["2", "kết", "quả"],
    &["hai", "số", "đó"],
    &["hai", "số", "trên"],
    &["two", "results"],
    &["two", "answers"],
    &["2", "results"],
    &["2", "answers"],
    &["both", "results"],
    &["both", "answers"],
    &["last", "two"],
    &["both"],
    &["cả", "hai"],
    // (`tong 2 dot` after two lots sold: both lots.)
    &["2", "đợt"],
    &["hai", "đợt"],
    &["2", "lần"],
    &["hai", "lần"],
    &["2", "chuyến"],
    &["hai", "chuyến"],
];

/// Words of a follow-up on two earlier answers that only ask or dress: `cộng hai kết
/// quả đó lại giúp mình`, `add the two results together`.
const TWO_ANSWERS_DRESSING: &[&str] = &[
    "đó", "trên", "lại", "giúp", "mình", "tôi", "với", "nhau", "vào", "cho", "đi", "nhé", "the",
    "together", "up", "of", "please", "pls", "and", "now", "là", "bao", "nhiêu", "bằng", "what",
    "whats", "what's", "is", "my", "last", "those", "these", "hãy", "ok", "thì", "của", "sum",
    "tổng", "total",
];

/// `A − B` when `query` only asks what is left (`còn lại bao nhiêu`, `what's left`,
/// `and the rest?`) after a share of an amount was the last answer: the amount before
/// it (A, the answer before) less the share (B, the last answer). Only when the last
/// question took a percentage (`cọc trước 30% thì bao nhiêu`).
pub fn rest_after_share(
    query: &str,
    questions: &[String],
    conversation: &Conversation,
) -> Option<String> {
    const REST: &[&[&str]] = &[
        &["còn", "lại"],
        &["left"],
        &["rest"],
        &["remaining"],
        &["remainder"],
        &["balance"],
        &["keep"],
    ];
    // (Laid out by hand: the vocabulary is learnt line by line, and `bao`, `sao` are
    // Vietnamese only beside a word with its marks.)
    #[rustfmt::skip]
    const DRESSING: &[&str] = &[
        "what", "whats", "what's", "is", "s", "the", "and", "how", "much", "left", "rest",
        "remaining", "remainder", "balance", "so", "then", "of", "it",
        "còn", "lại", "bao", "nhiêu", "phần", "là", "thì", "sao", "vậy", "số", "tiền",
        // (`còn lại khách phải trả bao nhiêu`, `what's left to pay`: who pays the rest.)
        "khách", "phải", "trả", "cần", "pay", "to", "do", "i", "we", "need", "still", "keep",
    ];
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let asks_rest = (0..toks.len()).any(|i| REST.iter().any(|p| words_at(&toks, i, p)));
    let only = toks.iter().all(|t| {
        t.is_sym('?') || t.is_sym('\'') || t.word().is_some_and(|w| DRESSING.contains(&w))
    });
    let shared = questions.last().is_some_and(|q| q.contains('%'));
    let numeric: Vec<&String> = conversation
        .answers
        .iter()
        .rev()
        .filter(|a| a.parse::<f64>().is_ok())
        .take(2)
        .collect();
    // (`made $120 in tips and i tip out 15%, how much is the tip out`: the amount the
    // last question said itself, before any earlier answer.)
    let said = questions.last().and_then(|q| {
        let q = crate::lexer::lex(&crate::normalise::normalise(q, None).text);
        let amounts: Vec<&str> = (0..q.len())
            .filter(|&k| !q.get(k + 1).is_some_and(|t| t.is_sym('%')))
            .filter_map(|k| q[k].number())
            .collect();
        match amounts.as_slice() {
            [one] => Some((*one).to_owned()),
            _ => None,
        }
    });
    match (asks_rest && only && shared, numeric.as_slice(), said) {
        (true, [share, ..], Some(amount)) => Some(format!("{amount} - {share}")),
        (true, [share, amount], None) => Some(format!("{amount} - {share}")),
        _ => None,
    }
}

/// `query` adding (or multiplying) the conversation's last two numeric answers: `cộng
/// hai kết quả đó lại giúp mình` after 630000 and 720000 → `630000 + 720000`, with the
/// two values; `None` unless every other word only dresses it.
pub fn two_answers(query: &str, conversation: &Conversation) -> Option<String> {
    use crate::normalise::fold::fold;
    if numeric_answers(conversation) < 2 {
        return None;
    }
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    if let Some(found) = difference_of_two(&toks, conversation) {
        return Some(found);
    }
    // Compared folded: `cong hai ket qua do lai` keeps `cong` and `lai` unmarked.
    let folded: Vec<Option<String>> = toks
        .iter()
        .map(|t| match &t.tok {
            crate::lexer::Tok::Num(n) => Some(n.clone()),
            _ => t.word().map(fold),
        })
        .collect();
    let (at, len) = (0..toks.len()).find_map(|i| {
        TWO_ANSWERS
            .iter()
            .find(|w| {
                (0..w.len()).all(|j| {
                    folded
                        .get(i + j)
                        .is_some_and(|f| f.as_deref() == Some(fold(w[j]).as_str()))
                })
            })
            .map(|w| (i, w.len()))
    })?;
    let is_in = |w: &str, list: &[&str]| list.iter().any(|l| fold(l) == w);
    let mut op = None;
    for (k, t) in toks.iter().enumerate() {
        if (at..at + len).contains(&k) || t.is_sym('?') || t.is_sym('.') || t.is_sym(',') {
            continue;
        }
        t.word()?;
        let w = folded[k].as_deref()?;
        let this = match w {
            _ if is_in(w, &["cộng", "add", "plus", "sum", "tổng", "total"]) => "+",
            _ if is_in(w, &["nhân", "multiply", "times", "product", "tích"]) => "*",
            _ if is_in(w, TWO_ANSWERS_DRESSING) => continue,
            _ => return None,
        };
        match op {
            Some(o) if o != this => return None,
            _ => op = Some(this),
        }
    }
    let numbers: Vec<&String> = conversation
        .answers
        .iter()
        .filter(|a| a.parse::<f64>().is_ok())
        .collect();
    let [.., a, b] = numbers.as_slice() else {
        return None;
    };
    let op = match (op?, crate::language::detect(&text, None).is_vi()) {
        ("+", true) => "cộng",
        ("*", true) => "nhân",
        (o, _) => o,
    };
    Some(format!("{a} {op} {b}"))
}

/// Words that ask the difference between the last two answers: `chênh lệch bao
/// nhiêu`, `what's the difference`.
const DIFFERENCE_WORDS: &[&str] = &[
    "chênh",
    "lệch",
    "difference",
    "diff", // (`how much less a month is that`.)
    "less",
    "more",
    "cheaper",
    "dearer",
];

/// Words such a question may be dressed in.
const DIFFERENCE_DRESSING: &[&str] = &[
    "bao", "nhiêu", "là", "thì", "what", "whats", "what's", "the", "is", "between", "them", "both",
    "two", "hai", "kết", "quả", "số", "đó", "and", "ok", "so", "vậy", "còn", "how", "much", "that",
    "a", "per", "month", "week", "year", "day",
];

/// `the larger − the smaller` of the last two numeric answers, when `toks` only ask
/// their difference (`chenh lech bao nhieu` after 840000 and 892500 → `892500 -
/// 840000`).
/// How many of the conversation's answers are numbers.
fn numeric_answers(conversation: &Conversation) -> usize {
    conversation
        .answers
        .iter()
        .filter(|a| a.parse::<f64>().is_ok())
        .count()
}

/// [`difference_of_two`] of `query` as typed: read before the request alone, which
/// takes `that` for the last answer (`how much less a month is that`).
pub fn difference_of_last_two(query: &str, conversation: &Conversation) -> Option<String> {
    // (A cheap look first: no digit said, two numeric answers to compare.)
    if query.bytes().any(|b| b.is_ascii_digit()) || numeric_answers(conversation) < 2 {
        return None;
    }
    let text = crate::normalise::normalise(query, None).text;
    difference_of_two(&crate::lexer::lex(&text), conversation)
}

fn difference_of_two(toks: &[Token], conversation: &Conversation) -> Option<String> {
    use crate::normalise::fold::fold;
    let words: Vec<String> = toks.iter().filter_map(Token::word).map(fold).collect();
    let only_words = toks
        .iter()
        .all(|t| t.word().is_some() || matches!(t.tok, crate::lexer::Tok::Sym('?' | '.' | ',')));
    // Compared folded: typed with or without marks.
    let is_in = |w: &str, list: &[&str]| list.iter().any(|l| fold(l) == w);
    let asks = words.iter().any(|w| is_in(w, DIFFERENCE_WORDS));
    let dressed = words
        .iter()
        .all(|w| is_in(w, DIFFERENCE_WORDS) || is_in(w, DIFFERENCE_DRESSING));
    if !(only_words && asks && dressed) {
        return None;
    }
    let numbers: Vec<&String> = conversation
        .answers
        .iter()
        .filter(|a| a.parse::<f64>().is_ok())
        .collect();
    let [.., a, b] = numbers.as_slice() else {
        return None;
    };
    let (x, y): (f64, f64) = (a.parse().ok()?, b.parse().ok()?);
    let (big, small) = if x >= y { (a, b) } else { (b, a) };
    let text: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let minus = match crate::language::detect(&text.join(" "), None) {
        chorus_bus::Language::Vi => "trừ",
        _ => "-",
    };
    Some(format!("{big} {minus} {small}"))
}

/// `query` asking the days between the dates of the last two questions that gave one
/// (`how many days were there between the two birth dates` after two ages): the days
/// between them, earlier first.
pub fn between_question_dates(query: &str, questions: &[String]) -> Option<String> {
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(w));
    let own = toks.iter().any(|t| {
        matches!(
            t.tok,
            crate::lexer::Tok::Num(_) | crate::lexer::Tok::Date(_)
        )
    });
    let asks_days = words.contains(&"days")
        || words
            .windows(2)
            .any(|w| matches!(w, ["bao", "nhiêu"] | ["mấy", "ngày"]))
            && words.iter().filter(|w| **w == "ngày").count() >= 2;
    let other_unit = has(&["weeks", "months", "years", "tuần", "tháng", "năm"]);
    if own
        || other_unit
        || !asks_days
        || !has(&["between", "apart", "giữa", "cách"])
        || !has(&["two", "both", "hai"])
    {
        return None;
    }
    let mut dates: Vec<String> = Vec::new();
    for q in questions.iter().rev().take(3) {
        let q = crate::normalise::normalise(q, None).text;
        let qtoks = crate::lexer::lex(&q);
        let Some((span, Some(iso))) = date_span(&qtoks) else {
            continue;
        };
        let after = qtoks
            .iter()
            .position(|t| t.start >= span.1)
            .unwrap_or(qtoks.len());
        if date_span(&qtoks[after..]).is_some() || dates.contains(&iso) {
            continue;
        }
        dates.push(iso);
        if dates.len() == 2 {
            break;
        }
    }
    let [a, b] = dates.as_slice() else {
        return None;
    };
    let (first, second) = if a <= b { (a, b) } else { (b, a) };
    Some(format!("days between {first} and {second}"))
}
