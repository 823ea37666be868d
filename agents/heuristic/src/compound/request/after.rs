//! The passes over the parts read: a part asking what an earlier one gave merged
//! with it, the request read as one problem when a part only asks for an answer,
//! parts not answered when what they need was not understood, and parts added up,
//! compared or asked both ways when the request asks that.

use super::asks::{adds_up_before, counts_to_it, difference_of, of_lettered_parts, sum_of};
use crate::compound::earlier::{
    asks_bare_date, asks_grand_total, asks_only_how_much, asks_only_total, gives_a_date,
    unanswered_after,
};
use crate::compound::parts::quote;
use crate::compound::whole::{whole_problem, with_levy_asked};
use crate::compound::{Parsed, ParsedPart, PartError, PartQuery};
use crate::dates::{self, DateQuery, NamedThen};
use crate::expr::{Expr, MathOp};
use crate::filler;
use crate::lexer::Token;

/// A part asking a bare date after a part giving one merged into it.
pub(super) fn merge_bare_dates(parts: &mut Vec<ParsedPart>) {
    // `2 tuần nữa là thứ mấy, ngày mấy?`: a bare "what date" after a part that gives a
    // date asks that part's date (already given), not today's.
    let mut k = 1;
    while k < parts.len() {
        if asks_bare_date(&parts[k]) && gives_a_date(&parts[k - 1]) {
            // (`45 business days from today, what date and what day is it`: its weekday
            // too.)
            let weekday = matches!(
                parts[k].query,
                PartQuery::Date(DateQuery::Today { weekday: true })
            );
            if let PartQuery::Date(DateQuery::Shift { weekday: w, .. }) = &mut parts[k - 1].query {
                *w |= weekday;
            }
            parts.remove(k);
        } else {
            k += 1;
        }
    }
}

/// The whole request `toks` read as one everyday problem when a part not understood
/// only asks for an answer; else such parts dropped from `failed`.
pub(super) fn only_answer_asked(
    toks: &[Token],
    src: &str,
    laid_out: bool,
    parts: &[ParsedPart],
    failed: &mut Vec<PartError>,
) -> Option<Parsed> {
    // `pt weighs 72kg, order is 0.5 mg/kg, how many mg do i draw up`: a question with
    // no number of its own after an understood part only asks for that part's answer.
    // The whole request read as one everyday problem comes first: `…, tổng phải trả là
    // bao nhiêu` asks the total, not the part before it.
    // (`so what's left to pay, 9,900,000 minus 2,970,000`: a sentence asking what is left
    // before one computing it asks that part's answer — never in parts laid out, where
    // `c) whats left` is a part of its own.)
    if !laid_out && !parts.is_empty() {
        failed.retain(|e| !e.text().is_some_and(|t| asks_only_what_left(&t)));
    }
    if !parts.is_empty()
        && failed.iter().any(|e| {
            e.text()
                .is_some_and(|t| asks_only_how_much(&t) || asks_only_total(&t))
        })
    {
        // (Never a request laid out as parts: `1. … 2. … 3. tổng cộng` would add up
        // its markers.)
        if !laid_out && let Some(e) = crate::everyday::parse(toks, src) {
            return Some(whole_problem(toks, src, e));
        }
        // (`3. cong lai het bao nhieu`: a last part adding up the parts before is kept,
        // to be their sum below.)
        let n = parts.len();
        failed.retain(|e| {
            !e.text().is_some_and(|t| {
                asks_only_how_much(&t)
                    && !adds_up_before(&t, n)
                    && difference_of(&t, parts).is_none()
            })
        });
    }
    None
}

