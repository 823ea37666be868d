//! Questions instead of guesses: when a request is missing something or reads two
//! ways, the planner asks the user rather than refusing or picking one reading. Each
//! question says how its answer goes back into the request ([`Fill`]), so the Planner
//! resumes with the original request plus the answer ([`resume`]) and plans again.
//!
//! Asked for: a missing operand (`divide 10 by`), a numeric date that reads two ways
//! (`03/04/2026` in English with no `day_first`), a reference to an earlier answer when
//! the conversation has none (`multiply that by 3`), and a weekday name that could mean
//! two dates (`what date is friday`). Detection is by trial: a question is asked only
//! when filling the gap with a placeholder makes the request plannable, so nothing that
//! would still fail after the answer is ever asked.

use chorus_bus::{AnswerOption, Language, TaskContext};
use serde::{Deserialize, Serialize};

use crate::lexer::{Tok, Token, lex};

/// How an answer goes back into the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fill {
    /// The answer (a number) goes right after this text: a missing operand.
    After(String),
    /// The answer (or the chosen option's value) replaces this text.
    Replace(String),
    /// The answer goes after the whole request, with the question it answers (a
    /// model's question, which the model reads again when it plans).
    Context(String),
}

/// What kind of answer settles a free (option-less) question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// One of the question's options.
    Option,
    /// A number.
    Number,
    /// A number or a date.
    Value,
    /// Any text.
    Text,
}

/// A question for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// The question, in the user's language.
    pub text: String,
    /// The answers to choose from, when the set is finite.
    pub options: Vec<AnswerOption>,
    /// The part of the request it is about, as the user wrote it.
    pub part: String,
    /// How the answer goes back into the request.
    pub fill: Fill,
    /// What settles it.
    pub expect: Expect,
}

/// An answer that does not settle the question (not one of the options, not a
/// number): the Planner asks again, up to `agents.max_questions`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the answer {answer:?} does not settle the question")]
pub struct Unsettled {
    /// The answer as given.
    pub answer: String,
}

/// Longest answer accepted, in characters.
pub const MAX_ANSWER_CHARS: usize = 1000;

/// The request `query` with `answer` to `question` filled in.
pub fn resume(query: &str, question: &Question, answer: &str) -> Result<String, Unsettled> {
    let unsettled = || Unsettled {
        answer: answer.to_owned(),
    };
    let answer = answer.trim();
    let value = match question.expect {
        Expect::Option => pick(&question.options, answer).ok_or_else(unsettled)?,
        Expect::Number => number_in(answer).ok_or_else(unsettled)?,
        Expect::Value => number_in(answer)
            .or_else(|| date_in(answer))
            .ok_or_else(unsettled)?,
        Expect::Text => pick(&question.options, answer).unwrap_or_else(|| answer.to_owned()),
    };
    let filled = match &question.fill {
        Fill::After(text) => match query.find(text.as_str()) {
            Some(at) => {
                let end = at + text.len();
                format!("{} {value}{}", &query[..end], &query[end..])
            }
            None => format!("{} {value}", query.trim_end()),
        },
        Fill::Replace(text) => match find_whole(query, text) {
            Some(at) => format!("{}{value}{}", &query[..at], &query[at + text.len()..]),
            None => return Err(unsettled()),
        },
        Fill::Context(asked) => format!("{}\n(answer to \"{asked}\": {value})", query.trim_end()),
    };
    Ok(filled)
}

/// Where `text` stands in `query` as whole words (`it` in `split it`, never the `it`
/// of `split`).
fn find_whole(query: &str, text: &str) -> Option<usize> {
    let word_char = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    query.match_indices(text).map(|(at, _)| at).find(|&at| {
        let before = query[..at].chars().next_back();
        let after = query[at + text.len()..].chars().next();
        let edge_in = |c: Option<char>, inner: Option<char>| !(word_char(c) && word_char(inner));
        edge_in(before, text.chars().next()) && edge_in(after, text.chars().next_back())
    })
}

