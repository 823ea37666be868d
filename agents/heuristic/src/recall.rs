//! Follow-ups in a conversation: "now multiply that by 3", "add 10 days to that date",
//! "nhân kết quả đó với 3". A reference to an earlier answer is replaced by one of the
//! conversation's last answers — the first, latest first, with which the request plans —
//! and the plan's steps name the arguments that came from it, so the report can say
//! "18 = 6 (your last answer) × 3".

use crate::lexer::{Token, words_at};

/// What the planner knows of the conversation a request belongs to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conversation {
    /// Whether the request belongs to a session at all.
    pub session: bool,
    /// The output values of the session's last answered turns, oldest first (numbers
    /// as decimal strings, dates as ISO dates): a reference takes the latest that fits.
    pub answers: Vec<String>,
}

impl Conversation {
    /// No conversation: a one-shot request.
    pub fn none() -> Self {
        Self::default()
    }
}

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
    if crate::language::detect_language(last, None) != "vi"
        || crate::language::detect_language(query, None) == "vi"
    {
        return None;
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

/// The last question and `query` in canonical form, the follow-up read in the last
/// question's language (which is returned too).
fn last_and_follow(query: &str, questions: &[String]) -> Option<(String, String, String)> {
    let last = crate::normalise::normalise(questions.last()?, None).text;
    let hint = crate::language::detect_language(&last, None);
    let follow = crate::normalise::normalise(query, Some(&hint)).text;
    Some((last, follow, hint))
}

/// `take AMOUNT, then QUERY` when `query` asks again per the period the amount of a
/// recent question (a rate converted to another period; the last of three) was given
/// in.
pub fn on_rate_amount(query: &str, questions: &[String]) -> Option<String> {
    (questions.len().saturating_sub(3)..questions.len())
        .rev()
        .find_map(|n| {
            let (last, follow, _) = last_and_follow(query, &questions[..=n])?;
            let amount = crate::rates::amount_asked_again(
                &crate::lexer::lex(&last),
                &crate::lexer::lex(&follow),
            )?;
            Some(format!("take {amount}, then {follow}"))
        })
}

/// `query` with `there` (`ở đó`, `bên đó`) put as the place the last question asked the
/// time at (`6pm there is what time in hanoi` after `and in los angeles`).
pub fn place_there(query: &str, questions: &[String]) -> Option<String> {
    let toks = crate::lexer::lex(query);
    let (start, end) = (0..toks.len()).find_map(|i| {
        let there = toks[i].word() == Some("there")
            || words_at(&toks, i, &["ở", "đó"])
            || words_at(&toks, i, &["bên", "đó"]);
        let len = if toks[i].word() == Some("there") {
            1
        } else {
            2
        };
        there.then(|| (toks[i].start, toks[i + len - 1].end))
    })?;
    let last = crate::normalise::normalise(questions.last()?, None).text;
    let place = match crate::places::parse(&crate::lexer::lex(&last), &last)? {
        crate::dates::DateQuery::TimeIn { place } => place,
        crate::dates::DateQuery::ConvertTime { to, .. } => to,
        _ => return None,
    };
    let vietnamese = !toks[toks.iter().position(|t| t.start == start)?]
        .word()?
        .is_ascii();
    let new = if vietnamese {
        format!("ở {place}")
    } else {
        format!("in {place}")
    };
    Some(format!("{}{new}{}", &query[..start], &query[end..]))
}

/// `ANSWER * 12` (or `/ 12`) when `query` asks the last answer, an amount a month, for a
/// year (`vậy 1 năm được bao nhiêu` after `lương tháng 9tr5, trừ 10,5% bảo hiểm còn bao
/// nhiêu`), or an amount a year for a month.
pub fn over_other_period(
    query: &str,
    questions: &[String],
    conversation: &Conversation,
) -> Option<String> {
    let (last, follow, hint) = last_and_follow(query, questions)?;
    let (ltoks, ftoks) = (crate::lexer::lex(&last), crate::lexer::lex(&follow));
    let has = |toks: &[Token], ws: &[&str]| {
        toks.iter()
            .any(|t| t.word().is_some_and(|w| ws.contains(&w)))
    };
    const MONTH: &[&str] = &["tháng", "month", "monthly", "months"];
    const YEAR: &[&str] = &["năm", "year", "yearly", "annual", "years"];
    const ONE: &[&str] = &["1", "một", "a", "one", "cả", "mỗi", "per"];
    let one_period = |ws: &[&str]| {
        (0..ftoks.len()).any(|i| {
            ftoks[i].word().is_some_and(|w| ws.contains(&w))
                && i > 0
                && (ftoks[i - 1].word().is_some_and(|w| ONE.contains(&w))
                    || ftoks[i - 1].number() == Some("1"))
        })
    };
    let other_numbers = ftoks
        .iter()
        .filter(|t| t.number().is_some_and(|n| n != "1"))
        .count();
    let asks = has(&ftoks, &["bao", "nhiêu", "how", "much", "bn", "what"]);
    // (`how many days in a year` asks no amount.)
    let other_units = has(
        &ftoks,
        &[
            "day", "days", "ngày", "week", "weeks", "tuần", "hour", "hours", "giờ", "date", "many",
        ],
    );
    if other_numbers > 0 || !asks || other_units {
        return None;
    }
    let value = conversation
        .answers
        .iter()
        .rev()
        .find(|a| a.parse::<f64>().is_ok())?;
    let vi = hint == "vi";
    if one_period(YEAR) && has(&ltoks, MONTH) && !has(&ltoks, YEAR) {
        return Some(if vi {
            format!("{value} nhân 12")
        } else {
            format!("{value} * 12")
        });
    }
    if one_period(MONTH) && has(&ltoks, YEAR) && !has(&ltoks, MONTH) {
        return Some(if vi {
            format!("{value} chia 12")
        } else {
            format!("{value} / 12")
        });
    }
    None
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

/// Words that only acknowledge before a follow-up: `ok add that to the 160`.
const ACKNOWLEDGEMENTS: &[&str] = &[
    "ok", "okay", "alright", "great", "cool", "thanks", "so", "well", "right", "ừ", "ờ", "vâng",
    "dạ", "được",
];

/// `query` without an acknowledgement before it and a `the` before a number (`ok add
/// that to the 160` → `add that to 160`), when it had one.
pub fn tidied(query: &str) -> Option<String> {
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let mut drop: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    while toks
        .get(k)
        .and_then(Token::word)
        .is_some_and(|w| ACKNOWLEDGEMENTS.contains(&w))
    {
        let end = toks.get(k + 1).map_or(text.len(), |t| t.start);
        drop.push((toks[k].start, end));
        k += 1;
        if toks.get(k).is_some_and(|t| t.is_sym(',')) {
            let end = toks.get(k + 1).map_or(text.len(), |t| t.start);
            drop.push((toks[k].start, end));
            k += 1;
        }
    }
    for j in k..toks.len() {
        let number_next = matches!(
            toks.get(j + 1).map(|t| &t.tok),
            Some(crate::lexer::Tok::Num(_))
        );
        if toks[j].word() == Some("the") && number_next {
            drop.push((toks[j].start, toks[j + 1].start));
        }
    }
    if drop.is_empty() || k >= toks.len() {
        return None;
    }
    let mut out = text.clone();
    for (start, end) in drop.into_iter().rev() {
        out.replace_range(start..end, "");
    }
    Some(out)
}

/// Words that refer to an earlier answer, longest first.
const REFERENCES: &[&[&str]] = &[
    &["your", "last", "answer"],
    &["my", "last", "answer"],
    &["the", "last", "answer"],
    &["the", "previous", "result"],
    &["the", "previous", "answer"],
    &["that", "date"],
    &["that", "day"],
    &["that", "number"],
    &["that", "one"],
    &["that", "result"],
    &["that", "answer"],
    &["this", "result"],
    &["the", "result"],
    &["the", "answer"],
    &["kết", "quả", "đó"],
    &["kết", "quả", "này"],
    &["kết", "quả", "trên"],
    &["kết", "quả", "vừa", "rồi"],
    &["hôm", "đó"],
    &["hôm", "ấy"],
    &["số", "đó"],
    &["số", "này"],
    &["ngày", "đó"],
    &["ngày", "này"],
    &["kết", "quả"],
    &["that"],
    &["it"],
    &["đó"],
    &["nó"],
];

/// Words before `đó` that make it part of a joiner (`sau đó`, "then"), not a reference
/// — unless a duration comes before them: `2 tuần sau đó` is two weeks after that date.
const NOT_BEFORE_DO: &[&str] = &["sau", "khi", "lúc", "từ"];

/// Units of a duration that make `sau đó` / `trước đó` "after / before that date".
const DURATION_UNITS: &[&str] = &["ngày", "tuần", "tháng", "năm", "giờ", "phút", "tiếng"];

/// A reference to an earlier answer in the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The words as written (`that`, `kết quả đó`).
    pub text: String,
    /// Byte span in the request.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
}

impl Reference {
    /// The request with the reference replaced by `value`.
    pub fn replaced_by(&self, src: &str, value: &str) -> String {
        format!("{}{value}{}", &src[..self.start], &src[self.end..])
    }
}

/// The first reference to an earlier answer in `toks` (lexed from `src`), if any.
pub fn find(toks: &[Token], src: &str) -> Option<Reference> {
    (0..toks.len()).find_map(|i| {
        let words = REFERENCES.iter().find(|r| words_at(toks, i, r))?;
        let word_at = |j: Option<usize>| j.and_then(|j| toks[j].word());
        let after_duration = word_at(i.checked_sub(2)).is_some_and(|u| DURATION_UNITS.contains(&u))
            && matches!(word_at(i.checked_sub(1)), Some("sau" | "trước"));
        if words == &["đó"]
            && word_at(i.checked_sub(1)).is_some_and(|w| NOT_BEFORE_DO.contains(&w))
            && !after_duration
        {
            return None;
        }
        let (start, end) = (toks[i].start, toks[i + words.len() - 1].end);
        Some(Reference {
            text: src[start..end].to_owned(),
            start,
            end,
        })
    })
}

/// Words that only open a follow-up: `and`, `then`, `what about`, `còn`, `rồi`.
const FOLLOW_UP_LEADS: &[&str] = &["and", "then", "now", "và", "còn", "rồi", "thế", "vậy"];

/// Readings of `query` as going on from one of the conversation's last numeric answers,
/// latest first: `then halve it` after 42 is read as `take 42, then halve it`, `còn nhân
/// 3 thì sao` after 6 as `take 6, then còn nhân 3 thì sao` (the sequence grammar decides
/// whether it continues). Each with the answer it takes.
pub fn continuations(query: &str, conversation: &Conversation) -> Vec<(String, String)> {
    let toks = crate::lexer::lex(query);
    let opens_with_lead = toks
        .first()
        .and_then(Token::word)
        .is_some_and(|w| FOLLOW_UP_LEADS.contains(&w));
    let numbers = conversation
        .answers
        .iter()
        .rev()
        .filter(|a| a.parse::<f64>().is_ok() && !a.contains(':'))
        .take(3);
    // `nhân thêm 3 nữa` ("times 3 more"): `thêm`, `nữa` only say it goes on; `times
    // 46.20 an hour`: a rate after the number only names its unit.
    let rate_at = |k: usize| {
        let after_number = k
            .checked_sub(1)
            .is_some_and(|p| matches!(toks[p].tok, crate::lexer::Tok::Num(_)));
        after_number
            && toks[k]
                .word()
                .is_some_and(|w| matches!(w, "an" | "a" | "per" | "mỗi" | "một"))
            && toks
                .get(k + 1)
                .and_then(Token::word)
                .is_some_and(|w| RATE_UNITS.contains(&w))
    };
    let mut on: Vec<&Token> = Vec::with_capacity(toks.len());
    let mut k = 0;
    while k < toks.len() {
        if rate_at(k) {
            k += 2;
            continue;
        }
        // `times 8 for the month`: what the result is for, nothing to compute.
        let purpose = toks[k].word() == Some("for")
            && matches!(
                toks.get(k + 1).and_then(Token::word),
                Some("the" | "a" | "each" | "every" | "one")
            )
            && toks
                .get(k + 2)
                .and_then(Token::word)
                .is_some_and(|w| RATE_UNITS.contains(&w) || matches!(w, "trip" | "whole"));
        if purpose {
            k += 3;
            continue;
        }
        // (`còn nếu chia cho 4 thì sao`: `nếu` only introduces it.)
        if !toks[k]
            .word()
            .is_some_and(|w| matches!(w, "thêm" | "nữa" | "tiếp" | "nếu"))
        {
            on.push(&toks[k]);
        }
        k += 1;
    }
    let plain = (on.len() < toks.len() && !on.is_empty()).then(|| {
        let mut text = String::new();
        for t in on {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&query[t.start..t.end]);
        }
        text
    });
    let joiner = if opens_with_lead { ", " } else { ", then " };
    numbers
        .flat_map(|value| {
            let everyday = on_the_answer(&toks, query, value).map(|t| (t, value.clone()));
            let plain = plain
                .as_ref()
                .map(|p| (format!("take {value}{joiner}{p}"), value.clone()));
            everyday
                .into_iter()
                .chain(std::iter::once((
                    format!("take {value}{joiner}{query}"),
                    value.clone(),
                )))
                .chain(plain)
        })
        .collect()
}

