//! A calculation written with its operators, each number with a label or a unit beside
//! it: `phan npk 14 bao x 685k`, `520kg / 50kg per bag = how many bags`, `phone 55,000 +
//! internet 33,000 + gym 60,000 won, total monthly`. The operators say what to do; the
//! words only name what the numbers are, so they are dropped and the rest read as
//! arithmetic.
//!
//! Nothing else may be said: a word of an operation (`times`, `chia`), of a cue that
//! changes the sum (`each`, `off`, `more`), a percentage, a date or a clock time leave
//! the request to the other readers.

use crate::expr::Expr;
use crate::lexer::{Tok, Token};

use super::words::*;

/// Words after the last number that only ask for the result (`= how many bags`,
/// `total monthly`, `tổng bn`).
const ASKS: &[&str] = &[
    "how",
    "many",
    "much",
    "what",
    "whats",
    "is",
    "it",
    "that",
    "total",
    "in",
    "all",
    "per",
    "bao",
    "nhiêu",
    "bn",
    "tổng",
    "cộng",
    "là",
    "dc",
    "được",
    "hết",
    "tất",
    "cả",
    "tiền",
    "ok",
    "pls",
    "please",
    "left",
    "remaining",
    "còn",
    "lại",
    "net",
];

/// Words after the last number of a division that ask each one's share (`chia đều
/// 1.500.000đ tiền công cho 4 thợ, mỗi người được bao nhiêu`).
const ASKS_SHARE: &[&str] = &["mỗi", "each", "người", "được", "nhận"];

/// Words naming an amount before what is taken off it (`gross 190,250 minus deductions
/// 28,610, net?`): labels, and known words, so no typo correction turns them into others
/// (`gross` had become `grows`).
const BEFORE_TAKEN: &[&str] = &[
    "gross", "pretax", "income", "salary", "wage", "wages", "pay", "paycheck",
];

/// Words that change what the numbers do: never a label.
const CHANGES: &[&str] = &[
    "each",
    "every",
    "off",
    "more",
    "less",
    "left",
    "remaining",
    "without",
    "except",
    "not",
    "than",
    "split",
    "share",
    "between",
    "among",
    "tip",
    "tax",
    "discount",
    "minus",
    "plus",
    "times",
    "divided",
    "over",
    "half",
    "double",
    "twice",
    "average",
    "mean",
    "of",
    "from",
    "to",
    "mỗi",
    "chia",
    "nhân",
    "trừ",
    "cộng",
    "giảm",
    "tăng",
    "thêm",
    "còn",
    "lại",
    "nữa",
    "gấp",
    "percent",
    "and",
    "và",
    "với",
    "then",
    "rồi",
];

