//! Counts of a group word (`chục`, `tá`, `dozen`) priced per one group: `18 chục trứng
//! vịt, 36k 1 chục` is 18 groups at 36k each, never 180 eggs at 36k. The group word is
//! then a unit like any other (read as `hộp`, or `box` in English), so the rate and its
//! count meet; a group word with no price per group stays a multiplier (`2 tá cúc`).

use crate::lexer::{Tok, Token};

/// Words that name a group of a fixed size.
const GROUPS: &[&str] = &["chục", "tá", "dozen", "dozens"];

/// Words that tie a price to one group before the group word (`1 chục`, `mỗi tá`, `a
/// dozen`, `/dozen`).
const ONE: &[&str] = &["1", "một", "mỗi", "per", "a", "/"];

/// `toks` with each group word read as a unit, when a price is said per one group.
pub fn priced_per_group(toks: &[Token]) -> Option<Vec<Token>> {
    let text = |k: usize| -> Option<String> {
        match &toks.get(k)?.tok {
            Tok::Word(w) => Some(w.to_lowercase()),
            Tok::Num(n) => Some(n.clone()),
            Tok::Sym(c) => Some(c.to_string()),
            _ => None,
        }
    };
    let group = |k: usize| text(k).is_some_and(|w| GROUPS.contains(&w.as_str()));
    let per_group = (1..toks.len()).any(|k| {
        group(k)
            && text(k - 1).is_some_and(|w| ONE.contains(&w.as_str()))
            && (k >= 2 && toks[k - 2].number().is_some()
                || toks.get(k + 1).and_then(Token::number).is_some())
    });
    if !per_group {
        return None;
    }
    let mut out = toks.to_vec();
    for (k, t) in out.iter_mut().enumerate() {
        if group(k) {
            let unit = if t.word().is_some_and(str::is_ascii) {
                "box"
            } else {
                "hộp"
            };
            t.tok = Tok::Word(unit.to_owned());
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn words(q: &str) -> Option<Vec<String>> {
        priced_per_group(&lex(q)).map(|t| {
            t.iter()
                .filter_map(|t| t.word().map(str::to_owned))
                .collect()
        })
    }

    #[test]
    fn a_group_priced_per_one_is_a_unit_and_otherwise_a_multiplier() {
        assert_eq!(
            words("18 chục trứng vịt, 36000 1 chục").as_deref(),
            Some(&["hộp", "trứng", "vịt", "hộp"].map(String::from)[..])
        );
        assert_eq!(
            words("5 dozen eggs at 4.50 a dozen").as_deref(),
            Some(&["box", "eggs", "at", "a", "box"].map(String::from)[..])
        );
        assert_eq!(words("2 tá cúc, 5000 một cái"), None);
    }
}
