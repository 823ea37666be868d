//! Reading one part, a segment piece by piece, and continuations folded into the
//! arithmetic part before them.

use super::earlier::{over_earlier_list, without_lead};
use super::separators::weak_separators;
use super::{ParsedPart, PartError, PartQuery};
use crate::arith;
use crate::dates::{self, DateParse};
use crate::expr::Expr;
use crate::filler;
use crate::lexer::{Token, words_at};

/// Reads a segment no split of which is understood whole, piece by piece: from each
/// start, the longest piece up to a weak separator (or the end) that is understood is
/// kept; a stretch where none is becomes one failed part. `2+4 and book me a flight`
/// gives `2+4` and names `book me a flight`.
pub(super) fn split_partly(seg: &[Token], src: &str) -> (Vec<ParsedPart>, Vec<PartError>) {
    let seps = weak_separators(seg);
    let (mut found, mut missed) = (Vec::new(), Vec::new());
    let mut start = 0;
    let mut unread: Option<(usize, usize)> = None;
    while start < seg.len() {
        let ends = seps
            .iter()
            .filter(|&&(cut, _)| cut > start)
            .map(|&(cut, next)| (cut, next))
            .chain(std::iter::once((seg.len(), seg.len())));
        let longest = ends
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find_map(|(cut, next)| {
                parse_part(&seg[start..cut], src)
                    .ok()
                    .map(|q| (cut, next, q))
            });
        match longest {
            Some((cut, next, query)) => {
                if let Some((s, e)) = unread.take() {
                    missed.push(not_read(&seg[s..e], src));
                }
                found.push(ParsedPart {
                    text: quote(&seg[start..cut], src),
                    query,
                });
                start = next;
            }
            None => {
                let (cut, next) = seps
                    .iter()
                    .copied()
                    .find(|&(cut, _)| cut > start)
                    .unwrap_or((seg.len(), seg.len()));
                // `… and what's their sum`: the numbers of the list just read.
                let stretch = without_lead(&seg[start..cut]);
                match over_earlier_list(stretch, &found, src).filter(|_| unread.is_none()) {
                    Some(part) => found.push(part),
                    None => unread = Some((unread.map_or(start, |(s, _)| s), cut)),
                }
                start = next;
            }
        }
    }
    if let Some((s, e)) = unread {
        missed.push(not_read(&seg[s..e], src));
    }
    (found, missed)
}

/// Why a stretch of a request was not read: its own error when it has one, else "not
/// understood".
fn not_read(toks: &[Token], src: &str) -> PartError {
    parse_part(toks, src)
        .err()
        .unwrap_or_else(|| PartError::NotUnderstood(quote(toks, src)))
}

/// Words that start a sequence with a bare number (`take 100, halve it, then add 7`).
const SEQUENCE_STARTS: &[&[&str]] = &[
    &["take"],
    &["start", "with"],
    &["begin", "with"],
    &["bắt", "đầu", "với"],
    &["bắt", "đầu", "từ"],
    &["lấy"],
];

/// `toks` after `words`, when they start with them.
fn starts_with_words<'a>(toks: &'a [Token], words: &[&str]) -> Option<&'a [Token]> {
    words_at(toks, 0, words).then(|| &toks[words.len()..])
}

/// `minus 3% transfer fee from that`, `plus 12% service charge on that`, `trừ 10% hoa
/// hồng`: a percentage of the previous part's result taken off it or added to it, the
/// words after the percentage only naming it (no other number).
fn percent_on_previous(toks: &[Token]) -> Option<Expr> {
    let op = match toks.first()?.word()? {
        "minus" | "less" | "trừ" | "bớt" | "deduct" => crate::expr::MathOp::Subtract,
        "plus" | "add" | "cộng" => crate::expr::MathOp::Sum,
        _ => return None,
    };
    let n = toks.get(1)?.number()?;
    if !toks.get(2)?.is_sym('%') || toks[3..].iter().any(|t| t.number().is_some()) {
        return None;
    }
    let previous = Expr::Num(Expr::PREVIOUS.into());
    let share = Expr::bin(
        crate::expr::MathOp::Percent,
        Expr::Num(n.to_owned()),
        previous.clone(),
    );
    Some(Expr::bin(op, previous, share))
}