/// The option `answer` picks: its number (`2`), an ordinal (`the first`), its label or
/// value, or words found in one option only (`April` for `3 April 2026`).
fn pick(options: &[AnswerOption], answer: &str) -> Option<String> {
    let said = answer
        .trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
        .to_lowercase();
    let toks = lex(&said);
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let index = match (toks.as_slice(), words.as_slice()) {
        (
            [
                Token {
                    tok: Tok::Num(n), ..
                },
            ],
            _,
        ) => n.parse::<usize>().ok(),
        (_, w) if w.iter().any(|w| ORDINALS[0].contains(w)) => Some(1),
        (_, w) if w.iter().any(|w| ORDINALS[1].contains(w)) => Some(2),
        _ => None,
    };
    if let Some(k) = index.filter(|k| (1..=options.len()).contains(k)) {
        return Some(options[k - 1].value.clone());
    }
    if let Some(o) = options
        .iter()
        .find(|o| o.label.to_lowercase() == said || o.value.to_lowercase() == said)
    {
        return Some(o.value.clone());
    }
    // A date written another way (`2026-04-03`, `3/4/2026` read day first).
    if let Some(iso) = date_in(&said)
        && let Some(o) = options.iter().find(|o| o.value == iso)
    {
        return Some(o.value.clone());
    }
    let mentions = |o: &AnswerOption| {
        let own = format!("{} {}", o.label, o.value).to_lowercase();
        let own_words: Vec<String> = lex(&own)
            .iter()
            .filter_map(|t| t.word().map(str::to_owned))
            .collect();
        !words.is_empty()
            && words
                .iter()
                .any(|w| !COMMON.contains(w) && own_words.iter().any(|o| o == w))
    };
    let matching: Vec<&AnswerOption> = options.iter().filter(|o| mentions(o)).collect();
    match matching.as_slice() {
        [one] => Some(one.value.clone()),
        _ => None,
    }
}

/// Words that say "the first" and "the second" option.
const ORDINALS: [&[&str]; 2] = [
    &["first", "former", "đầu", "nhất"],
    &["second", "latter", "sau", "nhì"],
];

/// Words every option's label may share, which pick none.
const COMMON: &[&str] = &["the", "a", "one", "ngày", "tháng", "năm", "cái", "là"];

/// The number `answer` is (digits or number words), as a normalised decimal string.
fn number_in(answer: &str) -> Option<String> {
    // (`750k`, `$12.50`, `2 triệu`: an amount as people write it.)
    let toks = lex(&crate::normalise::normalise(answer, None).text);
    let toks = crate::filler::trim_symbols(&toks);
    match toks {
        [
            Token {
                tok: Tok::Num(n), ..
            },
        ] => Some(n.clone()),
        [
            Token {
                tok: Tok::Sym('-'), ..
            },
            Token {
                tok: Tok::Num(n), ..
            },
        ] => Some(format!("-{n}")),
        _ => match crate::numbers::parse_words(toks, 0, true) {
            Some((n, used)) if used == toks.len() => Some(n),
            _ => None,
        },
    }
}

/// The ISO date `answer` is.
fn date_in(answer: &str) -> Option<String> {
    let toks = lex(answer);
    match crate::filler::trim_symbols(&toks) {
        [
            Token {
                tok: Tok::Date(Some(iso)),
                ..
            },
        ] => Some(iso.clone()),
        _ => None,
    }
}

/// A date as an option label: `3 April 2026`, `3 tháng 4 năm 2026`.
fn date_label(iso: &str, language: Language) -> String {
    let mut it = iso.split('-').map(|p| p.parse::<usize>().unwrap_or(0));
    let (y, m, d) = (
        it.next().unwrap_or(0),
        it.next().unwrap_or(1),
        it.next().unwrap_or(1),
    );
    match language.is_vi() {
        true => format!("{d} tháng {m} năm {y}"),
        false => format!("{d} {} {y}", crate::wording::MONTHS[m.clamp(1, 12) - 1]),
    }
}