/// The calculation `toks` write with operators between numbers that carry labels, or
/// `None` when anything but labels, units and a question is said.
pub(super) fn labelled(w: &Words) -> Option<Expr> {
    let toks = w.toks;
    if toks.len() > 40
        || toks
            .iter()
            .any(|t| matches!(t.tok, Tok::Date(_) | Tok::Sym('%' | '(' | ')' | '^')))
        || crate::lexer::has_clock_time(toks)
        || w.says(&[&["phần", "trăm"]])
    {
        return None;
    }
    let nums = crate::lexer::number_positions(toks);
    if !(2..=6).contains(&nums.len()) {
        return None;
    }
    let (first, last) = (nums[0], nums[nums.len() - 1]);
    // `chia (đều) 1.500.000đ tiền công cho 4 thợ`: `chia` before the amount, `cho`
    // before what divides it.
    let chia = (0..first).position(|i| w.word(i).is_some_and(|k| is_in(&["chia"], k)));
    let mut kept: Vec<Token> = vec![toks[nums[0]].clone()];
    let mut labelled = false;
    for (n, pair) in nums.windows(2).enumerate() {
        let between = pair[0] + 1..pair[1];
        let mut ops: Vec<(usize, Token)> = between
            .clone()
            .filter_map(|i| operator(w, i).map(|t| (i, t)))
            .collect();
        if n == 0 && chia.is_some() && ops.is_empty() {
            // (`cho` right before what divides: `chia 42 triệu cho anh em trên ghe 1` is no
            // division by one.)
            ops = between
                .clone()
                .filter(|&i| w.word(i).is_some_and(|k| is_in(&["cho"], k)) && i + 1 == pair[1])
                .map(|i| {
                    (
                        i,
                        Token {
                            tok: Tok::Sym('/'),
                            ..toks[i].clone()
                        },
                    )
                })
                .collect();
        }
        let [(op, sym)] = ops.as_slice() else {
            return None;
        };
        for i in between.filter(|i| i != op) {
            labelled |= toks[i].word().is_some();
            if !label(w, i) {
                return None;
            }
        }
        kept.push(sym.clone());
        kept.push(toks[pair[1]].clone());
    }
    let divides = chia.is_some() && nums.len() == 2;
    let lead = |i: usize| chia.is_some() && w.word(i).is_some_and(|k| is_in(&["chia", "đều"], k));
    if !(0..first).all(|i| label(w, i) || lead(i) || toks[i].is_sym('$') || toks[i].is_sym(':')) {
        return None;
    }
    // After the last number: its unit and label, then a question (`= how many bags`).
    let mut i = last + 1;
    // (`36 kg of rebar`: `of` after the last number's unit names what it is of.)
    let of_thing = |i: usize| i > last + 1 && w.word(i) == Some("of");
    while i < toks.len()
        && (label(w, i) || of_thing(i))
        && !w.word(i).is_some_and(|k| is_in(ASKS, k))
    {
        i += 1;
    }
    // (`375 cows x 18.6 litres each a day`: `each` after the last number of a product
    // says what it already does.)
    let product = kept
        .iter()
        .filter(|t| matches!(t.tok, Tok::Sym(_)))
        .all(|t| t.is_sym('*'));
    let each = |k: usize| product && k > last && w.word(k).is_some_and(|x| is_in(&["each"], x));
    while i < toks.len() && (label(w, i) || each(i)) && !w.word(i).is_some_and(|k| is_in(ASKS, k)) {
        i += 1;
    }
    let asked = (i..toks.len()).all(|k| {
        label(w, k)
            || w.word(k).is_some_and(|k| is_in(ASKS, k))
            || divides && w.word(k).is_some_and(|k| is_in(ASKS_SHARE, k))
            || matches!(toks[k].tok, Tok::Sym('=' | '?' | ',' | '.' | '!'))
    });
    // (`(2+4)*3`, `14 x 685000` and `5 + 3 guests` are the arithmetic readers': only
    // labels before or between the numbers make this one.)
    let labelled = labelled || (0..first).any(|i| toks[i].word().is_some());
    if !asked || !labelled {
        return None;
    }
    // (`bán được 54 triệu trừ dầu 12tr chia 6 người`: a share among people said last
    // divides all that comes before, as it is said.)
    let shared_last = kept.len() >= 5
        && kept[kept.len() - 2].is_sym('/')
        && w.word(last + 1).is_some_and(is_person);
    if shared_last {
        let before = crate::arith::parse(&kept[..kept.len() - 2])?;
        let people = crate::arith::parse(&kept[kept.len() - 1..])?;
        return Some(Expr::bin(crate::expr::MathOp::Divide, before, people));
    }
    match crate::arith::parse(&kept) {
        Some(Expr::Num(_)) | None => None,
        Some(e) => Some(e),
    }
}

