//! Weights bought in another unit than their price's: `cá thu 220k một ký, mua 7 lạng`
//! buys 0.7 ký, `táo 35k 1kg, mua 500g` 0.5 kg.
//!
//! (Units folded words could be mistaken for — `tạ`, `tấn`, `yến` typed without marks
//! are `ta`, `tan`, `yen` — are matched folded by `normalise::lexicon::heavy_weight`,
//! whose words are never taught to the fold lexicon; `cân` is left out.) A weight in
//! tonnes or tấn priced per kg is rewritten in kg: `3.2 tons at 98,500 a kg`.
//!
//! A quantity's unit is rewritten into the price's unit, as amounts are canonicalised
//! (`1tr2` is 1200000): a shift of the decimal point, exact, never a computation the
//! math tool would round.

use crate::lexer::{Tok, Token};

pub mod asked;

/// Weight units as powers of ten grams: (word, power).
const UNITS: &[(&str, i32)] = &[
    ("g", 0),
    ("gr", 0),
    ("gram", 0),
    ("grams", 0),
    ("lạng", 2),
    ("kg", 3),
    ("ký", 3),
    ("kí", 3),
    ("kilo", 3),
    ("kilos", 3),
    ("kgs", 3),
    ("ton", 6),
    ("tons", 6),
    ("tonne", 6),
    ("tonnes", 6),
];

/// Words tying a price to one unit (`220k một ký`, `35k/kg`, `$4 a kilo`).
const PER: &[&str] = &["một", "mỗi", "1", "/", "a", "per", "each"];

fn power(word: &str) -> Option<i32> {
    UNITS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, p)| *p)
        .or_else(|| crate::normalise::lexicon::heavy_weight(word))
}

/// `toks` with every weight in another unit than the price's rewritten in the price's
/// unit, when there is one price per weight unit and some weight to rewrite.
pub fn in_price_unit(toks: &[Token]) -> Option<Vec<Token>> {
    let word = |k: usize| -> Option<String> {
        match &toks.get(k)?.tok {
            Tok::Word(w) => Some(w.clone()),
            Tok::Sym(c) => Some(c.to_string()),
            Tok::Num(n) if n == "1" => Some(n.clone()),
            _ => None,
        }
    };
    // The price: a number, a tie, a weight unit (`220000 một ký`, `35000 1kg`).
    let priced: Vec<(usize, i32)> = (0..toks.len())
        .filter(|&k| toks[k].number().is_some())
        .filter_map(|k| {
            let tie = word(k + 1).is_some_and(|w| PER.contains(&w.as_str()));
            let unit = word(k + 2).and_then(|w| power(&w))?;
            (tie && unit >= 2).then_some((k + 2, unit))
        })
        .collect();
    let [(price_at, price_unit)] = priced.as_slice() else {
        return None;
    };
    let mut out: Vec<Token> = toks.to_vec();
    let mut changed = false;
    for k in 0..toks.len() {
        let Some(n) = toks[k].number() else {
            continue;
        };
        let Some(unit) = word(k + 1).and_then(|w| power(&w)) else {
            continue;
        };
        if k + 1 == *price_at || unit == *price_unit {
            continue;
        }
        // (`1kg` right after a price is the price's own unit, said as one.)
        if toks[k].number() == Some("1") && k > 0 && toks[k - 1].number().is_some() {
            continue;
        }
        out[k].tok = Tok::Num(shift(n, unit - price_unit)?);
        out[k + 1].tok = toks[*price_at].tok.clone();
        changed = true;
    }
    changed.then_some(out)
}

/// `toks` with two weights in two units written in the smaller one, when a count of
/// what one holds is asked and nothing is priced per weight: `Kho còn 12,5 kg cá, đóng
/// hộp 500 g được mấy hộp` packs 500 g of its 12,500 g into each box.
pub fn in_one_unit(toks: &[Token]) -> Option<Vec<Token>> {
    let unit_at = |k: usize| match &toks.get(k)?.tok {
        Tok::Word(w) => power(w),
        _ => None,
    };
    let weights: Vec<(usize, i32)> = (0..toks.len())
        .filter(|&k| toks[k].number().is_some())
        .filter_map(|k| unit_at(k + 1).map(|u| (k, u)))
        .collect();
    let [(a, ua), (b, ub)] = weights.as_slice() else {
        return None;
    };
    // (A tie before a weight unit prices it: `35k/kg`, `mỗi ký`; `mỗi bao 50 ký` is
    // what a sack holds.)
    let priced = in_price_unit(toks).is_some()
        || (0..toks.len()).any(|k| {
            (toks[k].word().is_some_and(|w| PER.contains(&w)) || toks[k].is_sym('/'))
                && unit_at(k + 1).is_some()
        });
    if ua == ub || priced {
        return None;
    }
    // (Written in the smaller unit: whole numbers stay whole, `3 tấn` is 3000 ký.)
    let (big, unit, small_unit_at) = if ua > ub {
        (*a, *ua, b + 1)
    } else {
        (*b, *ub, a + 1)
    };
    let mut out: Vec<Token> = toks.to_vec();
    out[big].tok = Tok::Num(shift(toks[big].number()?, unit - ua.min(ub))?);
    out[big + 1].tok = toks[small_unit_at].tok.clone();
    Some(out)
}

