//! A list announced by its count: `2 textbooks $89.99 and $124.50 plus 13% hst`, `tiền
//! điện 3 tháng 420k 385k 510k, trung bình`. The count only says how many items follow
//! — exactly that many — so it is no item: read without it, the rest is the list.

use crate::lexer::{Tok, Token};

/// Words that join two items of a list.
const JOINS: &[&str] = &["and", "và", "&", "with", "với"];

/// `toks` without the count (and the word it counts) that announces a list of exactly
/// that many items right after it; `None` when no count does.
pub fn without_item_count(toks: &[Token]) -> Option<Vec<Token>> {
    (0..toks.len()).find_map(|k| {
        let n: usize = toks[k].number()?.parse().ok()?;
        if !(2..=12).contains(&n) || toks.get(k + 1).and_then(Token::word).is_none() {
            return None;
        }
        // (`3 x 4`, `2 tr`: an operator or a scale is no counted thing.)
        // (`2+2 and 3+3`: a joining word counts nothing either.)
        if toks[k + 1].word().is_some_and(|w| {
            matches!(w, "x" | "k" | "tr" | "m" | "or" | "hoặc" | "then" | "rồi")
                || JOINS.contains(&w)
        }) {
            return None;
        }
        // (`4 hóa đơn:`: what is counted may take two words.)
        let mut i = k + 2;
        let named_by_two = toks.get(i).and_then(Token::word).is_some()
            && toks.get(i + 1).is_some_and(|t| t.is_sym(':'));
        let end = if named_by_two { k + 3 } else { k + 2 };
        i = end;
        while toks.get(i).is_some_and(|t| t.is_sym(':') || t.is_sym(',')) {
            i += 1;
        }
        let mut items = 0;
        // (The items are alike: `2 khăn 120k và 4 mét` counts a 4 of another thing.)
        let (mut least, mut most) = (f64::MAX, 0f64);
        while let Some(v) = toks.get(i).and_then(Token::number) {
            let v: f64 = v.parse().unwrap_or(0.0);
            (least, most) = (least.min(v), most.max(v));
            items += 1;
            i += 1;
            let sep = toks.get(i).is_some_and(|t| {
                // (`tổng 3 đơn: 1.250.000 + 870.000 + 2.105.000`: added up as listed.)
                matches!(t.tok, Tok::Sym(',' | ';' | '+'))
                    || t.word().is_some_and(|w| JOINS.contains(&w))
            });
            let next_number = |j: usize| toks.get(j).and_then(Token::number).is_some();
            if sep && next_number(i + 1) {
                i += 1;
            } else if !next_number(i) {
                break;
            }
        }
        (items == n && most <= 100.0 * least).then(|| {
            let mut out = toks[..k].to_vec();
            out.extend_from_slice(&toks[end..]);
            out
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn numbers(q: &str) -> Option<Vec<String>> {
        without_item_count(&lex(q)).map(|t| {
            t.iter()
                .filter_map(|t| t.number().map(str::to_owned))
                .collect()
        })
    }

    #[test]
    fn a_count_announcing_exactly_its_items_is_dropped() {
        assert_eq!(
            numbers("2 textbooks 89.99 and 124.50 plus 13% hst").as_deref(),
            Some(&["89.99", "124.5", "13"].map(String::from)[..])
        );
        assert_eq!(
            numbers("tiền điện 3 tháng 420000 385000 510000 trung bình").as_deref(),
            Some(&["420000", "385000", "510000"].map(String::from)[..])
        );
        // Not as many items as counted, or a product: kept.
        assert_eq!(numbers("2 textbooks 89.99 and 124.50 and 10"), None);
        assert_eq!(numbers("3 ly 25000"), None);
        assert_eq!(numbers("3 x 4"), None);
    }
}
