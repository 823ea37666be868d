//! What a number is in a request (a percentage, a count of sharers, a base, a divisor),
//! and the follow-ups read by it: a percentage on the last amount, a new count of sharers.

use super::continuation::{LOWER_BY, PERCENT_OF, RAISE_BY};
use super::splice;
use crate::lexer::{Token, words_at};

/// Words after a number that say it counts people (or shares).
pub(super) const PEOPLE_AFTER: &[&[&str]] = &[
    &["of", "us"],
    &["of", "them"],
    &["people"],
    &["ppl"],
    &["persons"],
    &["person"],
    &["friends"],
    &["guests"],
    &["ways"],
    &["người"],
    &["bạn"],
    // (`neu 25 em thi sao` after `chia deu 1tr5 cho 30 hs`: children or pupils
    // counted in place of those before.)
    &["em"],
    &["đứa"],
    &["cháu"],
    &["học", "sinh"],
    &["hs"],
    &["kids"],
];

/// Counts written in words, as a count of sharers may be: `split $180 four ways`.
pub(super) const COUNT_WORDS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
];

/// Words before a number that say it counts sharers.
pub(super) const PEOPLE_BEFORE: &[&str] = &["between", "among", "amongst", "cho", "giữa"];

/// Words before a number that make it the base of a percentage (`of 150`).
pub(super) const BASE_BEFORE: &[&str] = &["of", "của", "on", "trên"];

/// What a number is in a request, from its neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// A percentage: `15%`, `15 percent`, `15 phần trăm`.
    Percent,
    /// A count of people or shares: `6 people`, `4 of us`, `between 3`, `chia 6 người`.
    People,
    /// The base of a percentage: `of 80`.
    Base,
    /// What is divided by: `chia 3`, `chia cho 3`, `divided by 3`.
    Divisor,
    /// Any other number.
    Plain,
}

/// The role of the number at `k` of `toks`, and how many tokens after it say so.
pub(super) fn role_at(toks: &[Token], k: usize) -> (Role, usize) {
    let word = |j: usize| toks.get(j).and_then(Token::word);
    if toks.get(k + 1).is_some_and(|t| t.is_sym('%')) {
        return (Role::Percent, 1);
    }
    if matches!(word(k + 1), Some("percent" | "pct" | "percents")) {
        return (Role::Percent, 1);
    }
    if words_at(toks, k + 1, &["phần", "trăm"]) {
        return (Role::Percent, 2);
    }
    if let Some(p) = PEOPLE_AFTER.iter().find(|p| words_at(toks, k + 1, p)) {
        return (Role::People, p.len());
    }
    let before = k.checked_sub(1).and_then(word);
    let two_before = k.checked_sub(2).and_then(word);
    // (`chia 1500000 cho 3 nhà`: the number after `chia` is shared out, `cho` names
    // the divisor.)
    let shared_out = before == Some("chia")
        && toks[k + 1..]
            .windows(2)
            .any(|w| w[0].word() == Some("cho") && matches!(w[1].tok, crate::lexer::Tok::Num(_)));
    let divides = before == Some("chia") && !shared_out
        || before == Some("cho") && two_before == Some("chia")
        || before == Some("by") && two_before == Some("divided")
        // (`219.952 / 4`: a written division.)
        || k > 0 && toks[k - 1].is_sym('/') && k > 1 && matches!(toks[k - 2].tok, crate::lexer::Tok::Num(_));
    if divides {
        return (Role::Divisor, 0);
    }
    if before.is_some_and(|w| PEOPLE_BEFORE.contains(&w)) {
        return (Role::People, 0);
    }
    if before.is_some_and(|w| BASE_BEFORE.contains(&w)) {
        return (Role::Base, 0);
    }
    (Role::Plain, 0)
}

/// Words that put a step before the last question's own: `and if we add a 10% tip
/// first?`, `nếu cộng 10% phí trước thì sao`.
const FIRST_WORDS: &[&str] = &["first", "beforehand", "before", "trước"];

/// Words that ask the amount with a percentage on top, not the percentage alone:
/// `so whats the total with the 15% tip`, `tổng cộng cả 10% phí là bao nhiêu`.
pub(super) const WHOLE_WORDS: &[&str] = &["total", "altogether", "overall", "tổng"];

/// The one percentage of `core` (the follow-up's own tokens), with the word after it
/// that names it (`tip`, `phí`), when it is the only number.
fn lone_percent<'a>(core: &[Token], follow: &'a str) -> Option<(&'a str, Option<&'a str>)> {
    use crate::lexer::Tok;
    let nums: Vec<usize> = (0..core.len())
        .filter(|&k| matches!(core[k].tok, Tok::Num(_)))
        .collect();
    let [k] = nums.as_slice() else {
        return None;
    };
    let (Role::Percent, marked) = role_at(core, *k) else {
        return None;
    };
    let n = &follow[core[*k].start..core[*k].end];
    let named = core
        .get(k + marked + 1)
        .and_then(Token::word)
        .filter(|w| PERCENT_OF.contains(w))
        .map(|_| {
            let t = &core[k + marked + 1];
            &follow[t.start..t.end]
        });
    Some((n, named))
}