/// Units of a rate after a number: `46.20 an hour`, `200000 một ngày`.
const RATE_UNITS: &[&str] = &[
    "hour", "hr", "day", "week", "month", "year", "giờ", "tiếng", "ngày", "tuần", "tháng", "năm",
];

/// Words that lower the last answer by a percentage: `minus 32% tax`, `trừ 10% thuế`.
const LOWER_BY: &[&str] = &[
    "minus", "less", "subtract", "deduct", "off", "after", "trừ", "giảm", "bớt", "khấu",
];
/// Words that raise the last answer by a percentage: `plus 8% VAT`, `cộng thêm 10% phí`.
const RAISE_BY: &[&str] = &["plus", "add", "with", "cộng", "thêm", "tăng"];
/// What a percentage on the last answer may be of: `tax`, `thuế`, `phí`.
const PERCENT_OF: &[&str] = &[
    "tax",
    "taxes",
    "vat",
    "fee",
    "fees",
    "tip",
    "service",
    "charge",
    "commission",
    "interest",
    "thuế",
    "phí",
    "lãi",
    "tiền",
    "hoa",
    "hồng",
    "vat",
];
/// Words that total the last answer over a number of periods: `12 tháng thì tổng bao
/// nhiêu`, `total for 6 months`.
const TOTAL_WORDS: &[&str] = &["tổng", "total", "altogether", "cả"];
/// Periods a total counts: `12 tháng`, `6 months`.
const PERIODS: &[&str] = &[
    "tháng", "năm", "tuần", "ngày", "kỳ", "lần", "months", "years", "weeks", "days", "times",
    "month", "year", "week", "day",
];
/// Words asking the change from an amount paid for the last total: `khách đưa 500000
/// thối lại bao nhiêu`, `I pay with 50, how much change`.
const CHANGE_PHRASES: &[&[&str]] = &[
    &["thối", "lại"],
    &["trả", "lại"],
    &["tiền", "thừa"],
    &["tiền", "thối"],
    &["thối"],
    &["change"],
];
/// Words that share the last answer out.
const SPLIT_WORDS: &[&str] = &["split", "share", "divide", "chia", "spread"];
/// Words that may say how it is shared: `đều` (evenly), `trả góp` (in instalments),
/// `mỗi tháng`, `each`, `ways`, `over`.
const SHARE_WORDS: &[&str] = &[
    "đều",
    "góp",
    "mỗi",
    "each",
    "ways",
    "evenly",
    "equally",
    "into",
    "among",
    "between",
    "payments",
    "instalments",
    "installments",
    "people",
    "person",
    "month",
    "months",
    "người",
    "ngày",
    "tháng",
    "tuần",
    "kỳ",
    "lần",
    "day",
    "days",
    "week",
    "weeks",
    "cho",
];

/// Words a follow-up on the last answer may be asked with: `thì tổng là bao nhiêu`,
/// `how much change do I get`.
const ASKING_WORDS: &[&str] = &[
    "thì", "là", "bao", "nhiêu", "hết", "lại", "được", "sẽ", "trong", "sau", "khách", "đưa", "tôi",
    "mình", "trả", "bằng", "nữa", "và", "rồi", "của", "how", "much", "what", "what's", "whats",
    "is", "my", "the", "i", "if", "pay", "paid", "give", "gave", "with", "customer", "gives",
    "get", "back", "do", "should", "be", "will", "would", "it", "for", "in", "over", "after", "a",
    "an", "and", "then", "now", "of", "on", "top", "that", "by", "so", "to",
];

