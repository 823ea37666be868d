//! Everyday problems as arithmetic: a bill split among people, a tip or a discount on
//! an amount, an amount raised or lowered by a percentage, "45 is what percent of
//! 180", dozens and pairs, a price times a count, a rate ("342 miles on 9 gallons,
//! miles per gallon"), in English and Vietnamese.
//!
//! The part is read as *cues* and *numbers*: cue words ([`CUES`]) say what is done,
//! numbers carry their role (a percentage, a count of people, a unit price, an amount),
//! and the other words only decorate (`eggs`, `dollars`, `friends`, `jacket`). A reading
//! is made only when the cues and numbers fit exactly one of the forms below, every
//! number is used, and no decorating word is one that asks something else (an
//! arithmetic operator, a date or time word, a request outside the tools): otherwise
//! the part is left to the other readers, and not understood rather than guessed.
//!
//! | form | cues | expression |
//! |---|---|---|
//! | split | `split`, `share`, `between/among N`, `N ways`, `each`, `chia đều`, `mỗi người` | A ÷ N |
//! | tip | `tip`, `tiền tip`, `boa` | P% of A; with `+`, `add`, `on top`, `total`: A + P% of A |
//! | lower | `off`, `discount`, `down`, `decrease`, `reduce`, `giảm` | A − P% of A |
//! | raise | `up`, `increase`, `raise`, `more`, `tăng` | A + P% of A |
//! | what percent | `what percent`, `bao nhiêu phần trăm` + `of`/`của` B | A × 100 ÷ B |
//! | dozens | `N dozen`, `N pairs`, `N chục`, `N cặp/đôi` | N × 12 (2, 10) |
//! | price | `at P each`, `P each`, `mỗi … P`, `P apiece` | count × P (dozens priced by the item, pairs by the pair) |
//! | rate | `per`, `mỗi` between two unit words | A ÷ B |

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token, words_at};

/// What a cue word says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cue {
    /// Share an amount: `split`, `share`, `chia đều`.
    Split,
    /// The count after it is of sharers: `between`, `among`, `cho`.
    Among,
    /// The number before it counts sharers: `people`, `friends`, `of us`, `ways`, `người`.
    People,
    /// `each`, `apiece`, `a litre`, `/hr` right after a number: that number is a
    /// unit price.
    Each,
    /// `mỗi` (`mỗi ký 185 nghìn`): the number after it is a unit price, else a share.
    EachLead,
    /// `mỗi người 200k`, `each person 20`: the number after it is what each of the
    /// people counted gets or pays; the total is asked.
    PerHead,
    /// `each` away from any number (`…, how much each`): a share is asked.
    EachOne,
    /// `from` (a percent change: from A to B).
    From,
    /// `to`, `lên`, `xuống` (a percent change: from A to B).
    To,
    /// `percent` or `phần trăm` with no number before it (`the % increase`).
    PercentWord,
    /// `change` (a signed percent change).
    Change,
    /// Interest for one period: `interest`, `lãi`.
    Interest,
    /// `compound`, `compounded`: interest on interest.
    Compound,
    /// A tax or a fee added on: `tax`, `gst`, `vat`, `thuế`.
    Tax,
    /// The amount taken off is asked: `how much off`, `save`, `bớt bao nhiêu`.
    OffAsked,
    /// `at` a price.
    At,
    /// A tip.
    Tip,
    /// Added on top: `+`, `plus`, `add`, `on top`, `total`, `including`.
    Plus,
    /// Lowered by: `off`, `discount`, `down`, `giảm`.
    Less,
    /// Raised by: `up`, `increase`, `tăng`.
    More,
    /// `of`, `của`, `on` (the base of a percentage).
    Of,
    /// `what percent`, `bao nhiêu phần trăm`.
    WhatPercent,
    /// A multiple: `dozen` (12), `pair` (2), `chục` (10).
    Times(&'static str),
    /// A rate: `per`.
    Per,
}

