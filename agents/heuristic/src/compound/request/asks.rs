//! The few questions asked of a request as a whole: a place named alone after a time
//! asked, what is left of an amount, the days to a day just asked, the parts added up.

use crate::compound::{ParsedPart, PartQuery};
use crate::dates::DateQuery;
use crate::expr::Expr;
use crate::lexer::{Token, words_at};

/// `text`, a place named alone (`shenzhen right now`, `và Tokyo`), as the time there
/// when the part before asked the time in another place.
pub(super) fn another_place(text: &str, previous: Option<&ParsedPart>) -> Option<ParsedPart> {
    const NOW: &[&str] = &[
        "right",
        "now",
        "rn",
        "currently",
        "bây",
        "giờ",
        "hiện",
        "tại",
    ];
    const LEADS: &[&str] = &["and", "và", "in", "ở", "bên", "tại"];
    if !matches!(previous?.query, PartQuery::Date(DateQuery::TimeIn { .. })) {
        return None;
    }
    let toks = crate::lexer::lex(text);
    let mut words: Vec<&Token> = toks.iter().filter(|t| !t.is_sym('?')).collect();
    while words.first()?.word().is_some_and(|w| LEADS.contains(&w)) {
        words.remove(0);
    }
    while words.last()?.word().is_some_and(|w| NOW.contains(&w)) {
        words.pop();
    }
    // (`… rồi con`: a particle or someone spoken to is no place.)
    const NO_PLACE: &[&str] = &[
        "còn", "con", "rồi", "nhé", "nha", "ạ", "vậy", "thế", "đi", "luôn", "với", "please", "pls",
        "plz", "thanks", "thx", "too", "also", "then", "there",
    ];
    let (first, last) = (words.first()?, words.last()?);
    if words.len() > 3
        || words
            .iter()
            .any(|t| t.word().is_none_or(|w| NO_PLACE.contains(&w)))
    {
        return None;
    }
    Some(ParsedPart {
        text: text.to_owned(),
        query: PartQuery::Date(DateQuery::TimeIn {
            place: text[first.start..last.end].to_owned(),
        }),
    })
}

/// Whether `toks` ask what is left of an amount once a share of it is paid (`still
/// owe`, `còn lại`, `the balance`, `left to pay`).
pub(crate) fn asks_what_is_left(toks: &[Token]) -> bool {
    const LEFT: &[&[&str]] = &[
        &["still", "owe"],
        &["still", "owed"],
        &["left", "to", "pay"],
        &["balance"],
        &["remaining"],
        &["còn", "lại"],
        &["còn", "phải", "trả"],
        &["còn", "nợ"],
    ];
    crate::lexer::says(toks, LEFT)
}

/// Whether `toks` ask a day and then, after `and`, the days until it by a word that
/// points back at it (`… and how many days left till then`, `… và còn mấy ngày nữa
/// đến ngày đó`).
pub(super) fn counts_to_it(toks: &[Token]) -> bool {
    const BACK: &[&[&str]] = &[
        &["till", "then"],
        &["until", "then"],
        &["til", "then"],
        &["to", "then"],
        &["till", "that", "day"],
        &["until", "that", "day"],
        &["đến", "ngày", "đó"],
        &["đến", "đó"],
        &["tới", "ngày", "đó"],
        &["tới", "đó"],
    ];
    let back = (0..toks.len()).find(|&i| BACK.iter().any(|p| words_at(toks, i, p)));
    let and = toks
        .iter()
        .position(|t| t.word().is_some_and(|w| matches!(w, "and" | "và")));
    matches!((and, back), (Some(a), Some(b)) if a < b)
}

/// Whether `text` only asks to add up the `n` parts before it (`cộng cả hai lại`, `add
/// both`, `tổng cộng`, `sum of the 2`).
pub(super) fn adds_up_before(text: &str, n: usize) -> bool {
    const WORDS: &[&str] = &[
        "cộng",
        "lại",
        "cả",
        "hai",
        "ba",
        "add",
        "both",
        "them",
        "all",
        "up",
        "sum",
        "total",
        "tổng",
        "together",
        "and",
        "the",
        "two",
        "three",
        "of",
        "altogether",
        "hết",
        "tất",
        "plus",
        // (`cộng hai khoản lại`, `cộng hai cái lại`, `cộng lại hết bao nhiêu`)
        "khoản",
        "cái",
        "món",
        "số",
        "bao",
        "nhiêu",
        "là",
        "tiền",
        // (`c) total for the day`)
        "for",
        "day",
        "week",
    ];
    let toks = crate::lexer::lex(text);
    let count = n.to_string();
    // (Compared folded: `cong lai het bao nhieu` typed without marks.)
    let fold = crate::normalise::fold::fold;
    let listed = |w: &str| WORDS.iter().any(|k| fold(k) == fold(w));
    let only = toks.iter().all(|t| match &t.tok {
        crate::lexer::Tok::Word(w) => listed(w),
        crate::lexer::Tok::Num(x) => *x == count,
        crate::lexer::Tok::Sym(c) => "?.!:".contains(*c),
        crate::lexer::Tok::Date(_) => false,
    });
    let adds = toks.iter().any(|t| {
        t.word().is_some_and(|w| {
            ["cộng", "add", "sum", "total", "tổng"]
                .iter()
                .any(|k| fold(k) == fold(w))
        })
    });
    only && adds
}