/// `n` × 10^`places` as a canonical decimal string (`shift("7", -1)` is `0.7`).
fn shift(n: &str, places: i32) -> Option<String> {
    let (int, frac) = n.split_once('.').unwrap_or((n, ""));
    let mut digits = format!("{int}{frac}");
    // The point's position from the left of `digits`.
    let mut point = int.len() as i32 + places;
    if point <= 0 {
        digits = format!("{}{digits}", "0".repeat((1 - point) as usize));
        point = 1;
    }
    let point = point as usize;
    if digits.len() < point {
        digits.push_str(&"0".repeat(point - digits.len()));
    }
    let (i, f) = digits.split_at(point);
    Some(crate::lexer::normalise(i, f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn rewritten(q: &str) -> Option<Vec<Tok>> {
        in_price_unit(&lex(q)).map(|t| t.into_iter().map(|t| t.tok).collect())
    }

    #[test]
    fn two_weights_are_written_in_the_smaller_unit() {
        let toks = in_one_unit(&lex("kho 12.5 kg, đóng hộp 500 g được mấy hộp")).unwrap();
        let toks: Vec<Tok> = toks.into_iter().map(|t| t.tok).collect();
        assert!(toks.contains(&Tok::Num("12500".into())), "{toks:?}");
        // A price per weight is the price-unit rewrite's; one unit is nothing to do.
        assert_eq!(in_one_unit(&lex("táo 35000 1kg, mua 500g")), None);
        assert_eq!(in_one_unit(&lex("12 kg and 3 kg")), None);
    }

    #[test]
    fn the_decimal_point_shifts_exactly() {
        assert_eq!(shift("7", -1).as_deref(), Some("0.7"));
        assert_eq!(shift("500", -3).as_deref(), Some("0.5"));
        assert_eq!(shift("1.5", -1).as_deref(), Some("0.15"));
        assert_eq!(shift("3", 2).as_deref(), Some("300"));
        assert_eq!(shift("2.5", 1).as_deref(), Some("25"));
    }

    #[test]
    fn a_weight_is_bought_in_its_price_unit() {
        let q = "cá thu 220000 một ký, mua 7 lạng thì bao nhiêu";
        let toks = rewritten(q).unwrap();
        assert!(toks.contains(&Tok::Num("0.7".into())), "{toks:?}");
        assert!(!toks.contains(&Tok::Word("lạng".into())));
        let toks = rewritten("táo 35000 1kg, mua 500g bao nhiêu tiền").unwrap();
        assert!(toks.contains(&Tok::Num("0.5".into())), "{toks:?}");
        let toks = rewritten("rice 4 a kilo, I need 250 g").unwrap();
        assert!(toks.contains(&Tok::Num("0.25".into())), "{toks:?}");
        // The same unit, or no price per weight: nothing to rewrite.
        assert_eq!(rewritten("thịt 160000 một ký, mua 1.5 ký"), None);
        assert_eq!(rewritten("mua 7 lạng và 500g"), None);
        // Heavy weights priced per kg, typed with or without marks.
        let toks = rewritten("sold 3.2 tons at 98500 a kg").unwrap();
        assert!(toks.contains(&Tok::Num("3200".into())), "{toks:?}");
        let toks = rewritten("ban 3 ta ca phe gia 98500/kg").unwrap();
        assert!(toks.contains(&Tok::Num("300".into())), "{toks:?}");
        let toks = rewritten("2 tấn giá 97000 một ký").unwrap();
        assert!(toks.contains(&Tok::Num("2000".into())), "{toks:?}");
    }
}
