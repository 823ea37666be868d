//! A part read as cues and numbers, its decorating words dropped, and the words that
//! make it no everyday problem (a request outside the tools, another question).

use super::cues::{CUES, Cue, NAMED_AMOUNTS, OCCASIONS, VERBS_WITH_UP};
use super::units::{
    PER_UNIT, PERIODS, about_interest, counts_periods, priced_unit, quantity_units, unit_of,
};
use crate::lexer::{Tok, Token, words_at};

/// Words that ask something else than an everyday sum: with one of them decorating,
/// the part is not read here (arithmetic, dates and times have their own readers).
pub(super) const FOREIGN: &[&str] = &[
    "times",
    // (`3 workers x $260/day x 5 days`: written multiplication, read by arithmetic.)
    "x",
    "minus",
    "divided",
    "multiplied",
    "over",
    "mod",
    "modulo",
    "squared",
    "cubed",
    "power",
    "root",
    "sqrt",
    "square",
    "cube",
    "nhân",
    "trừ",
    "mũ",
    "căn",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "date",
    "weekday",
    "today",
    "tomorrow",
    "yesterday",
    "time",
    "clock",
    "hour",
    "hours",
    "minute",
    "minutes",
    "old",
    "age",
    "born",
    "ngày",
    "tuần",
    "tháng",
    "năm",
    "giờ",
    "phút",
    "tuổi",
    "sinh",
    "hôm",
    "thứ",
    "if",
    "or",
    "hoặc",
    "hay",
    "not",
    "không",
    "largest",
    "smallest",
    "average",
    "mean",
    "sum",
    "product",
    "difference",
    "round",
    "biggest",
    "min",
    "max",
    // `số nhỏ nhất … và tổng của chúng`: a list question, never a sum of its numbers.
    "nhất",
    "bình",
];

/// Symbols that only dress an amount or end a sentence.
const DRESSING: &[char] = &[
    ',', '.', '?', '!', ':', ';', '$', '€', '£', '¥', '₫', '=', '"', '\'', '-',
];

/// One element of a part as read here.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Item {
    /// An amount (or a count).
    Num(String),
    /// A percentage: `15%`, `15 percent`, `15 phần trăm`.
    Pct(String),
    /// A number of periods (`for 3 years` of interest).
    Periods(String),
    /// A cue.
    Cue(Cue),
}