/// The whole request `toks` read as one problem when its parts are not all read (never
/// one laid out as parts).
pub(super) fn read_as_one(toks: &[Token], src: &str, laid_out: bool) -> Option<Parsed> {
    if laid_out {
        return None;
    }
    // Parts that do not stand alone may still be one everyday problem told in
    // several sentences: `dinner came to 127.40 for 4 of us, how much each?`.
    if let Some(e) = crate::everyday::parse(toks, src) {
        return Some(whole_problem(toks, src, e));
    }
    // A start date, a duration and the end asked, across its sentences
    // (`project starts dec 7, 8 weeks of work, when does it finish`); one date
    // and the days until it asked (`how many days till reading week, feb 16`).
    let whole = filler::trim_symbols(toks);
    if let Some(q) = dates::tolerant_shift(whole).or_else(|| dates::tolerant(whole)) {
        return Some(Parsed::one(quote(toks, src), PartQuery::Date(q)));
    }
    None
}

/// `ryanair 79 eur + 35 eur bag, for 2 people`: the one amount read, then `for N
/// people` not understood alone — the amount is each one's, paid for them all. Never
/// where a share is asked (`each`, `split`, `mỗi`, `chia`).
pub(super) fn for_people(toks: &[Token], parts: &mut [ParsedPart], failed: &mut Vec<PartError>) {
    const PEOPLE: &[&str] = &["people", "ppl", "persons", "người"];
    const SHARED: &[&str] = &["each", "split", "per", "share", "mỗi", "chia"];
    let ([part], [err]) = (&mut parts[..], &failed[..]) else {
        return;
    };
    let PartQuery::Math(e) = &part.query else {
        return;
    };
    let Some(text) = err.text() else { return };
    let said = crate::lexer::lex(&text);
    let n = match said.as_slice() {
        [lead, n, who]
            if matches!(lead.word(), Some("for" | "cho"))
                && who.word().is_some_and(|w| PEOPLE.contains(&w)) =>
        {
            n.number().map(str::to_owned)
        }
        _ => None,
    };
    let shared = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| SHARED.contains(&w)));
    if let (Some(n), false) = (n, shared) {
        part.query = PartQuery::Math(Expr::bin(MathOp::Multiply, e.clone(), Expr::Num(n)));
        part.text.push_str(", ");
        part.text.push_str(&text);
        failed.clear();
    }
}

/// A part asked after what it needs was stated and not understood moved to `failed`,
/// and context beside an understood part dropped from it.
pub(super) fn unanswered(parts: &mut Vec<ParsedPart>, failed: &mut Vec<PartError>) {
    // `client in toronto wants a call at 10am his time, what time is that in hanoi`: a
    // time stated and not understood leaves a time asked after it unanswered — the
    // time now there would answer another question.
    unanswered_after(
        parts,
        failed,
        |toks| (0..toks.len()).any(|j| crate::places::time_at(toks, j).is_some()),
        |p| matches!(p.query, PartQuery::Date(DateQuery::TimeIn { .. })),
    );
    // `ngày nghỉ tiếp theo của e là thứ 7 tuần này, ngày mấy vậy`: a day stated and not
    // understood leaves a bare "what date" after it unanswered — today's date would
    // answer another question.
    unanswered_after(
        parts,
        failed,
        |toks| {
            (0..toks.len()).any(|j| {
                dates::weekday_phrase_end(toks, j).is_some()
                    || dates::day_month_end(toks, j).is_some()
            })
        },
        asks_bare_date,
    );
    // `…, want to call my brother`, `… con`: context beside an understood part.
    if !parts.is_empty() {
        failed.retain(|e| {
            !e.text()
                .is_some_and(|t| filler::only_context(&crate::lexer::lex(&t)))
        });
    }
}