/// `trả trước 12 triệu, còn nợ bao nhiêu`, `paid 12000 upfront, how much do i still
/// owe`: part of the previous part's amount paid, what is left asked (in the part or
/// after it in the request `src`) — the result less it (one number).
fn paid_off_previous(toks: &[Token], src: &str) -> Option<Expr> {
    use crate::paid::{PAID_ALREADY, STILL_OWED};
    let numbers: Vec<&str> = toks.iter().filter_map(Token::number).collect();
    let [n] = numbers.as_slice() else {
        return None;
    };
    let paid = (0..toks.len()).find(|&i| {
        PAID_ALREADY
            .iter()
            .any(|p| crate::lexer::words_at(toks, i, p))
    })?;
    let at = toks.iter().position(|t| t.number().is_some())?;
    let left = crate::lexer::says(toks, STILL_OWED)
        || toks.last().is_some_and(|t| {
            let after = crate::lexer::lex(src.get(t.end..).unwrap_or_default());
            crate::lexer::says(&after, STILL_OWED)
        });
    (at > paid && at <= paid + 3 && left && !toks.iter().any(|t| t.is_sym('%'))).then(|| {
        Expr::bin(
            crate::expr::MathOp::Subtract,
            Expr::Num(Expr::PREVIOUS.into()),
            Expr::Num((*n).to_owned()),
        )
    })
}

/// `cộng 50k tiền cơm`, `plus 50 for lunch`, `cộng thêm tiền tàu 1tr5`, `trừ đi 150.000
/// tiền xe`, `nhân 3 chuyến`: an amount added to or taken off the previous part's
/// result, or a count it is multiplied by, the other words only naming it (one number,
/// no other operation).
fn amount_on_previous(toks: &[Token]) -> Option<Expr> {
    // (`nhân 3 chuyến`, `times 3 shifts`: so many of what was computed, named.)
    let op = match toks.first()?.word()? {
        "minus" | "less" | "trừ" | "bớt" | "deduct" | "subtract" => {
            crate::expr::MathOp::Subtract
        }
        "plus" | "add" | "cộng" => crate::expr::MathOp::Sum,
        "nhân" | "times" => crate::expr::MathOp::Multiply,
        _ => return None,
    };
    let rest = &toks[1..];
    let numbers: Vec<&str> = rest.iter().filter_map(Token::number).collect();
    let [n] = numbers.as_slice() else {
        return None;
    };
    // (`add that to the 40`, `cộng hai kết quả đó lại`: a reference or a second
    // operand is another reading's.)
    const NOT_NAMES: &[&str] = &[
        "that", "it", "this", "result", "results", "answer", "answers", "them", "to", "from",
        "with", "by", "into", "đó", "nó", "quả", "này", "kia", "vào", "với", "cho", "từ", "hai",
        "two", "both", "cả", "lại", "together", "all", "each", "mỗi", "per", "every",
    ];
    let only_names = rest.iter().all(|t| match &t.tok {
        // (Written in digits: a number word, `hai`, counts the results.)
        crate::lexer::Tok::Num(x) => t.end - t.start == x.len(),
        crate::lexer::Tok::Word(w) => {
            crate::normalise::typo::operation(w).is_none() && !NOT_NAMES.contains(&w.as_str())
        }
        crate::lexer::Tok::Sym(c) => "?.!".contains(*c),
        crate::lexer::Tok::Date(_) => false,
    });
    only_names.then(|| {
        Expr::bin(
            op,
            Expr::Num(Expr::PREVIOUS.into()),
            Expr::Num((*n).to_owned()),
        )
    })
}

/// Folds each continuation ("then subtract 2") into the arithmetic part before it, so
/// its steps take that part's result: `multiply 6 by 7 and then subtract 2` is one part,
/// multiply then subtract. A continuation with no arithmetic part before it is not
/// understood.
///
/// In a request laid out as parts (`each_asked`: `1. 8 x 35k 2. cộng 50k`) every part
/// is asked: a continuation takes the part before it and both are answers.
pub(super) fn chain_continuations(
    parts: Vec<ParsedPart>,
    each_asked: bool,
) -> Result<Vec<ParsedPart>, PartError> {
    let mut out: Vec<ParsedPart> = Vec::with_capacity(parts.len());
    for part in parts {
        let PartQuery::Math(e) = &part.query else {
            out.push(part);
            continue;
        };
        if !e.refers_back() {
            out.push(part);
            continue;
        }
        // `450 nhân 12, rồi lấy kết quả chia 3`, `… then divide the result by 4`: a
        // step that names the answer before it asks for both answers.
        // (`3 chuyến 650k với 2 chuyến 500k tổng bn, trừ dầu 400k còn bn`: a step
        // asking its own answer after a part that asked its own, likewise.)
        let both_ask = out
            .last()
            .is_some_and(|p| asks_quantity(&p.text) && asks_quantity(&part.text));
        if (each_asked || both_ask || names_the_result(&part.text))
            && let Some(ParsedPart {
                query: PartQuery::Math(previous),
                ..
            }) = out.last()
            && !matches!(previous, Expr::Num(_))
        {
            let query = PartQuery::Math(e.clone().with_previous(previous));
            out.push(ParsedPart {
                text: part.text,
                query,
            });
            continue;
        }
        match out.last_mut() {
            Some(ParsedPart {
                text,
                query: PartQuery::Math(previous),
            }) => {
                *previous = e.clone().with_previous(previous);
                text.push_str(", then ");
                text.push_str(&part.text);
            }
            _ => return Err(PartError::NotUnderstood(part.text)),
        }
    }
    // A sequence start that nothing continued computes nothing.
    if let Some(bare) = out
        .iter()
        .find(|p| matches!(&p.query, PartQuery::Math(Expr::Num(_))))
    {
        return Err(PartError::NothingToCompute(bare.text.clone()));
    }
    Ok(out)
}

