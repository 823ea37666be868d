//! Splitting a request into parts and reading each part.
//!
//! Strong separators (`;`, `?`, `!`, `,`, a sentence `.`, outside parentheses) always
//! split. Weak ones (`and`, `và`, `then`, `also`, `rồi`) split only where every piece
//! is a request on its own: `2+4 and weekday of 2026-12-25` splits, while
//! `add 3 and 5` and `days between 2026-01-01 and 2026-03-01` stay whole because
//! `add 3` and `days between 2026-01-01` mean nothing alone. When several splits work,
//! the one with the earliest first cut wins, and a split wins over the whole.

use std::collections::HashMap;

use crate::arith;
use crate::builder::PlanBuilder;
use crate::dates::{self, DateParse, DateQuery, NamedThen};
use crate::expr::Expr;
use crate::filler;
use crate::lexer::{Tok, Token, words_at};

/// Most weak separators considered in one sentence.
pub const MAX_WEAK_SEPARATORS: usize = 24;

const WEAK: &[&str] = &["and", "và", "then", "also", "rồi", "còn"];

/// Weak separators of several words.
const WEAK_PHRASES: &[&[&str]] = &[
    &["as", "well", "as"],
    &["along", "with"],
    &["với", "lại"],
    &["ngoài", "ra"],
    &["sau", "đó"],
];

/// Words that only join parts: a segment made of them alone (`2+4; also, …`) asks
/// nothing.
const JOINERS: &[&str] = &[
    "and", "also", "then", "besides", "và", "còn", "rồi", "ngoài", "ra", "nữa",
];

/// Phrases that only join a segment on to the parts before it: `, plus tell me 3*3`,
/// `? what about 8*9`, `, với lại 10 chia 4`.
const LEAD_PHRASES: &[&[&str]] = &[
    &["sau", "đó"],
    &["với", "lại"],
    &["plus", "tell", "me"],
    &["and", "tell", "me"],
    &["also", "tell", "me"],
    &["what", "about"],
    &["how", "about"],
    &["cho", "biết"],
    &["cho", "tôi", "biết"],
    &["cho", "mình", "biết"],
    &["thêm"],
];

/// One understood part of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartQuery {
    /// An arithmetic expression.
    Math(Expr),
    /// A date question.
    Date(DateQuery),
}

impl PartQuery {
    /// How many steps the part needs.
    pub fn step_count(&self) -> usize {
        match self {
            PartQuery::Math(e) => e.step_count(),
            PartQuery::Date(d) => d.step_count(),
        }
    }

    /// Adds the part's steps to `plan`, each labelled with `part`.
    pub fn lower_into(&self, plan: &mut PlanBuilder, part: &str) {
        match self {
            PartQuery::Math(e) => {
                e.lower_into(plan, part);
            }
            PartQuery::Date(d) => d.lower_into(plan, part),
        }
    }
}

/// A part of the request: its text as the user wrote it, and what it asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedPart {
    /// The user's words for this part.
    pub text: String,
    /// What it asks.
    pub query: PartQuery,
}

/// Why a request (or one of its parts) could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartError {
    /// The words do not form a request the planner knows.
    NotUnderstood(String),
    /// A date-shaped text is not a real date.
    InvalidDate(String),
    /// The part is a bare number: there is nothing to compute.
    NothingToCompute(String),
    /// Too many `and`s in one sentence to consider.
    TooManyParts,
}

/// What reading a request gave: the parts understood, in order, and why each stretch
/// that was not understood could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    /// The understood parts.
    pub parts: Vec<ParsedPart>,
    /// The parts that could not be read (a compound request is answered part by part:
    /// the others still run).
    pub failed: Vec<PartError>,
}

impl PartError {
    /// The part's text as the user wrote it, when the error names one.
    pub fn text(&self) -> Option<String> {
        match self {
            PartError::NotUnderstood(p)
            | PartError::InvalidDate(p)
            | PartError::NothingToCompute(p) => Some(p.clone()),
            PartError::TooManyParts => None,
        }
    }
}