/// Cue phrases, longest first within a shared start.
const CUES: &[(&[&str], Cue)] = &[
    (&["what", "percent"], Cue::WhatPercent),
    (&["what", "percentage"], Cue::WhatPercent),
    (&["how", "many", "percent"], Cue::WhatPercent),
    (&["bao", "nhiêu", "phần", "trăm"], Cue::WhatPercent),
    (&["mấy", "phần", "trăm"], Cue::WhatPercent),
    (&["split"], Cue::Split),
    (&["splitting"], Cue::Split),
    (&["share"], Cue::Split),
    (&["shared"], Cue::Split),
    (&["chia", "đều"], Cue::Split),
    (&["chia", "ra"], Cue::Split),
    (&["chia"], Cue::Split),
    (&["between"], Cue::Among),
    (&["among"], Cue::Among),
    (&["amongst"], Cue::Among),
    // `split 728.19 into 3 payments`.
    (&["into"], Cue::Among),
    (&["giữa"], Cue::Among),
    (&["ways"], Cue::People),
    (&["people"], Cue::People),
    (&["nhà"], Cue::People),
    (&["phòng"], Cue::People),
    (&["hộ"], Cue::People),
    (&["tenants"], Cue::People),
    (&["guys"], Cue::People),
    (&["workers"], Cue::People),
    (&["families"], Cue::People),
    (&["households"], Cue::People),
    (&["kids"], Cue::People),
    (&["installments"], Cue::People),
    (&["instalments"], Cue::People),
    (&["payments"], Cue::People),
    (&["persons"], Cue::People),
    (&["friends"], Cue::People),
    (&["guests"], Cue::People),
    (&["roommates"], Cue::People),
    (&["housemates"], Cue::People),
    (&["flatmates"], Cue::People),
    (&["colleagues"], Cue::People),
    (&["coworkers"], Cue::People),
    (&["mates"], Cue::People),
    (&["buddies"], Cue::People),
    (&["others"], Cue::People),
    (&["of", "us"], Cue::People),
    (&["of", "them"], Cue::People),
    (&["người"], Cue::People),
    (&["đứa"], Cue::People),
    (&["bạn"], Cue::People),
    (&["each", "person"], Cue::Each),
    (&["per", "person"], Cue::Each),
    (&["per", "head"], Cue::Each),
    (&["mỗi", "người"], Cue::Each),
    (&["mỗi", "đứa"], Cue::Each),
    (&["each"], Cue::Each),
    (&["apiece"], Cue::Each),
    // (`mỗi cái`, `mỗi ly` also teach how `moi cai` reads folded: each, not `mới`.)
    (&["mỗi", "cái"], Cue::EachLead),
    (&["mỗi", "ly"], Cue::EachLead),
    (&["mỗi"], Cue::EachLead),
    (&["at"], Cue::At),
    (&["tiền", "tip"], Cue::Tip),
    (&["tiền", "boa"], Cue::Tip),
    (&["tip"], Cue::Tip),
    (&["tips"], Cue::Tip),
    (&["gratuity"], Cue::Tip),
    (&["boa"], Cue::Tip),
    (&["on", "top"], Cue::Plus),
    (&["plus"], Cue::Plus),
    (&["add"], Cue::Plus),
    (&["added"], Cue::Plus),
    (&["including"], Cue::Plus),
    (&["with"], Cue::Plus),
    (&["total"], Cue::Plus),
    (&["kèm"], Cue::Plus),
    (&["thêm"], Cue::Plus),
    // A markup added to a cost (`cộng lãi 30%`, `lấy lãi 25%`): the selling price.
    (&["cộng", "lãi"], Cue::More),
    (&["lấy", "lãi"], Cue::More),
    (&["markup"], Cue::More),
    (&["mark", "up"], Cue::More),
    (&["cộng"], Cue::Plus),
    (&["how", "much", "off"], Cue::OffAsked),
    (&["save"], Cue::OffAsked),
    (&["saved"], Cue::OffAsked),
    (&["saving"], Cue::OffAsked),
    (&["savings"], Cue::OffAsked),
    (&["bớt", "bao", "nhiêu"], Cue::OffAsked),
    (&["giảm", "bao", "nhiêu"], Cue::OffAsked),
    (&["bớt", "được", "bao", "nhiêu"], Cue::OffAsked),
    (&["giảm", "được", "bao", "nhiêu"], Cue::OffAsked),
    (&["how", "much", "is", "the", "discount"], Cue::OffAsked),
    (&["how", "much", "discount"], Cue::OffAsked),
    (&["tiết", "kiệm"], Cue::OffAsked),
    (&["tổng"], Cue::Plus),
    (&["off"], Cue::Less),
    // `22% goes to tax, what do I take home`: what is left.
    (&["take", "home"], Cue::Less),
    (&["net"], Cue::Less),
    // `giày 890k sale 25%`, `on sale 30%` (a sales tax is a tax).
    (&["sales", "tax"], Cue::Tax),
    (&["sale", "tax"], Cue::Tax),
    (&["sale"], Cue::Less),
    // `lương 9tr5 trừ 10,5% bảo hiểm còn bao nhiêu`.
    (&["trừ"], Cue::Less),
    (&["discount"], Cue::Less),
    (&["discounted"], Cue::Less),
    (&["decrease"], Cue::Less),
    (&["decreased"], Cue::Less),
    (&["reduce"], Cue::Less),
    (&["reduced"], Cue::Less),
    (&["lower"], Cue::Less),
    (&["lowered"], Cue::Less),
    (&["down"], Cue::Less),
    (&["drops"], Cue::Less),
    (&["cut"], Cue::Less),
    (&["less"], Cue::Less),
    (&["giảm", "giá"], Cue::Less),
    (&["giảm"], Cue::Less),
    (&["bớt"], Cue::Less),
    (&["increase"], Cue::More),
    (&["increased"], Cue::More),
    (&["raise"], Cue::More),
    (&["raised"], Cue::More),
    (&["up"], Cue::More),
    (&["rises"], Cue::More),
    (&["grows"], Cue::More),
    (&["more"], Cue::More),
    (&["tăng", "thêm"], Cue::More),
    (&["tăng"], Cue::More),
    (&["of"], Cue::Of),
    (&["on"], Cue::Of),
    // `30% goes on rent`, `bảo hiểm 10,5% thì mất bao nhiêu`: a share of the amount (not
    // `đóng`: as a literal it would fold `dong`, the currency, into it).
    (&["goes"], Cue::Of),
    // `cọc trước 30%`: a deposit is a share of the amount.
    (&["cọc"], Cue::Of),
    (&["spend"], Cue::Of),
    (&["spent"], Cue::Of),
    (&["nộp"], Cue::Of),
    (&["mất"], Cue::Of),
    // `… 10% tax, what do I pay`: the total.
    (&["pay"], Cue::Plus),
    (&["trả"], Cue::Plus),
    (&["của"], Cue::Of),
    (&["trên"], Cue::Of),
    (&["dozen"], Cue::Times("12")),
    (&["dozens"], Cue::Times("12")),
    (&["pairs"], Cue::Times("2")),
    (&["pair"], Cue::Times("2")),
    (&["chục"], Cue::Times("10")),
    (&["tá"], Cue::Times("12")),
    (&["cặp"], Cue::Times("2")),
    (&["đôi"], Cue::Times("2")),
    (&["per"], Cue::Per),
    (&["from"], Cue::From),
    (&["từ"], Cue::From),
    (&["to"], Cue::To),
    (&["lên"], Cue::To),
    (&["xuống"], Cue::To),
    (&["đến"], Cue::To),
    (&["percent"], Cue::PercentWord),
    (&["percentage"], Cue::PercentWord),
    (&["phần", "trăm"], Cue::PercentWord),
    (&["change"], Cue::Change),
    (&["interest"], Cue::Interest),
    (&["tiền", "lãi"], Cue::Interest),
    (&["lãi", "suất"], Cue::Interest),
    (&["lãi"], Cue::Interest),
    (&["compounded"], Cue::Compound),
    (&["compound"], Cue::Compound),
    (&["compounding"], Cue::Compound),
    (&["tax"], Cue::Tax),
    (&["taxes"], Cue::Tax),
    (&["gst"], Cue::Tax),
    (&["hst"], Cue::Tax),
    (&["pst"], Cue::Tax),
    (&["vat"], Cue::Tax),
    (&["thuế"], Cue::Tax),
    // `lương 15 triệu, đóng bảo hiểm 10,5% thì là bao nhiêu tiền`: a levy, as a tax.
    (&["bảo", "hiểm"], Cue::Tax),
    (&["insurance"], Cue::Tax),
    // `grab takes 20% commission, he made 1,380,000, how much does he keep`: kept
    // back from the amount, like a discount.
    (&["commission"], Cue::Less),
    (&["takes"], Cue::Less),
    (&["surcharge"], Cue::More),
    (&["withhold"], Cue::Less),
    // `10% of 4,860 gets withheld, how much is that`: the share withheld.
    (&["withheld"], Cue::Of),
    (&["withholds"], Cue::Less),
    (&["hoa", "hồng"], Cue::Less),
    (&["chiết", "khấu"], Cue::Less),
    (&["dropped"], Cue::Less),
    (&["drop"], Cue::Less),
    (&["fell"], Cue::Less),
    (&["went", "down"], Cue::Less),
    (&["went", "up"], Cue::More),
    (&["goes", "up"], Cue::More),
    (&["go", "up"], Cue::More),
    (&["rose"], Cue::More),
];