/// Reads the tokens of a part as cues and numbers, decorating words dropped; the
/// decorating words are kept aside (`decor`) for a last look once a reading is found.
pub(super) fn items<'s>(
    toks: &[Token],
    src: &'s str,
    decor: &mut Vec<&'s str>,
) -> Option<Vec<Item>> {
    let mut out = Vec::new();
    let units = quantity_units(toks);
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // `filled up`, `drove up`: a verb with `up` that raises nothing; `tip pool`: a
        // name of an amount.
        if let Some(p) = VERBS_WITH_UP
            .iter()
            .chain(NAMED_AMOUNTS)
            .find(|p| words_at(toks, i, p))
        {
            decor.push(&src[t.start..toks[i + p.len() - 1].end]);
            i += p.len();
            continue;
        }
        // `1.89 a litre`, `$95/hr`, `0.5 mg/kg`, `mỗi ký 185`: a unit some number is
        // counted in makes a unit price; a period (`a month`, `/năm`, `mỗi tháng`) or any
        // other unit only decorates.
        // (`mỗi người`, `mỗi đứa`: each person, a share.)
        let people_next = toks
            .get(i + 1)
            .and_then(Token::word)
            .is_some_and(|w| CUES.iter().any(|(p, c)| *c == Cue::People && p == &[w]));
        let tie = t.is_sym('/')
            || t.word()
                .is_some_and(|w| PER_UNIT.contains(&w) || w == "mỗi")
                && !people_next;
        let after_amount = |j: usize| {
            j > 0
                && (matches!(toks[j - 1].tok, Tok::Num(_))
                    || toks[j - 1].word().is_some()
                        && j > 1
                        && matches!(toks[j - 2].tok, Tok::Num(_))
                    || toks[j - 1].is_sym('%'))
        };
        // (`1,320 yen/hr, whats the total per hour`: the unit an amount was said in,
        // asked again, says what is asked in it.)
        if tie
            && !after_amount(i)
            && t.word().is_some_and(|w| PER_UNIT.contains(&w))
            && let Some(unit) = toks.get(i + 1).and_then(Token::word)
            && rate_said_in(toks, i, unit)
        {
            decor.push(&src[t.start..toks[i + 1].end]);
            i += 2;
            continue;
        }
        if tie
            && let Some(unit) = toks.get(i + 1).and_then(Token::word)
            && (after_amount(i) || t.word() == Some("mỗi"))
            // (`6% một năm`: `năm` is a year here, not five.)
            && (!crate::numbers::starts_number(unit) || PERIODS.contains(&unit))
        {
            let period = PERIODS.contains(&unit);
            // (`350k/ngày, làm 12 ngày`: a period worked is priced too; a rate of
            // interest per year only says how often.)
            let priced = !(period && about_interest(toks)) && units.contains(&unit_of(unit));
            // `64 miếng 384.000đ, mỗi miếng bao nhiêu`: no price after it, the price of
            // one is asked, as with `per`.
            let asked = !toks[i + 2..].iter().any(|t| matches!(t.tok, Tok::Num(_)));
            match (priced, t.word() == Some("mỗi")) {
                (true, true) if asked => out.push(Item::Cue(Cue::Per)),
                (true, true) => out.push(Item::Cue(Cue::EachLead)),
                (true, false) => out.push(Item::Cue(Cue::Each)),
                _ => {}
            }
            if priced || period || t.is_sym('/') || PER_UNIT.contains(&t.word().unwrap_or("")) {
                i += 2;
                // `$260/day each`: a rate each of the people counted earns.
                if priced && toks.get(i).and_then(Token::word) == Some("each") {
                    out.push(Item::Cue(Cue::PerHead));
                    i += 1;
                }
                continue;
            }
        }
        match &t.tok {
            Tok::Num(n) => {
                let pct = toks.get(i + 1).is_some_and(|t| t.is_sym('%'));
                let words = ["percent", "pct", "percents"]
                    .iter()
                    .any(|w| words_at(toks, i + 1, &[w]));
                let vi = words_at(toks, i + 1, &["phần", "trăm"]);
                let periods = counts_periods(toks, i + 1);
                // `split it with 2 roommates`: those two and the one asking.
                let with_me = i > 0
                    && matches!(toks[i - 1].word(), Some("with" | "với"))
                    && toks.iter().any(|t| {
                        t.word()
                            .is_some_and(|w| matches!(w, "split" | "share" | "chia"))
                    })
                    && toks
                        .get(i + 1)
                        .and_then(Token::word)
                        .is_some_and(|w| CUES.iter().any(|(p, c)| *c == Cue::People && p == &[w]));
                if pct || words || vi {
                    out.push(Item::Pct(n.clone()));
                    i += if vi { 3 } else { 2 };
                } else if with_me && let Ok(count) = n.parse::<u32>() {
                    out.push(Item::Num((count + 1).to_string()));
                    i += 1;
                } else if n == "1"
                    && matches!(out.last(), Some(Item::Num(_)))
                    && toks
                        .get(i + 1)
                        .and_then(Token::word)
                        .is_some_and(|w| units.iter().filter(|u| **u == unit_of(w)).count() > 1)
                {
                    // `45k 1kg`: the amount before is the price of one unit.
                    out.push(Item::Cue(Cue::Each));
                    i += 2;
                } else if n == "1"
                    && !matches!(out.last(), Some(Item::Num(_)))
                    && toks
                        .get(i + 1)
                        .and_then(Token::word)
                        .is_some_and(|w| units.iter().filter(|u| **u == unit_of(w)).count() > 1)
                {
                    // `1 kg thịt 185k, mua 2.5 kg`: the amount after is the price of one.
                    out.push(Item::Cue(Cue::EachLead));
                    i += 2;
                } else if labels_total(toks, i) {
                    // `14 cuốc tổng 412k`: a count the total after it covers only labels
                    // it.
                    decor.push(&src[t.start..toks[i + 2].end]);
                    i += 3;
                } else if n == "1" && ties_one(toks, i) {
                    // `1 cuốc 47k`: the amount after is what one is.
                    decor.push(&src[t.start..toks[i + 1].end]);
                    i += 2;
                } else if priced_unit(toks, i + 1, &units) || hours_at_share(toks, i + 1) {
                    // `6 hours` of labour at `$95/hr`: the quantity's unit.
                    out.push(Item::Num(n.clone()));
                    i += 2;
                    // (`3 nights, 12h each at 46.82/hr`: so many for each counted before,
                    // no price.)
                    if toks.get(i).and_then(Token::word) == Some("each")
                        && matches!(out.first(), Some(Item::Num(_)))
                        && out.len() == 2
                    {
                        i += 1;
                    }
                } else if meal_for(toks, i) {
                    // `dinner for 6 came to $312.60`: the people the meal is for, who
                    // share its bill.
                    out.push(Item::Cue(Cue::Among));
                    out.push(Item::Num(n.clone()));
                    out.push(Item::Cue(Cue::People));
                    i += 1;
                } else if periods {
                    // `for 3 years` of interest.
                    out.push(Item::Periods(n.clone()));
                    i += 2;
                } else {
                    out.push(Item::Num(n.clone()));
                    i += 1;
                }
                continue;
            }
            Tok::Date(_) => return None,
            // `42/50 là bao nhiêu phần trăm`: a part of a whole.
            Tok::Sym('/') if matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Num(_))) => {
                out.push(Item::Cue(Cue::Of));
                i += 1;
                continue;
            }
            // `1,850/month`: a rate unit decorates the amount.
            Tok::Sym('/') if toks.get(i + 1).and_then(Token::word).is_some() => {
                i += 2;
                continue;
            }
            Tok::Sym('+') => {
                out.push(Item::Cue(Cue::Plus));
                i += 1;
                continue;
            }
            // `tile @ $42.80/m2`: at a price.
            Tok::Sym('@') => {
                out.push(Item::Cue(Cue::At));
                i += 1;
                continue;
            }
            Tok::Sym(c) if DRESSING.contains(c) => {
                i += 1;
                continue;
            }
            Tok::Sym(_) => return None,
            // `w/ tip`: with.
            Tok::Word(w) if w == "w" && toks.get(i + 1).is_some_and(|t| t.is_sym('/')) => {
                out.push(Item::Cue(Cue::Plus));
                i += 2;
                continue;
            }
            // `tiền ăn đám giỗ`, `mừng đám cưới`: the occasion only names the money (and
            // teaches the normaliser `dam gio` is `đám giỗ`, no clock time).
            Tok::Word(_) if let Some(o) = OCCASIONS.iter().find(|o| words_at(toks, i, o)) => {
                decor.push(&src[t.start..toks[i + o.len() - 1].end]);
                i += o.len();
                continue;
            }
            // `bệnh nhân` (a patient), `each one`: no multiplying, no number.
            Tok::Word(_)
                if words_at(toks, i, &["bệnh", "nhân"])
                    || words_at(toks, i, &["each", "one"])
                    || words_at(toks, i, &["every", "one"]) =>
            {
                if words_at(toks, i, &["each", "one"]) {
                    out.push(Item::Cue(Cue::EachOne));
                }
                i += 2;
                continue;
            }
            // `tiền điện tháng này`, `hôm nay 87 đơn`: when, not what.
            Tok::Word(w)
                if (PERIODS.contains(&w.as_str()) || w == "hôm")
                    && toks.get(i + 1).and_then(Token::word).is_some_and(|n| {
                        matches!(n, "này" | "trước" | "tới" | "sau" | "nay" | "qua")
                    }) =>
            {
                i += 2;
                continue;
            }
            Tok::Word(w) => {
                // `next year`, `this month`: when, not what; `lương tháng`: a monthly
                // salary.
                let when = matches!(
                    w.as_str(),
                    "next" | "this" | "last" | "every" | "each" | "lương"
                ) && toks
                    .get(i + 1)
                    .and_then(Token::word)
                    .is_some_and(|p| PERIODS.contains(&p));
                if when {
                    i += 2;
                    continue;
                }
            }
        }
        if let Some((n, next)) = crate::numbers::parse_words(toks, i, false) {
            // `for one year` of interest, as `for 1 year`.
            if counts_periods(toks, next) {
                out.push(Item::Periods(n));
                i = next + 1;
            } else {
                out.push(Item::Num(n));
                i = next;
            }
            continue;
        }
        if let Some((phrase, cue)) = CUES.iter().find(|(p, _)| words_at(toks, i, p)) {
            // `mỗi cặp 35000`: a multiple names the unit priced, not a count.
            let counted = matches!(out.last(), Some(Item::Num(_)));
            // `12 each` prices the number; `…, how much each` asks for a share.
            // `…, mỗi người trả bao nhiêu`: a share asked, not a price per person.
            let asked_after = !toks[i + phrase.len()..]
                .iter()
                .any(|t| matches!(t.tok, Tok::Num(_)))
                && toks[i + phrase.len()..].iter().any(|t| {
                    t.is_sym('?')
                        || t.word()
                            .is_some_and(|w| matches!(w, "bao" | "how" | "what" | "bn" | "mấy"))
                })
                // (`vé 1.150 eur mỗi người, tổng bao nhiêu`: the total is asked, and
                // the amount before is a price per person.)
                && !(after_amount(i)
                    && toks[i + phrase.len()..].iter().any(|t| {
                        t.word()
                            .is_some_and(|w| matches!(w, "tổng" | "total" | "altogether"))
                    }));
            // `…, how much per person`: likewise.
            let asked_before = toks[i.saturating_sub(3)..i].iter().any(|t| {
                t.word()
                    .is_some_and(|w| matches!(w, "much" | "nhiêu" | "bn" | "mấy"))
            });
            // `tiền nhà` is rent, `4 nhà` four households: a place counts people only
            // right after a number.
            let place_counts = !matches!(phrase, ["nhà"] | ["phòng"] | ["hộ"])
                || i > 0 && matches!(toks[i - 1].tok, Tok::Num(_));
            if !place_counts {
                decor.push(&src[t.start..t.end]);
                i += 1;
                continue;
            }
            let cue = match cue {
                Cue::Each if phrase.len() == 1 && !after_amount(i) => &Cue::EachOne,
                Cue::Each if phrase.len() > 1 && (asked_after || asked_before) => &Cue::EachOne,
                // `6 đứa cháu, mỗi đứa 200k`: what each person gets, a price per head.
                Cue::Each
                    if phrase.len() > 1
                        && matches!(
                            toks.get(i + phrase.len()).map(|t| &t.tok),
                            Some(Tok::Num(_))
                        ) =>
                {
                    &Cue::PerHead
                }
                other => other,
            };
            // (`a $89.95 pair of kitchen clogs`: one pair priced, no count of pairs.)
            let one_priced = matches!(cue, Cue::Times(_))
                && i > 1
                && matches!(toks[i - 2].word(), Some("a" | "an"))
                && toks[i - 1].number().is_some();
            if one_priced {
                i += phrase.len();
                continue;
            }
            if counted || !matches!(cue, Cue::Times(_)) {
                out.push(Item::Cue(*cue));
            }
            i += phrase.len();
            continue;
        }
        let w = t.word().unwrap_or_default();
        // An operation word no cue reads (`triple`, `half`, `double`) asks something this
        // reader would drop: no reading.
        let operation =
            crate::normalise::typo::operation(w).is_some_and(|op| !matches!(op, "sum" | "percent"));
        // `if I put $5,000 in savings at 4.5% …`: a leading `if` only sets the scene.
        let leading_if = matches!(w, "if" | "nếu") && toks[..i].iter().all(|t| t.word().is_none());
        // (`whats the gst on 1,249 if its 5%`: the rate said after the amount.)
        let rate_if = w == "if"
            && matches!(toks.get(i + 1).and_then(Token::word), Some("its" | "it's"))
            && toks.get(i + 2).and_then(Token::number).is_some()
            && toks.get(i + 3).is_some_and(|t| t.is_sym('%'));
        if (FOREIGN.contains(&w) && !leading_if && !rate_if) || operation {
            return None;
        }
        decor.push(&src[t.start..t.end]);
        i += 1;
    }
    Some(out)
}

