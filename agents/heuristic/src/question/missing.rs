//! Questions for what a request lacks: an operand, an exchange rate, a date only the
//! user knows, the value a reference to an earlier answer stands for.

use chorus_bus::{AnswerOption, Language};

use super::{Expect, Fill, Question};
use crate::lexer::{Tok, Token, lex};

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

/// Counts a request can miss, by what asks them: the words that ask (any, compared
/// folded), the text that says the count after the request (English, Vietnamese), and
/// the question (English, Vietnamese).
const COUNTS: &[(&[&str], [&str; 2], [&str; 2])] = &[
    // `rent is 4100 split it evenly`, `chia đều quỹ lớp 2tr4 cho hs`: among how many.
    (
        &["split", "evenly", "share", "chia"],
        [" between {} people", " cho {} người"],
        [
            "How many people is it split between?",
            "Chia cho bao nhiêu người?",
        ],
    ),
    // `Tour giá 1.650.000đ một khách, cả đoàn thì bao nhiêu tiền?`: how many in the group.
    (
        &["đoàn", "nhóm", "group", "everyone"],
        [" for {} people", ", đoàn {} khách"],
        [
            "How many people are in the group?",
            "Đoàn có bao nhiêu khách?",
        ],
    ),
];

/// The question for a count a request never said (how many people share an amount, how
/// many are in a group priced per head), when saying one would make it plannable
/// (`better`), and the request says exactly one number.
pub fn missing_count(
    query: &str,
    language: Language,
    better: impl Fn(&str) -> bool,
) -> Option<Question> {
    let toks = lex(query);
    if toks.iter().filter(|t| t.number().is_some()).count() != 1 {
        return None;
    }
    let fold = crate::normalise::fold::fold;
    let said = |cues: &[&str]| {
        toks.iter()
            .filter_map(Token::word)
            .any(|w| cues.iter().any(|c| fold(c) == fold(w)))
    };
    let vi = usize::from(language.is_vi());
    COUNTS.iter().find_map(|(cues, appended, asked)| {
        let trial = format!("{}{}", query.trim_end(), appended[vi].replace("{}", "2"));
        (said(cues) && better(&trial)).then(|| Question {
            text: asked[vi].to_owned(),
            options: Vec::new(),
            part: query.trim().to_owned(),
            fill: Fill::Appended(appended[vi].to_owned()),
            expect: Expect::Number,
        })
    })
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
    &["payday"],
    &["flight"],
    &["defence"],
    &["defense"],
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

/// Whether `query` counts the days until an event of the user's (`how many days till my
/// flight home`, `days until payday`): a date question to ask about, even where a word
/// of it (`flight`) names something outside the tools.
pub(crate) fn days_to_own_event(query: &str) -> bool {
    let toks = lex(query);
    (0..toks.len()).any(|k| {
        let until = toks[k].word().is_some_and(|w| UNTIL.contains(&w));
        let counted = toks[..k]
            .iter()
            .any(|t| matches!(t.word(), Some("days" | "ngày")));
        let owned = toks
            .get(k + 1)
            .and_then(Token::word)
            .is_some_and(|w| OWNERS.contains(&w));
        let event = EVENTS.iter().any(|e| {
            crate::lexer::words_at(&toks, k + 1, e) || crate::lexer::words_at(&toks, k + 2, e)
        });
        until && counted && (owned || event)
    })
}

/// Words (folded, lowercase) of everyday money problems: the missing number is then
/// the price or the amount.
const MONEY_WORDS: &[&str] = &[
    "off",
    "discount",
    "tip",
    "split",
    "share",
    "ways",
    "bill",
    "each",
    "price",
    "percent",
    "tax",
    "sale",
    "giam",
    "gia",
    "tien",
    "boa",
    "nguoi",
    "commission",
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
        // (`toi`, `den` typed without marks: `tới`, `đến` folded.)
        .position(|t| {
            t.word().is_some_and(|w| {
                UNTIL.contains(&w)
                    || w.is_ascii() && UNTIL.iter().any(|u| crate::normalise::fold::fold(u) == w)
            })
        })
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
        // (`how many days until the inspection`, `bao nhiêu ngày nữa tới đám giỗ ông`: a
        // count of days to something named, whatever it is, when the named day read in
        // its place plans.)
        let days_counted = toks[..k]
            .iter()
            .any(|t| matches!(t.word(), Some("days" | "ngày" | "long" | "lâu")));
        // (Named as a thing of the user's: after `the` in English — never `until pizza`
        // —, any phrase in Vietnamese; never a day Chorus knows, `christmas`.)
        let thing = words.first().is_some_and(|w| *w == "the") || language.is_vi();
        let known = crate::dates::named_day_end(&toks, k + 1).is_some();
        let named = owned || event || days_counted && thing && !known;
        if named && plans(&query.replacen(phrase, "25 December", 1)) {
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
