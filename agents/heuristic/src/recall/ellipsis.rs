//! Ellipses: the last question asked again with one part replaced (`and in Lima?`),
//! the readings tried in turn, and the follow-ups about its birth date or in other units.

use super::lists::about_list;
use super::replace::replace_part;
use super::roles::percent_on_amount;
use super::{Conversation, date_span, fraction_at, splice};
use crate::lexer::Token;

/// Words that only open or close an ellipsis: `and in Lima?`, `what about 15%?`, `còn
/// ở Paris thì sao?`, `and if it's 6 people?`, `ok and for 5 people`.
pub(super) const ELLIPSIS_DRESSING: &[&str] = &[
    "and", "what", "how", "about", "if", "it's", "it", "is", "was", "for", "còn", "và", "thì",
    "sao", "nữa", "vậy", "nếu", "là", "then", "instead", "someone", "somebody", "ok", "okay", "so",
    "i", "có", "thế", "mà", "its", "the", "now",
    // (`the chia 5 thi sao`: `the` typed for `thế` may fold to `thể`, as in `không thể
    // chia`.)
    "thể", // `what if he's 18 kg`, `nvm 5 ppl now`, `same but from jan 4`.
    "he", "she", "he's", "she's", "they", "they're", "we", "we're", "s", "nvm", "actually", "wait",
    "oh", "same", "but",  // (`make it 20%`: the percentage the last question had, changed.)
    "make", // (`and over 60 months` after a loan over 48.)
    "over",
];

/// Words a replaced number may stand among without saying anything of their own:
/// `same percent but of 150`, `and for a 95`.
pub(super) const NUMBER_DRESSING: &[&str] = &[
    "the",
    "a",
    "an",
    "same",
    "but",
    "percent",
    "percentage",
    "rate",
    "with",
    "we",
    "were",
    "are",
    "there",
    "vẫn",
    "nhưng",
    "cũng",
    "vẫn",
    "với",
    "chỉ",
    "thôi",
    "mỗi",
    "each",
    "per",
    "bao",
    "nhiêu",
    "much",
    // (`thêm 3 người nữa thì bao nhiêu`)
    "thì",
    // (`what about if i did 2,400`: the amount done, sold or made instead.)
    "did",
    "made",
    "sold",
    "earned",
    "had",
];

/// Phrases keeping the last request's rate (`and 60,000 yen at that rate`): the rate is
/// not the last answer, and the number said replaces another.
const SAME_RATE: &[&[&str]] = &[
    &["at", "that", "rate"],
    &["at", "the", "same", "rate"],
    &["at", "same", "rate"],
    &["với", "tỷ", "giá", "đó"],
    &["tỷ", "giá", "đó"],
    &["tỷ", "giá", "như", "trên"],
];

/// Where `toks` say the last request's rate is kept, and how many tokens say it.
fn same_rate_at(toks: &[Token]) -> Option<(usize, usize)> {
    (0..toks.len()).find_map(|k| {
        SAME_RATE
            .iter()
            .find(|p| crate::lexer::words_at(toks, k, p))
            .map(|p| (k, p.len()))
    })
}

/// Whether `query` keeps the last request's rate (`at that rate`), so that its `that` is
/// no reference to the last answer.
pub fn keeps_rate(query: &str) -> bool {
    let text = crate::normalise::normalise(query, None).text;
    same_rate_at(&crate::lexer::lex(&text)).is_some()
}

