//! What stands around what is asked: asides in brackets, words of context said before
//! the request, a last sentence asking for rounding, labels with their numbers.

use super::request::parse_request;
use super::separators::strong_segments;
use super::{Parsed, ParsedPart, PartQuery};
use crate::arith;
use crate::dates::DateQuery;
use crate::expr::Expr;
use crate::filler;
use crate::lexer::{Tok, Token};

/// `what time is it in prague when its 8am in hanoi`: the question asked before the
/// time it is asked at, as a new text with the condition first (`when its 8am in hanoi
/// what time is it in prague`), the order the time readers know.
pub(super) fn condition_last(toks: &[Token], src: &str) -> Option<String> {
    let clock = |range: std::ops::Range<usize>| {
        range
            .into_iter()
            .any(|j| crate::places::time_at(toks, j).is_some())
    };
    let i = (1..toks.len()).find(|&i| {
        toks[i]
            .word()
            .is_some_and(|w| matches!(w, "when" | "if" | "khi" | "nếu"))
    })?;
    let asks_time = toks[..i].iter().any(|t| t.word() == Some("time"))
        || crate::lexer::says(&toks[..i], &[&["mấy", "giờ"]]);
    (asks_time && clock(i..toks.len()) && !clock(0..i)).then(|| {
        let cut = toks[i].start;
        format!(
            "{} {}",
            src[cut..].trim(),
            src[..cut].trim_end_matches([' ', ','])
        )
    })
}

/// `toks` without the time of year that names a payment (`thưởng cuối năm 7tr2`, `lương
/// cuối tháng`): the amount's name, no period to count.
pub(super) fn without_when_paid(toks: &[Token]) -> Option<Vec<Token>> {
    // (Compared folded: `thuong cuoi nam` typed without marks.)
    let fold = crate::normalise::fold::fold;
    let is = |k: usize, list: &[&str]| {
        toks.get(k)
            .and_then(Token::word)
            .is_some_and(|w| list.iter().any(|l| fold(l) == fold(w)))
    };
    let at = (1..toks.len()).find(|&i| {
        is(i - 1, &["thưởng", "lương", "bonus"])
            && is(i, &["cuối", "đầu", "giữa"])
            && is(i + 1, &["năm", "tháng", "quý"])
    })?;
    let mut out = toks.to_vec();
    out.drain(at..at + 2);
    Some(out)
}