/// Whether a continuation's `text` names the answer before it (`the result`, `kết
/// quả`, `that`), rather than only going on from it (`then halve it`, `rồi trừ 8`).
fn names_the_result(text: &str) -> bool {
    let toks = crate::lexer::lex(text);
    (0..toks.len()).any(|i| {
        matches!(toks[i].word(), Some("result" | "that")) || words_at(&toks, i, &["kết", "quả"])
    })
}

/// Whether `text` asks a quantity in so many words (`bao nhiêu`, `how much`, `how
/// many`).
fn asks_quantity(text: &str) -> bool {
    crate::lexer::says(
        &crate::lexer::lex(text),
        &[&["bao", "nhiêu"], &["how", "much"], &["how", "many"]],
    )
}

/// Reads one part.
pub fn parse_part(toks: &[Token], src: &str) -> Result<PartQuery, PartError> {
    if let Some(q) =
        crate::places::parse(toks, src).or_else(|| crate::places::time_named(toks, src))
    {
        return Ok(PartQuery::Date(q));
    }
    match dates::parse(toks, src) {
        DateParse::Query(q) => return Ok(PartQuery::Date(q)),
        DateParse::InvalidDate(raw) => return Err(PartError::InvalidDate(raw)),
        DateParse::NotDate => {}
    }
    let math = filler::strip_math(toks);
    // `take 100` starts a sequence: a bare number is fine here if a continuation
    // follows (checked in `chain_continuations`).
    // (`lấy` is also a filler: `lấy 20 chia 4`; look for the start before the fillers go.)
    let trimmed = filler::trim_symbols(toks);
    if let Some(rest) = SEQUENCE_STARTS
        .iter()
        .find_map(|s| starts_with_words(math, s).or_else(|| starts_with_words(trimmed, s)))
        && let Some(e) = arith::parse(rest)
    {
        return Ok(PartQuery::Math(e));
    }
    // A continuation is read where the part alone computes nothing: `then minus 5` is
    // the previous result − 5, not the number −5 (a signed number written with its
    // symbol, `-5`, stays a number).
    let signed = math.first().is_some_and(|t| t.is_sym('-') || t.is_sym('+'));
    let parsed = match arith::parse(math) {
        None => arith::parse_continuation(math)
            .or_else(|| percent_on_previous(math))
            .or_else(|| amount_on_previous(math))
            .or_else(|| paid_off_previous(trimmed, src))
            // `12 bình khí x 180k`: operators between labelled numbers.
            .or_else(|| crate::frames::labelled_expr(trimmed))
            .or_else(|| crate::tolerant::list(trimmed))
            .or_else(|| crate::everyday::parse(trimmed, src))
            .or_else(|| arith::parse(&crate::everyday::undecorated(math)?))
            .or_else(|| crate::tolerant::expression(toks)),
        Some(Expr::Num(n)) if !signed => arith::parse_continuation(math).or(Some(Expr::Num(n))),
        done => done,
    };
    match parsed {
        Some(Expr::Num(_)) => Err(PartError::NothingToCompute(quote(toks, src))),
        Some(e) => Ok(PartQuery::Math(e)),
        // `ngày 28/12 thi môn Kinh tế vi mô, còn mấy ngày`: a date among other words.
        None => match dates::tolerant(toks).or_else(|| dates::tolerant_shift(toks)) {
            Some(q) => Ok(PartQuery::Date(q)),
            None => Err(PartError::NotUnderstood(quote(toks, src))),
        },
    }
}

/// The user's text for `toks`, without trailing punctuation.
pub fn quote(toks: &[Token], src: &str) -> String {
    let t = filler::trim_symbols(toks);
    // (The span over every token, whatever their order: a rewrite may leave a token
    // out of place, and a part is never worth a panic.)
    let start = t.iter().map(|x| x.start).min();
    let end = t.iter().map(|x| x.end).max();
    match (start, end) {
        (Some(a), Some(b)) if a <= b => src[a..b].to_owned(),
        _ => String::new(),
    }
}