/// `query` (lexed as `toks`) as an everyday step on the last answer `value`: a
/// percentage taken off or added (`minus 32% tax` → `decrease 2310 by 32%`), a total
/// over periods (`12 tháng thì tổng bao nhiêu` → `600000 * 12`), the change from an
/// amount paid (`khách đưa 500000 thối lại bao nhiêu` → `500000 - 255000`).
fn on_the_answer(toks: &[Token], query: &str, value: &str) -> Option<String> {
    let nums = crate::lexer::number_positions(toks);
    // Compared without marks too: `rồi cong VAT 8%` keeps `cong` unmarked.
    let fold = crate::normalise::fold::fold;
    let is_in = |w: &str, list: &[&str]| list.contains(&w) || list.iter().any(|l| fold(l) == w);
    let has = |list: &[&str]| {
        toks.iter()
            .any(|t| t.word().is_some_and(|w| is_in(w, list)))
    };
    // `split it between me and my sister`: the one asking and one other.
    let me_and = (0..toks.len()).any(|i| {
        words_at(toks, i, &["me", "and"])
            || words_at(toks, i, &["tôi", "và"])
            || words_at(toks, i, &["mình", "và"])
    });
    if nums.is_empty() && me_and && has(SPLIT_WORDS) {
        let known = toks.iter().all(|t| match t.word() {
            Some(w) => {
                ASKING_WORDS.contains(&w)
                    || SPLIT_WORDS.contains(&w)
                    || SHARE_WORDS.contains(&w)
                    || matches!(w, "me" | "ok" | "okay" | "between" | "giữa" | "với")
                    || crate::dates::KIN.contains(&w)
            }
            None => !matches!(t.tok, crate::lexer::Tok::Num(_)),
        });
        return known.then(|| format!("{value} / 2"));
    }
    let [k] = nums.as_slice() else {
        return None;
    };
    let k = *k;
    let n = &query[toks[k].start..toks[k].end];
    let words = |skip: &[usize], also: &[&str]| {
        toks.iter().enumerate().all(|(j, t)| match t.word() {
            Some(w) => skip.contains(&j) || is_in(w, ASKING_WORDS) || is_in(w, also),
            None => j == k || t.is_sym('%') || t.is_sym('?') || t.is_sym(','),
        })
    };
    // A percentage.
    if toks.get(k + 1).is_some_and(|t| t.is_sym('%')) {
        let lower = has(LOWER_BY);
        let raise = has(RAISE_BY);
        let ok = words(&[], &[LOWER_BY, RAISE_BY, PERCENT_OF].concat());
        return match (lower, raise) {
            (true, false) if ok => Some(format!("decrease {value} by {n}%")),
            (false, true) if ok => Some(format!("increase {value} by {n}%")),
            _ => None,
        };
    }
    // The last answer shared out: `chia đều cho 5 ngày thì mỗi ngày bao nhiêu`, `chia
    // trả góp 4 tháng`, `split that over 3 payments`.
    if has(SPLIT_WORDS) && words(&[k + 1], &[SPLIT_WORDS, SHARE_WORDS].concat()) {
        return Some(format!("{value} / {n}"));
    }
    // A total over periods.
    let period = toks
        .get(k + 1)
        .and_then(Token::word)
        .is_some_and(|w| PERIODS.contains(&w));
    if period && has(TOTAL_WORDS) && words(&[k + 1], TOTAL_WORDS) {
        return Some(format!("{value} * {n}"));
    }
    // The change from an amount paid.
    let change = (0..toks.len()).find_map(|i| {
        CHANGE_PHRASES
            .iter()
            .find(|p| words_at(toks, i, p))
            .map(|p| (i..i + p.len()).collect::<Vec<_>>())
    })?;
    words(&change, &[]).then(|| format!("{n} - {value}"))
}

/// Words that only open or close an ellipsis: `and in Lima?`, `what about 15%?`, `còn
/// ở Paris thì sao?`, `and if it's 6 people?`, `ok and for 5 people`.
const ELLIPSIS_DRESSING: &[&str] = &[
    "and", "what", "how", "about", "if", "it's", "it", "is", "was", "for", "còn", "và", "thì",
    "sao", "nữa", "vậy", "nếu", "là", "then", "instead", "someone", "somebody", "ok", "okay", "so",
    "i", "có", "thế", "mà", "its", "the", "now",
    // (`the chia 5 thi sao`: `the` typed for `thế` may fold to `thể`, as in `không thể
    // chia`.)
    "thể", // `what if he's 18 kg`, `nvm 5 ppl now`, `same but from jan 4`.
    "he", "she", "he's", "she's", "they", "they're", "we", "we're", "s", "nvm", "actually", "wait",
    "oh", "same", "but",
];

/// Words a replaced number may stand among without saying anything of their own:
/// `same percent but of 150`, `and for a 95`.
const NUMBER_DRESSING: &[&str] = &[
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
];

/// Words that say a price moved to a new one, beside a price word (`nếu giá tăng lên
/// 25.500`, `if the price goes up to 2.10`): the new price, no change applied.
const PRICE_MOVES: &[&str] = &[
    "tăng", "lên", "giảm", "xuống", "goes", "went", "up", "down", "to", "rises", "drops",
];

/// Whether all of `core` is one phrase that `end_at` reads from its start (a time, a
/// named day, a weekday).
fn phrase_is_whole(core: &[Token], end_at: impl Fn(&[Token], usize) -> Option<usize>) -> bool {
    end_at(core, 0) == Some(core.len())
}

/// `previous` with its first phrase that `end_at` reads replaced by all of `core` (as
/// `follow` writes it); `None` when `previous` has no such phrase.
fn replace_phrase(
    previous: &str,
    ptoks: &[Token],
    core: &[Token],
    follow: &str,
    end_at: impl Fn(&[Token], usize) -> Option<usize>,
) -> Option<String> {
    let (at, pend) = (0..ptoks.len()).find_map(|k| end_at(ptoks, k).map(|e| (k, e)))?;
    let span = (ptoks[at].start, ptoks[pend - 1].end);
    let (first, last) = (core.first()?, core.last()?);
    Some(splice(previous, span, &follow[first.start..last.end]))
}

/// The words of `toks`.
fn pwords_of(toks: &[Token]) -> Vec<&str> {
    toks.iter().filter_map(Token::word).collect()
}

/// Whether the number at `i` of `core` has a unit word after it that follows exactly
/// one number of `ptoks` (`18 m2` after `9.5 m2`).
fn same_unit_counted(ptoks: &[Token], core: &[Token], i: usize) -> bool {
    let Some(unit) = core.get(i + 1).and_then(Token::word) else {
        return false;
    };
    ptoks
        .windows(2)
        .filter(|w| matches!(w[0].tok, crate::lexer::Tok::Num(_)) && w[1].word() == Some(unit))
        .count()
        == 1
}

/// Words naming a price, before it: the number a new price replaces.
const PRICE_WORDS: &[&str] = &["giá", "price", "costs", "cost"];

/// Whether `word` names a price, typed with or without marks (`gia tăng lên` keeps
/// `gia`, as `gia tăng` is a word of its own).
fn price_word(word: &str) -> bool {
    PRICE_WORDS.contains(&word) || crate::normalise::fold::fold(word) == "gia"
}

/// Words that make a replaced count relative to the one before: `nếu thêm 1 người
/// nữa` is one person more than before, `2 fewer people` two fewer.
const MORE_WORDS: &[&str] = &["more", "another", "extra", "additional", "thêm"];
/// See [`MORE_WORDS`].
const FEWER_WORDS: &[&str] = &["fewer", "less", "bớt"];

/// Words that say what to do with a number, never shared dressing between a
/// follow-up and the question before it: `chia 3` after `48 chia 6` goes on from the
/// answer, it does not replace the 6.
const OPERATION_WORDS: &[&str] = &[
    "plus",
    "minus",
    "times",
    "divided",
    "multiplied",
    "over",
    "add",
    "subtract",
    "multiply",
    "divide",
    "take",
    "halve",
    "double",
    "cộng",
    "trừ",
    "nhân",
    "chia",
    "lấy",
    "mũ",
    "căn",
    "sqrt",
    "root",
    "square",
    "squared",
    "cube",
    "power",
    "mod",
    "round",
];

/// Words after a number that say it counts people (or shares).
const PEOPLE_AFTER: &[&[&str]] = &[
    &["of", "us"],
    &["of", "them"],
    &["people"],
    &["ppl"],
    &["persons"],
    &["person"],
    &["friends"],
    &["guests"],
    &["ways"],
    &["người"],
    &["bạn"],
];

/// Counts written in words, as a count of sharers may be: `split $180 four ways`.
const COUNT_WORDS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
];

/// Words before a number that say it counts sharers.
const PEOPLE_BEFORE: &[&str] = &["between", "among", "amongst", "cho", "giữa"];

/// Words before a number that make it the base of a percentage (`of 150`).
const BASE_BEFORE: &[&str] = &["of", "của", "on", "trên"];

/// What a number is in a request, from its neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A percentage: `15%`, `15 percent`, `15 phần trăm`.
    Percent,
    /// A count of people or shares: `6 people`, `4 of us`, `between 3`, `chia 6 người`.
    People,
    /// The base of a percentage: `of 80`.
    Base,
    /// What is divided by: `chia 3`, `chia cho 3`, `divided by 3`.
    Divisor,
    /// Any other number.
    Plain,
}

