//! Units, periods and terms: the unit a word names, a price per unit, measured
//! quantities, interest periods and terms, and the unit words a number may shed.

use super::cues::{CUES, Cue};
use super::items::{FOREIGN, asks_outside};
use crate::lexer::{Tok, Token};

/// Words that tie a unit price to its unit after the number: `1.89 a litre`, `46.20
/// an hour`, `185 nghìn một ký`.
pub(super) const PER_UNIT: &[&str] = &["a", "an", "per", "một", "every"];

/// Period words: after `a`, `per`, `/`, `mỗi` they only say how often (`4,200 a month`,
/// `6%/năm`, `mỗi tháng`); after a number they count periods (`for 3 years`).
pub(super) const PERIODS: &[&str] = &[
    "month", "months", "year", "years", "week", "weeks", "day", "days", "yr", "yrs", "annum",
    "tháng", "năm", "tuần", "ngày",
];

/// The unit a word names, singular and with common aliases folded (`litres` → `l`,
/// `kilo` → `kg`, `hrs` → `h`), so a price per unit meets a quantity in that unit.
pub(crate) fn unit_of(word: &str) -> String {
    let w = word.to_lowercase();
    let alias = match w.as_str() {
        "kilo" | "kilos" | "kilogram" | "kilograms" | "ký" | "ky" | "ki" | "cân" | "kgs" => "kg",
        "litre" | "litres" | "liter" | "liters" | "lít" | "ltr" => "l",
        "hour" | "hours" | "hr" | "hrs" | "h" | "giờ" | "tiếng" => "h",
        "gallon" | "gallons" | "gal" => "gal",
        "metre" | "metres" | "meter" | "meters" | "mét" => "m",
        "m²" | "sqm" => "m2",
        "mo" | "mos" | "month" | "months" | "mth" => "month",
        "yr" | "yrs" | "year" | "years" => "year",
        "day" | "days" => "day",
        other => other,
    };
    match alias.strip_suffix('s') {
        Some(stem) if stem.chars().count() > 2 => stem.to_owned(),
        _ => alias.to_owned(),
    }
}

/// The number counted in the unit named after `per` or `mỗi` (`24 cans … price per
/// can` → 24, `64 miếng … mỗi miếng`), if one is.
pub(super) fn per_unit_count(toks: &[Token]) -> Option<&str> {
    let p = toks
        .iter()
        .position(|t| matches!(t.word(), Some("per" | "mỗi")))?;
    let unit = singular(toks.get(p + 1)?.word()?);
    // (`5 gift boxes … price per box`: a word may stand between.)
    let is_unit = |t: Option<&Token>| t.and_then(Token::word).is_some_and(|u| singular(u) == unit);
    (0..toks.len()).find_map(|k| match &toks[k].tok {
        Tok::Num(n)
            if is_unit(toks.get(k + 1))
                || toks.get(k + 1).and_then(Token::word).is_some() && is_unit(toks.get(k + 2)) =>
        {
            Some(n.as_str())
        }
        _ => None,
    })
}

/// An English noun without its plural ending: `nappies` → `nappy`, `boxes` → `box`,
/// `cans` → `can`.
fn singular(word: &str) -> String {
    let w = word.to_lowercase();
    if let Some(stem) = w.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for end in ["xes", "ches", "shes", "sses"] {
        if w.ends_with(end) {
            return w[..w.len() - 2].to_owned();
        }
    }
    match w.strip_suffix('s') {
        Some(stem) if stem.len() > 1 => stem.to_owned(),
        _ => w,
    }
}

/// Whether `toks` are about interest (`lãi suất 6%/năm`, `interest`): a period then
/// says how often, never a quantity priced.
pub(super) fn about_interest(toks: &[Token]) -> bool {
    toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "interest" | "lãi" | "compounded" | "compound"))
    })
}