/// How a numeric date such as `03/04/2026` is read: `Some(true)` day first, `Some(false)`
/// month first, `None` when neither the context nor the language says.
pub fn day_first(ctx: &TaskContext, language: Language) -> Option<bool> {
    if let Some(d) = ctx.day_first {
        return Some(d);
    }
    let tag = ctx
        .language
        .as_deref()
        .unwrap_or(language.as_str())
        .to_ascii_lowercase();
    let region = tag.split(['-', '_']).nth(1);
    match (tag.split(['-', '_']).next(), region) {
        (Some("vi"), _) => Some(true),
        (Some("en"), Some("us" | "ph")) => Some(false),
        (Some("en"), Some(_)) => Some(true),
        _ if language.is_vi() => Some(true),
        _ => None,
    }
}

/// The numeric dates of `toks` whose day and month could be swapped (`03/04/2026`):
/// the text as written and both readings (day first, month first) as ISO dates.
pub fn two_way_dates(toks: &[Token], src: &str) -> Vec<(String, String, String)> {
    toks.iter()
        .filter_map(|t| {
            let Tok::Date(Some(day_first)) = &t.tok else {
                return None;
            };
            let text = &src[t.start..t.end];
            let mut nums = text.split(['/', '.', '-']);
            let (a, b, y) = (nums.next()?, nums.next()?, nums.next()?);
            if a.len() > 2 || y.len() != 4 {
                return None; // ISO (year first) reads one way only
            }
            let (a, b, y): (u32, u32, i32) = (a.parse().ok()?, b.parse().ok()?, y.parse().ok()?);
            let month_first = crate::lexer::iso_date(y, a, b)?;
            // (`03/15/1998` has no day-first reading: the lexer read it month first.)
            let both = a != b && crate::lexer::iso_date(y, b, a).is_some();
            both.then(|| (text.to_owned(), day_first.clone(), month_first))
        })
        .collect()
}

/// The question for a numeric date that reads two ways.
pub fn which_date(text: &str, day_first: &str, month_first: &str, language: Language) -> Question {
    let options = vec![
        AnswerOption {
            label: date_label(day_first, language),
            value: day_first.to_owned(),
        },
        AnswerOption {
            label: date_label(month_first, language),
            value: month_first.to_owned(),
        },
    ];
    let text_q = match language.is_vi() {
        true => format!(
            "\"{text}\" là ngày {} hay ngày {}?",
            options[0].label, options[1].label
        ),
        false => format!(
            "Does \"{text}\" mean {} or {}?",
            options[0].label, options[1].label
        ),
    };
    Question {
        text: text_q,
        options,
        part: text.to_owned(),
        fill: Fill::Replace(text.to_owned()),
        expect: Expect::Option,
    }
}

/// The question for a part missing its last operand (`divide 10 by`).
pub fn missing_operand(part: &str, language: Language) -> Question {
    // An everyday problem (a discount, a split, a tip) misses its amount: say so.
    let money = everyday_money(part);
    let text = match (language.is_vi(), money) {
        (true, false) => format!("\"{part}\" còn thiếu một số: số nào?"),
        (true, true) => format!("\"{part}\" còn thiếu một số: giá hay số tiền là bao nhiêu?"),
        (false, false) => format!("\"{part}\" is missing a number: which number?"),
        (false, true) => {
            format!("\"{part}\" is missing a number: how much is the price or amount?")
        }
    };
    Question {
        text,
        options: Vec::new(),
        part: part.to_owned(),
        fill: Fill::After(part.to_owned()),
        expect: Expect::Number,
    }
}