/// The role of the number at `k` of `toks`, and how many tokens after it say so.
fn role_at(toks: &[Token], k: usize) -> (Role, usize) {
    let word = |j: usize| toks.get(j).and_then(Token::word);
    if toks.get(k + 1).is_some_and(|t| t.is_sym('%')) {
        return (Role::Percent, 1);
    }
    if matches!(word(k + 1), Some("percent" | "pct" | "percents")) {
        return (Role::Percent, 1);
    }
    if words_at(toks, k + 1, &["phần", "trăm"]) {
        return (Role::Percent, 2);
    }
    if let Some(p) = PEOPLE_AFTER.iter().find(|p| words_at(toks, k + 1, p)) {
        return (Role::People, p.len());
    }
    let before = k.checked_sub(1).and_then(word);
    let two_before = k.checked_sub(2).and_then(word);
    // (`chia 1500000 cho 3 nhà`: the number after `chia` is shared out, `cho` names
    // the divisor.)
    let shared_out = before == Some("chia")
        && toks[k + 1..]
            .windows(2)
            .any(|w| w[0].word() == Some("cho") && matches!(w[1].tok, crate::lexer::Tok::Num(_)));
    let divides = before == Some("chia") && !shared_out
        || before == Some("cho") && two_before == Some("chia")
        || before == Some("by") && two_before == Some("divided")
        // (`219.952 / 4`: a written division.)
        || k > 0 && toks[k - 1].is_sym('/') && k > 1 && matches!(toks[k - 2].tok, crate::lexer::Tok::Num(_));
    if divides {
        return (Role::Divisor, 0);
    }
    if before.is_some_and(|w| PEOPLE_BEFORE.contains(&w)) {
        return (Role::People, 0);
    }
    if before.is_some_and(|w| BASE_BEFORE.contains(&w)) {
        return (Role::Base, 0);
    }
    (Role::Plain, 0)
}

/// Words after which a follow-up names the numbers of the last question's list:
/// `the highest of those`, `số lớn nhất trong các số đó`.
const LIST_REFERENCES: &[&[&str]] = &[
    &["those", "numbers"],
    &["these", "numbers"],
    &["the", "numbers"],
    &["those"],
    &["these"],
    &["them"],
    &["all", "of", "them"],
    &["các", "số", "đó"],
    &["các", "số", "trên"],
    &["những", "số", "đó"],
    &["những", "số", "trên"],
    &["mấy", "số", "đó"],
    &["mấy", "số", "trên"],
];

/// Words of a follow-up adding one item to the last question's list: `and if I add a
/// 95?`, `include 12 too`, `thêm 8 nữa thì sao`.
const LIST_ADD: &[&str] = &[
    "add",
    "adding",
    "added",
    "include",
    "including",
    "plus",
    "also",
    "too",
    "one",
    "score",
    "grade",
    "number",
    "thêm",
    "cả",
    "số",
    "điểm",
    "now",
    "bây",
    "giờ",
];

/// Words an item added to a list may be said with: `add 95 to the list, whats the new
/// average`, `thêm số 10 vào`.
const LIST_ITEM_DRESSING: &[&str] = &["to", "list", "new", "whats", "what's", "vào", "mới"];

/// Words naming what is asked of a list, alone after it: `and the max?`, `còn số lớn
/// nhất?`, `what about the average`.
const LIST_HEADS: &[&str] = &[
    "max", "maximum", "min", "minimum", "highest", "lowest", "largest", "smallest", "biggest",
    "greatest", "sum", "total", "average", "mean", "product", "số", "lớn", "nhỏ", "nhất", "tổng",
    "trung", "bình", "cộng", "tích", "cao", "thấp",
];

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
    let hint = questions
        .last()
        .map(|q| crate::language::detect_language(q, None));
    let follow = crate::normalise::normalise(query, hint.as_deref()).text;
    let toks = crate::lexer::lex(&follow);
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
        let previous = crate::normalise::normalise(previous, None).text;
        if let Some(text) = percent_on_amount(&previous, &core, &follow)
            .or_else(|| replace_part(&previous, &core, &follow))
            .or_else(|| about_list(&previous, &toks, &follow))
            .or_else(|| about_birth(&previous, &toks, &follow))
        {
            out.push(text);
        }
    }
    out
}

/// Words that open a follow-up asking the last question again with a part replaced:
/// `and 4/30?`, `what about 6 people`, `còn 30/4?`, `thế còn …`, `nếu …`.
const ELLIPSIS_LEADS: &[&[&str]] = &[
    &["and"],
    &["what", "about"],
    &["how", "about"],
    &["what", "if"],
    &["còn"],
    &["thế", "còn"],
    &["vậy", "còn"],
    &["nếu"],
];

/// Whether `query` opens as a follow-up asking the last question again with a part
/// replaced (`and …`, `what about …`, `còn …`): its ellipsis reading comes before the
/// reading of it alone, so `còn 30/4?` after a date question is that date, never 30 ÷ 4.
pub fn opens_ellipsis(query: &str) -> bool {
    // Most requests open with none of these words, typed with or without marks: a look
    // at the first word before normalising.
    let first = query
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .find(|w| !w.is_empty())
        .map(str::to_lowercase);
    let may = first.as_deref().is_some_and(|w| {
        ELLIPSIS_LEADS.iter().any(|l| {
            let lead = crate::normalise::fold::fold(l[0]);
            lead == crate::normalise::fold::fold(w)
        }) || ACKNOWLEDGEMENTS.contains(&w)
            || w == "the"
    });
    if !may {
        return false;
    }
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let skip = toks
        .iter()
        .take_while(|t| t.word().is_some_and(|w| ACKNOWLEDGEMENTS.contains(&w)) || t.is_sym(','))
        .count();
    ELLIPSIS_LEADS.iter().any(|l| words_at(&toks, skip, l))
}