/// The operator the token at `i` writes between two amounts (`+ - * / × ÷`, `x`,
/// `trừ`, `plus`), as a symbol token in its place.
fn operator(w: &Words, i: usize) -> Option<Token> {
    let t = &w.toks[i];
    let word = |list: &[&str]| listed(w, i, list);
    // (`150k/người`: a slash before a word ties a price to what it is paid for.)
    let number_next = w.toks.get(i + 1).is_some_and(|n| n.number().is_some());
    let sym = match &t.tok {
        Tok::Sym('/') if !number_next => return None,
        Tok::Sym(c @ ('+' | '-' | '*' | '/')) => *c,
        Tok::Sym('×') => '*',
        Tok::Sym('÷') => '/',
        _ if word(&["x", "times", "nhân"]) => '*',
        _ if word(&["plus", "cộng"]) => '+',
        _ if word(&["minus", "trừ"]) => '-',
        _ if word(&["chia"]) => '/',
        // (`1,845 divided into 3 payments`, `divided by 4`.)
        _ if word(&["divided"]) => '/',
        _ => return None,
    };
    Some(Token {
        tok: Tok::Sym(sym),
        start: t.start,
        end: t.end,
    })
}

/// Whether the token at `i` only names what a number is: a word of no operation, no cue
/// and no other question (`bao`, `kg`, `internet`, `won`).
fn label(w: &Words, i: usize) -> bool {
    let Some(k) = w.word(i) else {
        return w.toks[i].is_sym(',');
    };
    let raw = w.toks[i].word().unwrap_or("");
    if is_in(BEFORE_TAKEN, k) {
        return true;
    }
    // (`divided into`, `divided by`: the operator's own word.)
    if matches!(raw, "into" | "by") && i > 0 && w.toks[i - 1].word() == Some("divided") {
        return true;
    }
    // (`27.50 an hour times 40`: the period a rate is for names it, with its tie.)
    let tie = |k: usize| {
        matches!(
            w.toks.get(k).and_then(Token::word),
            Some("an" | "a" | "per")
        )
    };
    let period = |k: usize| {
        w.toks
            .get(k)
            .and_then(Token::word)
            .is_some_and(|p| crate::tolerant::DATE_WORDS.contains(&p))
    };
    let rate_period = i > 0 && tie(i - 1) && period(i);
    // (`52k / 52 weeks`, `96k / 12 months`: a period right after a number is its unit.)
    let unit_period = i > 0 && w.toks[i - 1].number().is_some() && period(i);
    if tie(i) && period(i + 1) || rate_period || unit_period {
        return true;
    }
    // (`basic this month is 3,350 + …`: the period the amounts are of only names them.)
    let which = |k: usize| matches!(w.toks.get(k).and_then(Token::word), Some("this" | "last"));
    if which(i) && period(i + 1) || i > 0 && which(i - 1) && period(i) {
        return true;
    }
    // (`25 bao than x 95k`: `than` without a comparison before it is a word of its own —
    // coal, in Vietnamese typed without marks.)
    let compared = i > 0
        && w.toks[i - 1].word().is_some_and(|p| {
            p.ends_with("er") || matches!(p, "more" | "less" | "fewer" | "rather" | "other")
        });
    if raw == "than" && !compared {
        return true;
    }
    // (`take home pay 2,340 / 4 weeks`: what is paid after deductions.)
    let word_at = |k: usize| w.toks.get(k).and_then(Token::word);
    if raw == "take" && word_at(i + 1) == Some("home")
        || raw == "home" && i > 0 && word_at(i - 1) == Some("take")
    {
        return true;
    }
    // (No percentage is said here: `council tax 145`, `tips 410` only name amounts.)
    let levy = matches!(raw, "tax" | "tip" | "tips");
    k.chars().all(char::is_alphabetic)
        && (levy || !listed(w, i, CHANGES))
        && (!crate::numbers::starts_number(raw) || exchange_rate(w, i))
        && crate::normalise::typo::operation(raw).is_none()
        && !crate::tolerant::DATE_WORDS.contains(&raw)
        && (!crate::everyday::changes_operation(w.toks, i) || crate::everyday::counts_people(raw))
}

/// Whether the word at `i` is `tỷ` of `tỷ giá`, the exchange rate: no billion.
fn exchange_rate(w: &Words, i: usize) -> bool {
    w.word(i).is_some_and(|k| matches!(k, "ty" | "ti")) && w.word(i + 1) == Some("gia")
}