/// Readings of `query` as the conversation's last request with one part replaced
/// (latest request first): a place (`and in Lima?`), a number of the same kind (`and
/// 15%?`, `and if it's 6 people?`, `same percent but of 150`; `nếu thêm 1 người nữa`
/// counts one more than before), a date (`and someone born 2000-12-25?`, `and born 1
/// jan 2000?`, `thế còn 30/4?` after a date), a fraction (`còn 45/50` after `42/50`),
/// the year after or before the date asked about (`and the year after?`, `còn năm sau
/// thì sao?`), or one more item of its list (`and if I add a 95?`); or a question about
/// the last list (`whats the highest of those`). Each is a whole request, to plan anew.
pub fn ellipses(query: &str, questions: &[String]) -> Vec<String> {
    if questions.is_empty() {
        return Vec::new();
    }
    // A follow-up is in the conversation's language: `the con 2/9` after a Vietnamese
    // question is `thế còn 2/9`.
    let hint = questions.last().map(|q| crate::language::detect(q, None));
    let follow = crate::normalise::normalise(query, hint.map(chorus_bus::Language::as_str)).text;
    let mut toks = crate::lexer::lex(&follow);
    if let Some((at, len)) = same_rate_at(&toks) {
        toks.drain(at..at + len);
    }
    let core: Vec<Token> = toks
        .iter()
        .filter(|t| {
            !matches!(t.tok, crate::lexer::Tok::Sym('?' | '!' | ',' | '.'))
                && !t.word().is_some_and(|w| ELLIPSIS_DRESSING.contains(&w))
        })
        .cloned()
        .collect();
    // `còn ngày 31/12 thì sao?`: `ngày` only says a date follows.
    let core: Vec<Token> = match core.as_slice() {
        [day, rest @ ..]
            if day
                .word()
                .is_some_and(|w| matches!(w, "ngày" | "hôm" | "date" | "day"))
                && rest.len() == 3
                && fraction_at(rest, 0).is_some() =>
        {
            rest.to_vec()
        }
        _ => core,
    };
    // `now 25% of the same`: the same amount, another percentage.
    let core: Vec<Token> = match core.as_slice() {
        [rest @ .., of, same]
            if of.word() == Some("of") && same.word() == Some("same") && !rest.is_empty() =>
        {
            rest.to_vec()
        }
        _ => core,
    };
    let mut out = Vec::new();
    for previous in questions.iter().rev().take(3) {
        // (In the conversation's language, as the follow-up: `thang` typed without marks
        // is then `tháng` in both.)
        let hint = crate::language::detect(previous, None);
        let previous = crate::normalise::normalise(previous, Some(hint.as_str())).text;
        if let Some(text) = super::headcount::recount_beside_me(&previous, &toks)
            .or_else(|| new_rate(&previous, &toks, &follow))
            .or_else(|| percent_on_amount(&previous, &core, &follow))
            .or_else(|| super::roles::total_with_share(&previous, &core))
            .or_else(|| replace_part(&previous, &core, &follow))
            .or_else(|| super::headcount::recount(&previous, &toks))
            .or_else(|| about_list(&previous, &toks, &follow))
            .or_else(|| about_birth(&previous, &toks, &follow))
            .or_else(|| super::reasked::reasked(&previous, &toks, &follow))
            .or_else(|| another_day(&previous, &core, &follow))
        {
            out.push(text);
        }
    }
    out
}

/// `previous` with its date replaced by the day the follow-up names alone (`and new
/// year's?` after `days until dec 24`): the same question of another day.
fn another_day(previous: &str, core: &[Token], follow: &str) -> Option<String> {
    let (first, last) = (core.first()?, core.last()?);
    if core.iter().any(|t| t.number().is_some()) {
        return None;
    }
    let day = &follow[first.start..last.end];
    let crate::dates::DateParse::Query(_) = crate::dates::parse(core, follow) else {
        return None;
    };
    let ptoks = crate::lexer::lex(previous);
    // (`days until dec 24`: a day and month without their year too.)
    let span = super::date_span(&ptoks).map(|(span, _)| span).or_else(|| {
        (0..ptoks.len()).find_map(|k| {
            let end = crate::dates::day_month_end(&ptoks, k)?;
            Some((ptoks[k].start, ptoks[end - 1].end))
        })
    })?;
    Some(splice(previous, span, day))
}

/// `previous`, a conversion at a stated rate, at the rate the follow-up states instead,
/// when it says no other number (`what about in yen, 1 eur = 163.2` after `1,850 eur in
/// dong at 30,550 per euro`; `còn nếu là EUR, tỷ giá 29.415?`): the amount is kept.
fn new_rate(previous: &str, toks: &[Token], follow: &str) -> Option<String> {
    let (rate, one) = crate::exchange::rate_position(toks)?;
    let others = crate::lexer::number_positions(toks)
        .into_iter()
        .any(|k| k != rate && Some(k) != one);
    let ptoks = crate::lexer::lex(previous);
    if others || crate::exchange::parse(&ptoks).is_none() {
        return None;
    }
    let (prate, _) = crate::exchange::rate_position(&ptoks)?;
    let new = &follow[toks[rate].start..toks[rate].end];
    Some(splice(
        previous,
        (ptoks[prate].start, ptoks[prate].end),
        new,
    ))
}