/// Whether `query` is `and 3/4?` after a question about a date, in English, where the
/// day and the month could each be either: no date can be told, and 3 ÷ 4 would answer
/// another question, so it is not understood.
pub fn day_month_reads_two_ways(query: &str, questions: &[String]) -> bool {
    let Some(previous) = questions.last().filter(|_| query.contains('/')) else {
        return false;
    };
    let previous = crate::normalise::normalise(previous, None).text;
    if crate::language::detect_language(&previous, None) == "vi"
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

/// Words no place is named with: a follow-up made of them asks something else
/// (`and what weekday is that?`), never the time in a place of that name.
const NOT_PLACE_WORDS: &[&str] = &[
    "that",
    "this",
    "those",
    "these",
    "them",
    "it",
    "date",
    "day",
    "days",
    "weekday",
    "time",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "today",
    "tomorrow",
    "yesterday",
    "now",
    "then",
    "after",
    "before",
    "result",
    "answer",
    "number",
    "đó",
    "này",
    "ngày",
    "thứ",
    "giờ",
    "tuần",
    "tháng",
    "năm",
    "nay",
    "mai",
    "kết",
    "quả",
    "số",
    "nó",
];

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
    let value = conversation.answers.last()?;
    value.parse::<u64>().ok()?;
    let previous = crate::lexer::lex(questions.last()?);
    let days = previous
        .iter()
        .any(|t| t.word().is_some_and(|w| matches!(w, "days" | "ngày")));
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

/// `text` with the bytes `span` replaced by `new`.
fn splice(text: &str, span: (usize, usize), new: &str) -> String {
    format!("{}{new}{}", &text[..span.0], &text[span.1..])
}

/// The span and ISO date of the first date in `toks` (lexed from `src`): digits or
/// words.
fn date_span(toks: &[Token]) -> Option<((usize, usize), Option<String>)> {
    (0..toks.len()).find_map(|i| match &toks[i].tok {
        crate::lexer::Tok::Date(d) => Some(((toks[i].start, toks[i].end), d.clone())),
        _ => {
            let (d, next) = crate::dates::written_date(toks, i)?;
            Some(((toks[i].start, toks[next - 1].end), d))
        }
    })
}

/// `a/b` at `k` of `toks`: the two numbers.
fn fraction_at(toks: &[Token], k: usize) -> Option<(u32, u32)> {
    use crate::lexer::Tok;
    let num = |j: usize| match &toks.get(j)?.tok {
        Tok::Num(n) => n.parse::<u32>().ok(),
        _ => None,
    };
    toks.get(k + 1)
        .is_some_and(|t| t.is_sym('/'))
        .then_some(())?;
    Some((num(k)?, num(k + 2)?))
}

/// `previous` with the part `core` (the follow-up's own tokens, from `follow`) names
/// replaced, when exactly one kind of part fits.
fn replace_part(previous: &str, core: &[Token], follow: &str) -> Option<String> {
    use crate::lexer::Tok;
    let ptoks = crate::lexer::lex(previous);
    let text = |t: &Token| &follow[t.start..t.end];
    let words: Vec<&str> = core.iter().filter_map(|t| t.word()).collect();
    // The year after / before the date asked about.
    let shift = match words.as_slice() {
        ["the", "year", "after"]
        | ["year", "after"]
        | ["next", "year"]
        | ["the", "next", "year"]
        | ["the", "following", "year"]
        | ["following", "year"]
        | ["a", "year", "later"]
        | ["năm", "sau"] => Some(1),
        ["the", "year", "before"]
        | ["year", "before"]
        | ["the", "previous", "year"]
        | ["previous", "year"]
        | ["a", "year", "earlier"]
        | ["năm", "trước"] => Some(-1),
        _ => None,
    };
    if let Some(years) = shift {
        let (span, iso) = date_span(&ptoks)?;
        let iso = iso?;
        let y: i32 = iso.get(..4)?.parse().ok()?;
        let (m, d): (u32, u32) = (iso.get(5..7)?.parse().ok()?, iso.get(8..10)?.parse().ok()?);
        let moved = crate::lexer::iso_date(y + years, m, d)
            .or_else(|| crate::lexer::iso_date(y + years, m, d - 1))?;
        return Some(splice(previous, span, &moved));
    }
    // A date in place of the date: digits (`30/11/2003`) or words (`1 jan 2000`).
    if let Some(((start, end), _)) = date_span(core) {
        let (span, _) = date_span(&ptoks)?;
        return Some(splice(previous, span, &follow[start..end]));
    }
    // A day and month in place of the day and month, the date or today (`and the physics
    // one on jan 18?` after `… my calc exam on jan 11`, `same but from jan 4` after `12
    // weeks from today`); other words only name what it is.
    if let Some((k, end)) = (0..core.len()).find_map(|k| {
        crate::dates::day_month_end(core, k)
            // (`30/4` is the branch below's: a fraction or a day and month.)
            .filter(|_| !core.get(k + 1).is_some_and(|t| t.is_sym('/')))
            .map(|e| (k, e))
    }) && !core[..k].iter().chain(&core[end..]).any(|t| {
        matches!(t.tok, Tok::Num(_)) || t.word().is_some_and(|w| OPERATION_WORDS.contains(&w))
    }) {
        let new = &follow[core[k].start..core[end - 1].end];
        let old = date_span(&ptoks)
            .map(|(span, _)| span)
            .or_else(|| {
                (0..ptoks.len()).find_map(|i| {
                    crate::dates::day_month_end(&ptoks, i)
                        .map(|e| (ptoks[i].start, ptoks[e - 1].end))
                })
            })
            .or_else(|| {
                ptoks
                    .iter()
                    .find(|t| t.word().is_some_and(|w| matches!(w, "today" | "now")))
                    .map(|t| (t.start, t.end))
            })?;
        return Some(splice(previous, old, new));
    }
    // A term in place of the term (`còn gửi 6 tháng thì sao` after `gửi 200 triệu, lãi
    // 5,6%/năm, một năm được bao nhiêu tiền lãi`): a number of periods, said in digits or
    // as `một`/`a`/`one`.
    const TERM_UNITS: &[&str] = &[
        "tháng", "năm", "months", "month", "years", "year", "tuần", "weeks", "week",
    ];
    let term_at = |toks: &[Token], k: usize| {
        let count = matches!(toks[k].tok, Tok::Num(_))
            || toks[k]
                .word()
                .is_some_and(|w| matches!(w, "một" | "a" | "one"));
        let unit = toks
            .get(k + 1)
            .and_then(Token::word)
            .is_some_and(|w| TERM_UNITS.contains(&w));
        let rate = k > 0 && toks[k - 1].is_sym('/');
        count && unit && !rate
    };
    let core_terms: Vec<usize> = (0..core.len()).filter(|&k| term_at(core, k)).collect();
    let prev_terms: Vec<usize> = (0..ptoks.len()).filter(|&k| term_at(&ptoks, k)).collect();
    let core_numbers = core.iter().filter(|t| matches!(t.tok, Tok::Num(_))).count();
    if let ([k], [pk], 1) = (core_terms.as_slice(), prev_terms.as_slice(), core_numbers)
        && matches!(core[*k].tok, Tok::Num(_))
        && core.iter().enumerate().all(|(j, t)| {
            j == *k || j == *k + 1 || t.word().is_some_and(|w| pwords_of(&ptoks).contains(&w))
        })
    {
        let span = (ptoks[*pk].start, ptoks[pk + 1].end);
        let new = &follow[core[*k].start..core[k + 1].end];
        return Some(splice(previous, span, new));
    }
    // A time in place of the time (`còn 9h tối` after `9h sáng ở Đà Nẵng là mấy giờ bên
    // Osaka`).
    let time_end = |toks: &[Token], k: usize| crate::places::time_at(toks, k).map(|(_, e)| e);
    if phrase_is_whole(core, time_end)
        && let Some(text) = replace_phrase(previous, &ptoks, core, follow, time_end)
    {
        return Some(text);
    }
    // A named day in place of the named day (`and new year?` after `how many days
    // until christmas`).
    if phrase_is_whole(core, crate::dates::named_day_end)
        && let Some(text) =
            replace_phrase(previous, &ptoks, core, follow, crate::dates::named_day_end)
    {
        return Some(text);
    }
    // A weekday in place of the weekday (`còn thứ 6 tuần sau?` after `thứ 6 tuần này
    // là ngày mấy`): the follow-up is that weekday alone.
    if phrase_is_whole(core, crate::dates::weekday_phrase_end) {
        return replace_phrase(
            previous,
            &ptoks,
            core,
            follow,
            crate::dates::weekday_phrase_end,
        );
    }
    // `d/m` alone: a day and month in place of the date (`thế còn 30/4?`), or a
    // fraction in place of the fraction (`còn 45/50` after `42/50 là bao nhiêu phần
    // trăm`) — whichever the last question had.
    if let [a, _, _] = core
        && let Some((x, y)) = fraction_at(core, 0)
    {
        if let Some((span, iso)) = date_span(&ptoks) {
            let vi = crate::language::detect_language(previous, None) == "vi";
            let (day, month) = match (x <= 12, y <= 12) {
                (_, true) if vi => (x, y),
                (false, true) => (x, y),
                (true, false) => (y, x),
                _ => return None,
            };
            crate::lexer::iso_date(2000, month, day)?;
            // The year the last date had, kept when its weekday was asked: `còn ngày
            // 31/12?` after `20/12/2026 là thứ mấy` (days until `2/9` is the next 2/9).
            let weekday = ptoks.iter().enumerate().any(|(k, t)| {
                t.word().is_some_and(|w| matches!(w, "weekday" | "week"))
                    || t.word() == Some("thứ")
                        && ptoks
                            .get(k + 1)
                            .and_then(Token::word)
                            .is_some_and(|w| matches!(w, "mấy" | "gì" | "nào"))
            });
            let year = iso.filter(|_| weekday);
            let year = year.as_deref().and_then(|d| d.get(..4)).filter(|y| {
                y.parse::<i32>()
                    .is_ok_and(|y| crate::lexer::iso_date(y, month, day).is_some())
            });
            let written = match (vi, year) {
                (true, Some(y)) => format!("{day} tháng {month} năm {y}"),
                // (As typed, day first: the day and month the user wrote.)
                (true, None) => format!("{day}/{month}"),
                (false, Some(y)) => format!(
                    "{} {day} {y}",
                    crate::wording::MONTHS.get(month as usize - 1)?
                ),
                (false, None) => {
                    format!("{} {day}", crate::wording::MONTHS.get(month as usize - 1)?)
                }
            };
            return Some(splice(previous, span, &written));
        }
        let fractions: Vec<usize> = (0..ptoks.len())
            .filter(|&k| fraction_at(&ptoks, k).is_some())
            .collect();
        let [k] = fractions.as_slice() else {
            return None;
        };
        let span = (ptoks[*k].start, ptoks[k + 2].end);
        return Some(splice(previous, span, &follow[a.start..core[2].end]));
    }
    // A number in place of the number of the same kind (`15%`, `6 people`, `of 150`).
    let nums: Vec<usize> = (0..core.len())
        .filter(|&i| matches!(core[i].tok, Tok::Num(_)))
        .collect();
    if let [_] = nums.as_slice() {
        // `2 more people`: the count is relative, and `people` says what it counts.
        let more = core
            .iter()
            .any(|t| t.word().is_some_and(|w| MORE_WORDS.contains(&w)));
        let fewer = core
            .iter()
            .any(|t| t.word().is_some_and(|w| FEWER_WORDS.contains(&w)));
        let core: Vec<Token> = core
            .iter()
            .filter(|t| {
                !t.word()
                    .is_some_and(|w| MORE_WORDS.contains(&w) || FEWER_WORDS.contains(&w))
            })
            .cloned()
            .collect();
        let core = core.as_slice();
        let i = (0..core.len()).find(|&i| matches!(core[i].tok, Tok::Num(_)))?;
        let (role, marked) = role_at(core, i);
        let pwords: Vec<&str> = ptoks.iter().filter_map(Token::word).collect();
        let priced_follow = core.iter().any(|t| t.word().is_some_and(price_word));
        // Every other word only dresses the number or is the last question's own
        // (`what if it's 40% off` after `35% off 240`): a follow-up with words of its own
        // ("nhân thêm 3 nữa", "then 3 more") says what to do with it, and is no
        // ellipsis — replacing the number would answer another question.
        for (j, t) in core.iter().enumerate() {
            let Some(w) = t.word() else {
                continue;
            };
            let role_word = j + 1 == i && (PEOPLE_BEFORE.contains(&w) || BASE_BEFORE.contains(&w))
                || role == Role::Divisor && j < i && matches!(w, "chia" | "cho" | "divided" | "by");
            // `and the kitchen, 18 m2?`: a name for what the same unit now counts.
            // (Only a name before the number: `10 weeks before today` is no name.)
            let labels_unit = role == Role::Plain
                && j < i
                && same_unit_counted(&ptoks, core, i)
                && !OPERATION_WORDS.contains(&w)
                && !crate::tolerant::DATE_WORDS.contains(&w);
            if labels_unit {
                continue;
            }
            if j > i && j <= i + marked || role_word {
                continue;
            }
            if !(NUMBER_DRESSING.contains(&w)
                || price_word(w)
                || priced_follow && PRICE_MOVES.contains(&w)
                || pwords.contains(&w) && !OPERATION_WORDS.contains(&w))
            {
                return None;
            }
        }
        // `split $180 four ways`: a count in words is the count it replaces.
        let pnums: Vec<usize> = (0..ptoks.len())
            .filter(|&k| {
                matches!(ptoks[k].tok, Tok::Num(_))
                    || role == Role::People
                        && ptoks[k].word().is_some_and(|w| COUNT_WORDS.contains(&w))
                        && PEOPLE_AFTER.iter().any(|p| words_at(&ptoks, k + 1, p))
            })
            .collect();
        let at = match role {
            Role::Plain if pnums.len() == 1 => pnums[0],
            // `còn nếu mua 10 hộp thì sao` after `mua 4 hộp … giá 32.500 một hộp`: the
            // number counted in the same unit; `nếu giá tăng lên 25.500` after `giá xăng
            // 24.000 một lít …`: the price.
            Role::Plain => {
                let unit = core.get(i + 1).and_then(Token::word);
                let counted: Vec<usize> = pnums
                    .iter()
                    .copied()
                    .filter(|&k| unit.is_some() && ptoks.get(k + 1).and_then(Token::word) == unit)
                    .collect();
                let priced = core.iter().any(|t| t.word().is_some_and(price_word));
                let price_at = pnums.iter().copied().filter(|&k| {
                    (k.saturating_sub(3)..k).any(|j| ptoks[j].word().is_some_and(price_word))
                });
                match (counted.as_slice(), priced) {
                    ([k], _) => *k,
                    ([], true) => match price_at.collect::<Vec<_>>().as_slice() {
                        [k] => *k,
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            // (A count of sharers and a divisor stand for each other: `and for 5
            // people?` after `219.952 / 4`, `chia 3` after `… cho 4 nhà`.)
            _ => {
                let of_role = |r: Role| -> Vec<usize> {
                    pnums
                        .iter()
                        .copied()
                        .filter(|&k| role_at(&ptoks, k).0 == r)
                        .collect()
                };
                let mut found = of_role(role);
                if found.is_empty() {
                    found = match role {
                        Role::People => of_role(Role::Divisor),
                        Role::Divisor => of_role(Role::People),
                        _ => Vec::new(),
                    };
                }
                match found.as_slice() {
                    [k] => *k,
                    _ => return None,
                }
            }
        };
        let Tok::Num(new) = &core[i].tok else {
            return None;
        };
        let new = match (more, fewer) {
            (false, false) => text(&core[i]).to_owned(),
            // One more (or fewer) than before: only a count is counted on.
            // (`còn nếu làm thêm 5 ngày nữa thì sao` after `… làm 15 ngày …`: the days
            // counted in the same unit, five more.)
            (true, false) | (false, true)
                if role == Role::People || same_unit_counted(&ptoks, core, i) =>
            {
                let Tok::Num(old) = &ptoks[at].tok else {
                    return None;
                };
                let (old, by): (u64, u64) = (old.parse().ok()?, new.parse().ok()?);
                match more {
                    true => old.checked_add(by)?,
                    false => old.checked_sub(by).filter(|n| *n > 0)?,
                }
                .to_string()
            }
            _ => return None,
        };
        return Some(splice(previous, (ptoks[at].start, ptoks[at].end), &new));
    }
    // A place in place of the place asked about.
    let place_words = !core.is_empty()
        && core.len() <= 5
        && core
            .iter()
            .all(|t| matches!(t.tok, Tok::Word(_) | Tok::Sym('-' | '\'' | '.')))
        && !words
            .iter()
            .any(|w| NOT_PLACE_WORDS.contains(w) || OPERATION_WORDS.contains(w));
    if place_words {
        let asked = match crate::places::parse(&ptoks, previous)? {
            crate::dates::DateQuery::TimeIn { place } => place,
            crate::dates::DateQuery::ConvertTime { to, .. } => to,
            _ => return None,
        };
        let lead = core
            .first()
            .and_then(|t| t.word())
            .is_some_and(|w| matches!(w, "in" | "at" | "ở" | "tại" | "bên"));
        let place = &core[usize::from(lead)..];
        let (first, last) = (place.first()?, place.last()?);
        let new = &follow[first.start..last.end];
        let at = previous.rfind(asked.as_str())?;
        return Some(splice(previous, (at, at + asked.len()), new));
    }
    None
}

/// The span of the longest list of numbers in `toks` (two or more, joined by `,`,
/// `;`, `and`, `và`, `or`), as the first and last number's indices.
fn list_span(toks: &[Token]) -> Option<(usize, usize)> {
    use crate::lexer::Tok;
    let is_num = |k: usize| matches!(toks.get(k).map(|t| &t.tok), Some(Tok::Num(_)));
    let joins = |k: usize| {
        toks.get(k).is_some_and(|t| {
            t.is_sym(',')
                || t.is_sym(';')
                || t.word()
                    .is_some_and(|w| matches!(w, "and" | "và" | "or" | "hoặc"))
        })
    };
    let mut best: Option<(usize, usize, usize)> = None;
    let mut k = 0;
    while k < toks.len() {
        if !is_num(k) {
            k += 1;
            continue;
        }
        let (first, mut last, mut count) = (k, k, 1);
        let mut j = k + 1;
        loop {
            let mut g = j;
            while joins(g) && g < j + 2 {
                g += 1;
            }
            // (Side by side too: `trung bình của 6 7 8 9`.)
            if is_num(g) {
                last = g;
                count += 1;
                j = g + 1;
            } else {
                break;
            }
        }
        if count >= 2 && best.is_none_or(|(_, _, c)| count > c) {
            best = Some((first, last, count));
        }
        k = last + 1;
    }
    best.map(|(f, l, _)| (f, l))
}

/// A follow-up about the last question's list: one more item (`and if I add a 95?` →
/// the same question of the longer list), or another question of the same numbers
/// (`whats the highest of those` → `whats the highest of 68, 74, 81, 90`).
fn about_list(previous: &str, toks: &[Token], follow: &str) -> Option<String> {
    use crate::lexer::Tok;
    let ptoks = crate::lexer::lex(previous);
    let (first, last) = list_span(&ptoks)?;
    // The list is the question's numbers, all of them: `2+4 and 3*5` has none.
    let outside = ptoks
        .iter()
        .enumerate()
        .any(|(k, t)| matches!(t.tok, Tok::Num(_)) && !(first..=last).contains(&k));
    if outside {
        return None;
    }
    let items = &previous[ptoks[first].start..ptoks[last].end];
    // The numbers of that list, named: `those`, `các số đó`.
    if let Some((i, r)) = (0..toks.len()).find_map(|i| {
        LIST_REFERENCES
            .iter()
            .find(|r| words_at(toks, i, r))
            .map(|r| (i, r))
    }) {
        if toks
            .iter()
            .any(|t| matches!(t.tok, Tok::Num(_) | Tok::Date(_)))
        {
            return None;
        }
        let span = (toks[i].start, toks[i + r.len() - 1].end);
        return Some(splice(follow, span, items));
    }
    // Another question of the same numbers, named by its head alone: `and the max?`,
    // `còn số lớn nhất?`.
    let heads: Vec<&str> = toks
        .iter()
        .filter_map(Token::word)
        .filter(|w| !ELLIPSIS_DRESSING.contains(w) && *w != "the")
        .collect();
    let dressed = toks
        .iter()
        .all(|t| t.word().is_some() || matches!(t.tok, Tok::Sym('?' | '!' | ',' | '.')));
    if dressed && !heads.is_empty() && heads.iter().all(|w| LIST_HEADS.contains(w)) {
        let head = heads.join(" ");
        return Some(
            match crate::language::detect_language(previous, None).as_str() {
                "vi" => format!("{head} trong {items}"),
                _ => format!("the {head} of {items}"),
            },
        );
    }
    // One more item.
    let nums: Vec<&Token> = toks
        .iter()
        .filter(|t| matches!(t.tok, Tok::Num(_)))
        .collect();
    let [n] = nums.as_slice() else {
        return None;
    };
    // One more item, said as one: `if I add a 95`, `include 12 too`, `nếu thêm 8`
    // (a bare `add 5` goes on from the answer).
    let at = toks.iter().position(|t| std::ptr::eq(t, *n))?;
    let item = at
        .checked_sub(1)
        .and_then(|p| toks[p].word())
        .is_some_and(|w| matches!(w, "a" | "an" | "another" | "số"))
        || toks.iter().any(|t| {
            t.word().is_some_and(|w| {
                matches!(
                    w,
                    "if" | "nếu" | "include" | "including" | "also" | "too" | "cả" | "list" | "vào"
                )
            })
        });
    if !item {
        return None;
    }
    let mut adds = false;
    // `add 95 to the list, whats the new average`: the list's own head asked again.
    let pwords: Vec<&str> = ptoks.iter().filter_map(Token::word).collect();
    for t in toks {
        match t.word() {
            Some(w) if LIST_ITEM_DRESSING.contains(&w) => {}
            Some(w) if LIST_HEADS.contains(&w) && pwords.contains(&w) => {}
            Some(w) if LIST_ADD.contains(&w) => {
                adds |= !matches!(w, "one" | "số" | "điểm" | "now" | "bây" | "giờ");
            }
            Some(w) if ELLIPSIS_DRESSING.contains(&w) || NUMBER_DRESSING.contains(&w) => {}
            Some(_) => return None,
            None => {}
        }
    }
    adds.then(|| {
        let end = ptoks[last].end;
        splice(
            previous,
            (end, end),
            &format!(", {}", &follow[n.start..n.end]),
        )
    })
}

/// Marks, on every step of `plan`, the literal arguments equal to `value` (what the
/// reference was replaced by), unless the user also wrote that value themselves (then
/// which one came from the conversation cannot be told, and none is marked).
pub fn mark(plan: &mut chorus_bus::Plan, value: &str, request_without_reference: &str) {
    let toks = crate::lexer::lex(request_without_reference);
    let written = toks.iter().any(|t| match &t.tok {
        crate::lexer::Tok::Num(n) => n == value,
        crate::lexer::Tok::Date(Some(d)) => d == value,
        _ => false,
    });
    if written {
        return;
    }
    for step in &mut plan.steps {
        step.recalled = step
            .arguments
            .iter()
            .filter(|(_, arg)| {
                matches!(arg, chorus_bus::Arg::Value(v)
                    if v.as_str() == Some(value) || v.as_i64().is_some_and(|n| n.to_string() == value))
            })
            .map(|(name, _)| name.clone())
            .collect();
    }
}

/// Words that put a step before the last question's own: `and if we add a 10% tip
/// first?`, `nếu cộng 10% phí trước thì sao`.
const FIRST_WORDS: &[&str] = &["first", "beforehand", "before", "trước"];

/// Words that ask the amount with a percentage on top, not the percentage alone:
/// `so whats the total with the 15% tip`, `tổng cộng cả 10% phí là bao nhiêu`.
const WHOLE_WORDS: &[&str] = &["total", "altogether", "overall", "tổng"];

/// The one percentage of `core` (the follow-up's own tokens), with the word after it
/// that names it (`tip`, `phí`), when it is the only number.
fn lone_percent<'a>(core: &[Token], follow: &'a str) -> Option<(&'a str, Option<&'a str>)> {
    use crate::lexer::Tok;
    let nums: Vec<usize> = (0..core.len())
        .filter(|&k| matches!(core[k].tok, Tok::Num(_)))
        .collect();
    let [k] = nums.as_slice() else {
        return None;
    };
    let (Role::Percent, marked) = role_at(core, *k) else {
        return None;
    };
    let n = &follow[core[*k].start..core[*k].end];
    let named = core
        .get(k + marked + 1)
        .and_then(Token::word)
        .filter(|w| PERCENT_OF.contains(w))
        .map(|_| {
            let t = &core[k + marked + 1];
            &follow[t.start..t.end]
        });
    Some((n, named))
}

/// A percentage on the last question's amount, before or around its own step, or
/// `None`: `and if we add a 10% tip first?` after `split $186 between 3` → `split 186
/// plus 10% tip between 3` (the tip before the split, the count kept); `so whats the
/// total with the 15% tip` after `15% tip on 64` → `increase 64 by 15%` (the amount
/// with the tip, never the tip raised by itself).
fn percent_on_amount(previous: &str, core: &[Token], follow: &str) -> Option<String> {
    use crate::lexer::Tok;
    let (n, named) = lone_percent(core, follow)?;
    let has = |list: &[&str]| {
        core.iter()
            .any(|t| t.word().is_some_and(|w| list.contains(&w)))
    };
    let ptoks = crate::lexer::lex(previous);
    let pnums: Vec<(usize, Role)> = (0..ptoks.len())
        .filter(|&k| matches!(ptoks[k].tok, Tok::Num(_)))
        .map(|k| (k, role_at(&ptoks, k).0))
        .collect();
    let amounts: Vec<usize> = pnums
        .iter()
        .filter(|(_, r)| matches!(r, Role::Plain | Role::Base))
        .map(|(k, _)| *k)
        .collect();
    let [at] = amounts.as_slice() else {
        return None;
    };
    let amount = &previous[ptoks[*at].start..ptoks[*at].end];
    let percents = pnums.iter().filter(|(_, r)| *r == Role::Percent).count();
    let lower = has(LOWER_BY);
    if has(WHOLE_WORDS) && percents == 1 && !lower {
        // The last question asked a percentage of the amount: the total is the amount
        // with it.
        return Some(format!("increase {amount} by {n}%"));
    }
    if has(FIRST_WORDS) && percents == 0 {
        let op = match (has(RAISE_BY), lower) {
            (true, false) => "plus",
            (false, true) => "minus",
            _ => return None,
        };
        let what = named.map(|w| format!(" {w}")).unwrap_or_default();
        let span = (ptoks[*at].start, ptoks[*at].end);
        return Some(splice(previous, span, &format!("{amount} {op} {n}%{what}")));
    }
    None
}

/// Whether `query` counts sharers again (`and between 5 of us instead?`, `nếu có 9
/// người thì mỗi người bao nhiêu`) after a question that split among a count: the
/// count is replaced, never the last share divided again.
pub fn recounts_split(query: &str, questions: &[String]) -> bool {
    use crate::lexer::Tok;
    let Some(previous) = questions.last() else {
        return false;
    };
    let people = |text: &str| {
        let toks = crate::lexer::lex(text);
        (0..toks.len())
            .any(|k| matches!(toks[k].tok, Tok::Num(_)) && role_at(&toks, k).0 == Role::People)
    };
    let ptext = crate::normalise::normalise(previous, None).text;
    let text = crate::normalise::normalise(query, None).text;
    // `split $180 four ways`: a count in words still counts sharers.
    let shared = crate::lexer::lex(&ptext).iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "ways" | "people" | "người" | "persons" | "ppl"))
    });
    people(&text) && (shared || people(&ptext))
}