/// Reads every part of the request `toks` (lexed from `src`). A part that cannot be
/// read is named in `failed` and the rest is kept; it is an error only when no part
/// could be read (the first part's error), or when a sentence has too many `and`s.
pub fn parse_request(toks: &[Token], src: &str) -> Result<Parsed, PartError> {
    // `cube root of 50 (hw question, need the decimal)`: an aside in brackets, words
    // only, says nothing to compute.
    // `tenant in unit 2 is behind 3 months`, `phòng 1 3tr5, phòng 2 4tr2`: a number
    // that names a unit or a room is part of its name, no amount.
    // `cá thu 220k một ký, mua 7 lạng`: a weight in its price's unit (0.7 ký).
    // `15 working days from today`, `5 ngày nữa, không tính t7 cn`: working days.
    if let Some(without) = without_asides(toks)
        .or_else(|| with_labels(toks))
        .or_else(|| crate::weights::in_price_unit(toks))
        .or_else(|| crate::workdays::merged(toks))
        // `Hôm nay là thứ mấy vậy con?`: the person spoken to asks nothing.
        .or_else(|| crate::filler::without_vocative(toks))
        // (Each rewrite changes the tokens, or reading them again would never end.)
        && without.as_slice() != toks
    {
        return parse_request(&without, src);
    }
    // `my cousins in LA, what time is it there`: the one place named, for `there`;
    // `tet 2027 is feb 6`: the year with its day and month. (New texts, read again.)
    if let Some(text) =
        crate::places::pronoun_place(toks, src).or_else(|| crate::dates::year_said_apart(toks, src))
    {
        return parse_request(&crate::lexer::lex(&text), &text);
    }
    // `my hourly went from 38.50 to 42.80, what % raise is that? 1 decimal is fine`: a
    // rounding said in a sentence of its own rounds the one answer of the rest.
    if let Some((rest, places)) = rounding_after(toks)
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
    if let Some(q) = crate::dates::between_day_months(toks)
        .or_else(|| crate::places::time_difference(toks, src))
        .or_else(|| crate::places::time_named(toks, src))
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
    if let Some(e) = crate::frames::priced_items(toks) {
        return Ok(whole_problem(toks, src, e));
    }
    // The price before a levy it includes (`giá đã gồm VAT 10% là 236.500đ, giá chưa
    // thuế`): the whole request is one frame, never its first sentence's percentage.
    if crate::frames::asks_before_levy(toks)
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
    if let Some(e) = crate::change::parse(toks)
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
    if let Some(found) = found {
        return Ok(math_parts(toks, src, found));
    }
    let mut parts = Vec::new();
    let mut failed = Vec::new();
    let segments: Vec<&[Token]> = strong_segments(toks)
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
        failed.retain(|e| !e.text().is_some_and(|t| asks_only_how_much(&t)));
    }
    let mut parts = match chain_continuations(parts) {
        Ok(parts) if failed.is_empty() => parts,
        read => {
            // Parts that do not stand alone may still be one everyday problem told in
            // several sentences: `dinner came to 127.40 for 4 of us, how much each?`.
            if let Some(e) = crate::everyday::parse(toks, src) {
                return Ok(whole_problem(toks, src, e));
            }
            // A start date, a duration and the end asked, across its sentences
            // (`project starts dec 7, 8 weeks of work, when does it finish`).
            if let Some(q) = dates::tolerant_shift(filler::trim_symbols(toks)) {
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
        && let Some(total) = Expr::chain(
            crate::expr::MathOp::Sum,
            parts.iter().filter_map(|p| match &p.query {
                PartQuery::Math(e) => Some(e.clone()),
                PartQuery::Date(_) => None,
            }),
        )
    {
        parts = vec![ParsedPart {
            text: quote(toks, src),
            query: PartQuery::Math(total),
        }];
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

/// `text`, a place named alone (`shenzhen right now`, `và Tokyo`), as the time there
/// when the part before asked the time in another place.
fn another_place(text: &str, previous: Option<&ParsedPart>) -> Option<ParsedPart> {
    const NOW: &[&str] = &[
        "right",
        "now",
        "rn",
        "currently",
        "bây",
        "giờ",
        "hiện",
        "tại",
    ];
    const LEADS: &[&str] = &["and", "và", "in", "ở", "bên", "tại"];
    if !matches!(previous?.query, PartQuery::Date(DateQuery::TimeIn { .. })) {
        return None;
    }
    let toks = crate::lexer::lex(text);
    let mut words: Vec<&Token> = toks.iter().filter(|t| !t.is_sym('?')).collect();
    while words.first()?.word().is_some_and(|w| LEADS.contains(&w)) {
        words.remove(0);
    }
    while words.last()?.word().is_some_and(|w| NOW.contains(&w)) {
        words.pop();
    }
    // (`… rồi con`: a particle or someone spoken to is no place.)
    const NO_PLACE: &[&str] = &[
        "còn", "con", "rồi", "nhé", "nha", "ạ", "vậy", "thế", "đi", "luôn", "với", "please", "pls",
        "plz", "thanks", "thx", "too", "also", "then", "there",
    ];
    let (first, last) = (words.first()?, words.last()?);
    if words.len() > 3
        || words
            .iter()
            .any(|t| t.word().is_none_or(|w| NO_PLACE.contains(&w)))
    {
        return None;
    }
    Some(ParsedPart {
        text: text.to_owned(),
        query: PartQuery::Date(DateQuery::TimeIn {
            place: text[first.start..last.end].to_owned(),
        }),
    })
}

/// Whether `toks` ask what is left of an amount once a share of it is paid (`still
/// owe`, `còn lại`, `the balance`, `left to pay`).
fn asks_what_is_left(toks: &[Token]) -> bool {
    const LEFT: &[&[&str]] = &[
        &["still", "owe"],
        &["still", "owed"],
        &["left", "to", "pay"],
        &["balance"],
        &["remaining"],
        &["còn", "lại"],
        &["còn", "phải", "trả"],
        &["còn", "nợ"],
    ];
    crate::lexer::says(toks, LEFT)
}

/// Whether `toks` ask a day and then, after `and`, the days until it by a word that
/// points back at it (`… and how many days left till then`, `… và còn mấy ngày nữa
/// đến ngày đó`).
fn counts_to_it(toks: &[Token]) -> bool {
    const BACK: &[&[&str]] = &[
        &["till", "then"],
        &["until", "then"],
        &["til", "then"],
        &["to", "then"],
        &["till", "that", "day"],
        &["until", "that", "day"],
        &["đến", "ngày", "đó"],
        &["đến", "đó"],
        &["tới", "ngày", "đó"],
        &["tới", "đó"],
    ];
    let back = (0..toks.len()).find(|&i| BACK.iter().any(|p| words_at(toks, i, p)));
    let and = toks
        .iter()
        .position(|t| t.word().is_some_and(|w| matches!(w, "and" | "và")));
    matches!((and, back), (Some(a), Some(b)) if a < b)
}

/// The whole request as one part per expression of `exprs`, each quoting all of it.
fn math_parts(toks: &[Token], src: &str, exprs: Vec<Expr>) -> Parsed {
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
fn whole_problem(toks: &[Token], src: &str, e: Expr) -> Parsed {
    Parsed {
        parts: with_levy_asked(toks, quote(toks, src), e),
        failed: Vec::new(),
    }
}

/// The part `e` (`text`), or the levy it adds and then `e` when `toks` ask both.
fn with_levy_asked(toks: &[Token], text: String, e: Expr) -> Vec<ParsedPart> {
    // `venue wants 40% upfront on 460 million, how much do we still owe after the
    // deposit`: what is left of the amount once its share is paid.
    if let Expr::Op(crate::expr::MathOp::Percent, args) = &e
        && let [_, amount] = args.as_slice()
        && asks_what_is_left(toks)
    {
        let rest = Expr::bin(crate::expr::MathOp::Subtract, amount.clone(), e.clone());
        // (`25% của 640k là bao nhiêu, còn lại bao nhiêu`: the share asked too.)
        let asks = (0..toks.len())
            .filter(|&i| {
                words_at(toks, i, &["bao", "nhiêu"]) || words_at(toks, i, &["how", "much"])
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

/// `toks` without their asides in brackets (words and commas only, at least two
/// words: `(hw question, need the decimal)`, `(semester start)`), when there are any.
fn without_asides(toks: &[Token]) -> Option<Vec<Token>> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut dropped = false;
    let mut i = 0;
    while i < toks.len() {
        if toks[i].is_sym('(')
            && let Some(close) = (i + 1..toks.len()).find(|&k| toks[k].is_sym(')'))
        {
            let inside = &toks[i + 1..close];
            let words = inside.iter().filter(|t| t.word().is_some()).count();
            let only_words = inside
                .iter()
                .all(|t| t.word().is_some() || t.is_sym(',') || t.is_sym('\''));
            if only_words && words >= 2 {
                dropped = true;
                i = close + 1;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    dropped.then_some(out)
}

/// Words a request's context cannot drop: they change what is asked (a negation, a
/// direction in time, an operation, a day).
#[rustfmt::skip]
const MEANING: &[&str] = &[
    // (Laid out by hand: the vocabulary is learnt line by line, and the Vietnamese
    // words typed without marks here are Vietnamese only beside a word with its marks.)
    "not", "no", "ago", "after", "before", "since", "until", "till", "if", "plus", "minus",
    "times", "half", "double", "percent", "tax", "discount", "next", "last", "this", "today",
    "tomorrow", "yesterday", "tonight", "morning", "evening", "week", "month", "year", "day",
    "days", "at", "in", "for", "of",
    "không", "chưa", "trước", "sau", "từ", "đến", "tới", "nếu", "cộng", "trừ", "nhân", "chia",
    "thuế", "giảm", "tăng", "mai", "qua", "nay", "tuần", "tháng", "năm", "ngày", "hôm",
    "sáng", "chiều", "tối", "lúc", "ở", "bên", "tại",
    // (A follow-up's lead words join it to the conversation: never context.)
    "and", "then", "now", "but", "so",
    "và", "còn", "rồi", "thế", "vậy",
];

/// The request read after words of context said before it (`em gái ở Frankfurt giờ
/// này mấy giờ rồi`, `deadline khách vancouver 22/12 là thứ mấy`), when the whole did
/// not read: the shortest run of leading words (at most six, words only, none that
/// could change the question) whose dropping leaves a request read whole.
pub fn after_context(toks: &[Token], src: &str) -> Option<Parsed> {
    // (`will it rain tomorrow`, `giá vàng hôm nay bao nhiêu`: what was dropped would be
    // the question, outside every tool.)
    let language = crate::language::detect_language(src, None);
    // (A trade's word says what was done, not what is asked, where what is left is
    // arithmetic: `dịch 24 trang 150k/trang bn`, translated pages paid by the page.)
    let outside = crate::scope::outside_tools(src, &language).is_some();
    // The rest must ask something itself (`mấy giờ`, `thứ mấy`, `how many`).
    let asks = |rest: &[Token]| {
        rest.iter().any(|t| {
            t.is_sym('?')
                || t.word().is_some_and(|w| {
                    matches!(
                        w,
                        "mấy" | "bao" | "bn" | "what" | "whats" | "how" | "when" | "which"
                    )
                })
        })
    };
    let droppable = |t: &Token| match &t.tok {
        Tok::Word(w) => !MEANING.contains(&w.as_str()),
        Tok::Sym(c) => *c == ',' || *c == ':',
        _ => false,
    };
    let most = toks.iter().take(6).take_while(|t| droppable(t)).count();
    (1..=most.min(toks.len().saturating_sub(3))).find_map(|k| {
        let rest = &toks[k..];
        let question = rest.iter().filter(|t| !t.is_sym('?')).count() >= 3 && asks(rest);
        // (A place of more than three words took in the context: `in oslo said
        // something about 9am`.)
        let plain_place = |p: &ParsedPart| match &p.query {
            PartQuery::Date(DateQuery::TimeIn { place }) => place.split_whitespace().count() <= 3,
            PartQuery::Date(DateQuery::ConvertTime { from, to, .. }) => {
                from.split_whitespace().count() <= 3 && to.split_whitespace().count() <= 3
            }
            _ => true,
        };
        question
            .then(|| parse_request(rest, src))
            .and_then(Result::ok)
            .filter(|p| {
                !p.parts.is_empty()
                    && p.failed.is_empty()
                    && p.parts.iter().all(plain_place)
                    && (!outside
                        || p.parts
                            .iter()
                            .all(|p| matches!(p.query, PartQuery::Math(_))))
            })
    })
}

/// The request before its last sentence and the decimal places that sentence asks to
/// round to, when it only asks that (`round to 1 decimal`, `1 decimal is fine`, `làm
/// tròn 2 số thập phân`).
fn rounding_after(toks: &[Token]) -> Option<(&[Token], Expr)> {
    let segments = strong_segments(toks);
    let [.., last] = segments.as_slice() else {
        return None;
    };
    if segments.len() < 2 {
        return None;
    }
    let first = last.first()?.start;
    let start = toks.iter().position(|t| t.start == first)?;
    let rest = filler::trim_symbols(&toks[..start]);
    let last = filler::trim_symbols(last);
    if let Some(Expr::Op(crate::expr::MathOp::Round, args)) = arith::parse_continuation(last)
        && let [Expr::Num(p), places] = args.as_slice()
        && p == Expr::PREVIOUS
    {
        return Some((rest, places.clone()));
    }
    // `1 decimal is fine`, `2 decimals pls`: the places, then only words of assent.
    const ASSENT: &[&str] = &[
        "is", "fine", "ok", "okay", "pls", "please", "enough", "only", "thanks",
    ];
    let n = last.first()?.number()?;
    let unit = last.get(1)?.word()?;
    let fine = last[2..]
        .iter()
        .all(|t| t.word().is_some_and(|w| ASSENT.contains(&w)) || t.is_sym('.') || t.is_sym('!'));
    (matches!(unit, "decimal" | "decimals" | "dp") && fine).then(|| (rest, Expr::Num(n.to_owned())))
}

/// Words a number after them names (`unit 2`, `phòng 3`), rather than counts.
const LABELS: &[&str] = &[
    "unit",
    "apt",
    "apartment",
    "room",
    "suite",
    "flat",
    "lot",
    "phòng",
    "căn",
    "#",
];

/// Words that may follow a label's number (`unit 4 from 2000`, `unit 2 is behind`).
const AFTER_LABEL: &[&str] = &[
    "is", "was", "from", "pays", "paid", "owes", "rent", "went", "goes", "and", "trả", "đóng",
    "thuê", "tiền", "từ", "thì", "là",
];

/// `toks` with each label and its number (`unit 2`, `phòng 1`) made one word, when
/// there are any: a whole number right after a label word, followed by another number,
/// a punctuation mark, the end or a word of [`AFTER_LABEL`].
fn with_labels(toks: &[Token]) -> Option<Vec<Token>> {
    let label =
        |k: usize| toks[k].word().is_some_and(|w| LABELS.contains(&w)) || toks[k].is_sym('#');
    let names = |k: usize| {
        k > 0
            && label(k - 1)
            && toks[k]
                .number()
                .is_some_and(|n| n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit()))
            && match toks.get(k + 1).map(|t| &t.tok) {
                // (`phòng 23/12`: a date, no label.)
                Some(Tok::Sym(c)) => ",;)?!".contains(*c),
                None | Some(Tok::Num(_)) => true,
                Some(Tok::Word(w)) => AFTER_LABEL.contains(&w.as_str()),
                Some(Tok::Date(_)) => false,
            }
    };
    if !(1..toks.len()).any(names) {
        return None;
    }
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for (k, t) in toks.iter().enumerate() {
        if names(k) {
            let label = out.pop()?;
            let name = format!("{}{}", label.word().unwrap_or("#"), t.number()?);
            out.push(Token {
                tok: Tok::Word(name),
                start: label.start,
                end: t.end,
            });
        } else {
            out.push(t.clone());
        }
    }
    Some(out)
}

/// When a part not understood `states` something (a time, a day), the parts that
/// `asks` picks (the time now, today's date) would answer another question: they join
/// the parts not understood.
fn unanswered_after(
    parts: &mut Vec<ParsedPart>,
    failed: &mut Vec<PartError>,
    states: impl Fn(&[Token]) -> bool,
    asks: impl Fn(&ParsedPart) -> bool,
) {
    let stated = failed
        .iter()
        .any(|e| e.text().is_some_and(|t| states(&crate::lexer::lex(&t))));
    if stated {
        let (asked, kept): (Vec<ParsedPart>, Vec<ParsedPart>) =
            std::mem::take(parts).into_iter().partition(|p| asks(p));
        failed.extend(asked.into_iter().map(|p| PartError::NotUnderstood(p.text)));
        *parts = kept;
    }
}

/// Whether `part` asks today's date without naming today (`ngày mấy`, `what's the date`).
fn asks_bare_date(part: &ParsedPart) -> bool {
    let toks = crate::lexer::lex(&part.text);
    let today = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "today" | "now" | "nay" | "hôm" | "currently"))
    });
    matches!(part.query, PartQuery::Date(DateQuery::Today { .. })) && !today
}

/// Whether `part` answers with a date other than today's (a shift, a named day…).
fn gives_a_date(part: &ParsedPart) -> bool {
    matches!(
        part.query,
        PartQuery::Date(DateQuery::Shift { .. } | DateQuery::Anchored { .. })
    )
}

/// Whether `text` only asks "how much" of what came before: no number or date, and a
/// quantity question (`how much`, `how many`, `bao nhiêu`, `total`) with no operation,
/// date or time word.
fn asks_only_how_much(text: &str) -> bool {
    let toks = crate::lexer::lex(text);
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let has = |p: &[&str]| words.windows(p.len()).any(|w| w == p);
    let plain = toks
        .iter()
        .all(|t| matches!(t.tok, Tok::Word(_) | Tok::Sym(_)))
        && !words.iter().any(|w| {
            crate::normalise::typo::operation(w).is_some_and(|op| op != "sum")
                || crate::tolerant::DATE_WORDS.contains(w)
        });
    plain && (has(&["how", "much"]) || has(&["how", "many"]) || has(&["bao", "nhiêu"]))
}

/// Whether `toks` end asking the total of everything before (`tổng cộng bao nhiêu`,
/// `total?`, `what's the total`, `how much altogether`).
fn asks_grand_total(toks: &[Token]) -> bool {
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let tail = &words[words.len().saturating_sub(4)..];
    tail.iter()
        .any(|w| matches!(*w, "total" | "altogether" | "tổng"))
}

/// Whether `text` only asks a total in a word (`Total please`, `tổng cộng?`): the whole
/// request may be one everyday problem; never dropped as a question already answered.
fn asks_only_total(text: &str) -> bool {
    let toks = crate::lexer::lex(text);
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    toks.iter()
        .all(|t| matches!(t.tok, Tok::Word(_) | Tok::Sym(_)))
        && words.iter().all(|w| {
            matches!(
                *w,
                "total" | "please" | "pls" | "tổng" | "cộng" | "the" | "so" | "and"
            )
        })
        && words.iter().any(|w| matches!(*w, "total" | "tổng"))
}

/// `segment` without its leading joining words (`còn`, `and also`, `what about`).
fn without_lead(segment: &[Token]) -> &[Token] {
    let trimmed = filler::trim_symbols(segment);
    let mut lead = 0;
    loop {
        let word = trimmed[lead..].first().and_then(Token::word);
        if word.is_some_and(|w| JOINERS.contains(&w)) {
            lead += 1;
        } else if let Some(p) = LEAD_PHRASES.iter().find(|p| words_at(trimmed, lead, p)) {
            lead += p.len();
        } else {
            break;
        }
    }
    &trimmed[lead..]
}

/// Words that open a condition (`if it's 9am in Paris`, `nếu …`).
const CONDITION_WORDS: &[&str] = &["if", "when", "suppose", "nếu", "khi", "giả"];

/// Whether `segment` states a condition for what follows.
fn is_condition(segment: &[Token]) -> bool {
    segment
        .first()
        .and_then(Token::word)
        .is_some_and(|w| CONDITION_WORDS.contains(&w))
}

/// A segment that asks about a date an earlier segment wrote (`ngày 2/9/2027 là thứ
/// mấy, và còn bao nhiêu ngày nữa thì tới ngày đó`; `how old is someone born
/// 1985-07-14, and what day of the week were they born on`), read with that date in
/// place of the reference (or after `born on`). The latest earlier date is taken.
fn with_earlier_date(segment: &[Token], earlier: &[&[Token]], src: &str) -> Option<ParsedPart> {
    let has_date = dates::first_date(segment).is_some();
    let date = earlier.iter().rev().find_map(|s| dates::first_date(s))?;
    let (first, last) = (segment.first()?, segment.last()?);
    let text = &src[first.start..last.end];
    let rewritten = match crate::recall::find(segment, src) {
        Some(r) if !has_date => format!(
            "{}{date}{}",
            &src[first.start..r.start],
            &src[r.end..last.end]
        ),
        None if !has_date && segment.iter().any(|t| t.word() == Some("born")) => {
            format!("{text} {date}")
        }
        _ => return None,
    };
    let toks = crate::lexer::lex(&rewritten);
    let query = parse_part(&toks, &rewritten).ok()?;
    Some(ParsedPart {
        text: quote(segment, src),
        query,
    })
}

/// A number no request holds, standing for an earlier part's answer while a later
/// part is read.
const EARLIER: &str = "987654321987654321";

/// A segment that refers to the answer of the part before it in the same request
/// (`250 minus that`, `what day is that`): read with that part in place of the
/// reference — its expression for arithmetic, its words for a date.
fn with_earlier_part(segment: &[Token], parts: &[ParsedPart], src: &str) -> Option<ParsedPart> {
    let previous = parts.last()?;
    let (first, last) = (segment.first()?, segment.last()?);
    let text = &src[first.start..last.end];
    let toks = crate::lexer::lex(text);
    let r = crate::recall::find(&toks, text)?;
    let query = match &previous.query {
        PartQuery::Math(e) => {
            let rewritten = r.replaced_by(text, EARLIER);
            match parse_part(&crate::lexer::lex(&rewritten), &rewritten).ok()? {
                PartQuery::Math(x) => PartQuery::Math(x.replacing(EARLIER, e)),
                PartQuery::Date(_) => return None,
            }
        }
        PartQuery::Date(_) => {
            let rewritten = r.replaced_by(text, &previous.text);
            parse_part(&crate::lexer::lex(&rewritten), &rewritten).ok()?
        }
    };
    Some(ParsedPart {
        text: quote(segment, src),
        query,
    })
}

/// Words naming the numbers of the list before: `their sum`, `the average of them`,
/// `tổng của chúng`.
const LIST_BACK_REFS: &[&[&str]] = &[
    &["all", "of", "them"],
    &["of", "them"],
    &["them"],
    &["their"],
    &["those"],
    &["these"],
    &["của", "chúng", "nó"],
    &["của", "chúng"],
    &["chúng", "nó"],
    &["chúng"],
    &["các", "số", "đó"],
    &["các", "số", "trên"],
    &["mấy", "số", "đó"],
];

/// A segment asking another list operation of the numbers of the list before it (`the
/// smallest of 4, 9, 2 and what's their sum`, `số lớn nhất trong 4, 9, 2 và tổng của
/// chúng`): read as that operation over those numbers.
fn over_earlier_list(segment: &[Token], parts: &[ParsedPart], src: &str) -> Option<ParsedPart> {
    let previous = parts.last()?;
    if !matches!(previous.query, PartQuery::Math(_)) {
        return None;
    }
    let before = crate::lexer::lex(&previous.text);
    let numbers: Vec<&str> = before
        .iter()
        .filter(|t| matches!(t.tok, Tok::Num(_)))
        .map(|t| &previous.text[t.start..t.end])
        .collect();
    if numbers.len() < 2 || segment.iter().any(|t| matches!(t.tok, Tok::Num(_))) {
        return None;
    }
    let (i, phrase) = (0..segment.len()).find_map(|i| {
        LIST_BACK_REFS
            .iter()
            .find(|p| words_at(segment, i, p))
            .map(|p| (i, p.len()))
    })?;
    let text = quote(segment, src);
    let head = &src[segment[0].start..segment[i].start];
    let tail = match segment.get(i + phrase) {
        Some(t) => &src[t.start..segment.last()?.end],
        None => "",
    };
    // `of them` keeps its `of` (`the average of 4, 9, 2`).
    let of = if words_at(segment, i, &["of"]) {
        "of "
    } else {
        ""
    };
    let rewritten = format!("{head}{of}{} {tail}", numbers.join(", "));
    let toks = crate::lexer::lex(&rewritten);
    let expr = match crate::tolerant::list(&toks) {
        Some(e) => e,
        None => match parse_part(&toks, &rewritten).ok()? {
            PartQuery::Math(e) => e,
            PartQuery::Date(_) => return None,
        },
    };
    Some(ParsedPart {
        text,
        query: PartQuery::Math(expr),
    })
}

/// Whether `segment` only asks a weekday, in words (`thứ mấy`, `what day of the week
/// is that`).
fn asks_weekday_only(segment: &[Token]) -> bool {
    let words: Vec<&str> = segment.iter().filter_map(Token::word).collect();
    let only_words = segment
        .iter()
        .all(|t| t.word().is_some() || matches!(t.tok, Tok::Sym('?' | '!')));
    only_words
        && (words.windows(2).any(|w| w == ["thứ", "mấy"])
            || words.contains(&"weekday")
            || words.windows(2).any(|w| w == ["what", "day"]))
}

/// A segment that only asks a weekday (`thứ mấy`, `what day of the week`) after a part
/// that gives a date: read as that part's words with the question.
fn weekday_of_earlier(segment: &[Token], parts: &[ParsedPart], src: &str) -> Option<ParsedPart> {
    let previous = parts.last()?;
    // A date the part before counts to (`how many days till dec 18 and what weekday is
    // it`): that date's weekday, its date found once.
    let of_date = match &previous.query {
        PartQuery::Date(DateQuery::Anchored { anchor, then }) if *then != NamedThen::Weekday => {
            Some(DateQuery::Anchored {
                anchor: *anchor,
                then: NamedThen::Weekday,
            })
        }
        PartQuery::Date(DateQuery::DaysUntil { date } | DateQuery::DaysSince { date }) => {
            Some(DateQuery::Weekday { date: date.clone() })
        }
        // `Hôm nay ngày mấy, thứ mấy vậy con?`: today's weekday (unless the bare "what
        // date" only asks again the date a part before gives: `3 weeks from now - what's
        // the date and what day is that`).
        PartQuery::Date(DateQuery::Today { weekday: false })
            if !asks_bare_date(previous) && !parts[..parts.len() - 1].iter().any(gives_a_date) =>
        {
            Some(DateQuery::Today { weekday: true })
        }
        _ => None,
    };
    let gives_date = of_date.is_some()
        || matches!(
            previous.query,
            PartQuery::Date(DateQuery::Shift { .. } | DateQuery::Anchored { .. })
        );
    if !(gives_date && asks_weekday_only(segment)) {
        return None;
    }
    let text = quote(segment, src);
    if let Some(query) = of_date {
        let query = PartQuery::Date(query);
        return Some(ParsedPart { text, query });
    }
    [
        format!("{} là {text}", previous.text),
        format!("{text} {}", previous.text),
    ]
    .into_iter()
    .find_map(|t| match parse_part(&crate::lexer::lex(&t), &t).ok()? {
        q @ PartQuery::Date(_) => Some(q),
        PartQuery::Math(_) => None,
    })
    .map(|query| ParsedPart { text, query })
}

/// A segment that repeats the segment before it with one part replaced (`còn ở
/// Sydney?`, `con 1/1/2027 thi sao`), read as that segment rewritten.
fn as_ellipsis(segment: &[Token], before: &[Token], src: &str) -> Option<ParsedPart> {
    let (first, last) = (segment.first()?, segment.last()?);
    let text = &src[first.start..last.end];
    let earlier = vec![quote(before, src)];
    let query = crate::recall::ellipses(text, &earlier)
        .into_iter()
        .find_map(|t| parse_part(&crate::lexer::lex(&t), &t).ok())?;
    Some(ParsedPart {
        text: quote(segment, src),
        query,
    })
}

/// Reads a segment no split of which is understood whole, piece by piece: from each
/// start, the longest piece up to a weak separator (or the end) that is understood is
/// kept; a stretch where none is becomes one failed part. `2+4 and book me a flight`
/// gives `2+4` and names `book me a flight`.
fn split_partly(seg: &[Token], src: &str) -> (Vec<ParsedPart>, Vec<PartError>) {
    let seps = weak_separators(seg);
    let (mut found, mut missed) = (Vec::new(), Vec::new());
    let mut start = 0;
    let mut unread: Option<(usize, usize)> = None;
    while start < seg.len() {
        let ends = seps
            .iter()
            .filter(|&&(cut, _)| cut > start)
            .map(|&(cut, next)| (cut, next))
            .chain(std::iter::once((seg.len(), seg.len())));
        let longest = ends
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find_map(|(cut, next)| {
                parse_part(&seg[start..cut], src)
                    .ok()
                    .map(|q| (cut, next, q))
            });
        match longest {
            Some((cut, next, query)) => {
                if let Some((s, e)) = unread.take() {
                    missed.push(not_read(&seg[s..e], src));
                }
                found.push(ParsedPart {
                    text: quote(&seg[start..cut], src),
                    query,
                });
                start = next;
            }
            None => {
                let (cut, next) = seps
                    .iter()
                    .copied()
                    .find(|&(cut, _)| cut > start)
                    .unwrap_or((seg.len(), seg.len()));
                // `… and what's their sum`: the numbers of the list just read.
                let stretch = without_lead(&seg[start..cut]);
                match over_earlier_list(stretch, &found, src).filter(|_| unread.is_none()) {
                    Some(part) => found.push(part),
                    None => unread = Some((unread.map_or(start, |(s, _)| s), cut)),
                }
                start = next;
            }
        }
    }
    if let Some((s, e)) = unread {
        missed.push(not_read(&seg[s..e], src));
    }
    (found, missed)
}

/// Why a stretch of a request was not read: its own error when it has one, else "not
/// understood".
fn not_read(toks: &[Token], src: &str) -> PartError {
    parse_part(toks, src)
        .err()
        .unwrap_or_else(|| PartError::NotUnderstood(quote(toks, src)))
}

/// Words that start a sequence with a bare number (`take 100, halve it, then add 7`).
const SEQUENCE_STARTS: &[&[&str]] = &[
    &["take"],
    &["start", "with"],
    &["begin", "with"],
    &["bắt", "đầu", "với"],
    &["bắt", "đầu", "từ"],
    &["lấy"],
];

/// `toks` after `words`, when they start with them.
fn starts_with_words<'a>(toks: &'a [Token], words: &[&str]) -> Option<&'a [Token]> {
    words_at(toks, 0, words).then(|| &toks[words.len()..])
}

/// Folds each continuation ("then subtract 2") into the arithmetic part before it, so
/// its steps take that part's result: `multiply 6 by 7 and then subtract 2` is one part,
/// multiply then subtract. A continuation with no arithmetic part before it is not
/// understood.
fn chain_continuations(parts: Vec<ParsedPart>) -> Result<Vec<ParsedPart>, PartError> {
    let mut out: Vec<ParsedPart> = Vec::with_capacity(parts.len());
    for part in parts {
        let PartQuery::Math(e) = &part.query else {
            out.push(part);
            continue;
        };
        if !e.refers_back() {
            out.push(part);
            continue;
        }
        // `450 nhân 12, rồi lấy kết quả chia 3`, `… then divide the result by 4`: a
        // step that names the answer before it asks for both answers.
        if names_the_result(&part.text)
            && let Some(ParsedPart {
                query: PartQuery::Math(previous),
                ..
            }) = out.last()
            && !matches!(previous, Expr::Num(_))
        {
            let query = PartQuery::Math(e.clone().with_previous(previous));
            out.push(ParsedPart {
                text: part.text,
                query,
            });
            continue;
        }
        match out.last_mut() {
            Some(ParsedPart {
                text,
                query: PartQuery::Math(previous),
            }) => {
                *previous = e.clone().with_previous(previous);
                text.push_str(", then ");
                text.push_str(&part.text);
            }
            _ => return Err(PartError::NotUnderstood(part.text)),
        }
    }
    // A sequence start that nothing continued computes nothing.
    if let Some(bare) = out
        .iter()
        .find(|p| matches!(&p.query, PartQuery::Math(Expr::Num(_))))
    {
        return Err(PartError::NothingToCompute(bare.text.clone()));
    }
    Ok(out)
}

/// Whether a continuation's `text` names the answer before it (`the result`, `kết
/// quả`, `that`), rather than only going on from it (`then halve it`, `rồi trừ 8`).
fn names_the_result(text: &str) -> bool {
    let toks = crate::lexer::lex(text);
    (0..toks.len()).any(|i| {
        matches!(toks[i].word(), Some("result" | "that")) || words_at(&toks, i, &["kết", "quả"])
    })
}

/// Reads one part.
pub fn parse_part(toks: &[Token], src: &str) -> Result<PartQuery, PartError> {
    if let Some(q) = crate::places::parse(toks, src) {
        return Ok(PartQuery::Date(q));
    }
    match dates::parse(toks, src) {
        DateParse::Query(q) => return Ok(PartQuery::Date(q)),
        DateParse::InvalidDate(raw) => return Err(PartError::InvalidDate(raw)),
        DateParse::NotDate => {}
    }
    let math = filler::strip_math(toks);
    // `take 100` starts a sequence: a bare number is fine here if a continuation
    // follows (checked in `chain_continuations`).
    // (`lấy` is also a filler: `lấy 20 chia 4`; look for the start before the fillers go.)
    let trimmed = filler::trim_symbols(toks);
    if let Some(rest) = SEQUENCE_STARTS
        .iter()
        .find_map(|s| starts_with_words(math, s).or_else(|| starts_with_words(trimmed, s)))
        && let Some(e) = arith::parse(rest)
    {
        return Ok(PartQuery::Math(e));
    }
    // A continuation is read where the part alone computes nothing: `then minus 5` is
    // the previous result − 5, not the number −5 (a signed number written with its
    // symbol, `-5`, stays a number).
    let signed = math.first().is_some_and(|t| t.is_sym('-') || t.is_sym('+'));
    let parsed = match arith::parse(math) {
        None => arith::parse_continuation(math)
            .or_else(|| crate::tolerant::list(trimmed))
            .or_else(|| crate::everyday::parse(trimmed, src))
            .or_else(|| arith::parse(&crate::everyday::undecorated(math)?))
            .or_else(|| crate::tolerant::expression(toks)),
        Some(Expr::Num(n)) if !signed => arith::parse_continuation(math).or(Some(Expr::Num(n))),
        done => done,
    };
    match parsed {
        Some(Expr::Num(_)) => Err(PartError::NothingToCompute(quote(toks, src))),
        Some(e) => Ok(PartQuery::Math(e)),
        // `ngày 28/12 thi môn Kinh tế vi mô, còn mấy ngày`: a date among other words.
        None => match dates::tolerant(toks).or_else(|| dates::tolerant_shift(toks)) {
            Some(q) => Ok(PartQuery::Date(q)),
            None => Err(PartError::NotUnderstood(quote(toks, src))),
        },
    }
}

/// The user's text for `toks`, without trailing punctuation.
pub fn quote(toks: &[Token], src: &str) -> String {
    let t = filler::trim_symbols(toks);
    // (The span over every token, whatever their order: a rewrite may leave a token
    // out of place, and a part is never worth a panic.)
    let start = t.iter().map(|x| x.start).min();
    let end = t.iter().map(|x| x.end).max();
    match (start, end) {
        (Some(a), Some(b)) if a <= b => src[a..b].to_owned(),
        _ => String::new(),
    }
}

/// Whether a list begun in `before` may go on after a semicolon: one written with
/// semicolons alone (`largest: 4.5; -2; 3.75`), no comma or `and` before it.
fn semicolon_list(before: &[Token]) -> bool {
    !before.iter().any(|t| {
        t.is_sym(',')
            || t.word()
                .is_some_and(|w| matches!(w, "and" | "và" | "or" | "hay" | "hoặc"))
    })
}

/// Whether the comma at `i` stands inside a date written with a month name (`June 12,
/// 1994`, `12th of June, 1994`) that starts at or after `start`.
fn inside_written_date(toks: &[Token], start: usize, i: usize) -> bool {
    (i.saturating_sub(4).max(start)..i)
        .any(|j| dates::written_date(toks, j).is_some_and(|(_, next)| next > i + 1))
}

/// Whether `t` can number a part of a request laid out as a list: `1)`, `2)`, `a)`,
/// `b)` (a small whole number or one letter, before an unmatched `)`).
fn is_part_marker(t: &Token) -> bool {
    match &t.tok {
        Tok::Num(n) => n.parse::<u8>().is_ok_and(|n| (1..=20).contains(&n)),
        Tok::Word(w) => w.chars().count() == 1 && w.chars().all(char::is_alphabetic),
        _ => false,
    }
}

/// Words that open a new part after a dash: `add 350 and 275 - also …`, `born 3 May
/// 1990 - how old am I`.
const AFTER_DASH: &[&str] = &[
    "also", "and", "plus", "còn", "ngoài", "với", "và", "then", "how", "what", "what's", "whats",
    "which", "when", "is", "can", "could", "tell", "please",
];

/// Where a request laid out as a numbered list with dots (`1. 23 + 58  2. 100 chia 8`,
/// `a. 15.5 + 4.75 b. times that by 2`) has its markers: the index of each marker's number, for a run 1, 2, 3… of at least
/// two, each a small number with a dot right after it and a space after the dot.
fn dot_markers(toks: &[Token]) -> Vec<usize> {
    let candidates: Vec<(usize, u8)> = (0..toks.len().saturating_sub(2))
        .filter_map(|i| {
            // `1.`, `2.` or `a.`, `b.`: the place in the run.
            let k = match &toks[i].tok {
                Tok::Num(n) => n.parse::<u8>().ok()?,
                Tok::Word(w) if w.len() == 1 && w.as_bytes()[0].is_ascii_lowercase() => {
                    w.as_bytes()[0] - b'a' + 1
                }
                _ => return None,
            };
            let (dot, next) = (&toks[i + 1], &toks[i + 2]);
            let attached = dot.is_sym('.') && dot.start == toks[i].end && next.start > dot.end;
            let first = i == 0 || toks[i - 1].is_sym(':') || toks[i - 1].start + 1 < toks[i].start;
            let k = Some(k).filter(|k| (1..=20).contains(k))?;
            (attached && first).then_some((i, k))
        })
        .collect();
    let mut run = Vec::new();
    for &(i, k) in &candidates {
        if usize::from(k) == run.len() + 1 {
            run.push(i);
        }
    }
    match run.len() >= 2 {
        true => run,
        false => Vec::new(),
    }
}

/// Whether `toks`, before a colon, only announce what follows (`two quick ones`, `pls
/// do these`, `tính giúp`): words only, none of them an operation, a list head, a date
/// or time word, or a word that asks for something (a greeting is fine).
fn lead_in(toks: &[Token]) -> bool {
    let text: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    (1..=4).contains(&toks.len())
        && crate::scope::outside_tools(&text.join(" "), "en").is_none()
        && crate::scope::outside_tools(&text.join(" "), "vi").is_none()
        && !text.iter().any(|w| {
            matches!(
                *w,
                "system" | "assistant" | "user" | "ignore" | "instructions"
            )
        })
        && !arith::has_list_head(toks)
        && !crate::tolerant::names_list_op(toks)
        && toks.iter().enumerate().all(|(k, t)| {
            // `need 2 things:`: a count of the parts announced.
            let counts =
                matches!(t.tok, Tok::Num(_)) && toks.get(k + 1).is_some_and(|n| n.word().is_some());
            counts
                || t.word().is_some_and(|w| {
                    crate::normalise::typo::operation(w).is_none()
                        && !crate::tolerant::DATE_WORDS.contains(&w)
                        && !matches!(w, "what" | "whats" | "what's" | "how" | "which" | "when")
                })
        })
}

fn strong_segments(toks: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    let markers = dot_markers(toks);
    for (i, t) in toks.iter().enumerate() {
        // `1. … 2. …`: a marker ends the part before it; its dot is no sentence end.
        if markers.contains(&i) {
            out.push(&toks[start..i]);
            start = i + 2;
            continue;
        }
        if i > 0 && markers.contains(&(i - 1)) {
            continue;
        }
        match t.tok {
            Tok::Sym('(') => depth += 1,
            // `1) 45*3 2) 200/8`, `a) … b) …`: a marker before an unmatched `)` starts
            // a part.
            Tok::Sym(')') if depth == 0 && i > start && is_part_marker(&toks[i - 1]) => {
                out.push(&toks[start..i - 1]);
                start = i + 1;
            }
            Tok::Sym(')') => depth = depth.saturating_sub(1),
            // `Two quick ones: …`, `tinh giup: …`: a lead-in before a colon asks nothing.
            Tok::Sym(':') if depth == 0 && lead_in(&toks[start..i]) => start = i + 1,
            // A comma (or semicolon) between two numbers after a list head (`sum of 1, 2
            // and 3`, `largest: 4.5; -2; 3.75`) is part of the list, not a split.
            Tok::Sym(',') if depth == 0 && in_list(toks, start, i) => {}
            // `June 12, 1994`: the comma inside a written date.
            Tok::Sym(',') if inside_written_date(toks, start, i) => {}
            Tok::Sym(';')
                if depth == 0 && semicolon_list(&toks[start..i]) && in_list(toks, start, i) => {}
            Tok::Sym(c) if depth == 0 && ";?!,.".contains(c) => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            // A dash before a joining word, or a long dash before any word.
            Tok::Sym(c @ ('-' | '—' | '–'))
                if depth == 0
                    && toks
                        .get(i + 1)
                        .and_then(Token::word)
                        .is_some_and(|w| c != '-' || AFTER_DASH.contains(&w)) =>
            {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&toks[start..]);
    out.retain(|s| !s.is_empty());
    out
}

/// Whether the comma at `i` separates list items: a number (or a number word) on
/// either side (after it, maybe behind an Oxford `and`), and a list head earlier in the
/// segment that began at `start`; or the comma right after a list head, before a number.
fn in_list(toks: &[Token], start: usize, i: usize) -> bool {
    let is_item = |t: Option<&Token>| {
        t.is_some_and(|t| {
            matches!(
                t.tok,
                Tok::Num(_) | Tok::Sym('-') | Tok::Sym('(') | Tok::Sym(')')
            ) || t.word().is_some_and(crate::numbers::starts_number)
        })
    };
    let oxford = toks
        .get(i + 1)
        .and_then(Token::word)
        .is_some_and(|w| w == "and" || w == "và")
        || toks.get(i + 1).is_some_and(|t| t.is_sym('&'));
    let after_head = arith::ends_with_list_head(&toks[start..i]);
    let at = |k: Option<usize>| k.and_then(|j| toks.get(j));
    // `3 apples, 4 apples and 5 apples`: a unit word after an item.
    let before = is_item(at(i.checked_sub(1)))
        || at(i.checked_sub(1)).is_some_and(|t| t.word().is_some())
            && at(i.checked_sub(2)).is_some_and(|t| matches!(t.tok, Tok::Num(_)));
    // (A Vietnamese or tolerant head too: `gia thấp nhất: 45k, 38k`.)
    let head = after_head
        || arith::has_list_head(&toks[start..i])
        || crate::tolerant::names_list_op(&toks[start..i]);
    (after_head || before) && is_item(toks.get(i + 1 + usize::from(oxford))) && head
}

/// Whether the `and` at `i` joins a hundred or a scale to a smaller number
/// (`one hundred and five`, `two thousand and twenty`).
fn inside_number(seg: &[Token], i: usize) -> bool {
    let big = |w: &str| matches!(w, "hundred" | "thousand" | "million" | "billion");
    seg[i].word() == Some("and")
        && i.checked_sub(1)
            .and_then(|j| seg[j].word())
            .is_some_and(big)
        && !seg.get(i + 1).and_then(Token::word).is_some_and(big)
        && crate::numbers::parse_words(seg, i + 1, false).is_some()
}

/// Each weak separator of `seg` as (where it starts, where the next piece starts).
fn weak_separators(seg: &[Token]) -> Vec<(usize, usize)> {
    (1..seg.len().saturating_sub(1))
        .filter_map(|i| {
            if seg[i].word().is_some_and(|w| WEAK.contains(&w)) {
                // `one hundred and one` is one number, not two parts.
                return (!inside_number(seg, i)).then_some((i, i + 1));
            }
            WEAK_PHRASES.iter().find_map(|p| {
                (words_at(seg, i, p) && i + p.len() < seg.len()).then_some((i, i + p.len()))
            })
        })
        .collect()
}

fn split_weak(seg: &[Token], src: &str) -> Result<Vec<ParsedPart>, PartError> {
    let seps = weak_separators(seg);
    if seps.len() > MAX_WEAK_SEPARATORS {
        return Err(PartError::TooManyParts);
    }
    // One list operation over one run of numbers (`gia thấp nhất: 45k, 38k, 52k`) is
    // one part, however its commas could cut it.
    if let Some(e) = crate::tolerant::list(filler::trim_symbols(seg)) {
        return Ok(vec![ParsedPart {
            text: quote(seg, src),
            query: PartQuery::Math(e),
        }]);
    }
    // `how many days till dec 18 and what weekday is it`: the last piece asks the
    // weekday of the date the pieces before it give.
    if let Some(&(cut, end)) = seps.last()
        && asks_weekday_only(&seg[end..])
        && let Ok(mut before) = split_weak(&seg[..cut], src)
        && let Some(part) = weekday_of_earlier(&seg[end..], &before, src)
    {
        before.push(part);
        return Ok(before);
    }
    let mut cache: HashMap<(usize, usize), Result<PartQuery, PartError>> = HashMap::new();
    let mut parse = |s: usize, e: usize| {
        cache
            .entry((s, e))
            .or_insert_with(|| parse_part(&seg[s..e], src))
            .clone()
    };
    // best[k]: a split of seg[starts[k]..], where starts are 0 and each separator's end.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(seps.iter().map(|&(_, end)| end))
        .collect();
    let mut best: Vec<Option<Vec<(usize, usize, PartQuery)>>> = vec![None; starts.len()];
    for k in (0..starts.len()).rev() {
        let s = starts[k];
        for (j, &(cut, _)) in seps.iter().enumerate().skip(k) {
            let Some(rest) = best[j + 1].clone() else {
                continue;
            };
            if let Ok(q) = parse(s, cut) {
                best[k] = Some(std::iter::once((s, cut, q)).chain(rest).collect());
                break;
            }
        }
        if best[k].is_none()
            && let Ok(q) = parse(s, seg.len())
        {
            best[k] = Some(vec![(s, seg.len(), q)]);
        }
    }
    match best.swap_remove(0) {
        Some(pieces) => Ok(pieces
            .into_iter()
            .map(|(s, e, query)| ParsedPart {
                text: quote(&seg[s..e], src),
                query,
            })
            .collect()),
        None => Err(parse(0, seg.len())
            .err()
            .unwrap_or(PartError::NotUnderstood(quote(seg, src)))),
    }
}
