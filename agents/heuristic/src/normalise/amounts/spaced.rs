//! Amounts written the Polish way, thousands apart by a space and a decimal comma (`3 400
//! zł`, `1 250,50 zł`): read as one number where złoty are named, and nowhere else (a
//! space between numbers is a list elsewhere: `17 15 18`).

use super::super::{Kind, Piece};

/// Words naming złoty.
const ZLOTY: &[&str] = &["zł", "zl", "pln", "złoty", "zloty", "zlotys"];

/// `pieces` with every number of space-separated thousands joined into one, its decimal
/// comma a point, when złoty are named.
pub fn joined(mut pieces: Vec<Piece>) -> Vec<Piece> {
    if !pieces.iter().any(|p| ZLOTY.contains(&p.lower().as_str())) {
        return pieces;
    }
    let digits = |p: &Piece| p.kind == Kind::Number && p.text.bytes().all(|b| b.is_ascii_digit());
    // A group of three digits, with a decimal comma at most after it (`250,50`).
    let group = |p: &Piece| {
        p.kind == Kind::Number && {
            let (int, frac) = p.text.split_once(',').unwrap_or((&p.text, ""));
            int.len() == 3
                && int.bytes().all(|b| b.is_ascii_digit())
                && frac.len() <= 2
                && frac.bytes().all(|b| b.is_ascii_digit())
        }
    };
    let (mut k, mut merged) = (0, None);
    while k + 2 < pieces.len() {
        let joins = digits(&pieces[k])
            && (pieces[k].text.len() <= 3 || merged == Some(k))
            && pieces[k + 1].kind == Kind::Space
            && pieces[k + 1].text == " "
            && group(&pieces[k + 2]);
        if !joins {
            k += 1;
            continue;
        }
        let text = format!("{}{}", pieces[k].text, pieces[k + 2].text);
        let end = pieces[k + 2].orig.end;
        pieces[k].set(text);
        pieces[k].orig.end = end;
        pieces.drain(k + 1..k + 3);
        // (`1 234 567`: the joined number may take another group.)
        merged = Some(k);
    }
    // (`1250,50`, `4,31`: a comma before one or two digits is the decimal point.)
    for p in &mut pieces {
        if p.kind == Kind::Number
            && let Some((int, frac)) = p.text.split_once(',')
            && (1..=2).contains(&frac.len())
            && !int.contains(['.', ','])
        {
            let text = format!("{int}.{frac}");
            p.set(text);
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(src: &str) -> String {
        joined(crate::normalise::unicode::pieces(src))
            .iter()
            .map(|p| p.text.as_str())
            .collect()
    }

    #[test]
    fn thousands_apart_by_a_space_join_where_zloty_are_named() {
        assert_eq!(join("rent is 3 400 zł"), "rent is 3400 zł");
        assert_eq!(join("1 250,50 zł minus 340"), "1250.50 zł minus 340");
        assert_eq!(join("1 234 567 pln"), "1234567 pln");
        assert_eq!(join("500 zl at 4,31"), "500 zl at 4.31");
        assert_eq!(join("marks 17 15 18"), "marks 17 15 18");
        assert_eq!(join("rent is 3 400"), "rent is 3 400");
    }
}