/// Whether the word at `k` is a cue of an everyday problem (`split`, `tip`, `each`,
/// `what percent`), a word of another question or a request outside the tools: a
/// calculation with it beside is not chatter around it. Cues that only join two
/// numbers (`from`, `to`, `of`, `at`) say nothing away from them.
pub fn changes_meaning(toks: &[Token], k: usize) -> bool {
    let Some(word) = toks[k].word() else {
        return false;
    };
    let cue = CUES.iter().any(|(p, c)| {
        words_at(toks, k, p) && !matches!(c, Cue::From | Cue::To | Cue::Of | Cue::At)
    });
    FOREIGN.contains(&word) || cue || asks_outside(word)
}

/// [`changes_meaning`] but for a word naming a request outside the tools or a levy:
/// with the operators written out and no percentage (`minus 1,800 broker minus 1,062
/// health insurance`), such a word only labels a number.
pub fn changes_operation(toks: &[Token], k: usize) -> bool {
    let Some(word) = toks[k].word() else {
        return false;
    };
    let cue = CUES.iter().any(|(p, c)| {
        words_at(toks, k, p) && !matches!(c, Cue::From | Cue::To | Cue::Of | Cue::At | Cue::Tax)
    });
    // (`bình` is an operation in `trung bình`, `bình phương`, `bình quân`; `12 bình
    // khí` counts bottles.)
    let bottle = word == "bình"
        && !(k > 0 && toks[k - 1].word() == Some("trung"))
        && !toks
            .get(k + 1)
            .and_then(Token::word)
            .is_some_and(|n| matches!(n, "phương" | "quân"));
    FOREIGN.contains(&word) && !bottle || cue
}

