//! Questions for the other half of a price times a count: a count of things whose
//! money is asked with no price said (`bán 300 kg tôm thì được bao nhiêu tiền`: the
//! price of one kilo is asked), or a price of one thing whose total is asked with no
//! count said (`phân bón 385k 1 bao, mua hết bao nhiêu`: how many bags is asked).

use chorus_bus::Language;

use super::{Expect, Fill, Question};
use crate::lexer::{Token, lex};

/// Words (with their marks; compared folded) that tie a price to one thing after it.
const TIES: &[&str] = &["một", "mỗi", "a", "an", "per", "each", "1"];

/// Words (folded) that ask money or a total.
const MONEY_ASKED: &[&str] = &[
    "tiền", "tổng", "hết", "được", "total", "pay", "earn", "make",
];

/// Words (folded) of other questions than a price or a count: a split, a share, `man`
/// (ten thousand yen).
const OTHER: &[&str] = &[
    "chia",
    "split",
    "splitting",
    "share",
    "shared",
    "between",
    "among",
    "man",
];

/// Words (folded) that ask the total of a price times a count.
const TOTAL_ASKED: &[&str] = &["tổng", "hết", "cả", "đoàn", "total", "altogether", "all"];

/// Periods and people (folded), never the thing a price is asked for.
const PERIODS: &[&str] = &[
    "ngày", "tuần", "tháng", "năm", "đêm", "days", "weeks", "months", "years", "nights",
];

/// People (folded), never the thing a price is asked for.
const PEOPLE: &[&str] = &["người", "people", "khách", "guests", "persons"];

/// Hours, for pay asked by the hour.
const HOURS: &[&str] = &["hours", "hour", "hrs", "hr", "giờ", "tiếng"];

/// The question for the price or the count a request never said, when it says one
/// number and saying the other (a placeholder) makes it plannable (`plans`).
pub fn missing_price_or_count(
    query: &str,
    language: Language,
    plans: impl Fn(&str) -> bool,
) -> Option<Question> {
    let toks = lex(query);
    // (A `1` before a word ties a price to one thing: `385k 1 bao`.)
    let one =
        |k: usize| toks[k].number() == Some("1") && toks.get(k + 1).and_then(Token::word).is_some();
    let nums: Vec<usize> = (0..toks.len())
        .filter(|&k| toks[k].number().is_some() && !one(k))
        .collect();
    let [k] = nums.as_slice() else {
        return None;
    };
    let k = *k;
    if toks.iter().any(|t| t.is_sym('%') || t.is_sym(':')) {
        return None;
    }
    let fold = |w: &str| crate::normalise::fold::fold(w);
    let is_in = |list: &[&str], w: &str| list.iter().any(|l| fold(l) == fold(w));
    let word = |i: usize| toks.get(i).and_then(Token::word);
    // (A split, a currency or a count asked in the unit itself are other questions:
    // `chia đều cho 4 người`, `gửi 10 man yen`, `45 bó hoa, một tuần bao nhiêu bó`.)
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    if words.iter().any(|w| is_in(OTHER, w)) || crate::exchange::names_currency(&toks) {
        return None;
    }
    let asked = toks
        .iter()
        .filter_map(Token::word)
        .any(|w| is_in(MONEY_ASKED, w))
        || (0..toks.len()).any(|i| {
            crate::lexer::words_at(&toks, i, &["bao", "nhiêu"])
                || crate::lexer::words_at(&toks, i, &["how", "much"])
        });
    if !asked {
        return None;
    }
    let vi = language.is_vi();
    let count_asked = |unit: &str| {
        (0..toks.len()).any(|i| {
            (crate::lexer::words_at(&toks, i, &["bao", "nhiêu"])
                || crate::lexer::words_at(&toks, i, &["how", "many"]))
                && word(i + 2).is_some_and(|w| fold(w) == fold(unit))
        })
    };
    // A price tied to one thing (`385000 1 bao`, `21450 một lít`, `400000 một ngày`): the
    // count is asked.
    let tied = word(k + 1).is_some_and(|w| is_in(TIES, w)) || (k + 1 < toks.len() && one(k + 1));
    if let Some(unit) = word(k + 2).filter(|_| tied) {
        // (The total asked, or pay by the hour: `luong 6tr850 1 nam dc bn` asks a
        // year's amount, no count.)
        let hours = is_in(HOURS, unit);
        if !(words.iter().any(|w| is_in(TOTAL_ASKED, w)) || hours) {
            return None;
        }
        let (text, fill) = match (vi, hours) {
            (true, _) => (format!("Bao nhiêu {unit}?"), format!(", {{}} {unit}")),
            (false, true) => ("How many hours?".to_owned(), ", {} hours".to_owned()),
            (false, false) => (format!("How many {unit}?"), format!(", {{}} {unit}")),
        };
        return ask(query, &text, &fill, &plans);
    }
    // A count of things (`300 kg`, `6 hộp`, `32 hrs`): the price of one is asked.
    let unit = word(k + 1)?;
    // (`hạn dùng 24 tháng`: a period is no thing priced; `cho 3 người`: nor people.)
    if is_in(TIES, unit) || is_in(PERIODS, unit) || is_in(PEOPLE, unit) || count_asked(unit) {
        return None;
    }
    let hours = is_in(HOURS, unit);
    // (In English only pay by the hour: `how much is shipping 40 vases to lyon` asks a
    // price no tool knows.)
    if !vi && !hours {
        return None;
    }
    let (text, fill) = match (vi, hours) {
        (true, true) => (
            "Lương một giờ là bao nhiêu?".to_owned(),
            ", {} một giờ".to_owned(),
        ),
        (true, false) => (
            format!("Giá một {unit} là bao nhiêu?"),
            format!(", giá {{}} một {unit}"),
        ),
        (false, true) => (
            "How much do you earn an hour?".to_owned(),
            " at {} an hour".to_owned(),
        ),
        (false, false) => (
            format!("How much does one {unit} cost?"),
            format!(" at {{}} per {unit}"),
        ),
    };
    ask(query, &text, &fill, &plans)
}

/// The question `text`, when the request with `fill` (a placeholder for `{}`) plans.
fn ask(query: &str, text: &str, fill: &str, plans: impl Fn(&str) -> bool) -> Option<Question> {
    let trial = format!("{}{}", query.trim_end(), fill.replace("{}", "2"));
    plans(&trial).then(|| Question {
        text: text.to_owned(),
        options: Vec::new(),
        part: query.trim().to_owned(),
        fill: Fill::Appended(fill.to_owned()),
        expect: Expect::Number,
    })
}