/// The sum of the parts' calculations (a date part adds nothing).
pub(super) fn sum_of(parts: &[ParsedPart]) -> Option<Expr> {
    Expr::chain(
        crate::expr::MathOp::Sum,
        parts.iter().filter_map(|p| match &p.query {
            PartQuery::Math(e) => Some(e.clone()),
            PartQuery::Date(_) => None,
        }),
    )
}

/// The difference of the two parts before, when `text` only asks it (`chênh nhau bao
/// nhiêu`, `what's the difference`), as a size (`|a − b|`, whichever is larger).
pub(super) fn difference_of(text: &str, parts: &[ParsedPart]) -> Option<Expr> {
    const WORDS: &[&str] = &[
        "chênh",
        "lệch",
        "nhau",
        "bao",
        "nhiêu",
        "là",
        "hai",
        "cái",
        "difference",
        "between",
        "them",
        "the",
        "two",
        "what",
        "whats",
        "what's",
        "is",
        "how",
        "much",
        "and",
    ];
    let toks = crate::lexer::lex(text);
    let fold = crate::normalise::fold::fold;
    let listed = |w: &str| WORDS.iter().any(|k| fold(k) == fold(w));
    let only = toks.iter().all(|t| match &t.tok {
        crate::lexer::Tok::Word(w) => listed(w),
        crate::lexer::Tok::Sym(c) => "?.!:".contains(*c),
        _ => false,
    });
    let asks = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| ["chênh", "difference"].iter().any(|k| fold(k) == fold(w)))
    });
    let [a, b] = parts else { return None };
    let (PartQuery::Math(a), PartQuery::Math(b)) = (&a.query, &b.query) else {
        return None;
    };
    (only && asks).then(|| {
        Expr::Op(
            crate::expr::MathOp::Abs,
            vec![Expr::bin(
                crate::expr::MathOp::Subtract,
                a.clone(),
                b.clone(),
            )],
        )
    })
}

/// `lấy a trừ b`, `a - b`, `b minus a`: two parts named by their letters with an
/// operator between them.
pub(super) fn of_lettered_parts(text: &str, parts: &[ParsedPart]) -> Option<Expr> {
    // (Compared folded, the words written with their marks only: this file's words
    // are taught to the normaliser, and `cong` must stay a typing of `cộng`.)
    let fold = crate::normalise::fold::fold;
    let is = |w: &str, list: &[&str]| list.iter().any(|k| fold(k) == fold(w));
    let toks = crate::lexer::lex(text);
    let toks: Vec<&Token> = toks
        .iter()
        .filter(|t| !t.word().is_some_and(|w| is(w, &["lấy", "take", "then"])))
        .filter(|t| !matches!(t.tok, crate::lexer::Tok::Sym('?' | '.' | '!')))
        .collect();
    let [a, op, b] = toks.as_slice() else {
        return None;
    };
    let part = |t: &Token| {
        let w = t.word()?;
        let k = (w.len() == 1).then(|| w.as_bytes()[0].checked_sub(b'a'))??;
        match &parts.get(usize::from(k))?.query {
            PartQuery::Math(e) => Some(e.clone()),
            PartQuery::Date(_) => None,
        }
    };
    let op = match &op.tok {
        crate::lexer::Tok::Sym('-') => crate::expr::MathOp::Subtract,
        crate::lexer::Tok::Sym('+') => crate::expr::MathOp::Sum,
        crate::lexer::Tok::Word(w) if is(w, &["trừ", "minus"]) => crate::expr::MathOp::Subtract,
        crate::lexer::Tok::Word(w) if is(w, &["cộng", "plus"]) => crate::expr::MathOp::Sum,
        _ => return None,
    };
    Some(Expr::bin(op, part(a)?, part(b)?))
}