/// Which exchange rate converts the amount of `asked` (the request up to the currency
/// asked): there is no rate service, so the user's rate is asked and put right after
/// it (`convert 1,850 USD to VND 25400 for my form`).
pub fn exchange_rate(asked: &str, language: Language) -> Question {
    let text = match language.is_vi() {
        true => "Chorus không có dịch vụ tỷ giá: tỷ giá bao nhiêu? (một đơn vị tiền gốc đổi được bao nhiêu, ví dụ 25400)".to_owned(),
        false => {
            "Chorus has no currency rate service: what exchange rate should I use? (how much one unit is worth in the currency asked, e.g. 25400)"
                .to_owned()
        }
    };
    Question {
        text,
        options: Vec::new(),
        part: asked.trim().to_owned(),
        fill: Fill::After(asked.trim_end().to_owned()),
        expect: Expect::Number,
    }
}

/// Words that make an event someone's own (`my wedding`, `our anniversary`).
const OWNERS: &[&str] = &["my", "our", "your", "his", "her", "their"];

/// Events whose date only the user knows.
const EVENTS: &[&[&str]] = &[
    &["wedding"],
    &["anniversary"],
    &["birthday"],
    &["meeting"],
    &["exam"],
    &["trip"],
    &["holiday"],
    &["vacation"],
    &["party"],
    &["concert"],
    &["interview"],
    &["deadline"],
    &["appointment"],
    &["graduation"],
    &["đám", "cưới"],
    &["kỷ", "niệm"],
    &["sinh", "nhật"],
    &["chuyến", "đi"],
    &["buổi", "họp"],
    &["bữa", "tiệc"],
    &["phỏng", "vấn"],
    &["du", "lịch"],
    &["tốt", "nghiệp"],
];

/// Words after which the day counted to comes.
const UNTIL: &[&str] = &["until", "till", "til", "before", "đến", "tới"];

/// Words (folded, lowercase) of everyday money problems: the missing number is then
/// the price or the amount.
const MONEY_WORDS: &[&str] = &[
    "off", "discount", "tip", "split", "share", "ways", "bill", "each", "price", "percent", "tax",
    "sale", "giam", "gia", "tien", "boa", "nguoi",
];

/// Whether `text` is an everyday money problem (a discount, a split, a tip, a bill).
pub(crate) fn everyday_money(text: &str) -> bool {
    let folded = crate::normalise::fold::fold(&text.to_lowercase());
    let words: Vec<&str> = folded.split(|c: char| !c.is_alphanumeric()).collect();
    text.contains('%')
        || words.iter().any(|w| MONEY_WORDS.contains(w))
        || folded.contains("chia deu")
        || folded.contains("hoa don")
}

