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

use super::{Kind, Piece, Reading};

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
pub fn canonical(mut pieces: Vec<Piece>, reading: Reading) -> Vec<Piece> {
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
            let Some(power) = scale(&word).filter(|p| *p < above && !rate) else {
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
            // (`¥64,000 ¥71,500`: a sign right before the next number is that number's.)
            let next_number = |s: usize| pieces.get(s + 1).is_some_and(|p| p.kind == Kind::Number);
            if let Some(s) = next_word_or_sign(&pieces, last)
                .filter(|&s| currency(&pieces[s].lower()).is_some() && !next_number(s))
            {
                clear(&mut pieces, last + 1..=s);
            }
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

/// Words that may follow the digits after a scale (`2 triệu 4 chia 3`): they count
/// nothing, so the digits go on below the scale.
const AFTER_TAIL: &[&str] = &[
    "chia", "cộng", "nhân", "trừ", "là", "thì", "và", "cho", "giảm", "tăng", "boa", "tip", "hết",
    "bao", "mấy", "cong", "nhan", "tru", "la", "thi", "va", "giam", "tang", "het",
];

/// Whether the number at `n` numbers an item of a numbered list (`1. 8 x 35k 2. cộng
/// 50k tiền cơm`): a `.` or `)` after it, in a request that numbers its first item `1`.
fn list_marker(pieces: &[Piece], n: usize) -> bool {
    let marker = |k: usize| {
        pieces
            .get(k + 1)
            .is_some_and(|p| matches!(p.text.as_str(), "." | ")"))
    };
    marker(n) && (0..n).any(|k| pieces[k].text == "1" && marker(k))
}

/// The number right after the scale at `s` and its digits, when it is one to three
/// digits that nothing counted follows (the end, a sign, or an operation word).
fn tail_digits(pieces: &[Piece], s: usize) -> Option<(usize, String)> {
    let n = next_number(pieces, s)?;
    let digits = pieces[n].text.clone();
    if digits.is_empty() || digits.len() > 3 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // `6tr2 một tháng`: digits glued to the scale go on below it, whatever follows.
    if n == s + 1 {
        return Some((n, digits));
    }
    if list_marker(pieces, n) {
        return None;
    }
    let after = skip_space(pieces, n + 1).map(|j| &pieces[j]);
    let free = match after {
        None => true,
        Some(p) if p.kind == Kind::Other => true,
        // (`385k 1 bao`: a bag, where `2 triệu 4 bao nhiêu` asks.)
        Some(p) if p.kind == Kind::Word && matches!(p.lower().as_str(), "bao") => {
            next_word(pieces, skip_space(pieces, n + 1).unwrap_or(n))
                .is_some_and(|w| matches!(pieces[w].lower().as_str(), "nhiêu" | "nhieu"))
        }
        Some(p) if p.kind == Kind::Word => AFTER_TAIL.contains(&p.lower().as_str()),
        Some(_) => false,
    };
    free.then_some((n, digits))
}

fn clear(pieces: &mut [Piece], range: std::ops::RangeInclusive<usize>) {
    for p in &mut pieces[range] {
        p.set(String::new());
    }
}

/// The first word after piece `i`, past at most one space.
fn next_word(pieces: &[Piece], i: usize) -> Option<usize> {
    let j = skip_space(pieces, i + 1)?;
    (pieces[j].kind == Kind::Word).then_some(j)
}

/// The first word or sign after piece `i`, past at most one space.
fn next_word_or_sign(pieces: &[Piece], i: usize) -> Option<usize> {
    let j = skip_space(pieces, i + 1)?;
    matches!(pieces[j].kind, Kind::Word | Kind::Other).then_some(j)
}

/// The first number after piece `i`, past at most one space.
fn next_number(pieces: &[Piece], i: usize) -> Option<usize> {
    let j = skip_space(pieces, i + 1)?;
    (pieces[j].kind == Kind::Number).then_some(j)
}

/// The sign or word just before piece `i` (past at most one space).
fn prev_sign(pieces: &[Piece], i: usize) -> Option<usize> {
    let j = i.checked_sub(1)?;
    let j = match pieces[j].kind {
        Kind::Space => j.checked_sub(1)?,
        _ => j,
    };
    matches!(pieces[j].kind, Kind::Other | Kind::Word).then_some(j)
}

fn skip_space(pieces: &[Piece], j: usize) -> Option<usize> {
    let p = pieces.get(j)?;
    match p.kind {
        Kind::Space if p.text == " " || p.text.is_empty() => pieces.get(j + 1).map(|_| j + 1),
        _ => Some(j),
    }
}

/// The canonical text of a number typed with separators (`1.500.000` → `1500000`,
/// `7,5` → `7.5` in Vietnamese, `1,2,3` → `1, 2, 3` in English); `None` to leave it.
pub fn separators(text: &str, reading: Reading) -> Option<String> {
    separators_in(text, reading, false)
}

/// [`separators`], in a request about decimals (`decimals`: rounding, `thập phân`).
pub fn separators_in(text: &str, reading: Reading, decimals: bool) -> Option<String> {
    let dots = text.matches('.').count();
    let commas = text.matches(',').count();
    let groups_of_three = |sep: char| {
        let mut parts = text.split(sep);
        let first = parts.next().unwrap_or("");
        (1..=3).contains(&first.len()) && parts.all(|p| p.len() == 3)
    };
    match (dots, commas) {
        (0, 0) => Some(text.to_owned()),
        (_, 0) if dots >= 2 => groups_of_three('.').then(|| text.replace('.', "")),
        (0, _) if commas >= 2 => Some(if groups_of_three(',') {
            text.replace(',', "")
        } else {
            text.replace(',', ", ")
        }),
        (1, 0) => {
            let (int, frac) = text.split_once('.')?;
            let thousands = reading == Reading::Vietnamese && frac.len() == 3 && int != "0";
            Some(if thousands && int.len() <= 3 {
                format!("{int}{frac}")
            } else {
                text.to_owned()
            })
        }
        (0, 1) => {
            let (int, frac) = text.split_once(',')?;
            let grouped = frac.len() == 3 && (1..=3).contains(&int.len()) && int != "0";
            Some(match reading {
                Reading::Vietnamese if grouped && !decimals => format!("{int}{frac}"),
                Reading::Vietnamese => format!("{int}.{frac}"),
                Reading::English if frac.len() == 3 && int.len() <= 3 => format!("{int}{frac}"),
                Reading::English => format!("{int}, {frac}"),
            })
        }
        _ => {
            // Both marks: the last one is the decimal point, the other groups thousands.
            let last = text.rfind(['.', ','])?;
            let (decimal, group) = match &text[last..last + 1] {
                "." => ('.', ','),
                _ => (',', '.'),
            };
            let (int, frac) = (&text[..last], &text[last + 1..]);
            let ok = !int.contains(decimal) && {
                let mut parts = int.split(group);
                let first = parts.next().unwrap_or("");
                (1..=3).contains(&first.len()) && parts.all(|p| p.len() == 3)
            };
            ok.then(|| format!("{}.{frac}", int.replace(group, "")))
        }
    }
}

/// `value` (a plain decimal) times 10^`power`, exactly.
pub fn shift(value: &str, power: u32) -> String {
    let (int, frac) = value.split_once('.').unwrap_or((value, ""));
    let mut digits = format!("{int}{frac}");
    let point = int.len() + power as usize;
    while digits.len() < point {
        digits.push('0');
    }
    let (i, f) = digits.split_at(point);
    crate::lexer::normalise(i, f)
}

/// The sum of two plain non-negative decimals, exactly.
pub fn add(a: &str, b: &str) -> String {
    let (ai, af) = a.split_once('.').unwrap_or((a, ""));
    let (bi, bf) = b.split_once('.').unwrap_or((b, ""));
    let fl = af.len().max(bf.len());
    let il = ai.len().max(bi.len());
    let pad = |i: &str, f: &str| format!("{i:0>il$}{f:0<fl$}");
    let (x, y) = (pad(ai, af), pad(bi, bf));
    let mut out = Vec::new();
    let mut carry = 0;
    for (p, q) in x.bytes().rev().zip(y.bytes().rev()) {
        let s = (p - b'0') + (q - b'0') + carry;
        out.push(b'0' + s % 10);
        carry = s / 10;
    }
    if carry > 0 {
        out.push(b'0' + carry);
    }
    out.reverse();
    let digits = String::from_utf8(out).unwrap_or_default();
    let (i, f) = digits.split_at(digits.len() - fl);
    crate::lexer::normalise(i, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalise::unicode::pieces;

    fn canon(s: &str, r: Reading) -> String {
        canonical(pieces(s), r)
            .iter()
            .map(|p| p.text.as_str())
            .collect()
    }

    #[test]
    fn money_signs_and_words_are_dropped() {
        assert_eq!(
            canon("split $84.60 between 3", Reading::English),
            "split 84.60 between 3"
        );
        assert_eq!(canon("12 dollars", Reading::English), "12");
        assert_eq!(canon("450.000đ", Reading::Vietnamese), "450000");
        assert_eq!(canon("3.500 đồng", Reading::Vietnamese), "3500");
        // (A sign glued to the next amount is that amount's: the two stay apart.)
        assert_eq!(
            canon("¥64,000 ¥71,500 ¥58,800", Reading::English),
            "64000 71500 58800"
        );
    }

    #[test]
    fn two_currencies_are_kept_for_the_refusal() {
        assert_eq!(
            canon("convert 250 dollars to euros", Reading::English),
            "convert 250 dollars to euros"
        );
    }

    #[test]
    fn scales_multiply_exactly() {
        assert_eq!(
            canon("375k split 5 ways", Reading::English),
            "375000 split 5 ways"
        );
        assert_eq!(canon("2 trieu", Reading::Vietnamese), "2000000");
        assert_eq!(canon("2.5 million", Reading::English), "2500000");
        assert_eq!(canon("1,5 tr", Reading::Vietnamese), "1500000");
        assert_eq!(canon("10 tr 2", Reading::Vietnamese), "10200000");
        assert_eq!(
            canon("1tr2, tip 10%", Reading::Vietnamese),
            "1200000, tip 10%"
        );
        assert_eq!(
            canon("2 triệu 4 chia 3", Reading::Vietnamese),
            "2400000 chia 3"
        );
        assert_eq!(canon("2 trieu ruoi", Reading::Vietnamese), "2500000");
        assert_eq!(canon("3 nghìn rưỡi", Reading::Vietnamese), "3500");
        // `dong` before a number is the verb `đóng`, no currency.
        assert_eq!(
            canon("mỗi đợt 3tr150, dong 4 đợt", Reading::Vietnamese),
            "mỗi đợt 3150000, dong 4 đợt"
        );
        // `m` after a number is a million among money, a metre among measures.
        assert_eq!(
            canon("mon 820k, fri 1.02m", Reading::English),
            "mon 820000, fri 1020000"
        );
        assert_eq!(canon("4.8m x 3.6m", Reading::English), "4.8m x 3.6m");
        assert_eq!(
            canon("cake 4.2 mil, mc 6 mil", Reading::English),
            "cake 4200000, mc 6000000"
        );
        assert_eq!(
            canon("what is 1 mil 1", Reading::English),
            "what is 1 mil 1"
        );
        assert_eq!(
            canon("18.5 m2 of tile @ $42.80/m2", Reading::English),
            "18.5 m2 of tile @ 42.80/m2"
        );
        // A unit and a half.
        assert_eq!(canon("lấy 3 ký rưỡi", Reading::Vietnamese), "lấy 3.5 ký");
        assert_eq!(canon("do 4 lit ruoi", Reading::Vietnamese), "do 4.5 lit");
        assert_eq!(canon("45k 1kg", Reading::Vietnamese), "45000 1kg");
        assert_eq!(
            canon("2 triệu 4 người", Reading::Vietnamese),
            "2000000 4 người"
        );
    }

    #[test]
    fn separators_follow_the_language() {
        assert_eq!(canon("1.500.000", Reading::Vietnamese), "1500000");
        assert_eq!(canon("1.500.000", Reading::English), "1500000");
        assert_eq!(canon("7,5", Reading::Vietnamese), "7.5");
        assert_eq!(canon("7,456", Reading::Vietnamese), "7456");
        assert_eq!(
            canon("làm tròn 7,456", Reading::Vietnamese),
            "làm tròn 7.456"
        );
        assert_eq!(canon("1,000", Reading::Vietnamese), "1000");
        assert_eq!(canon("1,250", Reading::English), "1250");
        assert_eq!(canon("1,2,3", Reading::English), "1, 2, 3");
        assert_eq!(canon("2,5", Reading::English), "2, 5");
        assert_eq!(canon("1,250.50", Reading::English), "1250.50");
        assert_eq!(canon("1.250,5", Reading::Vietnamese), "1250.5");
        assert_eq!(canon("0.125", Reading::Vietnamese), "0.125");
        assert_eq!(canon("25.12.2026", Reading::Vietnamese), "25.12.2026");
    }

    #[test]
    fn exact_decimal_arithmetic() {
        assert_eq!(shift("1.25", 3), "1250");
        assert_eq!(shift("0.0005", 3), "0.5");
        assert_eq!(add("2000000", "500000"), "2500000");
        assert_eq!(add("0.5", "0.75"), "1.25");
    }
}