/// The parts added up, or their difference taken, when the request asks that.
pub(super) fn summed(
    toks: &[Token],
    src: &str,
    laid_out: bool,
    parts: &mut Vec<ParsedPart>,
    failed: &mut Vec<PartError>,
) {
    // `Cà chua 25k/kg mua 2 ký, rau muống 3 bó mỗi bó 8k, tổng cộng bao nhiêu?`: the
    // parts' amounts added up is the one answer asked.
    if parts.len() >= 2
        && failed.is_empty()
        && asks_grand_total(toks)
        // (`2 bags @ $38.90, 3 drench @ 64.50 and gloves 12.99, total?`: a part that
        // adds its own items is added too.)
        && parts.iter().all(|p| {
            matches!(
                &p.query,
                PartQuery::Math(Expr::Op(
                    crate::expr::MathOp::Multiply | crate::expr::MathOp::Sum,
                    _
                ))
            )
        })
        && let Some(total) = sum_of(parts)
    {
        *parts = vec![ParsedPart {
            text: quote(toks, src),
            query: PartQuery::Math(total),
        }];
    }
    // (`a. 4 thợ x 450k b. 3 chuyến x dầu 700k c. cộng 2 cái`: read as 2 added to the
    // part before, the last part only adds up the two before it.)
    if laid_out
        && failed.is_empty()
        && parts.len() >= 3
        && let Some(last) = parts.last()
        && adds_up_before(&last.text, parts.len() - 1)
        && let Some(total) = sum_of(&parts[..parts.len() - 1])
        && parts.iter().all(|p| matches!(p.query, PartQuery::Math(_)))
    {
        let n = parts.len() - 1;
        parts[n].query = PartQuery::Math(total);
    }
    // `1) 120 ly x 25.000  2) 85 ly x 29.000  3) cộng cả hai lại`, `3. add both`: a last
    // part that only adds up the parts before is their sum.
    if parts.len() >= 2
        && let [only] = failed.as_slice()
        && let Some(text) = only.text()
        && adds_up_before(&text, parts.len())
        && let Some(total) = sum_of(parts)
        && parts.iter().all(|p| matches!(p.query, PartQuery::Math(_)))
    {
        parts.push(ParsedPart {
            text,
            query: PartQuery::Math(total),
        });
        failed.clear();
    }
    // `a. 48 lít x 23.450 b. 48 lít x 24.100 c. chênh nhau bao nhiêu`, `c) lấy a trừ
    // b`: a last part asking the difference of the parts before, or naming them by
    // their letters.
    if laid_out
        && let [only] = failed.as_slice()
        && let Some(text) = only.text()
        && let Some(e) = difference_of(&text, parts).or_else(|| of_lettered_parts(&text, parts))
    {
        parts.push(ParsedPart {
            text,
            query: PartQuery::Math(e),
        });
        failed.clear();
    }
}

/// A date asked besides the days until it, or a levy besides the total: both parts.
pub(super) fn both_asked(toks: &[Token], parts: &mut Vec<ParsedPart>) {
    // `last day of this month and how many days left till then`: the day is asked
    // too, not only the count to it.
    if let [part] = parts.as_slice()
        && let PartQuery::Date(DateQuery::Anchored {
            anchor,
            then: NamedThen::DaysUntil,
        }) = &part.query
        && counts_to_it(toks)
    {
        let date = ParsedPart {
            text: part.text.clone(),
            query: PartQuery::Date(DateQuery::Anchored {
                anchor: *anchor,
                then: NamedThen::Date,
            }),
        };
        parts.insert(0, date);
    }
    // `quote is 2,000 plus 10% VAT. what's the VAT and the total`: both.
    if let [
        ParsedPart {
            text,
            query: PartQuery::Math(e),
        },
    ] = parts.as_slice()
    {
        *parts = with_levy_asked(toks, text.clone(), e.clone());
    }
}

/// Whether `text` only asks what is left (`so what's left to pay`, `whats left`): no
/// number, and no word but those.
fn asks_only_what_left(text: &str) -> bool {
    let toks = crate::lexer::lex(text);
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    toks.iter().all(|t| t.word().is_some() || t.is_sym('?'))
        && words
            .windows(2)
            .any(|w| matches!(w, ["whats" | "what", "left"]))
        && words.iter().all(|w| {
            matches!(
                *w,
                "so" | "and" | "whats" | "what" | "is" | "left" | "to" | "pay"
            )
        })
}