/// Whether the word at `k` (after a number) counts periods of interest: `for 3 years`,
/// `sau 1 năm` in a request about interest.
pub(super) fn counts_periods(toks: &[Token], k: usize) -> bool {
    toks.get(k)
        .and_then(Token::word)
        .is_some_and(|w| PERIODS.contains(&w))
        && toks.iter().any(|t| {
            t.word()
                .is_some_and(|w| matches!(w, "interest" | "lãi" | "compounded" | "compound"))
        })
}

/// Whether the word at `k` (after a number) is a unit some price is given per
/// (`6 hours … at $95/hr`): `units` are the units numbers are counted in.
pub(super) fn priced_unit(toks: &[Token], k: usize, units: &[String]) -> bool {
    let Some(word) = toks.get(k).and_then(Token::word) else {
        return false;
    };
    // `3 người … mỗi người`: people share, they are not priced; `4.5% a year … after
    // 1 year`: a period only says how often.
    if CUES.iter().any(|(p, c)| *c == Cue::People && p[0] == word)
        || PERIODS.contains(&word) && about_interest(toks)
    {
        return false;
    }
    let unit = unit_of(word);
    units.contains(&unit)
        && toks.windows(2).enumerate().any(|(j, w)| {
            j + 1 != k
                && (w[0].is_sym('/')
                    || w[0]
                        .word()
                        .is_some_and(|x| PER_UNIT.contains(&x) || x == "mỗi"))
                && w[1].word().map(unit_of).as_ref() == Some(&unit)
        })
}

/// The units that some number of `toks` is counted in (`45 litres`, `72kg`, `6 hrs`).
pub(super) fn quantity_units(toks: &[Token]) -> Vec<String> {
    toks.windows(2)
        .filter(|w| matches!(w[0].tok, Tok::Num(_)))
        .filter_map(|w| w[1].word().map(unit_of))
        .collect()
}

/// How many months a period word is (`tháng` 1, `year` 12, `quý` 3).
fn months_in(word: &str) -> Option<u32> {
    Some(match word {
        "month" | "months" | "tháng" | "mo" => 1,
        "quarter" | "quarters" | "quý" => 3,
        "year" | "years" | "năm" | "yr" | "yrs" | "annum" => 12,
        _ => return None,
    })
}

/// In months, the period the term of an interest problem counts (the word after its
/// number: `12 tháng`, `for 3 years`) and the period its rate is per (`5,6%/năm`, `4% a
/// year`, `annual`), when both are said.
pub(super) fn term_and_rate(toks: &[Token]) -> Option<(u32, u32)> {
    let term = toks
        .windows(2)
        .find_map(|w| match (&w[0].tok, w[1].word()) {
            (Tok::Num(_), Some(unit)) => months_in(unit),
            _ => None,
        })?;
    let pct = toks.iter().position(|t| t.is_sym('%'))?;
    let after = |k: usize| toks.get(pct + k).and_then(Token::word);
    let tied = toks.get(pct + 1).is_some_and(|t| t.is_sym('/'))
        || after(1).is_some_and(|w| matches!(w, "a" | "an" | "per" | "một" | "mỗi" | "every"));
    let rate = match after(2).filter(|_| tied).and_then(months_in) {
        Some(r) => r,
        None if toks.iter().any(|t| {
            t.word()
                .is_some_and(|w| matches!(w, "annual" | "annually" | "yearly" | "pa"))
        }) =>
        {
            12
        }
        None => return None,
    };
    Some((term, rate))
}

/// Whether the number `n` of `toks` is a measured quantity (`2 ký`, `18 m2`, `3 hours`).
pub(super) fn measured(toks: &[Token], n: &str) -> bool {
    toks.windows(2).any(|w| {
        matches!(&w[0].tok, Tok::Num(x) if x == n)
            && w[1].word().is_some_and(|u| {
                matches!(
                    unit_of(u).as_str(),
                    "kg" | "g" | "l" | "ml" | "m" | "m2" | "km" | "cm" | "gal" | "mg" | "h"
                )
            })
    })
}

