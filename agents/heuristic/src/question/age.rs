//! The birth date an age asked without one needs: `How old is my grandson now?`,
//! `mẹ chồng em năm nay bao nhiêu tuổi nhỉ`.

use chorus_bus::Language;

use super::{Expect, Fill, Question};
use crate::lexer::{Tok, lex, words_at};

/// Words asking an age.
const AGE_ASKED: &[&[&str]] = &[
    &["how", "old"],
    &["bao", "nhiêu", "tuổi"],
    &["mấy", "tuổi"],
    &["tính", "tuổi"],
];

/// Words saying the age asked is a person's.
const PERSON: &[&str] = &[
    "i",
    "me",
    "my",
    "you",
    "your",
    "he",
    "she",
    "his",
    "her",
    "son",
    "daughter",
    "grandson",
    "granddaughter",
    "niece",
    "nephew",
    "mom",
    "mum",
    "dad",
    "mother",
    "father",
    "grandma",
    "grandpa",
    "wife",
    "husband",
    "brother",
    "sister",
    "kid",
    "kids",
    "baby",
    "tôi",
    "mình",
    "em",
    "anh",
    "chị",
    "cháu",
    "con",
    "mẹ",
    "bố",
    "ba",
    "ông",
    "bà",
    "vợ",
    "chồng",
    "bé",
];

/// The question for the birth date an age is asked without (no date or year said),
/// when a birth date after the request would make it plannable (`plans`); the answer
/// goes after the request (` born 14 March 2019`, ` sinh ngày 14/3/2019`).
pub fn missing_birth(
    query: &str,
    language: Language,
    plans: impl Fn(&str) -> bool,
) -> Option<Question> {
    let toks = lex(query);
    let asked = (0..toks.len()).any(|i| AGE_ASKED.iter().any(|p| words_at(&toks, i, p)));
    let dated = toks.iter().any(|t| match &t.tok {
        Tok::Date(_) => true,
        Tok::Num(n) => n.len() == 4,
        _ => false,
    });
    // (A person's age: `how old is the universe` asks nothing a birth date settles.)
    let person = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| PERSON.contains(&w)));
    if !asked || dated || !person {
        return None;
    }
    let (after, example, text) = match language.is_vi() {
        true => (
            " sinh ngày {}",
            "14/3/2019",
            "Người đó sinh ngày nào? Cho mình ngày, tháng, năm sinh (ví dụ 14/3/2019).",
        ),
        false => (
            " born {}",
            "14 March 2019",
            "When was that person born? Tell me the day, month and year (e.g. 14 March 2019).",
        ),
    };
    let request = query.trim_end();
    plans(&format!("{request}{}", after.replace("{}", example))).then(|| Question {
        text: text.to_owned(),
        options: Vec::new(),
        part: request.to_owned(),
        fill: Fill::Appended(after.to_owned()),
        expect: Expect::Text,
    })
}