/// A date the request needs but does not give, found by trial: `plans(text)` says
/// whether the request with a placeholder in the gap is understood better. Asked for:
/// a birthday (`how many days until my birthday`, `còn bao nhiêu ngày nữa là đến sinh
/// nhật tôi`), a birth date (`how old am I`, `tôi bao nhiêu tuổi rồi`), and the month of
/// a day of the month (`what weekday is the 31st`, `ngày 31 là thứ mấy`).
pub fn missing_date(
    query: &str,
    language: Language,
    plans: impl Fn(&str) -> bool,
) -> Option<Question> {
    let toks = lex(query);
    let span = |i: usize, n: usize| (toks[i].start, toks[i + n - 1].end);
    const BIRTHDAY: &[&[&str]] = &[
        &["my", "birthday"],
        &["your", "birthday"],
        &["sinh", "nhật", "của", "tôi"],
        &["sinh", "nhật", "của", "mình"],
        &["sinh", "nhật", "tôi"],
        &["sinh", "nhật", "mình"],
        &["sinh", "nhật"],
        &["birthday"],
    ];
    let found = (0..toks.len()).find_map(|i| {
        BIRTHDAY
            .iter()
            .find(|p| crate::lexer::words_at(&toks, i, p))
            .map(|p| span(i, p.len()))
    });
    if let Some((start, end)) = found {
        let phrase = &query[start..end];
        if plans(&query.replacen(phrase, "25 December", 1)) {
            let text = match language.is_vi() {
                true => {
                    "Sinh nhật của bạn là ngày nào (ngày và tháng, ví dụ 25 tháng 12)?".to_owned()
                }
                false => "What is the date of your birthday (day and month, e.g. 25 December)?"
                    .to_owned(),
            };
            return Some(Question {
                text,
                options: Vec::new(),
                part: query.trim().to_owned(),
                fill: Fill::Replace(phrase.to_owned()),
                expect: Expect::Text,
            });
        }
    }
    // `how long till our anniversary`, `còn mấy ngày nữa đến đám cưới`: an event of
    // the user's, after "until", whose date only they know.
    if let Some(k) = toks
        .iter()
        .position(|t| t.word().is_some_and(|w| UNTIL.contains(&w)))
        && let Some(first) = toks.get(k + 1)
        && toks[k + 1..]
            .iter()
            .all(|t| t.word().is_some() || t.is_sym('?') || t.is_sym('!'))
    {
        let end = toks[k + 1..]
            .iter()
            .rev()
            .find(|t| t.word().is_some())
            .map_or(first.end, |t| t.end);
        let phrase = &query[first.start..end];
        let words: Vec<&str> = toks[k + 1..].iter().filter_map(Token::word).collect();
        let owned = words.first().is_some_and(|w| OWNERS.contains(w)) || words.contains(&"của");
        let event = (0..words.len()).any(|i| {
            EVENTS
                .iter()
                .any(|e| words.len() >= i + e.len() && words[i..i + e.len()] == **e)
        });
        if (owned || event) && plans(&query.replacen(phrase, "25 December", 1)) {
            let text = match language.is_vi() {
                true => {
                    let mut c = phrase.chars();
                    let head: String = c.next().into_iter().flat_map(char::to_uppercase).collect();
                    format!(
                        "{head}{} là ngày nào (ngày và tháng, ví dụ 25 tháng 12)?",
                        c.as_str()
                    )
                }
                false => {
                    format!("What is the date of {phrase} (day and month, e.g. 25 December)?")
                }
            };
            return Some(Question {
                text,
                options: Vec::new(),
                part: query.trim().to_owned(),
                fill: Fill::Replace(phrase.to_owned()),
                expect: Expect::Text,
            });
        }
    }
    // `how old am I`: the birth date goes after the question.
    let ages = toks
        .iter()
        .any(|t| matches!(t.word(), Some("old" | "age" | "tuổi")));
    let trimmed = query.trim_end_matches(|c: char| c == '?' || c.is_whitespace());
    if ages && plans(&format!("{trimmed} 2000-01-01")) {
        // `how old is my mom`, `ông nội tôi bao nhiêu tuổi`: someone else's birth date.
        let other = toks.iter().any(|t| {
            t.word().is_some_and(|w| {
                // (`mình`, `tôi`: the asker, however KIN also counts them.)
                crate::dates::KIN.contains(&w) && !matches!(w, "mình" | "tôi")
                    || matches!(w, "he" | "she" | "they" | "his" | "her" | "their")
            })
        });
        let text = match (language.is_vi(), other) {
            (true, false) => "Bạn sinh ngày nào (ví dụ 3/5/1990)?".to_owned(),
            (true, true) => "Người đó sinh ngày nào (ví dụ 3/5/1990)?".to_owned(),
            (false, false) => "When were you born (e.g. 3 May 1990)?".to_owned(),
            (false, true) => "When were they born (e.g. 3 May 1990)?".to_owned(),
        };
        return Some(Question {
            text,
            options: Vec::new(),
            part: trimmed.to_owned(),
            fill: Fill::After(trimmed.to_owned()),
            expect: Expect::Text,
        });
    }
    // `the 31st`, `ngày 31`: which month.
    let day = (0..toks.len()).find_map(|i| {
        let Tok::Num(n) = &toks.get(i)?.tok else {
            return None;
        };
        let d = n.parse::<u32>().ok().filter(|d| (1..=31).contains(d))?;
        let suffix = matches!(toks.get(i + 1)?.word()?, "st" | "nd" | "rd" | "th");
        let the = i.checked_sub(1).and_then(|j| toks[j].word()) == Some("the");
        let ngay = i.checked_sub(1).and_then(|j| toks[j].word()) == Some("ngày");
        match (suffix, the, ngay) {
            (true, true, _) => Some((span(i - 1, 3), d)),
            (true, false, _) => Some((span(i, 2), d)),
            (false, _, true) if toks.get(i + 1).and_then(Token::word) != Some("tháng") => {
                Some((span(i - 1, 2), d))
            }
            _ => None,
        }
    });
    let ((start, end), d) = day?;
    let phrase = &query[start..end];
    let months: Vec<AnswerOption> = crate::wording::MONTHS
        .iter()
        .enumerate()
        .filter(|(m, _)| crate::lexer::iso_date(2000, *m as u32 + 1, d).is_some())
        .map(|(m, name)| AnswerOption {
            label: match language.is_vi() {
                true => format!("tháng {}", m + 1),
                false => name.to_string(),
            },
            value: match language.is_vi() {
                true => format!("{d} tháng {}", m + 1),
                false => format!("{d} {name}"),
            },
        })
        .collect();
    let first = months.first()?;
    if !plans(&query.replacen(phrase, &first.value, 1)) {
        return None;
    }
    let text = match language.is_vi() {
        true => format!("\"{phrase}\" là ngày {d} của tháng nào?"),
        false => format!("Which month do you mean: \"{phrase}\" of which month?"),
    };
    Some(Question {
        text,
        options: months,
        part: query.trim().to_owned(),
        fill: Fill::Replace(phrase.to_owned()),
        expect: Expect::Option,
    })
}