/// Whether `word` counts people (`người`, `friends`); `bạn` is also "you".
pub fn counts_people(word: &str) -> bool {
    CUES.iter()
        .any(|(p, c)| *c == Cue::People && p.len() == 1 && p[0] == word)
}

/// Whether `word` counts guests or people (`4 khách`, `6 guests`, `2 pax`, or any word
/// [`counts_people`] knows): a headcount, never money.
pub fn counts_guests(word: &str) -> bool {
    counts_people(word) || matches!(word, "khách" | "guests" | "pax")
}

/// Whether `word` names a request outside the tools (the weather, a price, a
/// translation); units of measure only decorate a number here (`342 miles`), and a
/// conversion between them has no cue to be read as one.
pub(super) fn asks_outside(word: &str) -> bool {
    // (`flights to melb came to 1,240`, `the hotel is 245/night`: what was paid for; a
    // booking asked is refused before, by its verb.)
    crate::scope::outside_tools(word, chorus_bus::Language::En)
        .is_some_and(|kind| kind != "unit conversion" && kind != crate::scope::BOOKINGS)
}

/// Whether the number at `i` of `toks` counts who a meal or a table is for (`dinner
/// for 6 came to $312.60`, `a table for 4`): `for` after the meal's word, no noun after.
fn meal_for(toks: &[Token], i: usize) -> bool {
    const MEALS: &[&str] = &["dinner", "lunch", "breakfast", "brunch", "meal", "table"];
    // (`dinner $186.40 for 4`: the meal named before its bill.)
    i > 1
        && toks[i - 1].word() == Some("for")
        && toks[..i - 1]
            .iter()
            .any(|t| t.word().is_some_and(|w| MEALS.contains(&w)))
        && toks
            .get(i + 1)
            .and_then(Token::word)
            .is_none_or(|w| matches!(w, "came" | "was" | "is" | "cost" | "costs" | "comes"))
}