/// Whether `query` adds more to the last total and asks the new total (`them 2 cai
/// quan 200 nghin 1 cai nua thi tong bn` after a total): read alone it would answer
/// the added part as the total, another question.
pub fn adds_to_last_total(query: &str, conversation: &Conversation) -> bool {
    let numeric = conversation
        .answers
        .last()
        .is_some_and(|a| a.parse::<f64>().is_ok());
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let has = |list: &[&str]| {
        toks.iter()
            .any(|t| t.word().is_some_and(|w| list.contains(&w)))
    };
    numeric && has(&["thêm", "more", "another"]) && has(WHOLE_WORDS)
}

/// Words that make a duration go on from the last date answer: `thêm 1 tuần nữa thì
/// là ngày nào`, `and 3 more days?`, `another week after that`.
const ON_FROM_DATE: &[&str] = &[
    "thêm", "more", "another", "further", "push", "postpone", "delay", "dời", "lùi", "hoãn",
];

/// `query` adding a duration to the conversation's last date answer (`them 1 tuan nua
/// thi la ngay nao` after 2026-12-13 → `2026-12-13 plus 1 week`), when it names a
/// duration with `thêm` / `more` / `another` and no date of its own: from today would
/// answer another question.
pub fn more_time_on_date(query: &str, conversation: &Conversation) -> Option<String> {
    use crate::lexer::Tok;
    let iso = |s: &str| {
        s.len() == 10 && s.as_bytes()[4] == b'-' && s[..4].bytes().all(|b| b.is_ascii_digit())
    };
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    // `push it back a week` moves the date itself, also when a count of days to it
    // was the last answer; `thêm`, `more` go on from the last answer only.
    let moves = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "push" | "postpone" | "delay" | "dời" | "lùi" | "hoãn"))
    });

    let date = match conversation.answers.as_slice() {
        [.., d] if iso(d) => d,
        [.., d, c] if moves && iso(d) && c.parse::<u64>().is_ok() => d,
        _ => return None,
    };

    if !toks
        .iter()
        .any(|t| t.word().is_some_and(|w| ON_FROM_DATE.contains(&w)))
        || date_span(&toks).is_some()
        || toks.iter().any(|t| {
            t.word()
                .is_some_and(|w| matches!(w, "today" | "nay" | "now" | "tomorrow" | "mai"))
        })
    {
        return None;
    }
    let unit_of = |w: &str| {
        Some(match w {
            "ngày" | "day" | "days" => "days",
            "tuần" | "week" | "weeks" => "weeks",
            "tháng" | "month" | "months" => "months",
            "năm" | "year" | "years" => "years",
            _ => return None,
        })
    };
    let mut found = Vec::new();
    for k in 0..toks.len() {
        let Some(unit) = toks[k].word().and_then(unit_of) else {
            continue;
        };
        // `2 more weeks`: the number before the word that says more.
        let mut j = k.checked_sub(1);
        if let Some(p) = j
            && p > 0
            && toks[p]
                .word()
                .is_some_and(|w| matches!(w, "more" | "further"))
            && matches!(toks[p - 1].tok, Tok::Num(_))
        {
            j = Some(p - 1);
        }
        let before = j.map(|j| &toks[j]);
        let amount = match before.map(|t| &t.tok) {
            Some(Tok::Num(n)) => n.clone(),
            Some(Tok::Word(w)) if matches!(w.as_str(), "a" | "an" | "another" | "một") => {
                "1".to_owned()
            }
            _ => continue,
        };
        // `là ngày nào`: a day asked, no duration.
        if before.is_some_and(|t| matches!(t.tok, Tok::Word(_)))
            && toks
                .get(k + 1)
                .and_then(Token::word)
                .is_some_and(|w| matches!(w, "nào" | "mấy" | "gì"))
        {
            continue;
        }
        found.push((amount, unit));
    }
    let [(amount, unit)] = found.as_slice() else {
        return None;
    };
    let vi = crate::language::detect_language(&text, None) == "vi";
    let unit_vi = match *unit {
        "days" => "ngày",
        "weeks" => "tuần",
        "months" => "tháng",
        _ => "năm",
    };
    Some(match vi {
        true => format!("ngày {date} cộng {amount} {unit_vi} là ngày nào"),
        false => format!("{date} plus {amount} {unit}"),
    })
}

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
    ];
    // (Laid out by hand: the vocabulary is learnt line by line, and `bao`, `sao` are
    // Vietnamese only beside a word with its marks.)
    #[rustfmt::skip]
    const DRESSING: &[&str] = &[
        "what", "whats", "what's", "is", "s", "the", "and", "how", "much", "left", "rest",
        "remaining", "remainder", "balance", "so", "then", "of", "it",
        "còn", "lại", "bao", "nhiêu", "phần", "là", "thì", "sao", "vậy", "số", "tiền",
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
    match (asks_rest && only && shared, numeric.as_slice()) {
        (true, [share, amount]) => Some(format!("{amount} - {share}")),
        _ => None,
    }
}

