//! Reading a whole request: its segments read in turn, and what each is read as. The
//! few questions asked of the request as a whole are in `asks.rs`.

mod asks;
mod both;

use super::context::{
    condition_last, rounding_after, with_labels, without_asides, without_when_paid,
};
use super::earlier::{
    as_ellipsis, asks_bare_date, asks_grand_total, asks_only_how_much, asks_only_total,
    gives_a_date, is_condition, over_earlier_list, unanswered_after, weekday_of_earlier,
    with_earlier_date, with_earlier_part, without_lead,
};
use super::parts::{chain_continuations, parse_part, quote, split_partly};
use super::separators::{JOINERS, listed_parts, split_weak, strong_segments};
use super::whole::{frames_reading, math_parts, whole_problem, with_levy_asked};
use super::{Parsed, ParsedPart, PartError, PartQuery};
use crate::dates::{self, DateQuery, NamedThen};
use crate::expr::Expr;
use crate::filler;
use crate::lexer::Token;
pub(super) use asks::asks_what_is_left;
use asks::{adds_up_before, another_place, counts_to_it, difference_of, of_lettered_parts, sum_of};

/// Reads every part of the request `toks` (lexed from `src`). A part that cannot be
/// read is named in `failed` and the rest is kept; it is an error only when no part
/// could be read (the first part's error), or when a sentence has too many `and`s.
pub fn parse_request(toks: &[Token], src: &str) -> Result<Parsed, PartError> {
    let parsed = read_request(toks, src)?;
    // `… total yen? and in dong at 170?`: the first of two questions answered too.
    Ok(both::with_first_answer(toks, parsed, |first| {
        read_request(first, src)
            .ok()
            .filter(|p| p.failed.is_empty())
            .or_else(|| frames_reading(first, src))
    }))
}

/// The whole request read as one quantity frame ([`frames_reading`]), the first of two
/// questions asked in turn answered too (`sending 25,000 yen 4 times, total yen? and
/// in dong at 170?`).
pub fn frames_reading_each(toks: &[Token], src: &str) -> Option<Parsed> {
    let parsed = frames_reading(toks, src)?;
    Some(both::with_first_answer(toks, parsed, |first| {
        read_request(first, src)
            .ok()
            .filter(|p| p.failed.is_empty())
            .or_else(|| frames_reading(first, src))
    }))
}