/// Occasions money is for: they only name it.
const OCCASIONS: &[&[&str]] = &[
    &["đám", "giỗ"],
    &["đám", "cưới"],
    &["đám", "hỏi"],
    &["sinh", "nhật"],
];

/// Verbs with `up` that raise nothing (`up` alone is a rise: `went up 4%`).
const VERBS_WITH_UP: &[&[&str]] = &[
    &["filled", "up"],
    &["fill", "up"],
    &["filling", "up"],
    &["topped", "up"],
    &["top", "up"],
    &["drove", "up"],
    &["picked", "up"],
    &["pick", "up"],
    &["add", "up"],
    &["adds", "up"],
    &["came", "up"],
    &["comes", "up"],
];

/// Words that tie a unit price to its unit after the number: `1.89 a litre`, `46.20
/// an hour`, `185 nghìn một ký`.
const PER_UNIT: &[&str] = &["a", "an", "per", "một", "every"];

/// Period words: after `a`, `per`, `/`, `mỗi` they only say how often (`4,200 a month`,
/// `6%/năm`, `mỗi tháng`); after a number they count periods (`for 3 years`).
const PERIODS: &[&str] = &[
    "month", "months", "year", "years", "week", "weeks", "day", "days", "yr", "yrs", "annum",
    "tháng", "năm", "tuần", "ngày",
];

/// The unit a word names, singular and with common aliases folded (`litres` → `l`,
/// `kilo` → `kg`, `hrs` → `h`), so a price per unit meets a quantity in that unit.
fn unit_of(word: &str) -> String {
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
fn per_unit_count(toks: &[Token]) -> Option<&str> {
    let p = toks
        .iter()
        .position(|t| matches!(t.word(), Some("per" | "mỗi")))?;
    let unit = singular(toks.get(p + 1)?.word()?);
    toks.windows(2)
        .find_map(|w| match (&w[0].tok, w[1].word()) {
            (Tok::Num(n), Some(u)) if singular(u) == unit => Some(n.as_str()),
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
fn about_interest(toks: &[Token]) -> bool {
    toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "interest" | "lãi" | "compounded" | "compound"))
    })
}

