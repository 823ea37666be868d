//! Stage 4: numbers, money and amounts in every local spelling become plain decimals.
//!
//! - Currency signs and words around a number are dropped (`$12.50`, `12 dollars`,
//!   `450.000đ`, `3.500 đồng`, `20 bucks`, `100 vnd`) when the request names one
//!   currency; a request naming two (`convert 250 dollars to euros`) keeps them, so it
//!   is refused as a currency conversion rather than read as arithmetic.
//! - Scales after a number multiply it exactly: `375k`, `2 tr`, `2 triệu`/`trieu`,
//!   `5 nghìn`, `1 tỷ`, `2.5 million`; `2 triệu 500 nghìn` is 2500000.
//! - Separators, by language:
//!   * both: a dot or comma grouping every three digits more than once is thousands
//!     (`1.500.000`, `1,250,000`); with both marks, the last one is the decimal point
//!     (`1,250.50`, `1.250,50`);
//!   * English: `1,250` is 1250; any other comma between digits (`1,2`, `2,5`) is a list
//!     (English never writes a decimal comma), so `1,2,3` is `1, 2, 3`; a dot is a
//!     decimal point (`1.250` is 1.25);
//!   * Vietnamese: a comma is the decimal point (`7,5`, `0,1`), except before exactly
//!     three digits (`1,000`, `4,061`: many type thousands so), unless the request is
//!     about decimals (`làm tròn 7,456 đến 1 chữ số thập phân`); one dot before
//!     three digits is thousands (`450.000`, `3.500`), except after a bare `0`
//!     (`0.125`); a dot before other than three digits is a decimal point (`2.5`).
//!
//! Numbers like dates (`25.12.2026`) and anything else are left to the lexer.

mod decimal;
mod spaced;
mod walk;
mod weights;

use super::{Kind, Piece, Reading};
pub use decimal::{add, separators, separators_in, shift};
use walk::{clear, list_marker, next_number, next_word, next_word_or_sign, prev_sign, tail_digits};

/// Currencies and the signs and words that name them.
const CURRENCIES: &[(&str, &[&str])] = &[
    (
        "usd",
        &["$", "us$", "usd", "dollar", "dollars", "buck", "bucks"],
    ),
    ("eur", &["€", "eur", "euro", "euros"]),
    ("gbp", &["£", "gbp", "pound", "pounds", "quid"]),
    ("jpy", &["¥", "jpy", "yen"]),
    ("krw", &["₩", "krw", "won"]),
    ("vnd", &["₫", "đ", "vnd", "vnđ", "đồng", "dong", "đồng"]),
    // (`685 bảng`, `250 đô`: typed with marks only — `bang` is also `bằng`, `do` is
    // `độ`.)
    ("gbp", &["bảng"]),
    ("usd", &["đô"]),
    ("aud", &["aud", "a$"]),
    ("cad", &["cad", "c$"]),
    ("nzd", &["nzd", "nz$"]),
    ("sgd", &["sgd", "s$"]),
    ("twd", &["twd", "nt$"]),
    ("czk", &["kc", "kč", "czk", "koruna", "korun"]),
    ("aed", &["aed", "dhs", "dirham", "dirhams"]),
    ("cny", &["cny", "rmb", "yuan", "tệ"]),
    ("thb", &["thb", "baht", "฿"]),
    ("pln", &["pln", "zł", "zl", "zloty", "złoty", "zlotys"]),
    // (The other currencies the exchange reader knows: `1,500 aed in php if 1 aed =
    // 15.6 php` names two, and neither is dropped.)
    ("php", &["php", "peso", "pesos"]),
    // (`RM18`: Malaysians write their ringgit so, before the amount.)
    ("myr", &["myr", "ringgit", "rm"]),
    ("idr", &["idr", "rupiah"]),
    ("inr", &["inr", "rupee", "rupees"]),
    ("hkd", &["hkd", "hk$"]),
    ("chf", &["chf", "franc", "francs"]),
    ("sek", &["sek"]),
    ("nok", &["nok"]),
    ("dkk", &["dkk"]),
    (
        "rub",
        &["rub", "ruble", "rubles", "rouble", "roubles", "rúp"],
    ),
    ("sar", &["sar", "riyal"]),
    ("qar", &["qar"]),
];

/// Words after a number that scale it, and by what power of ten.
const SCALES: &[(&str, u32)] = &[
    ("k", 3),
    ("nghìn", 3),
    ("nghin", 3),
    ("ngàn", 3),
    ("ngan", 3),
    // (`3 thousand 8 hundred` is 3800.)
    ("hundred", 2),
    // (`2 tram trai dua`: two hundred coconuts.)
    ("trăm", 2),
    ("tram", 2),
    ("thousand", 3),
    // (`45 grand`)
    ("grand", 3),
    ("tr", 6),
    ("triệu", 6),
    ("trieu", 6),
    ("million", 6),
    ("millions", 6),
    ("tỷ", 9),
    ("tỉ", 9),
    ("billion", 9),
];