/// Words asking something of each one counted: with one, a count is an operand.
pub(super) const OF_EACH: &[&str] = &[
    "mỗi", "each", "per", "trung", "average", "avg", "bình", "chia", "split", "share", "đều",
    "apiece", "từng",
];

/// Whether the counter word after the number at `i` is said nowhere else in `toks`, and
/// nothing asks of each one counted.
fn counted_once(toks: &[Token], i: usize) -> bool {
    let Some(counter) = toks.get(i + 1).and_then(Token::word) else {
        return false;
    };
    let again = toks
        .iter()
        .enumerate()
        .any(|(k, t)| k != i + 1 && t.word() == Some(counter));
    let each = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| OF_EACH.contains(&w)));
    // (A cue is no counter — `dozen`, `each` — but people counted are.)
    let cue = CUES.iter().any(|(p, _)| p == &[counter]) && !counts_people(counter);
    !again && !each && !cue
}

/// Whether the number at `i` counts things whose total is said right after it (`14
/// cuốc tổng 412k`, `7 khách tổng 4.550.000`, `12 orders total 840`).
fn labels_total(toks: &[Token], i: usize) -> bool {
    let total = toks
        .get(i + 2)
        .and_then(Token::word)
        .is_some_and(|w| matches!(w, "tổng" | "total" | "totalling" | "totaling"));
    total && matches!(toks.get(i + 3).map(|t| &t.tok), Some(Tok::Num(_))) && counted_once(toks, i)
}