/// Whether the word at `k` (after a number) counts periods of interest: `for 3 years`,
/// `sau 1 năm` in a request about interest.
fn counts_periods(toks: &[Token], k: usize) -> bool {
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
fn priced_unit(toks: &[Token], k: usize, units: &[String]) -> bool {
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
fn quantity_units(toks: &[Token]) -> Vec<String> {
    toks.windows(2)
        .filter(|w| matches!(w[0].tok, Tok::Num(_)))
        .filter_map(|w| w[1].word().map(unit_of))
        .collect()
}

/// Words that ask something else than an everyday sum: with one of them decorating,
/// the part is not read here (arithmetic, dates and times have their own readers).
const FOREIGN: &[&str] = &[
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
enum Item {
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
fn items<'s>(toks: &[Token], src: &'s str, decor: &mut Vec<&'s str>) -> Option<Vec<Item>> {
    let mut out = Vec::new();
    let units = quantity_units(toks);
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // `filled up`, `drove up`: a verb with `up` that raises nothing.
        if let Some(p) = VERBS_WITH_UP.iter().find(|p| words_at(toks, i, p)) {
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
                } else if priced_unit(toks, i + 1, &units) {
                    // `6 hours` of labour at `$95/hr`: the quantity's unit.
                    out.push(Item::Num(n.clone()));
                    i += 2;
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
            // `tiền điện tháng này`: when, not what.
            Tok::Word(w)
                if PERIODS.contains(&w.as_str())
                    && toks
                        .get(i + 1)
                        .and_then(Token::word)
                        .is_some_and(|n| matches!(n, "này" | "trước" | "tới" | "sau")) =>
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
                });
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
        if (FOREIGN.contains(&w) && !leading_if) || operation {
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

/// Whether `word` counts people (`người`, `friends`); `bạn` is also "you".
pub fn counts_people(word: &str) -> bool {
    CUES.iter()
        .any(|(p, c)| *c == Cue::People && p.len() == 1 && p[0] == word)
}

/// Whether `word` names a request outside the tools (the weather, a price, a
/// translation); units of measure only decorate a number here (`342 miles`), and a
/// conversion between them has no cue to be read as one.
fn asks_outside(word: &str) -> bool {
    // (`flights to melb came to 1,240`, `the hotel is 245/night`: what was paid for; a
    // booking asked is refused before, by its verb.)
    crate::scope::outside_tools(word, "en").is_some_and(|kind| {
        kind != "unit conversion"
            && kind != "bookings of tickets, rooms or tables, and recommendations"
    })
}

/// What the answer to the everyday problem `part` is, to follow its number in a report:
/// `" each"` (`" mỗi người"`) for a share, `"%"` for a percentage asked (`45 is what
/// percent of 180`), `""` otherwise.
pub fn answer_unit(part: &str, language: &str) -> &'static str {
    let toks = crate::lexer::lex(part);
    let Some(items) = items(&toks, part, &mut Vec::new()) else {
        return "";
    };
    let has = |c: Cue| items.contains(&Item::Cue(c));
    let vi = crate::wording::is_vi(language);
    if has(Cue::WhatPercent) {
        "%"
    } else if parse(&toks, part).is_some()
        && (has(Cue::Split) || has(Cue::Each) || has(Cue::EachOne) || has(Cue::Among))
    {
        if vi { " mỗi người" } else { " each" }
    } else {
        ""
    }
}

/// Reads `toks` (lexed from `src`) as an everyday problem, when exactly one form fits.
pub fn parse(toks: &[Token], src: &str) -> Option<Expr> {
    // The price before a levy, from the price with it (`giá đã gồm VAT 10% là 236.500,
    // giá chưa thuế`): a division none of these forms makes; the quantity frames read it.
    if crate::frames::asks_before_levy(toks) {
        return None;
    }
    // A booking (`book me a table for 4 at 7pm`) is no sum of its numbers (a hotel's
    // price per night is: `hotel is 189 a night`).
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let booking = words.windows(2).any(|w| {
        w[0] == "book"
            && matches!(
                w[1],
                "me" | "us" | "a" | "an" | "the" | "table" | "tickets" | "ticket" | "room"
            )
    }) || words
        .iter()
        .any(|w| matches!(*w, "reserve" | "reservation"));
    // `meeting is at 10:00`: a clock time is no amount.
    if booking || crate::lexer::has_clock_time(toks) {
        return None;
    }
    if let Some(e) = groups_or_rate(toks) {
        return Some(e);
    }
    let mut decor = Vec::new();
    let items = items(toks, src, &mut decor)?;
    let has = |c: Cue| items.contains(&Item::Cue(c));
    let nums: Vec<(usize, &str)> = items
        .iter()
        .enumerate()
        .filter_map(|(k, i)| match i {
            Item::Num(n) => Some((k, n.as_str())),
            _ => None,
        })
        .collect();
    let pcts: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::Pct(p) => Some(p.as_str()),
            _ => None,
        })
        .collect();
    let cue_at = |k: usize| match items.get(k) {
        Some(Item::Cue(c)) => Some(*c),
        _ => None,
    };
    let num = |n: &str| Expr::Num(n.to_owned());
    if pcts.len() > 1 || nums.is_empty() {
        return None;
    }
    let outside = || decor.iter().any(|w| asks_outside(w));
    // `from $80 to $92, what's the % increase`, `giá từ 40 lên 46 là tăng bao nhiêu phần
    // trăm`: (B − A) × 100 ÷ A; `by what percent did it drop` is the fall, A − B.
    if let [(ka, a), (kb, b)] = nums.as_slice()
        && cue_at(ka.wrapping_sub(1)) == Some(Cue::From)
        && cue_at(kb - 1) == Some(Cue::To)
        && pcts.is_empty()
        && (has(Cue::WhatPercent) || has(Cue::PercentWord))
    {
        let fall = (has(Cue::Less) || has(Cue::OffAsked)) && !has(Cue::Change) && !has(Cue::More);
        let (x, y) = if fall { (a, b) } else { (b, a) };
        let change = Expr::bin(MathOp::Subtract, num(x), num(y));
        let e = Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, change, num("100")),
            num(a),
        );
        return (!outside()).then_some(e);
    }
    let periods: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::Periods(p) => Some(p.as_str()),
            _ => None,
        })
        .collect();
    // Interest: `100 triệu lãi suất 6%/năm`, one period's is P% of A; `$5k at 4%
    // compounded yearly for 3 years` is A × (1 + P ÷ 100)^N.
    if has(Cue::Interest) || has(Cue::Compound) {
        let ([(_, a)], [p]) = (nums.as_slice(), pcts.as_slice()) else {
            return None;
        };
        let e = match (has(Cue::Compound), periods.as_slice()) {
            (true, [n]) => Expr::bin(
                MathOp::Multiply,
                num(a),
                Expr::bin(
                    MathOp::Power,
                    Expr::bin(
                        MathOp::Sum,
                        num("1"),
                        Expr::bin(MathOp::Divide, num(p), num("100")),
                    ),
                    num(n),
                ),
            ),
            // `kỳ hạn 12 tháng, lãi suất 5,6%/năm`: a term in months at a yearly rate is
            // that many twelfths of a year's interest.
            (false, [n])
                if let Some((term, rate)) = term_and_rate(toks).filter(|(t, r)| t != r) =>
            {
                let periods = match term {
                    1 => num(n),
                    _ => Expr::bin(MathOp::Multiply, num(n), num(&term.to_string())),
                };
                Expr::bin(
                    MathOp::Divide,
                    Expr::bin(
                        MathOp::Multiply,
                        Expr::bin(MathOp::Percent, num(p), num(a)),
                        periods,
                    ),
                    num(&rate.to_string()),
                )
            }
            (false, []) | (false, ["1"]) => Expr::bin(MathOp::Percent, num(p), num(a)),
            (false, [n]) => Expr::bin(
                MathOp::Multiply,
                Expr::bin(MathOp::Percent, num(p), num(a)),
                num(n),
            ),
            _ => return None,
        };
        return (!outside()).then_some(e);
    }
    if !periods.is_empty() {
        return None;
    }
    // `45 is what percent of 180`, `what percent of 160 is 36`.
    if has(Cue::WhatPercent) {
        let [(ka, a), (kb, b)] = nums.as_slice() else {
            return None;
        };
        let base_first = cue_at(ka.wrapping_sub(1)) == Some(Cue::Of);
        let (part, whole) = match (base_first, cue_at(kb - 1) == Some(Cue::Of)) {
            (true, false) => (b, a),
            (false, true) => (a, b),
            _ => return None,
        };
        let only = items.iter().all(|i| {
            matches!(i, Item::Num(_)) || matches!(i, Item::Cue(Cue::WhatPercent | Cue::Of))
        });
        let only = only && !decor.iter().any(|w| asks_outside(w));
        return only.then(|| {
            Expr::bin(
                MathOp::Divide,
                Expr::bin(MathOp::Multiply, num(part), num("100")),
                num(whole),
            )
        });
    }
    // Each number's role.
    let mut used = vec![false; items.len()];
    let mut count: Option<&str> = None;
    let mut counted_at: Option<usize> = None;
    let mut price: Option<&str> = None;
    // Every price, where they are: several items each priced (`3 bánh mì 25k một cái
    // với 2 ly cà phê 35k một ly`).
    let mut prices: Vec<(usize, &str)> = Vec::new();
    let mut multiple: Option<Expr> = None;
    for &(k, n) in &nums {
        let before = cue_at(k.wrapping_sub(1));
        let after = cue_at(k + 1);
        if let Some(Cue::Times(m)) = after {
            if multiple.is_some() {
                return None;
            }
            multiple = Some(Expr::bin(MathOp::Multiply, num(n), num(m)));
            used[k] = true;
            used[k + 1] = true;
        } else if matches!(after, Some(Cue::People))
            || matches!(before, Some(Cue::Among)) && !matches!(after, Some(Cue::Each))
        {
            if count.replace(n).is_some() {
                return None;
            }
            counted_at = Some(k);
            used[k] = true;
        } else if matches!(before, Some(Cue::At | Cue::EachLead | Cue::PerHead))
            || matches!(after, Some(Cue::Each))
        {
            prices.push((k, n));
            price = Some(n);
            used[k] = true;
        }
    }
    if prices.len() > 1 {
        // (`2 adults at 412.50 each and 2 kids at 309.90 each`: people priced each are a
        // quantity.)
        if let Some(k) = counted_at {
            used[k] = false;
        }
        return several_items(&nums, &prices, &used, &items, &decor);
    }
    let mut amounts: Vec<&str> = nums
        .iter()
        .filter(|(k, _)| !used[*k])
        .map(|&(_, n)| n)
        .collect();
    // `2 kids at 309.90 each`: people priced each are a quantity, not sharers.
    if price.is_some()
        && amounts.is_empty()
        && !has(Cue::Split)
        && !has(Cue::Among)
        && !has(Cue::EachOne)
        && !has(Cue::PerHead)
        && let Some(c) = count.take()
    {
        amounts.push(c);
    }
    // `actually 2 left early, split it 4 ways`: the amount shared is an earlier one
    // ("it"), and the other number counts people who came or went — no amount here.
    let earlier = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "it" | "that" | "this"))
    });
    let counts_people = |n: &str| {
        toks.windows(2).any(|w| {
            matches!(&w[0].tok, Tok::Num(x) if x == n)
                && w[1].word().is_some_and(|v| {
                    matches!(
                        v,
                        "left" | "went" | "joined" | "came" | "more" | "fewer" | "less"
                    )
                })
        })
    };
    if earlier && count.is_some() && has(Cue::Split) && amounts.iter().all(|a| counts_people(a)) {
        return None;
    }
    let shares = count.is_some()
        && (has(Cue::Split)
            || has(Cue::Each)
            || has(Cue::EachOne)
            || has(Cue::EachLead)
            || has(Cue::Among));
    // Amounts only added up ask nothing of their own: a share, a percentage or a
    // price must follow.
    let total_asked = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "total" | "altogether" | "tổng" | "hết"))
    });
    let plain_sum = multiple.is_none() && price.is_none() && amounts.len() > 1 && !total_asked;
    // The amount everything else applies to.
    // `li xì 6 đứa cháu mỗi đứa 200k`: the people counted times what each gets; `paid
    // 3 guys for 4 days at $260/day each`, `2 thợ làm 15 ngày, mỗi người 400k/ngày`:
    // the people, the days and the rate each earns.
    if has(Cue::PerHead) && multiple.is_none() && pcts.is_empty() {
        let total = match (count, price, amounts.as_slice()) {
            (Some(c), Some(p), []) => Some(Expr::bin(MathOp::Multiply, num(c), num(p))),
            (Some(c), Some(p), &[n]) | (None, Some(p), &[c, n]) => Some(Expr::bin(
                MathOp::Multiply,
                Expr::bin(MathOp::Multiply, num(c), num(n)),
                num(p),
            )),
            _ => None,
        };
        if let Some(total) = total {
            return (!outside()).then_some(total);
        }
    }
    let mut value = match (multiple, price, amounts.as_slice()) {
        // Pairs are priced by the pair (`4 pairs at 3.50 each`), dozens by the item.
        (Some(Expr::Op(_, m)), Some(p), []) if m.get(1) == Some(&num("2")) => {
            Expr::bin(MathOp::Multiply, m[0].clone(), num(p))
        }
        (Some(m), Some(p), []) => Expr::bin(MathOp::Multiply, m, num(p)),
        (Some(m), None, []) => m,
        (None, Some(p), [n]) => Expr::bin(MathOp::Multiply, num(n), num(p)),
        (None, None, [a]) => num(a),
        // `$312 plus $48 fuel`: amounts added up.
        (None, None, [_, _, ..]) if has(Cue::Plus) && !has(Cue::Per) => {
            Expr::chain(MathOp::Sum, amounts.iter().map(|n| num(n)))?
        }
        // `materials $1,850 plus 6 hrs labour at $95/hr`: the amount nearest before the
        // price is its quantity, the others are added.
        (None, Some(p), [_, _, ..]) if has(Cue::Plus) => {
            let at = items.iter().position(|i| *i == Item::Num(p.to_owned()))?;
            let k = nums
                .iter()
                .filter(|(k, n)| *k < at && amounts.contains(n))
                .map(|(_, n)| *n)
                .next_back()?;
            let priced = Expr::bin(MathOp::Multiply, num(k), num(p));
            let others = Expr::chain(
                MathOp::Sum,
                amounts.iter().filter(|n| **n != k).map(|n| num(n)),
            )?;
            Expr::bin(MathOp::Sum, others, priced)
        }
        // `342 miles on 9 gallons, miles per gallon`; `24 cans for 180,000, price per
        // can`: the number counted in the unit after `per` divides.
        (None, None, [a, b]) if has(Cue::Per) && pcts.is_empty() && count.is_none() => {
            let outside = decor.iter().any(|w| asks_outside(w));
            let (x, y) = match per_unit_count(toks) {
                Some(n) if n == *a => (b, a),
                _ => (a, b),
            };
            return (!outside).then(|| Expr::bin(MathOp::Divide, num(x), num(y)));
        }
        _ => return None,
    };
    let mut cued = matches!(value, Expr::Op(..)) && !plain_sum;
    // `mua 2 ký thì sao, vẫn giảm 10%`: a weight or a length is no price to take a
    // percentage off (an ellipsis of a question before, not read alone).
    if let (Some(Expr::Num(a)), [_]) = (Some(&value), pcts.as_slice())
        && measured(toks, a)
    {
        return None;
    }
    if let [p] = pcts.as_slice() {
        let share = Expr::bin(MathOp::Percent, num(p), value.clone());
        value = if has(Cue::OffAsked) {
            // `30% off 450000, how much do I save`: the amount taken off.
            share
        } else if has(Cue::Less) {
            Expr::bin(MathOp::Subtract, value, share)
        } else if has(Cue::More)
            || (has(Cue::Tip) || has(Cue::Tax) || on_top(toks)) && has(Cue::Plus)
        {
            Expr::bin(MathOp::Sum, value, share)
        } else if has(Cue::Tip) || has(Cue::Tax) || has(Cue::Of) {
            share
        } else {
            return None;
        };
        cued = true;
    } else if has(Cue::Tip) || has(Cue::Less) || has(Cue::More) {
        return None;
    }
    match count {
        Some(n) if shares => {
            value = Expr::bin(MathOp::Divide, value, num(n));
            cued = true;
        }
        Some(_) => return None,
        None if has(Cue::Split) => return None,
        None => {}
    }
    // A decorating word that asks something outside the tools (the weather, a price):
    // no reading. Looked at last, as it costs more than the reading.
    (cued && !decor.iter().any(|w| asks_outside(w))).then_some(value)
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
fn term_and_rate(toks: &[Token]) -> Option<(u32, u32)> {
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
fn measured(toks: &[Token], n: &str) -> bool {
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

/// Two numbers read as groups or a rate over time: `100 gauze pads packed in bags of 12,
/// how many are left over` is 100 mod 12 (what no whole group takes); `1000 mL over 8
/// hours, rate in mL/hr?` is 1000 ÷ 8 (an amount over a time, per hour).
fn groups_or_rate(toks: &[Token]) -> Option<Expr> {
    let nums = crate::lexer::number_positions(toks);
    let [a, b] = nums.as_slice() else {
        return None;
    };
    let (a, b) = (*a, *b);
    let num = |k: usize| toks[k].number().map(|n| Expr::Num(n.to_owned()));
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let has = |p: &[&str]| (0..toks.len()).any(|i| words_at(toks, i, p));
    let left_over = has(&["left", "over"]) || has(&["leftover"]) || has(&["leftovers"]);
    if left_over && b > 0 && word(b - 1) == Some("of") {
        return Some(Expr::bin(MathOp::Modulo, num(a)?, num(b)?));
    }
    let hours = word(b + 1).is_some_and(|w| unit_of(w) == "h");
    let per_hour = has(&["per", "hour"])
        || has(&["an", "hour"])
        || has(&["mỗi", "giờ"])
        || (0..toks.len())
            .any(|i| toks[i].is_sym('/') && word(i + 1).is_some_and(|w| unit_of(w) == "h"));
    if b > 0 && word(b - 1) == Some("over") && hours && per_hour {
        return Some(Expr::bin(MathOp::Divide, num(a)?, num(b)?));
    }
    None
}

/// Whether `toks` say `on top` (`with 7% tax on top of 144`): the share is added to
/// the amount, never the answer alone.
fn on_top(toks: &[Token]) -> bool {
    (0..toks.len()).any(|i| words_at(toks, i, &["on", "top"]))
}

/// Several items each priced (`3 bánh mì 25k một cái với 2 ly cà phê 35k một ly`): each
/// price takes the nearest quantity before it, and the total is the sum. Every number
/// must be a quantity or a price, and nothing else may be asked (no percentage, share
/// or multiple): otherwise no reading.
fn several_items(
    nums: &[(usize, &str)],
    prices: &[(usize, &str)],
    used: &[bool],
    items: &[Item],
    decor: &[&str],
) -> Option<Expr> {
    let only_sums = items.iter().all(|i| {
        matches!(
            i,
            // (`2 kids at 309.90 each`: who the items are only names them.)
            Item::Num(_) | Item::Cue(Cue::Each | Cue::EachLead | Cue::At | Cue::Plus | Cue::People)
        )
    });
    if !only_sums || decor.iter().any(|w| asks_outside(w)) {
        return None;
    }
    let mut taken = used.to_vec();
    let mut lines = Vec::with_capacity(prices.len());
    for &(k, p) in prices {
        let &(q, n) = nums.iter().rev().find(|(q, _)| *q < k && !taken[*q])?;
        taken[q] = true;
        lines.push(Expr::bin(
            MathOp::Multiply,
            Expr::Num(n.to_owned()),
            Expr::Num(p.to_owned()),
        ));
    }
    let total = Expr::chain(MathOp::Sum, lines)?;
    nums.iter().all(|(k, _)| taken[*k]).then_some(total)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn read(src: &str) -> Option<Expr> {
        parse(&lex(src), src)
    }

    fn n(s: &str) -> Expr {
        Expr::Num(s.into())
    }

    fn bin(op: MathOp, a: Expr, b: Expr) -> Expr {
        Expr::bin(op, a, b)
    }

    #[test]
    fn units_of_time_and_people_decorate_numbers_joined_by_symbols() {
        let undecorated = |q: &str| undecorated(&lex(q)).and_then(|t| crate::arith::parse(&t));
        assert_eq!(
            undecorated("4 shifts x 12.5 hrs"),
            Some(bin(MathOp::Multiply, n("4"), n("12.5")))
        );
        assert_eq!(
            undecorated("12 / 4 people"),
            Some(bin(MathOp::Divide, n("12"), n("4")))
        );
        assert_eq!(
            undecorated("3 days + 4 days"),
            Some(bin(MathOp::Sum, n("3"), n("4")))
        );
        // Times in different units do not add up; without symbols a unit of time
        // makes a date question.
        assert_eq!(undecorated("2 hours + 30 minutes"), None);
        assert_eq!(undecorated("3 days and 4 hours"), None);
    }

    #[test]
    fn a_bill_is_split_among_the_people_in_both_languages() {
        let want = Some(bin(MathOp::Divide, n("84.6"), n("3")));
        for q in [
            "split 84.60 between 3 people",
            "84.60 split 3 ways",
            "84.60 for 3 of us, how much each",
            "chia đều 84.60 cho 3 người",
            "84.60, 3 người chia đều thì mỗi người bao nhiêu",
        ] {
            assert_eq!(read(q), want, "{q}");
        }
    }

    #[test]
    fn tips_discounts_and_raises_are_percentages_of_the_amount() {
        let share = || bin(MathOp::Percent, n("15"), n("48.6"));
        assert_eq!(read("a 15% tip on 48.60"), Some(share()));
        assert_eq!(
            read("48.60 plus a 15% tip"),
            Some(bin(MathOp::Sum, n("48.6"), share()))
        );
        assert_eq!(
            read("48.60 with 15% off"),
            Some(bin(MathOp::Subtract, n("48.6"), share()))
        );
        assert_eq!(
            read("increase 48.60 by 15%"),
            Some(bin(MathOp::Sum, n("48.6"), share()))
        );
        assert_eq!(
            read("48.60 giảm 15%"),
            Some(bin(MathOp::Subtract, n("48.6"), share()))
        );
        assert_eq!(
            read("48.60 tăng 15 phần trăm"),
            Some(bin(MathOp::Sum, n("48.6"), share()))
        );
    }

    #[test]
    fn what_percent_reads_either_order() {
        let want = Some(bin(
            MathOp::Divide,
            bin(MathOp::Multiply, n("30"), n("100")),
            n("120"),
        ));
        assert_eq!(read("30 is what percent of 120"), want);
        assert_eq!(read("what percent of 120 is 30"), want);
        assert_eq!(read("30 là bao nhiêu phần trăm của 120"), want);
    }

    #[test]
    fn dozens_prices_and_rates() {
        let dozen = || bin(MathOp::Multiply, n("7"), n("12"));
        assert_eq!(read("how many eggs in 7 dozen"), Some(dozen()));
        assert_eq!(
            read("7 dozen at 1.25 each"),
            Some(bin(MathOp::Multiply, dozen(), n("1.25")))
        );
        assert_eq!(
            read("5 tickets at 12 each"),
            Some(bin(MathOp::Multiply, n("5"), n("12")))
        );
        assert_eq!(
            read("342 miles on 9 gallons, miles per gallon"),
            Some(bin(MathOp::Divide, n("342"), n("9")))
        );
    }

    #[test]
    fn unit_words_after_numbers_are_dropped_and_operators_kept() {
        let text = |src: &str| {
            undecorated(&lex(src)).map(|t| {
                t.iter()
                    .map(|t| src[t.start..t.end].to_owned())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        };
        assert_eq!(
            text("19.99, 5.49 and 12 dollars").as_deref(),
            Some("19.99 , 5.49 and 12")
        );
        assert_eq!(text("3 apples plus 4 pears").as_deref(), Some("3 plus 4"));
        assert_eq!(text("2 plus 4"), None);
        assert_eq!(text("3 days plus 4"), None);
    }

    #[test]
    fn a_share_and_a_percentage_say_what_the_number_is() {
        assert_eq!(answer_unit("375 split 5 ways", "en"), " each");
        assert_eq!(answer_unit("chia đều 375 cho 5 người", "vi"), " mỗi người");
        assert_eq!(answer_unit("45 is what percent of 180", "en"), "%");
        assert_eq!(
            answer_unit("342 miles on 9 gallons, miles per gallon", "en"),
            ""
        );
        assert_eq!(answer_unit("10 / 4", "en"), "");
    }

    #[test]
    fn a_percent_change_between_two_amounts() {
        let rise = |a: &str, b: &str, base: &str| {
            Some(bin(
                MathOp::Divide,
                bin(
                    MathOp::Multiply,
                    bin(MathOp::Subtract, n(a), n(b)),
                    n("100"),
                ),
                n(base),
            ))
        };
        assert_eq!(
            read("the rent went from 1200 to 1500, what percent increase is that"),
            rise("1500", "1200", "1200")
        );
        assert_eq!(
            read("it fell from 40 to 30, percent change"),
            rise("30", "40", "40")
        );
        assert_eq!(
            read("from 40 down to 30 by what percent did it drop"),
            rise("40", "30", "40")
        );
        assert_eq!(
            read("lương từ 10 lên 12 là tăng bao nhiêu phần trăm"),
            rise("12", "10", "10")
        );
    }

    #[test]
    fn a_price_per_unit_meets_a_quantity_in_that_unit() {
        assert_eq!(
            read("diesel is 2.10 a liter, i need 30 litres"),
            Some(bin(MathOp::Multiply, n("30"), n("2.1")))
        );
        assert_eq!(
            read("mua 3 ký cam, mỗi ký 40000"),
            Some(bin(MathOp::Multiply, n("3"), n("40000")))
        );
        assert_eq!(
            read("dose 2 mg/kg for a 15 kg child"),
            Some(bin(MathOp::Multiply, n("15"), n("2")))
        );
        assert_eq!(
            read("parts 300 plus 4 hours at 80/hour total"),
            Some(bin(
                MathOp::Sum,
                n("300"),
                bin(MathOp::Multiply, n("4"), n("80"))
            ))
        );
        assert_eq!(
            read("2kg thịt 120000 1kg"),
            Some(bin(MathOp::Multiply, n("2"), n("120000")))
        );
        // `A/B là bao nhiêu phần trăm`: a part of a whole.
        assert_eq!(
            read("17/20 là bao nhiêu phần trăm"),
            Some(bin(
                MathOp::Divide,
                bin(MathOp::Multiply, n("17"), n("100")),
                n("20")
            ))
        );
        // A period only says how often: no price.
        assert_eq!(
            read("i make 3000 a month and 25% goes on food"),
            Some(bin(MathOp::Percent, n("25"), n("3000")))
        );
    }

    #[test]
    fn amounts_added_then_shared_taxed_or_compounded() {
        assert_eq!(
            read("3 of us paid 90 for tickets plus 30 parking, how much each"),
            Some(bin(
                MathOp::Divide,
                bin(MathOp::Sum, n("90"), n("30")),
                n("3")
            ))
        );
        assert_eq!(
            read("80 + 5% vat"),
            Some(bin(
                MathOp::Sum,
                n("80"),
                bin(MathOp::Percent, n("5"), n("80"))
            ))
        );
        assert_eq!(
            read("1000 at 5% interest compounded for 2 years"),
            Some(bin(
                MathOp::Multiply,
                n("1000"),
                bin(
                    MathOp::Power,
                    bin(MathOp::Sum, n("1"), bin(MathOp::Divide, n("5"), n("100"))),
                    n("2")
                )
            ))
        );
        assert_eq!(
            read("vay 20000000 lãi 2% một tháng"),
            Some(bin(MathOp::Percent, n("2"), n("20000000")))
        );
        // `how much each` after the amounts asks for a share, it prices nothing.
        assert_eq!(read("90 plus 30, how much each"), None);
    }

    #[test]
    fn several_items_each_priced_are_added_up() {
        assert_eq!(
            read("2 pizzas at 12 each and 3 drinks at 2.5 each, how much altogether"),
            Some(bin(
                MathOp::Sum,
                bin(MathOp::Multiply, n("2"), n("12")),
                bin(MathOp::Multiply, n("3"), n("2.5"))
            ))
        );
        assert_eq!(
            read("mua 2 ly trà 15000 một ly và 3 cái bánh 10000 một cái"),
            Some(bin(
                MathOp::Sum,
                bin(MathOp::Multiply, n("2"), n("15000")),
                bin(MathOp::Multiply, n("3"), n("10000"))
            ))
        );
        // A number neither a quantity nor a price: no reading.
        assert_eq!(
            read("2 pizzas at 12 each and 3 drinks at 2.5 each for 4 people 7"),
            None
        );
        // Amounts with `total` asked are added up.
        assert_eq!(
            read("shoes 300 and socks 20, total?"),
            Some(bin(MathOp::Sum, n("300"), n("20")))
        );
    }

    #[test]
    fn other_questions_are_left_alone() {
        for q in [
            "2 + 4",
            "15 dollars",
            "split the difference",
            "weather for 3 people",
            "3 days between 2 people",
            "10% and 20% off 50",
            "split 90",
            "90 for 3 people",
        ] {
            assert_eq!(read(q), None, "{q}");
        }
    }

    #[test]
    fn sales_levies_and_prices_per_unit_asked_in_session_30_phrasings() {
        let pct = |p: &str, of: &str| bin(MathOp::Percent, n(p), n(of));
        // A sale lowers; a sales tax is a tax.
        assert_eq!(
            read("ao khoac 450000 dang sale 20% thi con bao nhieu"),
            Some(bin(MathOp::Subtract, n("450000"), pct("20", "450000")))
        );
        assert_eq!(read("6% sales tax on 50"), Some(pct("6", "50")));
        // A levy on a salary is its share; taken off with `trừ`.
        assert_eq!(
            read("thu nhập 20000000, bảo hiểm 8% là bao nhiêu"),
            Some(pct("8", "20000000"))
        );
        assert_eq!(
            read("lương tháng 20000000 trừ 8% bảo hiểm còn bao nhiêu"),
            Some(bin(MathOp::Subtract, n("20000000"), pct("8", "20000000")))
        );
        // `mỗi <unit>` with no price after it asks the price of one.
        assert_eq!(
            read("hộp 30 viên giá 90000, mỗi viên bao nhiêu"),
            Some(bin(MathOp::Divide, n("90000"), n("30")))
        );
        // `ppl` is people (once normalised).
        let typed = crate::normalise::normalise("lunch was 90 for 4 ppl, how much each", None);
        assert_eq!(
            read(&typed.text),
            Some(bin(MathOp::Divide, n("90"), n("4")))
        );
    }

    #[test]
    fn a_term_in_months_at_a_yearly_rate_and_amounts_per_head() {
        let pct = |p: &str, of: &str| bin(MathOp::Percent, n(p), n(of));
        // Nine months at 6% a year: nine twelfths of a year's interest.
        assert_eq!(
            read("gửi 50000000 kỳ hạn 9 tháng lãi suất 6%/năm, được bao nhiêu tiền lãi"),
            Some(bin(
                MathOp::Divide,
                bin(MathOp::Multiply, pct("6", "50000000"), n("9")),
                n("12")
            ))
        );
        // Same period: as before.
        assert_eq!(
            read("interest on 5000 at 4% a year for 3 years"),
            Some(bin(MathOp::Multiply, pct("4", "5000"), n("3")))
        );
        // The people counted times what each gets.
        assert_eq!(
            read("lì xì 4 đứa, mỗi đứa 100000, hết bao nhiêu"),
            Some(bin(MathOp::Multiply, n("4"), n("100000")))
        );
        // What is left after a share, and sales taxes by their names.
        assert_eq!(
            read("salary 5000 and 20% goes to tax, what's my take home"),
            Some(bin(MathOp::Subtract, n("5000"), pct("20", "5000")))
        );
        assert_eq!(
            read("200 plus 13% hst"),
            Some(bin(MathOp::Sum, n("200"), pct("13", "200")))
        );
    }

    #[test]
    fn areas_periods_worked_doses_and_who_shares_in_session_30_phrasings() {
        let times = |a: &str, b: &str| Some(bin(MathOp::Multiply, n(a), n(b)));
        let split = |a: &str, b: &str| Some(bin(MathOp::Divide, n(a), n(b)));
        // A price per m² times an area; per day times the days worked.
        assert_eq!(
            read("sơn tường 60000/m2, tường 30 m2, hết bao nhiêu"),
            times("30", "60000")
        );
        assert_eq!(read("paint job 12 m2 @ 15/m2, total?"), times("12", "15"));
        assert_eq!(
            read("phụ hồ 300000/ngày, làm 9 ngày, trả bao nhiêu"),
            times("9", "300000")
        );
        // A dose per kg for a patient (`bệnh nhân` multiplies nothing).
        assert_eq!(
            read("bệnh nhân 50kg, liều 3mg/kg, bao nhiêu mg"),
            times("50", "3")
        );
        // Households, instalments and `each one`.
        assert_eq!(
            read("900000 chia đều 3 hộ, mỗi hộ bao nhiêu"),
            split("900000", "3")
        );
        assert_eq!(
            read("pay 2400 in 4 installments, each one?"),
            split("2400", "4")
        );
    }

    #[test]
    fn people_days_and_a_rate_each_earns_multiply() {
        let product = |a: &str, b: &str, c: &str| {
            Some(bin(
                MathOp::Multiply,
                bin(MathOp::Multiply, n(a), n(b)),
                n(c),
            ))
        };
        assert_eq!(
            read("hired 2 workers for 3 days at 150/day each, total?"),
            product("2", "3", "150")
        );
        assert_eq!(
            read("4 người làm 5 ngày, mỗi người 300000/ngày, tổng bao nhiêu"),
            product("4", "5", "300000")
        );
        // Written multiplication is arithmetic's, never a split among workers.
        assert_eq!(read("2 workers x 150/day x 3 days"), None);
    }

    #[test]
    fn what_whole_groups_leave_over_and_an_amount_over_hours_per_hour() {
        assert_eq!(
            read("50 eggs packed in boxes of 6, how many are left over"),
            Some(bin(MathOp::Modulo, n("50"), n("6")))
        );
        assert_eq!(
            read("500 mL over 4 hours, how many mL per hour"),
            Some(bin(MathOp::Divide, n("500"), n("4")))
        );
        // Over hours with no rate asked is no rate.
        assert_eq!(read("500 mL over 4 hours"), None);
    }

    #[test]
    fn what_was_paid_for_may_be_a_flight_or_a_hotel() {
        assert_eq!(
            read("train tickets came to 90 for 3 of us, how much each"),
            Some(bin(MathOp::Divide, n("90"), n("3")))
        );
        assert_eq!(
            read("the hotel is 2 nights at 120/night plus 10% tax, total?"),
            Some(bin(
                MathOp::Sum,
                bin(MathOp::Multiply, n("2"), n("120")),
                bin(
                    MathOp::Percent,
                    n("10"),
                    bin(MathOp::Multiply, n("2"), n("120"))
                )
            ))
        );
    }

    #[test]
    fn a_kilo_typed_without_marks_is_a_kilo() {
        // (`ky` is `ký` unmarked: a price per kg meets it.)
        assert_eq!(
            read("mua 3 ky thit gia 150000/kg"),
            Some(bin(MathOp::Multiply, n("3"), n("150000")))
        );
    }
}