/// `query` adding (or multiplying) the conversation's last two numeric answers: `cộng
/// hai kết quả đó lại giúp mình` after 630000 and 720000 → `630000 + 720000`, with the
/// two values; `None` unless every other word only dresses it.
pub fn two_answers(query: &str, conversation: &Conversation) -> Option<String> {
    use crate::normalise::fold::fold;
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
    let op = match (op?, crate::language::detect_language(&text, None).as_str()) {
        ("+", "vi") => "cộng",
        ("*", "vi") => "nhân",
        (o, _) => o,
    };
    Some(format!("{a} {op} {b}"))
}

/// Words that ask the difference between the last two answers: `chênh lệch bao
/// nhiêu`, `what's the difference`.
const DIFFERENCE_WORDS: &[&str] = &["chênh", "lệch", "difference", "diff"];

/// Words such a question may be dressed in.
const DIFFERENCE_DRESSING: &[&str] = &[
    "bao", "nhiêu", "là", "thì", "what", "whats", "what's", "the", "is", "between", "them", "both",
    "two", "hai", "kết", "quả", "số", "đó", "and", "ok", "so", "vậy", "còn",
];

/// `the larger − the smaller` of the last two numeric answers, when `toks` only ask
/// their difference (`chenh lech bao nhieu` after 840000 and 892500 → `892500 -
/// 840000`).
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
    let minus = match crate::language::detect_language(&text.join(" "), None).as_str() {
        "vi" => "trừ",
        _ => "-",
    };
    Some(format!("{big} {minus} {small}"))
}