/// [`parse_request`] before a first question is answered on its own.
fn read_request(toks: &[Token], src: &str) -> Result<Parsed, PartError> {
    // `cube root of 50 (hw question, need the decimal)`: an aside in brackets, words
    // only, says nothing to compute.
    // `tenant in unit 2 is behind 3 months`, `phòng 1 3tr5, phòng 2 4tr2`: a number
    // that names a unit or a room is part of its name, no amount.
    // `cá thu 220k một ký, mua 7 lạng`: a weight in its price's unit (0.7 ký).
    // `15 working days from today`, `5 ngày nữa, không tính t7 cn`: working days.
    if let Some(without) = without_asides(toks)
        .or_else(|| with_labels(toks))
        // `thưởng cuối năm 7tr2 trừ thuế 5%`: the time of year names the bonus.
        .or_else(|| without_when_paid(toks))
        .or_else(|| crate::weights::in_price_unit(toks))
        // `18 chục trứng, 36k 1 chục`: groups priced per group.
        .or_else(|| crate::dozens::priced_per_group(toks))
        // `2 textbooks $89.99 and $124.50`: a count announcing its items is no item.
        .or_else(|| crate::counted::without_item_count(toks))
        .or_else(|| crate::workdays::merged(toks))
        // `split 90 between me and my 2 brothers`: three people.
        .or_else(|| crate::frames::me_and_others(toks))
        // `Hôm nay là thứ mấy vậy con?`: the person spoken to asks nothing.
        .or_else(|| crate::filler::without_vocative(toks))
        // `max temps … wats the average`: `max` names what is listed.
        .or_else(|| crate::filler::without_extreme_label(toks))
        // `bán 200kg tiêu giá 145k`: the price is a kilo's.
        .or_else(|| crate::frames::price_per_counted_unit(toks))
        // (Each rewrite changes the tokens, or reading them again would never end.)
        && without.as_slice() != toks
    {
        return parse_request(&without, src);
    }
    // `my cousins in LA, what time is it there`: the one place named, for `there`;
    // `tet 2027 is feb 6`: the year with its day and month. (New texts, read again.)
    // `tháng này còn bao nhiêu ngày`: the days left, the period said first.
    if let Some(text) = crate::places::pronoun_place(toks, src)
        .or_else(|| crate::dates::year_said_apart(toks, src))
        .or_else(|| crate::dates::period_left_said_first(toks))
        .or_else(|| crate::dates::apart_from_today(toks, src))
        // `what time is it in prague when its 8am in hanoi`: the condition first.
        .or_else(|| condition_last(toks, src))
    {
        return parse_request(&crate::lexer::lex(&text), &text);
    }
    // `my hourly went from 38.50 to 42.80, what % raise is that? 1 decimal is fine`: a
    // rounding said in a sentence of its own rounds the one answer of the rest.
    // `1. 8 x 35k 2. cong 50k tien com`: a request laid out as a list of parts is read
    // part by part, never as one problem over all its numbers.
    let laid_out = super::separators::laid_out(toks);
    if !laid_out
        && let Some((rest, places)) = rounding_after(toks)
        && let Ok(Parsed { parts, failed }) = parse_request(rest, src)
        && failed.is_empty()
        && let [
            ParsedPart {
                query: PartQuery::Math(e),
                ..
            },
        ] = parts.as_slice()
    {
        let rounded = Expr::bin(crate::expr::MathOp::Round, e.clone(), places);
        return Ok(Parsed {
            parts: vec![ParsedPart {
                text: quote(toks, src),
                query: PartQuery::Math(rounded),
            }],
            failed: Vec::new(),
        });
    }
    // `check in 23/12, check out 27/12, how many nights`: the days between two days.
    // `how many hours ahead of hanoi is seoul`: the hours between two places' clocks.
    // `giờ chicago mấy giờ rồi`: the time at a place named without a preposition.
    if !laid_out
        && let Some(q) = crate::dates::between_day_months(toks)
            .map(|q| crate::dates::inclusive_if_said(toks, q))
            .or_else(|| crate::places::time_difference(toks, src))
            .or_else(|| crate::places::time_named(toks, src))
            .or_else(|| {
                // (A conversion told loosely, only when no part reads it strictly; the loose
                // reader, which looks for one clock time first, is the cheaper test.)
                crate::places::loose_convert(toks, src)
                    .filter(|_| crate::places::parse(toks, src).is_none())
            })
    {
        return Ok(Parsed {
            parts: vec![ParsedPart {
                text: quote(toks, src),
                query: PartQuery::Date(q),
            }],
            failed: Vec::new(),
        });
    }
    // Priced items summed (`4 ly bạc xỉu 29k với 3 ly đen đá 20k, tổng tiền`): one
    // part over the whole request, never every number added.
    // The price of one from a pack's (`30 viên giá 145k, 1 viên bao nhiêu`), likewise.
    // An amount for one period asked for a longer one (`£68.50 a day and she goes 3 days a
    // week. how much is that a fortnight`), likewise.
    if !laid_out
        && let Some(e) = crate::frames::priced_items(toks)
            .or_else(|| crate::frames::price_of_one(toks))
            .or_else(|| crate::frames::longer_period(toks))
    {
        return Ok(whole_problem(toks, src, e));
    }
    // The price before a levy it includes (`giá đã gồm VAT 10% là 236.500đ, giá chưa
    // thuế`): the whole request is one frame, never its first sentence's percentage.
    // A share and the rest asked together (`how much tax and what's left`), likewise.
    // Change from money handed over (`paid with 600k, how much change`), likewise.
    if !laid_out
        && (crate::frames::asks_before_levy(toks)
            || crate::frames::asks_share_and_rest(toks)
            || crate::frames::asks_change(toks))
        && let Some(parsed) = frames_reading(toks, src)
    {
        return Ok(parsed);
    }
    // Two amounts compared across its sentences (`… tháng trước 740.000đ, tháng này
    // 856.000đ, tăng bao nhiêu`): one part over the whole request.
    // An amount per one period asked per another (`4200 a month, how much a year`).
    // A recipe scaled (`250g for 4 people, we'll be 6`).
    // What is left of an amount (`had 500, spent 175 and 60, how much left`).
    // Hours between two clock times, overtime at a multiple of a rate.
    // One list operation over one run of numbers, the question in another sentence
    // (`Sales this week were 1200, 950 and 1320. What's the average per day?`).
    if !laid_out
        && let Some(e) = crate::change::parse(toks)
            .or_else(|| crate::rates::parse(toks))
            .or_else(|| crate::rates::months_of(toks))
            .or_else(|| crate::rates::over_periods(toks))
            .or_else(|| crate::scaling::parse(toks))
            .or_else(|| crate::remaining::parse(toks))
            .or_else(|| crate::shifts::hours_between(toks))
            .or_else(|| crate::shifts::overtime(toks))
            .or_else(|| crate::shares::parse(toks))
            .or_else(|| crate::shares::percent_of_count(toks))
            .or_else(|| crate::shares::total_of_average(toks))
            .or_else(|| crate::proportion::parse(toks))
            .or_else(|| crate::exchange::parse(toks))
            .or_else(|| crate::coverage::periods_needed(toks))
            .or_else(|| crate::coverage::groups(toks))
            .or_else(|| crate::averages::parse(toks))
            .or_else(|| crate::averages::total(toks))
            .or_else(|| crate::averages::weighted_grade(toks))
            .or_else(|| crate::tolerant::list(filler::trim_symbols(toks)))
    {
        let text = quote(toks, src);
        let query = PartQuery::Math(e);
        return Ok(Parsed {
            parts: vec![ParsedPart { text, query }],
            failed: Vec::new(),
        });
    }
    // Two list operations over one run of numbers (`128, 142, 119, lowest and
    // highest?`): a part each.
    // How many whole ones hold a total (`1 bag covers 2.5 m2, the wall is 45 m2, how
    // many bags`), after the area when that is asked too.
    // An amount split in a ratio (`split 200 triệu 60/40`): a share each.
    let found = crate::tolerant::lists(filler::trim_symbols(toks))
        .or_else(|| crate::coverage::parse(toks))
        .or_else(|| crate::ratio::parse(toks));
    if !laid_out && let Some(found) = found {
        return Ok(math_parts(toks, src, found));
    }
    let mut parts = Vec::new();
    let mut failed = Vec::new();
    let cut = match laid_out {
        true => listed_parts(toks),
        false => strong_segments(toks),
    };
    let segments: Vec<&[Token]> = cut
        .into_iter()
        .filter(|segment| {
            let trimmed = filler::trim_symbols(segment);
            let only_joiners = trimmed
                .iter()
                .all(|t| t.word().is_some_and(|w| JOINERS.contains(&w)));
            !(trimmed.is_empty() || only_joiners || filler::is_greeting(segment))
        })
        .collect();
    let mut k = 0;
    while k < segments.len() {
        // After an earlier segment, a segment's leading joining words (`, còn …`, `;
        // and also …`) only join it on.
        let segment = match k {
            0 => segments[0],
            _ => without_lead(segments[k]),
        };
        k += 1;
        let whole = match split_weak(segment, src) {
            Ok(found) => {
                // `my wedding is on december 28, how many days left`: a statement that
                // reads alone, and a question that only reads with it.
                let states_a_date = matches!(
                    found.as_slice(),
                    [ParsedPart {
                        query: PartQuery::Date(DateQuery::Anchored { .. }),
                        ..
                    }]
                );
                if states_a_date
                    && let Some(next) = segments.get(k).map(|s| without_lead(s))
                    && split_weak(next, src).is_err()
                {
                    let joined: Vec<Token> = segment.iter().chain(next).cloned().collect();
                    if let Ok(query @ PartQuery::Date(_)) = parse_part(&joined, src) {
                        parts.push(ParsedPart {
                            text: quote(&joined, src),
                            query,
                        });
                        k += 1;
                        continue;
                    }
                }
                parts.extend(found);
                continue;
            }
            Err(PartError::TooManyParts) => return Err(PartError::TooManyParts),
            Err(whole) => whole,
        };
        // A statement and the question about it, in two sentences: `I was born on 12
        // June 1994, how old am I`, `if it's 9am in Paris, what time is it in Seoul`.
        if let Some(next) = segments.get(k).map(|s| without_lead(s)) {
            let joined: Vec<Token> = segment.iter().chain(next).cloned().collect();
            // (The statement must say something the question needs: read alike without
            // it, it is a part of its own, understood or not.)
            let alone = parse_part(next, src).ok();
            if let Ok(query) = parse_part(&joined, src)
                && alone.as_ref() != Some(&query)
            {
                parts.push(ParsedPart {
                    text: quote(&joined, src),
                    query,
                });
                k += 1;
                continue;
            }
            // A condition not understood: the question after it is not answered alone
            // (the time asked *if* …, never the time now).
            if is_condition(segment) {
                failed.push(PartError::NotUnderstood(quote(&joined, src)));
                k += 1;
                continue;
            }
        }
        // `…, and how many days until that day`: the date of an earlier segment.
        if let Some(part) = with_earlier_date(segment, &segments[..k - 1], src) {
            parts.push(part);
            continue;
        }
        // `the smallest of 4, 9, 2 and their sum`: the numbers of the list before.
        if let Some(part) = over_earlier_list(segment, &parts, src) {
            parts.push(part);
            continue;
        }
        // `What's 18% of 250? Also 250 minus that?`: the answer of the part before.
        if let Some(part) = with_earlier_part(segment, &parts, src) {
            parts.push(part);
            continue;
        }
        // `2 tuần nữa là ngày mấy, thứ mấy?`: a bare weekday question after a part that
        // gives a date asks that date's weekday.
        if let Some(part) = weekday_of_earlier(segment, &parts, src) {
            parts.push(part);
            continue;
        }
        // `Giờ ở London là mấy giờ, còn ở Sydney?`: the segment before, one part replaced.
        if let Some(part) = k
            .checked_sub(2)
            .and_then(|j| as_ellipsis(segment, segments[j], src))
        {
            parts.push(part);
            continue;
        }
        // A listed part is a request of its own: every reader of a whole request, and
        // the quantity frames, may read it.
        if laid_out
            && let Some(Parsed {
                parts: found,
                failed: none,
            }) = read_request(segment, src)
                .ok()
                .or_else(|| frames_reading(segment, src))
            && none.is_empty()
            && !found.is_empty()
        {
            parts.extend(found);
            continue;
        }
        let (found, missed) = split_partly(segment, src);
        if found.is_empty() {
            failed.push(whole);
        } else {
            parts.extend(found);
            // `time in toronto and shenzhen right now`: another place for the time.
            for e in missed {
                match e.text().and_then(|t| another_place(&t, parts.last())) {
                    Some(part) => parts.push(part),
                    None => failed.push(e),
                }
            }
        }
    }
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
    // `pt weighs 72kg, order is 0.5 mg/kg, how many mg do i draw up`: a question with
    // no number of its own after an understood part only asks for that part's answer.
    // The whole request read as one everyday problem comes first: `…, tổng phải trả là
    // bao nhiêu` asks the total, not the part before it.
    if !parts.is_empty()
        && failed.iter().any(|e| {
            e.text()
                .is_some_and(|t| asks_only_how_much(&t) || asks_only_total(&t))
        })
    {
        if let Some(e) = crate::everyday::parse(toks, src) {
            return Ok(whole_problem(toks, src, e));
        }
        // (`3. cong lai het bao nhieu`: a last part adding up the parts before is kept,
        // to be their sum below.)
        let n = parts.len();
        failed.retain(|e| {
            !e.text().is_some_and(|t| {
                asks_only_how_much(&t)
                    && !adds_up_before(&t, n)
                    && difference_of(&t, &parts).is_none()
            })
        });
    }
    let mut parts = match chain_continuations(parts, laid_out) {
        Ok(parts) if failed.is_empty() => parts,
        read => {
            // Parts that do not stand alone may still be one everyday problem told in
            // several sentences: `dinner came to 127.40 for 4 of us, how much each?`.
            if let Some(e) = crate::everyday::parse(toks, src) {
                return Ok(whole_problem(toks, src, e));
            }
            // A start date, a duration and the end asked, across its sentences
            // (`project starts dec 7, 8 weeks of work, when does it finish`); one date
            // and the days until it asked (`how many days till reading week, feb 16`).
            let whole = filler::trim_symbols(toks);
            if let Some(q) = dates::tolerant_shift(whole).or_else(|| dates::tolerant(whole)) {
                return Ok(Parsed {
                    parts: vec![ParsedPart {
                        text: quote(toks, src),
                        query: PartQuery::Date(q),
                    }],
                    failed: Vec::new(),
                });
            }
            read?
        }
    };
    // `client in toronto wants a call at 10am his time, what time is that in hanoi`: a
    // time stated and not understood leaves a time asked after it unanswered — the
    // time now there would answer another question.
    unanswered_after(
        &mut parts,
        &mut failed,
        |toks| (0..toks.len()).any(|j| crate::places::time_at(toks, j).is_some()),
        |p| matches!(p.query, PartQuery::Date(DateQuery::TimeIn { .. })),
    );
    // `ngày nghỉ tiếp theo của e là thứ 7 tuần này, ngày mấy vậy`: a day stated and not
    // understood leaves a bare "what date" after it unanswered — today's date would
    // answer another question.
    unanswered_after(
        &mut parts,
        &mut failed,
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
    // `Cà chua 25k/kg mua 2 ký, rau muống 3 bó mỗi bó 8k, tổng cộng bao nhiêu?`: the
    // parts' amounts added up is the one answer asked.
    if parts.len() >= 2
        && failed.is_empty()
        && asks_grand_total(toks)
        && parts.iter().all(|p| {
            matches!(
                &p.query,
                PartQuery::Math(Expr::Op(crate::expr::MathOp::Multiply, _))
            )
        })
        && let Some(total) = sum_of(&parts)
    {
        parts = vec![ParsedPart {
            text: quote(toks, src),
            query: PartQuery::Math(total),
        }];
    }
    // `1) 120 ly x 25.000  2) 85 ly x 29.000  3) cộng cả hai lại`, `3. add both`: a last
    // part that only adds up the parts before is their sum.
    if parts.len() >= 2
        && let [only] = failed.as_slice()
        && let Some(text) = only.text()
        && adds_up_before(&text, parts.len())
        && let Some(total) = sum_of(&parts)
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
        && let Some(e) = difference_of(&text, &parts).or_else(|| of_lettered_parts(&text, &parts))
    {
        parts.push(ParsedPart {
            text,
            query: PartQuery::Math(e),
        });
        failed.clear();
    }
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
        parts = with_levy_asked(toks, text.clone(), e.clone());
    }
    match (parts.is_empty(), failed.is_empty()) {
        (true, false) => Err(failed.swap_remove(0)),
        _ => Ok(Parsed { parts, failed }),
    }
}
