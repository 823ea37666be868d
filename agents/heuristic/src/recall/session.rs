//! The conversation a follow-up is read in: the session language of a follow-up that
//! says none, and a weekday or count answer standing for the date its question asked about.

use super::{Conversation, date_span};

/// The conversation's language for a follow-up that says none of its own (`125 x 8`,
/// `con em trai sinh 23/09/2008` after Vietnamese questions): Vietnamese when the
/// last question was and the follow-up has no English-only word; `None` otherwise (and
/// whenever the client gave a language).
pub fn session_language(
    query: &str,
    hint: Option<&str>,
    questions: &[String],
) -> Option<&'static str> {
    if hint.is_some_and(|h| !h.trim().is_empty()) {
        return None;
    }
    let last = questions.last()?;
    if !crate::language::detect(last, None).is_vi() {
        return None;
    }
    // (Vietnamese itself, `chia 12 thang`: kept so, whatever text a follow-up is
    // rewritten into.)
    if crate::language::detect(query, None).is_vi() {
        return Some("vi");
    }
    // (`con noel`, `con em trai sinh 23/09/2008`: as many words read Vietnamese as
    // English, or more.)
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() > 1 && w.chars().all(char::is_alphabetic))
        .collect();
    let (vi, en) = crate::normalise::fold::vi_and_en(&words);
    (vi >= en).then_some("vi")
}

/// Whether an answer is a weekday name (`Thursday`): said of a date, it is no value a
/// follow-up computes with.
pub fn is_weekday(answer: &str) -> bool {
    matches!(
        answer,
        "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday"
    )
}

/// `conversation` with its last answer, when that is a weekday, standing for the date
/// the last question asked about (`ngày 2 tháng 9 năm 2027 là thứ mấy` → Thursday: a
/// follow-up's "ngày đó" is 2027-09-02), and its other weekday answers left out.
pub fn with_question_dates(conversation: &Conversation, questions: &[String]) -> Conversation {
    if !conversation.answers.last().is_some_and(|a| is_weekday(a)) {
        return with_counted_date(conversation, questions);
    }
    // The one date the question asked about; with several, which one the weekday was of
    // cannot be told, and none stands for it.
    let asked = questions.last().and_then(|q| only_date(q));
    let n = conversation.answers.len();
    let answers = conversation
        .answers
        .iter()
        .enumerate()
        .filter_map(|(k, a)| match (k + 1 == n, is_weekday(a)) {
            (true, _) => asked.clone(),
            (false, true) => None,
            (false, false) => Some(a.clone()),
        })
        .collect();
    Conversation {
        session: conversation.session,
        answers,
    }
}

/// The one date `question` asks about, as an ISO date; `None` when it names none or
/// several (which one a later reference means cannot be told).
fn only_date(question: &str) -> Option<String> {
    let q = crate::normalise::normalise(question, None).text;
    let toks = crate::lexer::lex(&q);
    let Some((span, iso)) = date_span(&toks) else {
        // `my final exam is on december 14, how many days left`, `how many days till
        // christmas`: the day and month, or the day's name, as written (its year is the
        // date tool's to find), when it is the only one.
        let spans: Vec<(usize, usize)> = (0..toks.len())
            .filter_map(|i| {
                let end = crate::dates::day_month_end(&toks, i)
                    .or_else(|| crate::dates::named_day_end(&toks, i))?;
                Some((i, end))
            })
            .collect();
        return match spans.as_slice() {
            [(i, next)] => Some(q[toks[*i].start..toks[next - 1].end].to_owned()),
            _ => None,
        };
    };
    let after = toks
        .iter()
        .position(|t| t.start >= span.1)
        .unwrap_or(toks.len());
    match date_span(&toks[after..]) {
        Some(_) => None,
        None => iso,
    }
}

/// `conversation` with the one date of the last question standing just before its
/// answer when that answer is a count (`how many days until my trip on jan 15 2027` →
/// 53): a reference that reads with no number (`what weekday is it`) takes the date.
fn with_counted_date(conversation: &Conversation, questions: &[String]) -> Conversation {
    let counted = conversation
        .answers
        .last()
        .is_some_and(|a| a.parse::<u64>().is_ok());
    let date = questions
        .last()
        .filter(|_| counted)
        .and_then(|q| only_date(q));
    let Some(date) = date else {
        return conversation.clone();
    };
    let mut answers = conversation.answers.clone();
    answers.insert(answers.len() - 1, date);
    Conversation {
        session: conversation.session,
        answers,
    }
}