/// A percentage on the last question's amount, before or around its own step, or
/// `None`: `and if we add a 10% tip first?` after `split $186 between 3` → `split 186
/// plus 10% tip between 3` (the tip before the split, the count kept); `so whats the
/// total with the 15% tip` after `15% tip on 64` → `increase 64 by 15%` (the amount
/// with the tip, never the tip raised by itself).
pub(super) fn percent_on_amount(previous: &str, core: &[Token], follow: &str) -> Option<String> {
    use crate::lexer::Tok;
    let (n, named) = lone_percent(core, follow)?;
    let has = |list: &[&str]| {
        core.iter()
            .any(|t| t.word().is_some_and(|w| list.contains(&w)))
    };
    let ptoks = crate::lexer::lex(previous);
    let pnums: Vec<(usize, Role)> = (0..ptoks.len())
        .filter(|&k| matches!(ptoks[k].tok, Tok::Num(_)))
        .map(|k| (k, role_at(&ptoks, k).0))
        .collect();
    let amounts: Vec<usize> = pnums
        .iter()
        .filter(|(_, r)| matches!(r, Role::Plain | Role::Base))
        .map(|(k, _)| *k)
        .collect();
    let [at] = amounts.as_slice() else {
        return None;
    };
    let amount = &previous[ptoks[*at].start..ptoks[*at].end];
    let percents = pnums.iter().filter(|(_, r)| *r == Role::Percent).count();
    let lower = has(LOWER_BY);
    if has(WHOLE_WORDS) && percents == 1 && !lower {
        // The last question asked a percentage of the amount: the total is the amount
        // with it.
        return Some(format!("increase {amount} by {n}%"));
    }
    if has(FIRST_WORDS) && percents == 0 {
        let op = match (has(RAISE_BY), lower) {
            (true, false) => "plus",
            (false, true) => "minus",
            _ => return None,
        };
        let what = named.map(|w| format!(" {w}")).unwrap_or_default();
        let span = (ptoks[*at].start, ptoks[*at].end);
        return Some(splice(previous, span, &format!("{amount} {op} {n}%{what}")));
    }
    None
}

/// Whether `query` counts sharers again (`and between 5 of us instead?`, `nếu có 9
/// người thì mỗi người bao nhiêu`) after a question that split among a count: the
/// count is replaced, never the last share divided again.
pub fn recounts_split(query: &str, questions: &[String]) -> bool {
    use crate::lexer::Tok;
    let Some(previous) = questions.last() else {
        return false;
    };
    let people = |text: &str| {
        let toks = crate::lexer::lex(text);
        (0..toks.len())
            .any(|k| matches!(toks[k].tok, Tok::Num(_)) && role_at(&toks, k).0 == Role::People)
    };
    let ptext = crate::normalise::normalise(previous, None).text;
    let text = crate::normalise::normalise(query, None).text;
    // `split $180 four ways`: a count in words still counts sharers; `split between
    // me and 2 other au pairs`, sharers said another way.
    let shared = crate::lexer::lex(&ptext).iter().any(|t| {
        t.word().is_some_and(|w| {
            matches!(
                w,
                "ways" | "people" | "người" | "persons" | "ppl" | "split" | "between" | "among"
            )
        })
    });
    people(&text) && (shared || people(&ptext))
}

/// The last question's amount with its percentage on top, when the follow-up asks the
/// total with it and says no number (`total with that tip?` after `dinner bill $84.60,
/// 20% tip`): `increase 84.60 by 20%`.
pub(super) fn total_with_share(previous: &str, core: &[Token]) -> Option<String> {
    use crate::lexer::Tok;
    let words: Vec<&str> = core.iter().filter_map(Token::word).collect();
    // (`total with that tip`, `tổng cả tiền tip`: the total *with* it, never `what's the
    // VAT and the total`, two answers of one request.)
    let asks_total = words.iter().any(|w| WHOLE_WORDS.contains(w))
        && words
            .iter()
            .any(|w| matches!(*w, "with" | "cả" | "including"))
        && words.iter().any(|w| PERCENT_OF.contains(w) || *w == "that");
    if !asks_total || core.iter().any(|t| matches!(t.tok, Tok::Num(_))) {
        return None;
    }
    let ptoks = crate::lexer::lex(previous);
    let pnums: Vec<(usize, Role)> = (0..ptoks.len())
        .filter(|&k| matches!(ptoks[k].tok, Tok::Num(_)))
        .map(|k| (k, role_at(&ptoks, k).0))
        .collect();
    let ([(a, Role::Plain | Role::Base), (p, Role::Percent)]
    | [(p, Role::Percent), (a, Role::Plain | Role::Base)]) = pnums.as_slice()
    else {
        return None;
    };
    let text = |k: usize| &previous[ptoks[k].start..ptoks[k].end];
    Some(format!("increase {} by {}%", text(*a), text(*p)))
}