/// The question for a reference to an earlier answer (`that`) in a request with no
/// earlier answer to refer to.
pub fn which_value(reference: &str, part: &str, language: Language) -> Question {
    // An everyday problem (`split it 5 ways`) refers to an amount: ask how much.
    let money = everyday_money(part);
    let text = match language.is_vi() {
        true if money => format!(
            "\"{reference}\" là bao nhiêu tiền? Cuộc trò chuyện này chưa có câu trả lời nào trước đó."
        ),
        false if money => format!(
            "How much do you mean by \"{reference}\"? There is no earlier answer in this conversation."
        ),
        true => format!(
            "\"{reference}\" là số (hoặc ngày) nào? Cuộc trò chuyện này chưa có câu trả lời nào trước đó."
        ),
        false => format!(
            "Which number (or date) do you mean by \"{reference}\"? There is no earlier answer in this conversation."
        ),
    };
    Question {
        text,
        options: Vec::new(),
        part: part.to_owned(),
        fill: Fill::Replace(reference.to_owned()),
        expect: Expect::Value,
    }
}

/// The question for a weekday name that could mean two dates (`friday`): the coming
/// one or the last one, each as the words the planner reads (`next friday`).
pub fn which_weekday(text: &str, name: &str, language: Language) -> Question {
    // (value, label) of the coming one and of the last one, and the question.
    let (coming, last, q) = match language.is_vi() {
        true => {
            let coming = format!("{text} tới");
            let last = format!("{text} tuần trước");
            let q = format!("\"{text}\" là {coming} hay {last}?");
            ((coming.clone(), coming), (last.clone(), last), q)
        }
        false => (
            (format!("next {name}"), format!("the coming {name}")),
            (format!("last {name}"), format!("last {name}")),
            format!("Which {name} do you mean: the coming one or the last one?"),
        ),
    };
    let options = [coming, last]
        .into_iter()
        .map(|(value, label)| AnswerOption { label, value })
        .collect();
    Question {
        text: q,
        options,
        part: text.to_owned(),
        fill: Fill::Replace(text.to_owned()),
        expect: Expect::Option,
    }
}

