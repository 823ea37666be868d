//! A fee taken off a conversion in the same breath: `2000 aud at 16,920 minus a 2%
//! fee` is the conversion, then the fee off it — as if said `2000 aud at 16,920, minus
//! 2% fee`.

use crate::lexer::{Tok, Token};

/// `toks` with a comma put before the fee taken off a conversion (and an article before
/// the percentage dropped), when a conversion is said first; `None` otherwise.
pub fn fee_apart(toks: &[Token]) -> Option<Vec<Token>> {
    let k = (1..toks.len()).find(|&k| {
        matches!(toks[k].word(), Some("minus" | "less" | "trừ"))
            && !toks[k - 1].is_sym(',')
            && percent_after(toks, k + 1).is_some()
    })?;
    // (A currency named once is dropped by the normaliser: `2000 at 16920` is left.)
    let before = &toks[..k];
    let at_rate = before.len() >= 3
        && before[before.len() - 1].number().is_some()
        && before[before.len() - 2].word() == Some("at")
        && before[before.len() - 3].number().is_some();
    if !at_rate && super::parse(before).is_none() {
        return None;
    }
    let pct = percent_after(toks, k + 1)?;
    let mut out = toks[..k].to_vec();
    out.push(Token {
        tok: Tok::Sym(','),
        start: toks[k].start,
        end: toks[k].start,
    });
    out.push(toks[k].clone());
    out.extend_from_slice(&toks[pct..]);
    Some(out)
}

/// Where the percentage after `at` starts, past an article (`a 2% fee`).
fn percent_after(toks: &[Token], at: usize) -> Option<usize> {
    let at = match toks.get(at)?.word() {
        Some("a" | "an" | "the") => at + 1,
        _ => at,
    };
    (toks.get(at)?.number().is_some() && toks.get(at + 1)?.is_sym('%')).then_some(at)
}