/// `toks` without their asides in brackets (words and commas only, at least two
/// words: `(hw question, need the decimal)`, `(semester start)`), when there are any.
pub(super) fn without_asides(toks: &[Token]) -> Option<Vec<Token>> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut dropped = false;
    let mut i = 0;
    while i < toks.len() {
        if toks[i].is_sym('(')
            && let Some(close) = (i + 1..toks.len()).find(|&k| toks[k].is_sym(')'))
        {
            let inside = &toks[i + 1..close];
            let words = inside.iter().filter(|t| t.word().is_some()).count();
            let only_words = inside
                .iter()
                .all(|t| t.word().is_some() || t.is_sym(',') || t.is_sym('\''));
            // (`how much was it (round to cents)`: a rounding in brackets is said, its
            // brackets dropped.)
            if only_words && opens_rounding(inside, 0) {
                dropped = true;
                out.extend(inside.iter().cloned());
                i = close + 1;
                continue;
            }
            if only_words && words >= 2 {
                dropped = true;
                i = close + 1;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    dropped.then_some(out)
}

/// Words a request's context cannot drop: they change what is asked (a negation, a
/// direction in time, an operation, a day).
#[rustfmt::skip]
const MEANING: &[&str] = &[
    // (Laid out by hand: the vocabulary is learnt line by line, and the Vietnamese
    // words typed without marks here are Vietnamese only beside a word with its marks.)
    "not", "no", "ago", "after", "before", "since", "until", "till", "if", "plus", "minus",
    "times", "half", "double", "percent", "tax", "discount", "next", "last", "this", "today",
    "tomorrow", "yesterday", "tonight", "morning", "evening", "week", "month", "year", "day",
    "days", "at", "in", "for", "of",
    "không", "chưa", "trước", "sau", "từ", "đến", "tới", "nếu", "cộng", "trừ", "nhân", "chia",
    "thuế", "giảm", "tăng", "mai", "qua", "nay", "tuần", "tháng", "năm", "ngày", "hôm",
    "sáng", "chiều", "tối", "lúc", "ở", "bên", "tại",
    // (A follow-up's lead words join it to the conversation: never context.)
    "and", "then", "now", "but", "so",
    "và", "còn", "rồi", "thế", "vậy",
];

/// The request read after words of context said before it (`em gái ở Frankfurt giờ
/// này mấy giờ rồi`, `deadline khách vancouver 22/12 là thứ mấy`), when the whole did
/// not read: the shortest run of leading words (at most six, words only, none that
/// could change the question) whose dropping leaves a request read whole.
pub fn after_context(toks: &[Token], src: &str) -> Option<Parsed> {
    // (`will it rain tomorrow`, `giá vàng hôm nay bao nhiêu`: what was dropped would be
    // the question, outside every tool.)
    let language = crate::language::detect(src, None);
    // (A trade's word says what was done, not what is asked, where what is left is
    // arithmetic: `dịch 24 trang 150k/trang bn`, translated pages paid by the page.)
    let outside = crate::scope::outside_tools(src, language).is_some();
    // The rest must ask something itself (`mấy giờ`, `thứ mấy`, `how many`).
    let asks = |rest: &[Token]| {
        rest.iter().any(|t| {
            t.is_sym('?')
                || t.word().is_some_and(|w| {
                    matches!(
                        w,
                        "mấy" | "bao" | "bn" | "what" | "whats" | "how" | "when" | "which"
                    )
                })
        })
    };
    let droppable = |t: &Token| match &t.tok {
        Tok::Word(w) => !MEANING.contains(&w.as_str()),
        Tok::Sym(c) => *c == ',' || *c == ':',
        _ => false,
    };
    let most = toks.iter().take(6).take_while(|t| droppable(t)).count();
    (1..=most.min(toks.len().saturating_sub(3))).find_map(|k| {
        let rest = &toks[k..];
        let question = rest.iter().filter(|t| !t.is_sym('?')).count() >= 3 && asks(rest);
        // (A place of more than three words took in the context: `in oslo said
        // something about 9am`.)
        let plain_place = |p: &ParsedPart| match &p.query {
            PartQuery::Date(DateQuery::TimeIn { place }) => place.split_whitespace().count() <= 3,
            PartQuery::Date(DateQuery::ConvertTime { from, to, .. }) => {
                from.split_whitespace().count() <= 3 && to.split_whitespace().count() <= 3
            }
            _ => true,
        };
        question
            .then(|| parse_request(rest, src))
            .and_then(Result::ok)
            .filter(|p| {
                !p.parts.is_empty()
                    && p.failed.is_empty()
                    && p.parts.iter().all(plain_place)
                    && (!outside
                        || p.parts
                            .iter()
                            .all(|p| matches!(p.query, PartQuery::Math(_))))
            })
    })
}

/// The request before its last sentence and the decimal places that sentence asks to
/// round to, when it only asks that (`round to 1 decimal`, `1 decimal is fine`, `làm
/// tròn 2 số thập phân`).
pub(super) fn rounding_after(toks: &[Token]) -> Option<(&[Token], Expr)> {
    // (`£1,480 over 12 months, how much a month rounded to the penny`: a rounding said
    // at the end of the last sentence.)
    let tail = (1..toks.len()).rev().find_map(|k| {
        if !opens_rounding(toks, k) {
            return None;
        }
        match arith::parse_continuation(filler::trim_symbols(&toks[k..])) {
            Some(Expr::Op(crate::expr::MathOp::Round, args))
                if matches!(args.as_slice(), [Expr::Num(p), _] if p == Expr::PREVIOUS) =>
            {
                Some((filler::trim_symbols(&toks[..k]), args[1].clone()))
            }
            _ => None,
        }
    });
    if tail.is_some() {
        return tail;
    }
    // (`rent is $1,850 split 3 ways, how much each to the cent`: the place alone at the
    // end says the rounding.)
    // (Never the places of a rounding said before them: `round 383.3333 to the cent`.)
    let trimmed = filler::trim_symbols(toks);
    let said_round = trimmed
        .iter()
        .any(|t| matches!(t.word(), Some("round" | "rounded" | "tròn")));
    if let Some((said, places)) = TO_PLACE.iter().filter(|_| !said_round).find(|(p, _)| {
        trimmed.len() > p.len() && crate::lexer::words_at(trimmed, trimmed.len() - p.len(), p)
    }) {
        let rest = filler::trim_symbols(&trimmed[..trimmed.len() - said.len()]);
        return Some((rest, Expr::Num((*places).into())));
    }
    let segments = strong_segments(toks);
    let [.., last] = segments.as_slice() else {
        return None;
    };
    if segments.len() < 2 {
        return None;
    }
    let first = last.first()?.start;
    let start = toks.iter().position(|t| t.start == first)?;
    let rest = filler::trim_symbols(&toks[..start]);
    let last = filler::trim_symbols(last);
    if let Some(Expr::Op(crate::expr::MathOp::Round, args)) = arith::parse_continuation(last)
        && let [Expr::Num(p), places] = args.as_slice()
        && p == Expr::PREVIOUS
    {
        return Some((rest, places.clone()));
    }
    // `1 decimal is fine`, `2 decimals pls`: the places, then only words of assent.
    const ASSENT: &[&str] = &[
        "is", "fine", "ok", "okay", "pls", "please", "enough", "only", "thanks",
    ];
    // (`one decimal`: the count spelt.)
    let n = match last.first()?.word() {
        Some("one") => "1",
        Some("two") => "2",
        Some("three") => "3",
        _ => last.first()?.number()?,
    };
    let unit = last.get(1)?.word()?;
    let fine = last[2..]
        .iter()
        .all(|t| t.word().is_some_and(|w| ASSENT.contains(&w)) || t.is_sym('.') || t.is_sym('!'));
    (matches!(unit, "decimal" | "decimals" | "dp") && fine).then(|| (rest, Expr::Num(n.to_owned())))
}

/// Whether a rounding is said from `toks[k]` on (`round`, `rounded`, `làm tròn`).
fn opens_rounding(toks: &[Token], k: usize) -> bool {
    matches!(toks.get(k).and_then(Token::word), Some("round" | "rounded"))
        || crate::lexer::words_at(toks, k, &["làm", "tròn"])
}

/// A place said alone at the end of a request, and the decimals it keeps.
const TO_PLACE: &[(&[&str], &str)] = &[
    (&["to", "the", "cent"], "2"),
    (&["to", "the", "nearest", "cent"], "2"),
    (&["to", "the", "penny"], "2"),
    (&["to", "the", "nearest", "penny"], "2"),
    (&["to", "the", "nearest", "dollar"], "0"),
];

/// Words a number after them names (`unit 2`, `phòng 3`), rather than counts.
const LABELS: &[&str] = &[
    "unit",
    "apt",
    "apartment",
    "room",
    "suite",
    "flat",
    "lot",
    "phòng",
    "căn",
    // (`Hóa đơn bàn 5: 2 dĩa ốc …`: the table's number, no quantity.)
    "bàn",
    "table",
    "#",
];

/// Words that may follow a label's number (`unit 4 from 2000`, `unit 2 is behind`).
const AFTER_LABEL: &[&str] = &[
    "is", "was", "from", "pays", "paid", "owes", "rent", "went", "goes", "and", "trả", "đóng",
    "thuê", "tiền", "từ", "thì", "là",
];

/// Words after a period's number that say its amount follows.
const AFTER_PERIOD: &[&str] = &["là", "được", "is", "was", "were", "came", "made"];

/// `toks` with each label and its number (`unit 2`, `phòng 1`) made one word, when
/// there are any: a whole number right after a label word, followed by another number,
/// a punctuation mark, the end or a word of [`AFTER_LABEL`].
pub(super) fn with_labels(toks: &[Token]) -> Option<Vec<Token>> {
    let label =
        |k: usize| toks[k].word().is_some_and(|w| LABELS.contains(&w)) || toks[k].is_sym('#');
    let names = |k: usize| {
        k > 0
            && label(k - 1)
            && toks[k]
                .number()
                .is_some_and(|n| n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit()))
            && match toks.get(k + 1).map(|t| &t.tok) {
                // (`phòng 23/12`: a date, no label.)
                Some(Tok::Sym(c)) => ",;)?!:".contains(*c),
                None | Some(Tok::Num(_)) => true,
                Some(Tok::Word(w)) => AFTER_LABEL.contains(&w.as_str()),
                Some(Tok::Date(_)) => false,
            }
    };
    // (`tháng 9 là 1.110.000, tháng 10 là 1.340.000`, `tuần 1 được 4.250.000, tuần 2
    // 3.980.000`: periods named by their number in a list of amounts, two at least.)
    let period = |k: usize| {
        k > 0
            && toks[k - 1]
                .word()
                .is_some_and(|w| crate::frames::vocabulary::PERIOD_LABELS.contains(&w))
            && toks[k]
                .number()
                .is_some_and(|n| n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()))
            && match toks.get(k + 1).map(|t| &t.tok) {
                Some(Tok::Sym(c)) => ":=".contains(*c),
                Some(Tok::Num(n)) => n.split('.').next().is_some_and(|i| i.len() >= 4),
                Some(Tok::Word(w)) => AFTER_PERIOD.contains(&w.as_str()),
                _ => false,
            }
    };
    // (Only for a total or an average: a change between months needs their order.)
    let listed = toks.iter().any(|t| {
        t.word().is_some_and(|w| {
            matches!(
                w,
                "tổng" | "total" | "cộng" | "sum" | "average" | "avg" | "trung"
            )
        })
    });
    let periods = listed && (1..toks.len()).filter(|&k| period(k)).count() >= 2;
    let names = |k: usize| names(k) || periods && period(k);
    if !(1..toks.len()).any(names) {
        return None;
    }
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for (k, t) in toks.iter().enumerate() {
        if names(k) {
            let label = out.pop()?;
            let name = format!("{}{}", label.word().unwrap_or("#"), t.number()?);
            out.push(Token {
                tok: Tok::Word(name),
                start: label.start,
                end: t.end,
            });
        } else {
            out.push(t.clone());
        }
    }
    Some(out)
}
