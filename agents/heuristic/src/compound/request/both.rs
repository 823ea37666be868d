//! Two questions asked one after the other, the second going on from the first (`how
//! much is 30% of 2,134.60 and how much is that in vnd`, `tổng bao nhiêu, rồi chia đôi
//! ra`, `what does it cost a day, and over a 91 day quarter?`): a reader of the whole
//! request answers only the last, so the first is read alone and answered too.

use crate::compound::{Parsed, ParsedPart, PartQuery};
use crate::expr::Expr;
use crate::lexer::{Tok, Token};

/// Words that ask for a value (compared folded, so `bao nhieu` typed without marks
/// counts).
const ASKS: &[&[&str]] = &[
    &["how", "much"],
    &["how", "many"],
    &["bao", "nhiêu"],
    &["bn"],
    &["what", "does"],
    &["what", "is"],
    &["whats"],
    &["what's"],
];

/// Words that open a second question going on from the first.
const GOES_ON: &[&[&str]] = &[
    &["and", "how"],
    &["and", "what"],
    &["and", "in"],
    &["and", "over"],
    &["and", "for"],
    &["rồi"],
    &["và"],
    &["còn"],
];

/// Whether the words at `i` (folded in `folded`, `None` for a token that is no word)
/// are `phrase`, compared folded.
fn at(folded: &[Option<String>], i: usize, phrase: &[&str]) -> bool {
    let fold = crate::normalise::fold::fold;
    phrase.iter().enumerate().all(|(k, p)| {
        folded
            .get(i + k)
            .and_then(Option::as_deref)
            .is_some_and(|w| w == fold(p))
    })
}

/// Where the first question ends: a `?` before more words, or a joining word (after a
/// comma or not) opening a second question, with a word asking a value before it.
fn first_question_end(toks: &[Token]) -> Option<usize> {
    // (Each word folded once; most requests have no second question and stop at the
    // first test.)
    let fold = crate::normalise::fold::fold;
    let folded: Vec<Option<String>> = toks
        .iter()
        .map(|t| t.word().map(|w| fold(&w.to_lowercase())))
        .collect();
    let starts = |k: usize| GOES_ON.iter().any(|p| at(&folded, k, p));
    // (A `?` with words after it: `= ??` ends the one question.)
    let more_words = |k: usize| toks[k + 1..].iter().any(|t| t.word().is_some());
    let goes_on = |k: usize| {
        toks[k].is_sym('?') && more_words(k) || starts(k) || toks[k].is_sym(',') && starts(k + 1)
    };
    let last = toks.len().saturating_sub(1);
    if !(1..last).any(goes_on) {
        return None;
    }
    // (Asked in words, or with a question mark: `total yen? and in dong`; a command
    // going on, `lấy 100 chia đôi rồi cộng 7`, asks only its end.)
    let asked = |end: usize| {
        toks[end].is_sym('?') || (0..end).any(|i| ASKS.iter().any(|p| at(&folded, i, p)))
    };
    (1..last).find(|&k| goes_on(k) && asked(k))
}

/// `parsed`, one calculation read over the whole of `toks`, with the first question's
/// own answer before it when `toks` ask two in turn.
pub(super) fn with_first_answer(
    toks: &[Token],
    parsed: Parsed,
    read: impl Fn(&[Token]) -> Option<Parsed>,
) -> Parsed {
    let [
        ParsedPart {
            query: PartQuery::Math(whole),
            ..
        },
    ] = parsed.parts.as_slice()
    else {
        return parsed;
    };
    // (A rounding asked after, `… 2 decimals is fine`, only says how to give it.)
    let rounded = matches!(whole, Expr::Op(crate::expr::MathOp::Round, _));
    if !parsed.failed.is_empty() || matches!(whole, Expr::Num(_)) || rounded {
        return parsed;
    }
    let Some(end) = first_question_end(toks) else {
        return parsed;
    };
    let Some(first) = read(&toks[..end]) else {
        return parsed;
    };
    let Some(e) = first.only_math() else {
        return parsed;
    };
    // (The same calculation, or a bare number, answers nothing more.)
    if e == whole
        || matches!(e, Expr::Num(_))
        || !toks[end..].iter().any(|t| matches!(t.tok, Tok::Word(_)))
    {
        return parsed;
    }
    // (`… total? and whats left of my 200`: the money held less the first answer, never
    // held and spent added up.)
    let second = match left_of(&toks[end..]) {
        Some(held) => vec![ParsedPart {
            text: parsed.parts[0].text.clone(),
            query: PartQuery::Math(Expr::bin(
                crate::expr::MathOp::Subtract,
                Expr::Num(held),
                e.clone(),
            )),
        }],
        None => parsed.parts,
    };
    Parsed {
        parts: first.parts.into_iter().chain(second).collect(),
        failed: Vec::new(),
    }
}

/// The one amount a second question asks what is left of (`whats left of my 200`,
/// `còn lại bao nhiêu trong 500k`), if it does.
fn left_of(rest: &[Token]) -> Option<String> {
    const LEFT_OF: &[&[&str]] = &[
        &["left", "of"],
        &["left", "from"],
        &["left", "out", "of"],
        &["change", "from"],
        &["còn", "lại"],
    ];
    let numbers: Vec<&str> = rest.iter().filter_map(Token::number).collect();
    let [held] = numbers.as_slice() else {
        return None;
    };
    crate::lexer::says(rest, LEFT_OF).then(|| (*held).to_owned())
}