/// `plan` as one computation of numbers the user wrote (`2 × 200000` → `2 * 200000`),
/// when it is one step of adding or multiplying two literal numbers.
pub fn one_computation(plan: &chorus_bus::Plan) -> Option<String> {
    let [step] = plan.steps.as_slice() else {
        return None;
    };
    let op = match step.tool.as_str() {
        "multiply" => "*",
        "sum" => "+",
        _ => return None,
    };
    let number = |name: &str| match step.arguments.get(name)? {
        chorus_bus::Arg::Value(v) => {
            let text = v
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| v.to_string());
            text.parse::<f64>().ok().map(|_| text)
        }
        chorus_bus::Arg::Ref { .. } => None,
    };
    Some(format!("{} {op} {}", number("a")?, number("b")?))
}

/// `query` without the words that open it as a follow-up (`what about 5pm new york
/// time in tokyo` → `5pm new york time in tokyo`), when it had them and more follows.
pub fn without_lead(query: &str) -> Option<String> {
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    let skip = toks
        .iter()
        .take_while(|t| t.word().is_some_and(|w| ACKNOWLEDGEMENTS.contains(&w)) || t.is_sym(','))
        .count();
    let lead = ELLIPSIS_LEADS.iter().find(|l| words_at(&toks, skip, l))?;
    let rest = toks.get(skip + lead.len())?;
    Some(text[rest.start..].to_owned())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn reference(src: &str) -> Option<String> {
        find(&lex(src), src).map(|r| r.text)
    }

    #[test]
    fn a_follow_up_with_its_own_operation_is_no_ellipsis() {
        let before = ["rồi chia kết quả cho 4".to_owned()];
        assert!(ellipses("nhân thêm 3 nữa", &before).is_empty());
        assert!(ellipses("then 3 more", &["divide it by 4".to_owned()]).is_empty());
        // A number alone (with what it counts) still replaces its kind.
        assert_eq!(
            ellipses("and 6 people?", &["split 240 between 4 people".to_owned()]),
            ["split 240 between 6 people"]
        );
    }

    #[test]
    fn references_are_found_longest_first_in_both_languages() {
        assert_eq!(reference("now multiply that by 3").as_deref(), Some("that"));
        assert_eq!(
            reference("add 10 days to that date").as_deref(),
            Some("that date")
        );
        assert_eq!(
            reference("nhân kết quả đó với 3").as_deref(),
            Some("kết quả đó")
        );
        assert_eq!(reference("cộng thêm 5 vào đó").as_deref(), Some("đó"));
        assert_eq!(reference("cộng 5 sau đó nhân 2"), None);
        assert_eq!(reference("2+4"), None);
    }

    #[test]
    fn a_reference_is_replaced_where_it_stands() {
        let src = "Now multiply THAT by 3";
        let r = find(&lex(src), src).expect("found");
        assert_eq!(r.replaced_by(src, "6"), "Now multiply 6 by 3");
    }
}