/// Words that make a request about decimals: a comma before three digits is then a
/// decimal comma in Vietnamese.
const DECIMAL_CUES: &[&str] = &["thập", "tròn", "round", "rounded", "decimal", "decimals"];

/// The currency `word` (lowercase sign or word) names.
fn currency(word: &str) -> Option<&'static str> {
    CURRENCIES
        .iter()
        .find(|(_, names)| names.contains(&word))
        .map(|(code, _)| *code)
}

fn scale(word: &str) -> Option<u32> {
    SCALES.iter().find(|(w, _)| *w == word).map(|(_, p)| *p)
}

/// The pieces with amounts in canonical form.
pub fn canonical(pieces: Vec<Piece>, reading: Reading) -> Vec<Piece> {
    // (`3 400 zł`, `1 250,50 zł`: thousands apart by a space where złoty are named.)
    let mut pieces = spaced::joined(pieces);
    // (`3 tấn 2 tạ`: one weight in the larger unit, `3.2 tấn`.)
    weights::joined(&mut pieces);
    // `C$2,600`, `NT$254.6`, `A$300`: the letters glued before `$` name which dollar;
    // the sign stands for it (the letters would otherwise stay glued to the number).
    // (`1 NT$ = 815 vnd`: a sign alone names the currency, and stays.)
    for k in 0..pieces.len().saturating_sub(2) {
        let dollar = pieces[k + 1].text == "$"
            && pieces[k + 1].orig.start == pieces[k].orig.end
            && pieces[k + 2].kind == Kind::Number
            && pieces[k + 2].orig.start == pieces[k + 1].orig.end;
        if dollar
            && pieces[k].kind == Kind::Word
            && matches!(
                pieces[k].lower().as_str(),
                "c" | "a" | "nt" | "s" | "hk" | "nz" | "us"
            )
        {
            pieces[k].set(String::new());
        }
    }
    // (`~380 bills`: about so much; the sign glued before the amount says nothing to
    // compute.)
    for k in 0..pieces.len().saturating_sub(1) {
        if matches!(pieces[k].text.as_str(), "~" | "≈")
            && pieces[k + 1].kind == Kind::Number
            && pieces[k + 1].orig.start == pieces[k].orig.end
        {
            pieces[k].set(String::new());
        }
    }
    let mut named: Vec<&str> = pieces
        .iter()
        .filter(|p| matches!(p.kind, Kind::Word | Kind::Other))
        .filter_map(|p| currency(&p.lower()))
        .collect();
    named.sort();
    named.dedup();
    let drop_currency = named.len() <= 1;
    // `fri 1.02m, sat 1.1m` beside `820k`: `m` after a number is a million where other
    // amounts are money and nothing is measured (`4.8m x 3.6m`, `m2`, `vải 2,5 m, giá
    // 180.000đ một mét`).
    let money = pieces.iter().enumerate().any(|(k, p)| {
        let after_number = k > 0 && pieces[k - 1].kind == Kind::Number;
        after_number && matches!(p.lower().as_str(), "k" | "tr" | "triệu" | "nghìn" | "ngàn")
            || currency(&p.lower()).is_some()
    });
    let measured = pieces.iter().enumerate().any(|(k, p)| {
        let word = p.lower();
        let squared = word == "m"
            && pieces
                .get(k + 1)
                .is_some_and(|n| n.text.starts_with(['2', '²', '3', '³']))
            || word == "m" && k > 0 && pieces[k - 1].text == "/";
        squared
            || matches!(
                word.as_str(),
                "x" | "by"
                    | "m2"
                    | "m²"
                    | "×"
                    | "metres"
                    | "meters"
                    | "cm"
                    | "mét"
                    | "met"
                    | "metre"
                    | "meter"
            )
    });
    let million_m = money && !measured;
    // `cake 4.2 mil, flowers 18.5 mil`: `mil` is a million after a decimal or said more
    // than once (a lone `1 mil 1` may be a typo of `min`).
    let mils: Vec<usize> = (0..pieces.len())
        .filter(|&k| pieces[k].lower() == "mil")
        .collect();
    // (And beside money or a percentage: `15% of 40 mil`.)
    let million_mil = mils.len() >= 2
        || !mils.is_empty() && (money || pieces.iter().any(|p| p.text == "%"))
        || mils.iter().any(|&k| {
            (0..k)
                .rev()
                .find(|&j| pieces[j].kind != Kind::Space)
                .is_some_and(|j| pieces[j].kind == Kind::Number && pieces[j].text.contains('.'))
        });
    let scale = |word: &str| match word {
        "m" if million_m => Some(6),
        "mil" if million_mil => Some(6),
        _ => scale(word),
    };
    let decimals = pieces
        .iter()
        .any(|p| p.kind == Kind::Word && DECIMAL_CUES.contains(&p.lower().as_str()));
    // The numbers a scale multiplied (`2 triệu`): no bare list item.
    let mut scaled: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        if pieces[i].kind != Kind::Number {
            i += 1;
            continue;
        }
        // (`€64,80`, `14,35 €`: cents after a comma beside the euro, as euros are
        // written, whatever the request's language.)
        let euro = |k: Option<usize>| {
            k.and_then(|k| pieces.get(k))
                .is_some_and(|p| matches!(p.lower().as_str(), "€" | "eur" | "euro" | "euros"))
        };
        let prev = (0..i).rev().find(|&k| pieces[k].kind != Kind::Space);
        let next = (i + 1..pieces.len()).find(|&k| pieces[k].kind != Kind::Space);
        let cents = pieces[i]
            .text
            .split_once(',')
            .is_some_and(|(int, frac)| frac.len() == 2 && !int.is_empty() && !frac.contains(','));
        let text = match cents && (euro(prev) || euro(next)) {
            true => pieces[i].text.replace(',', "."),
            false => pieces[i].text.clone(),
        };
        let Some(mut value) = separators_in(&text, reading, decimals) else {
            i += 1;
            continue;
        };
        if value.contains(' ') {
            pieces[i].set(value);
            i += 1;
            continue;
        }
        // `120, 135, 142, 155 triệu`: a scale after the last of a list of bare numbers
        // names the unit of them all; it stays a word (scaling the last alone would mix
        // millions with units).
        // (Past spaces and the pieces a scale took in, now empty: `3tr5, 4tr`.)
        let before = |j: usize| {
            (0..j)
                .rev()
                .find(|&k| pieces[k].kind != Kind::Space && !pieces[k].text.is_empty())
        };
        let listed = before(i).is_some_and(|b| {
            matches!(pieces[b].text.as_str(), "," | ";")
                || matches!(pieces[b].lower().as_str(), "và" | "va" | "and")
        }) && before(i).and_then(before).is_some_and(|n| {
            // (`1tr2 chia 4, 850k nhân 3`: the 4 ends a calculation, no list item.)
            let operand = before(n).is_some_and(|o| {
                matches!(
                    pieces[o].lower().as_str(),
                    "chia"
                        | "nhân"
                        | "nhan"
                        | "cộng"
                        | "cong"
                        | "trừ"
                        | "tru"
                        | "x"
                        | "*"
                        | "/"
                        | "+"
                        | "-"
                        | "by"
                        | "times"
                        | "plus"
                        | "minus"
                )
            });
            pieces[n].kind == Kind::Number && !scaled.contains(&n) && !operand
        });
        if listed {
            pieces[i].set(value);
            // (`189 kr, 215 kr or 176 kr`: a listed amount's currency goes too.)
            if drop_currency {
                currency_after(&mut pieces, i);
            }
            i += 1;
            continue;
        }
        let mut last = i;
        // A scale after the number, and more `number scale` pairs with smaller scales
        // (`2 triệu 500 nghìn`), summed.
        let (mut total, mut current, mut above) = (None::<String>, value.clone(), u32::MAX);
        while let Some(s) = next_word(&pieces, last) {
            let word = pieces[s].lower();
            // (`1500 tỷ giá 25.380`: `tỷ giá` is an exchange rate, no billion.)
            let rate = matches!(word.as_str(), "tỷ" | "tỉ" | "ty" | "ti")
                && next_word(&pieces, s)
                    .is_some_and(|g| matches!(pieces[g].lower().as_str(), "giá" | "gia"));
            // (`2 tram trai`: two hundred; `3 trăm 5`, `2 trăm nghìn`, `1 trăm 20 nghìn` are
            // read as they were: a number or a scale after `trăm` goes on from it.)
            let hundreds = matches!(word.as_str(), "trăm" | "tram");
            // (`phi cau duong 3 tram: 35k, …`: three toll stations, `trạm` — only a word
            // counted after it makes hundreds.)
            let goes_on = hundreds
                && (next_number(&pieces, s).is_some()
                    || next_word(&pieces, s).is_none_or(|g| {
                        let after = pieces[g].lower();
                        scale(&after).is_some()
                            || matches!(after.as_str(), "rưỡi" | "ruoi" | "k" | "lẻ" | "linh")
                    }));
            let Some(power) = scale(&word).filter(|p| *p < above && !rate && !goes_on) else {
                break;
            };
            // `1tr2`, `2 triệu 4`, `10 tr 25`: the digits after a Vietnamese scale go on
            // below it (2.4 million, 10.25 million), where nothing counted follows them.
            // (`tr` is Vietnamese whatever the other words: `3tr5` is 3.5 million.)
            let vietnamese_scale = matches!(word.as_str(), "tr" | "triệu" | "trieu");
            let tail = ((reading == Reading::Vietnamese || vietnamese_scale) && power >= 3)
                .then(|| tail_digits(&pieces, s))
                .flatten();
            // `tr` or `k` before another number is otherwise no scale (`10 tr 2 người`).
            // (`45k 1kg`: a number with its unit after it leaves `k` a scale.)
            if tail.is_none()
                && matches!(word.as_str(), "tr" | "k")
                && next_number(&pieces, s)
                    .is_some_and(|n| next_word(&pieces, n).is_none() && !list_marker(&pieces, n))
            {
                break;
            }
            let scaled = shift(&current, power);
            total = Some(total.map_or(scaled.clone(), |t| add(&t, &scaled)));
            above = power;
            clear(&mut pieces, last + 1..=s);
            last = s;
            if let Some((n, digits)) = tail {
                let below = shift(&digits, power - digits.len() as u32);
                total = total.map(|t| add(&t, &below));
                clear(&mut pieces, last + 1..=n);
                last = n;
                break;
            }
            // `2 triệu rưỡi`: and a half.
            if let Some(h) = next_word(&pieces, last)
                .filter(|&h| matches!(pieces[h].lower().as_str(), "rưỡi" | "ruoi"))
            {
                let half = shift("5", power - 1);
                total = total.map(|t| add(&t, &half));
                clear(&mut pieces, last + 1..=h);
                last = h;
                break;
            }
            let Some(n) = next_number(&pieces, last) else {
                break;
            };
            let smaller = next_word(&pieces, n)
                .and_then(|w| scale(&pieces[w].lower()))
                .is_some_and(|q| q < above);
            match separators_in(&pieces[n].text, reading, decimals) {
                Some(v) if smaller && !v.contains(' ') => {
                    clear(&mut pieces, last + 1..=n);
                    last = n;
                    current = v;
                }
                _ => break,
            }
        }
        if let Some(t) = total {
            value = t;
            scaled.push(i);
        }
        pieces[i].set(value.clone());
        if drop_currency {
            currency_after(&mut pieces, last);
            // (`đồng`, `dong`, `won` never come before their amount: `đóng 4 đợt` typed
            // without marks is no `4 đồng`, `we won 3` no 3 won.)
            if let Some(s) = prev_sign(&pieces, i).filter(|&s| {
                let word = pieces[s].lower();
                currency(&word).is_some() && !matches!(word.as_str(), "dong" | "đồng" | "won")
            }) {
                clear(&mut pieces, s..=i - 1);
            }
        }
        i = last + 1;
    }
    and_a_half(&mut pieces);
    pieces
}