/// Whether `query` is `and 3/4?` after a question about a date, in English, where the
/// day and the month could each be either: no date can be told, and 3 ÷ 4 would answer
/// another question, so it is not understood.
pub fn day_month_reads_two_ways(query: &str, questions: &[String]) -> bool {
    let Some(previous) = questions.last().filter(|_| query.contains('/')) else {
        return false;
    };
    let previous = crate::normalise::normalise(previous, None).text;
    if crate::language::detect(&previous, None).is_vi()
        || date_span(&crate::lexer::lex(&previous)).is_none()
    {
        return false;
    }
    let text = crate::normalise::normalise(query, None).text;
    let core: Vec<Token> = crate::lexer::lex(&text)
        .into_iter()
        .filter(|t| {
            !matches!(t.tok, crate::lexer::Tok::Sym('?' | '!' | ',' | '.'))
                && !t.word().is_some_and(|w| ELLIPSIS_DRESSING.contains(&w))
        })
        .collect();
    core.len() == 3 && fraction_at(&core, 0).is_some_and(|(d, m)| d <= 12 && m <= 12)
}

/// A follow-up about the birth date the last question gave (`which weekday were they
/// born on?` after `how old is someone born on 2000-12-25`): the follow-up with that
/// date, never today's.
fn about_birth(previous: &str, toks: &[Token], follow: &str) -> Option<String> {
    use crate::lexer::Tok;
    let born = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| matches!(w, "born" | "sinh")));
    let own = toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Num(_) | Tok::Date(_)));
    if !born || own {
        return None;
    }
    let ptoks = crate::lexer::lex(previous);
    let (span, iso) = date_span(&ptoks)?;
    let after = ptoks
        .iter()
        .position(|t| t.start >= span.1)
        .unwrap_or(ptoks.len());
    if date_span(&ptoks[after..]).is_some() {
        return None;
    }
    let text = follow.trim().trim_end_matches(['?', '.', '!']);
    Some(format!("{text} {}", iso?))
}

/// `query` asking the last answer, a count of days, in weeks or hours (`how many weeks
/// is that?` after `how many days until 2027-06-07` → 196 ÷ 7): the arithmetic, with
/// the answer it takes.
pub fn in_other_units(
    query: &str,
    questions: &[String],
    conversation: &Conversation,
) -> Option<(String, String)> {
    // (`and how many weeks is that` after `what weekday is that` after a count of
    // days: the count, past the weekday or the date answered since.)
    // (Dates and weekdays stand among the answers as written: `dec 14`, `Monday`.)
    let dated = |a: &String| a.parse::<f64>().is_err();
    let back = conversation
        .answers
        .iter()
        .rev()
        .take_while(|a| dated(a))
        .count();
    let value = conversation.answers.iter().rev().nth(back)?;
    value.parse::<u64>().ok()?;
    let asked = questions.len().saturating_sub(1 + back.min(1))..questions.len();
    let days = questions[asked].iter().any(|q| {
        crate::lexer::lex(q)
            .iter()
            .any(|t| t.word().is_some_and(|w| matches!(w, "days" | "ngày")))
    });
    let toks = crate::lexer::lex(query);
    let mut unit = None;
    for t in &toks {
        match t.word() {
            Some("weeks" | "tuần") => unit = Some(("/", "7")),
            Some("hours" | "giờ" | "tiếng") => unit = Some(("*", "24")),
            Some(w) if UNITS_ASKED.contains(&w) || ELLIPSIS_DRESSING.contains(&w) => {}
            Some(_) => return None,
            None if matches!(t.tok, crate::lexer::Tok::Sym('?' | '.' | ',')) => {}
            None => return None,
        }
    }
    let (op, by) = unit.filter(|_| days)?;
    Some((format!("{value} {op} {by}"), value.clone()))
}

/// Words asking an answer in other units: `how many weeks is that`, `vậy là mấy tuần`.
const UNITS_ASKED: &[&str] = &[
    "how", "many", "much", "in", "that", "this", "it", "are", "bao", "nhiêu", "mấy", "tức", "đó",
    "vậy", "the", "là",
];