/// `toks` without the words that only name the unit of the number before them (`12
/// dollars`, `5 eggs`, `3 người`), or `None` when there is none to drop. A word that
/// could mean something (an operator, a cue, a date or time word, a number word, a
/// request outside the tools) is never dropped.
pub fn undecorated(toks: &[Token]) -> Option<Vec<Token>> {
    let symbolic = symbolic_units(toks);
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut dropped = false;
    let mut rate_unit = false;
    for (k, t) in toks.iter().enumerate() {
        // `400k/ngày x 3 người x 10 ngày`: a rate's unit after a slash only decorates.
        if rate_unit {
            rate_unit = false;
            continue;
        }
        if t.is_sym('/')
            && out.last().is_some_and(|p| matches!(p.tok, Tok::Num(_)))
            && toks
                .get(k + 1)
                .and_then(Token::word)
                .is_some_and(|w| !crate::numbers::starts_number(w) && !asks_outside(w))
        {
            dropped = true;
            rate_unit = true;
            continue;
        }
        let after_number = out.last().is_some_and(|p| matches!(p.tok, Tok::Num(_)));
        let decor = after_number
            && t.word().is_some_and(|w| {
                let unit = symbolic
                    && (TIME_UNITS.contains(&w)
                        || CUES.iter().any(|(p, c)| *c == Cue::People && p == &[w]));
                w.chars().all(char::is_alphabetic)
                    && (unit
                        || !FOREIGN.contains(&w)
                            && !KEEP.contains(&w)
                            && !CUES.iter().any(|(p, _)| p[0] == w))
                    && !crate::numbers::starts_number(w)
                    && !asks_outside(w)
            });
        if after_number && decor {
            dropped = true;
        } else {
            out.push(t.clone());
        }
    }
    dropped.then_some(out)
}

/// Units of time, which decorate a number only in a part written with operator symbols
/// (`4 shifts x 12.5 hrs`, `7 days * 8 hours`); elsewhere they make a date question.
const TIME_UNITS: &[&str] = &[
    "hour", "hours", "minute", "minutes", "day", "days", "week", "weeks", "month", "months",
    "year", "years", "giờ", "phút", "ngày", "tuần", "tháng",
];

/// Whether the numbers of `toks` are joined by operator symbols (`*`, `x`, `×`, `/`, `+`,
/// `-`), so that a unit of time or a count of people after a number only decorates it:
/// `12 / 4 people`, `4 shifts x 12.5 hrs`. A sum or difference of times in different
/// units (`2 hours + 30 minutes`) is not such a part: its numbers do not add up.
fn symbolic_units(toks: &[Token]) -> bool {
    let multiplies =
        |t: &Token| t.is_sym('*') || t.is_sym('×') || t.is_sym('/') || t.word() == Some("x");
    let adds = |t: &Token| t.is_sym('+') || t.is_sym('-');
    let units: Vec<&str> = toks
        .windows(2)
        .filter(|w| matches!(w[0].tok, Tok::Num(_)))
        .filter_map(|w| w[1].word().filter(|u| TIME_UNITS.contains(u)))
        .collect();
    let one_unit = units.windows(2).all(|u| u[0] == u[1]);
    toks.iter().any(multiplies) && !toks.iter().any(adds)
        || toks.iter().any(adds) && !toks.iter().any(multiplies) && one_unit
}

/// Operator and joining words a number may be followed by.
const KEEP: &[&str] = &[
    "and", "và", "or", "hoặc", "hay", "of", "của", "are", "plus", "x", "by", "to", "from", "cộng",
    "chia", "cho", "với", "đi", "percent", "phần", "is", "là", "bằng", "equals", "then", "rồi",
    "sau", "squared", "cubed", "bình", "lập", "khai", "lũy", "luỹ", "raised", "mod", "modulo",
    "into",
];