/// Whether the `1` at `i` ties a counter to the amount right after it (`1 cuốc 47k`),
/// when nothing before it is a number.
fn ties_one(toks: &[Token], i: usize) -> bool {
    !toks[..i].iter().any(|t| matches!(t.tok, Tok::Num(_)))
        && matches!(toks.get(i + 2).map(|t| &t.tok), Some(Tok::Num(_)))
        && counted_once(toks, i)
}

/// Whether an amount before `i` in `toks` is a rate in `unit` (`1,320 yen/hr`, `46.82 an
/// hour`, `20 per hour`).
fn rate_said_in(toks: &[Token], i: usize, unit: &str) -> bool {
    let unit = unit_of(unit);
    (1..i).any(|k| {
        let tie = toks[k].is_sym('/') || toks[k].word().is_some_and(|w| PER_UNIT.contains(&w));
        let amount = matches!(toks[k - 1].tok, Tok::Num(_))
            || k > 1 && matches!(toks[k - 2].tok, Tok::Num(_)) && toks[k - 1].word().is_some();
        tie && amount && toks.get(k + 1).and_then(Token::word).map(unit_of) == Some(unit.clone())
    })
}

/// Whether the word at `k` is hours worked at a rate (`38 hrs at $30.50`) or at a
/// percentage of one (`7.5 hours at 150% of 34.20`): a count, no time asked.
fn hours_at_share(toks: &[Token], k: usize) -> bool {
    let hours = toks
        .get(k)
        .and_then(Token::word)
        .is_some_and(|w| unit_of(w) == "h");
    let at_rate = toks.get(k + 1).and_then(Token::word) == Some("at")
        && toks.get(k + 2).and_then(Token::number).is_some()
        && !toks.get(k + 3).is_some_and(|t| t.is_sym('%'));
    let at_share = toks.windows(5).any(|w| {
        matches!(w[0].word(), Some("at" | "với" | "hưởng"))
            && w[1].number().is_some()
            && w[2].is_sym('%')
            && matches!(w[3].word(), Some("of" | "của"))
            && w[4].number().is_some()
    });
    hours && (at_rate || at_share)
}