/// Clears the currency right after the amount ending at piece `last` (`4,950 kr`), but
/// not a sign right before the next number (`¥64,000 ¥71,500`), which is that number's.
fn currency_after(pieces: &mut [Piece], last: usize) {
    let next_number = |s: usize| pieces.get(s + 1).is_some_and(|p| p.kind == Kind::Number);
    if let Some(s) = next_word_or_sign(pieces, last)
        .filter(|&s| currency(&pieces[s].lower()).is_some() && !next_number(s))
    {
        clear(pieces, last + 1..=s);
    }
}

/// `3 ký rưỡi`, `4 lit ruoi`, `2 tiếng rưỡi`: a whole number, its unit, then `rưỡi`
/// (and a half) is the number and a half of that unit (`3.5 ký`).
fn and_a_half(pieces: &mut [Piece]) {
    for i in 0..pieces.len() {
        let whole = pieces[i].kind == Kind::Number
            && !pieces[i].text.is_empty()
            && pieces[i].text.chars().all(|c| c.is_ascii_digit());
        if !whole {
            continue;
        }
        let Some(unit) = next_word(pieces, i) else {
            continue;
        };
        if scale(&pieces[unit].lower()).is_some() {
            continue;
        }
        if let Some(h) = next_word(pieces, unit)
            .filter(|&h| matches!(pieces[h].lower().as_str(), "rưỡi" | "ruoi"))
        {
            let half = format!("{}.5", pieces[i].text);
            pieces[i].set(half);
            clear(pieces, unit + 1..=h);
        }
    }
}

#[cfg(test)]
mod tests;