/// A question a model asked about `query` (its text and options in the user's
/// language): any answer settles it, and goes after the request for the model to read.
pub fn from_model(query: &str, text: &str, options: &[String]) -> Question {
    Question {
        text: text.to_owned(),
        options: options
            .iter()
            .map(|o| AnswerOption {
                label: o.clone(),
                value: o.clone(),
            })
            .collect(),
        part: query.trim().to_owned(),
        fill: Fill::Context(text.to_owned()),
        expect: Expect::Text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_operand_goes_after_its_part() {
        let q = missing_operand("divide 10 by", Language::En);
        assert_eq!(
            resume("please divide 10 by?", &q, " 4 ").as_deref(),
            Ok("please divide 10 by 4?")
        );
        assert_eq!(
            resume("divide 10 by", &q, "two").as_deref(),
            Ok("divide 10 by 2")
        );
        assert!(resume("divide 10 by", &q, "banana").is_err());
    }

    #[test]
    fn an_option_is_picked_by_number_ordinal_label_value_or_its_own_words() {
        let q = which_date("03/04/2026", "2026-04-03", "2026-03-04", Language::En);
        assert_eq!(q.options[0].label, "3 April 2026");
        let picks = [
            ("1", "2026-04-03"),
            ("2", "2026-03-04"),
            ("the second one", "2026-03-04"),
            ("3 April 2026", "2026-04-03"),
            ("2026-03-04", "2026-03-04"),
            ("March", "2026-03-04"),
            ("april please", "2026-04-03"),
        ];
        for (answer, iso) in picks {
            assert_eq!(
                resume("what weekday is 03/04/2026", &q, answer).as_deref(),
                Ok(format!("what weekday is {iso}").as_str()),
                "{answer}"
            );
        }
        for bad in ["3", "May", "both", ""] {
            assert!(
                resume("what weekday is 03/04/2026", &q, bad).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_models_question_takes_any_answer_after_the_request() {
        let q = from_model(
            "split the bill",
            "Among how many people?",
            &["2".into(), "3".into()],
        );
        assert_eq!(
            resume("split the bill", &q, "the second").as_deref(),
            Ok("split the bill\n(answer to \"Among how many people?\": 3)")
        );
        assert_eq!(
            resume("split the bill", &q, "four of us").as_deref(),
            Ok("split the bill\n(answer to \"Among how many people?\": four of us)")
        );
    }

    #[test]
    fn only_dates_whose_day_and_month_can_swap_read_two_ways() {
        let src = "03/04/2026 25/12/2026 2026-03-04 05/05/2026";
        let found = two_way_dates(&lex(src), src);
        assert_eq!(
            found,
            vec![(
                "03/04/2026".to_owned(),
                "2026-04-03".to_owned(),
                "2026-03-04".to_owned()
            )]
        );
    }

    #[test]
    fn the_language_or_the_context_settles_the_order() {
        let ctx = |language: Option<&str>, day_first: Option<bool>| TaskContext {
            language: language.map(str::to_owned),
            day_first,
            ..TaskContext::default()
        };
        assert_eq!(day_first(&ctx(None, None), Language::En), None);
        assert_eq!(day_first(&ctx(None, None), Language::Vi), Some(true));
        assert_eq!(
            day_first(&ctx(Some("en-US"), None), Language::En),
            Some(false)
        );
        assert_eq!(
            day_first(&ctx(Some("en-GB"), None), Language::En),
            Some(true)
        );
        assert_eq!(
            day_first(&ctx(None, Some(false)), Language::Vi),
            Some(false)
        );
    }
}
