//! The whole request read as one problem: a quantity frame, a follow-up frame on the
//! last answer, an everyday problem with the levy it adds.

use super::parts::quote;
use super::request::asks_what_is_left;
use super::{Parsed, ParsedPart, PartQuery};
use crate::expr::Expr;
use crate::lexer::{Token, words_at};

/// The whole request as one part per expression of `exprs`, each quoting all of it.
pub(super) fn math_parts(toks: &[Token], src: &str, exprs: Vec<Expr>) -> Parsed {
    let text = quote(toks, src);
    let parts = exprs
        .into_iter()
        .map(|e| ParsedPart {
            text: text.clone(),
            query: PartQuery::Math(e),
        })
        .collect();
    Parsed {
        parts,
        failed: Vec::new(),
    }
}

/// `toks` read as one quantity frame ([`crate::frames::parse`]): a part per answer
/// asked.
pub fn frames_reading(toks: &[Token], src: &str) -> Option<Parsed> {
    crate::frames::parse(toks).map(|found| math_parts(toks, src, found))
}

/// `toks` read as a follow-up of the last answer `value`: a quantity frame with it as
/// its amount ([`crate::frames::parse_after`]), else one operation going on from it
/// ([`crate::frames::go_on`]).
pub fn frames_after(toks: &[Token], src: &str, value: &str) -> Option<Parsed> {
    crate::frames::parse_after(value, toks)
        .or_else(|| crate::frames::go_on(value, toks).map(|e| vec![e]))
        .map(|found| math_parts(toks, src, found))
}

/// The whole request read as one everyday problem `e`: one part, or two when a tax or
/// tip added is asked by its name as well as the total (`invoice is 12,840 before 5% GST.
/// whats the GST and the total`, `báo giá 45 triệu, VAT 10% là bao nhiêu, tổng cộng bao
/// nhiêu`): the share, then the total (its step shared).
pub(super) fn whole_problem(toks: &[Token], src: &str, e: Expr) -> Parsed {
    Parsed {
        parts: with_levy_asked(toks, quote(toks, src), e),
        failed: Vec::new(),
    }
}

/// The part `e` (`text`), or the levy it adds and then `e` when `toks` ask both.
pub(super) fn with_levy_asked(toks: &[Token], text: String, e: Expr) -> Vec<ParsedPart> {
    // `venue wants 40% upfront on 460 million, how much do we still owe after the
    // deposit`: what is left of the amount once its share is paid.
    if let Expr::Op(crate::expr::MathOp::Percent, args) = &e
        && let [_, amount] = args.as_slice()
        && asks_what_is_left(toks)
    {
        let rest = Expr::bin(crate::expr::MathOp::Subtract, amount.clone(), e.clone());
        // (`25% của 640k là bao nhiêu, còn lại bao nhiêu`: the share asked too; `whats
        // 10% tax on 1,850 and how much is left after`, likewise.)
        let asks = (0..toks.len())
            .filter(|&i| {
                words_at(toks, i, &["bao", "nhiêu"])
                    || words_at(toks, i, &["how", "much"])
                    || i == 0 && matches!(toks[0].word(), Some("whats" | "what"))
            })
            .count();
        let rest = ParsedPart {
            text: text.clone(),
            query: PartQuery::Math(rest),
        };
        return match asks >= 2 {
            true => vec![
                ParsedPart {
                    text,
                    query: PartQuery::Math(e),
                },
                rest,
            ],
            false => vec![rest],
        };
    }
    let share = match &e {
        Expr::Op(crate::expr::MathOp::Sum, args) => match args.as_slice() {
            [a, p @ Expr::Op(crate::expr::MathOp::Percent, pa)] if pa.get(1) == Some(a) => {
                Some(p.clone())
            }
            _ => None,
        },
        _ => None,
    };
    const LEVIES: &[&str] = &[
        "tax",
        "gst",
        "vat",
        "hst",
        "tip",
        "super",
        "superannuation",
        "thuế",
        "phí",
        "boa",
    ];
    let asked = |i: usize| {
        // (`VAT 10% là bao nhiêu`: its rate between.)
        let rated = toks.get(i + 1).is_some_and(|t| t.number().is_some())
            && toks.get(i + 2).is_some_and(|t| t.is_sym('%'));
        let j = if rated { i + 3 } else { i + 1 };
        words_at(toks, j, &["là", "bao", "nhiêu"])
            || words_at(toks, j, &["bao", "nhiêu"])
            // (`what's` lexes as `what`.)
            || i >= 2 && (words_at(toks, i - 2, &["what", "the"]) || words_at(toks, i - 2, &["whats", "the"]))
            || i >= 3 && words_at(toks, i - 3, &["how", "much", "is"])
            // (`how much super is that`.)
            || i >= 2 && words_at(toks, i - 2, &["how", "much"])
    };
    let levy_asked =
        (0..toks.len()).any(|i| toks[i].word().is_some_and(|w| LEVIES.contains(&w)) && asked(i));
    let total_asked = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| matches!(w, "total" | "tổng")));
    match share {
        // `super is 12% on top of that, how much super is that`: the levy alone.
        Some(share) if levy_asked && !total_asked => vec![ParsedPart {
            text,
            query: PartQuery::Math(share),
        }],
        Some(share) if levy_asked && total_asked => vec![
            ParsedPart {
                text: text.clone(),
                query: PartQuery::Math(share),
            },
            ParsedPart {
                text,
                query: PartQuery::Math(e),
            },
        ],
        _ => vec![ParsedPart {
            text,
            query: PartQuery::Math(e),
        }],
    }
}
