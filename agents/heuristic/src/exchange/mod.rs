//! An amount converted at a rate the message states, read over the whole request:
//! `if 1 aud = 17,150 vnd how much is $250 in dong` is 250 × 17150; `đổi 1.500 đô sang
//! tiền Việt, tỷ giá 25.420` 1500 × 25420; `hd 980 eur ti gia 27.500 ra bn vnd`.
//!
//! Any unit converted at a factor the message states reads alike: `35 km to miles if 1
//! km = 0.621 miles` is 35 × 0.621.
//!
//! Without a rate in the message a conversion is outside every tool (there is no rate
//! service): it is refused or asked about elsewhere, never guessed.

mod fee;
pub use fee::fee_apart;

use crate::expr::{Expr, MathOp};
use crate::lexer::{Token, words_at};

/// Words naming the rate before it: (phrase).
const RATE: &[&[&str]] = &[
    &["tỷ", "giá"],
    &["tỉ", "giá"],
    &["exchange", "rate"],
    &["rate"],
    &["at"],
];

/// Words between the rate's name and the rate (`rate is 25,400`, `tỷ giá là 25.420`,
/// the bank's buying or selling rate: `tỷ giá mua 29.415`, `tỷ giá bán 25.450`).
const BETWEEN: &[&str] = &[
    "is", "of", "là", "=", ":", "mua", "bán", "buy", "sell", "buying", "selling",
];

/// Currency words: a conversion names one (`đô`, `tệ`, `yên` are left out: their
/// folded spellings are common words, and the fold lexicon learns every word here).
const CURRENCIES: &[&str] = &[
    "vnd", "đồng", "dong", "usd", "dollar", "dollars", "eur", "euro", "euros", "aud", "cad", "sgd",
    "jpy", "yen", "krw", "gbp", "pound", "pounds", "việt", "won", "yuan", "rmb", "cny", "aed",
    "dirham", "dirhams", "baht", "thb", "ringgit", "myr", "peso", "pesos", "rupee", "rupees",
    "inr", "nzd", "hkd", "twd", "ntd", "chf", "franc", "francs", "krone", "kroner", "dkk", "sek",
    "nok", "php", "idr", "rupiah", "riyal", "sar", "qar", "czk", "kc", "kč", "koruna", "korun",
    "rúp", "ruble", "rubles", "rouble", "roubles", "rub", "pln", "zł", "zl", "zloty", "złoty",
    "zlotys",
];

/// Currency words matched without marks, and only where a currency is looked for
/// (after an amount or a rate, after `bao nhiêu`): `đô`, `kr`.
const FOLDED_CURRENCIES: &[&str] = &["do", "usd", "euro", "eur", "kr", "ndt"];

/// Currency words that are common words without their marks (`tệ` is also "bad", `yên`
/// "calm", and `bảng` typed `bang` is read `bằng`, "equals"): a currency as spelt here,
/// or without marks only in a request that names an exchange rate.
const MARKED_CURRENCIES: &[(&str, &str)] = &[("tệ", "te"), ("yên", "yen"), ("bảng", "bang")];

/// The home currency's words, folded (`vnd`, `đồng`, `tiền việt`): a conversion into
/// another currency divides an amount in them by the rate. Złoty are quoted the same way
/// where they are spent (`500 zl in euro if the rate is 4,31`: 4.31 złoty a euro).
const HOME: &[&str] = &[
    "vnd", "vnđ", "dong", "viet", "đ", "zl", "pln", "zloty", "zlotys",
];

/// The converted amount `toks` ask, if a conversion at a stated rate is what they ask.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    let nums = crate::lexer::number_positions(toks);
    let one_equals = one_equals(toks, &nums);
    // (`tỷ giá` names an exchange rate by itself: `Khách bán 800 EUR, tỷ giá mua 29.415`
    // keeps no currency word once the normaliser drops the one named.)
    let exchange_rate = (0..toks.len()).any(|i| RATE[..3].iter().any(|p| words_at(toks, i, p)));
    if crate::lexer::has_percent_or_date(toks)
        || one_equals.is_none()
            && !exchange_rate
            && !(0..toks.len()).any(|k| {
                toks[k].word().is_some_and(|w| CURRENCIES.contains(&w))
                    || k > 0 && toks[k - 1].number().is_some() && currency_at(toks, k)
            })
    {
        return None;
    }
    // `convert 100 usd to vnd 25400`: the rate answered to the question below, after
    // the currency asked.
    let answered = into_currency(toks)
        .map(|c| c + 1)
        .filter(|&k| toks.get(k).is_some_and(|t| t.number().is_some()));
    // (`the rate is 25,000 vnd to 1 usd`: the rate before one unit of the other.)
    let reverse = nums.iter().copied().find(|&r| one_after(toks, r).is_some());
    let rate = match one_equals {
        Some(k) => nums.iter().copied().find(|&r| r > k + 2)?,
        None if reverse.is_some() => reverse?,
        None if answered.is_some() && stated_rate(toks).is_none() => answered?,
        None => stated_rate(toks)?,
    };
    let amounts: Vec<usize> = nums
        .iter()
        .copied()
        .filter(|&k| k != rate && Some(k) != one_equals && Some(k) != one_after(toks, rate))
        .collect();
    let [amount] = amounts.as_slice() else {
        return None;
    };
    // Which way: an amount in the unit the rate is quoted in (`1 eur = 29,500 vnd`, a
    // room of 1,180,000 vnd), or the home currency into another asked (`bao nhiêu
    // đô`, `in usd`), is divided by the rate; anything else multiplied.
    let folded = |k: usize| word_at(toks, k).map(crate::normalise::fold::fold);
    let quote = folded(rate + 1);
    let base = one_equals.and_then(|k| folded(k + 1));
    let unit = folded(*amount + 1);
    let target =
        asked_currency(toks).map(|k| crate::normalise::fold::fold(toks[k].word().unwrap_or("")));
    let home = |w: &Option<String>| w.as_deref().is_some_and(|w| HOME.contains(&w));
    // A rate said per one of a currency (`17,120 vnd to the dollar`, `16,950 vnd per
    // aud`): an amount in that currency, or the rate's own currency asked, is
    // multiplied; an amount in the rate's currency, or that currency asked, divided.
    let per_one = one_equals
        .is_none()
        .then(|| per_currency(toks, rate))
        .flatten()
        .zip(quote.as_deref())
        .and_then(|(per, quoted)| {
            let asked = asking_currency(toks, true)
                .or_else(|| into_currency(toks))
                .map(|k| fold_currency(toks, k));
            let by_unit = match unit.as_deref() {
                Some(u) if same_currency(u, &per) => Some(false),
                Some(u) if same_currency(u, quoted) => Some(true),
                _ => None,
            };
            let by_asked = match asked.as_deref() {
                Some(a) if same_currency(a, quoted) => Some(false),
                Some(a) if same_currency(a, &per) => Some(true),
                _ => None,
            };
            by_unit.or(by_asked)
        });
    // The amount's own currency, when said: its word, the word before `to` (`usd to
    // ntd`), or a sign before it (`$84.60`).
    let source = if currency_at(toks, *amount + 1) {
        Some(home(&unit))
    } else if let Some(k) = into_currency(toks).filter(|&k| k >= 2 && currency_at(toks, k - 2)) {
        Some(home(&Some(fold_currency(toks, k - 2))))
    } else {
        (*amount > 0 && toks[*amount - 1].is_sym('$')).then_some(false)
    };
    let divide = per_one.unwrap_or_else(|| match (&target, one_equals.is_some()) {
        (Some(t), true) => base.as_deref() == Some(t.as_str()) || unit.is_some() && unit == quote,
        // Into another currency: from the home currency, divided by its rate (a rate is
        // said in đồng); from a foreign one, multiplied (`usd to ntd: $84.60 at 32.5`);
        // from one not said (the normaliser drops a currency word after an amount), by
        // the rate's size: thousands are đồng (`convert 120 euros to kroner at 7.46`).
        (Some(_), false) => {
            !home(&target)
                && match source {
                    Some(from_home) => from_home,
                    None => toks[rate]
                        .number()
                        .and_then(|n| n.parse::<f64>().ok())
                        .is_some_and(|r| r >= 1000.0),
                }
        }
        (None, true) => unit.is_some() && unit == quote,
        (None, false) => home(&unit),
    });
    let op = if divide {
        MathOp::Divide
    } else {
        MathOp::Multiply
    };
    Some(Expr::bin(
        op,
        Expr::Num(toks[*amount].number()?.to_owned()),
        Expr::Num(toks[rate].number()?.to_owned()),
    ))
}

/// `1 aud = 17150 vnd`, `1 km = 0.621 miles`: where the `1` of one unit of anything
/// stands, before the rate.
fn one_equals(toks: &[Token], nums: &[usize]) -> Option<usize> {
    nums.iter().copied().find(|&k| {
        toks[k].number() == Some("1")
            && toks.get(k + 1).and_then(Token::word).is_some()
            && toks.get(k + 2).is_some_and(|t| {
                t.is_sym('=')
                    || t.word().is_some_and(|w| {
                        matches!(w, "is" | "là" | "equals") && currency_at(toks, k + 1)
                    })
            })
    })
}

/// Where the rate `toks` state stands (`1 eur = 163.2`, `tỷ giá 29.415`, `at 25,400`),
/// and where the `1` of `1 X =` does, if any.
pub fn rate_position(toks: &[Token]) -> Option<(usize, Option<usize>)> {
    let nums = crate::lexer::number_positions(toks);
    match one_equals(toks, &nums) {
        Some(k) => Some((nums.iter().copied().find(|&r| r > k + 2)?, Some(k))),
        None => Some((stated_rate(toks)?, None)),
    }
}

/// The currency a rate at `rate` is quoted per (`17120 vnd to the dollar`, `16950 per
/// aud`, `25k một đô`), folded.
fn per_currency(toks: &[Token], rate: usize) -> Option<String> {
    // (`33.150 đồng 1 bảng`: the `1` of one unit ties it too.)
    let tie = (rate + 1..=rate + 2).find(|&k| {
        word_at(toks, k).is_some_and(|w| matches!(w, "to" | "per" | "a" | "một" | "mỗi"))
            || toks.get(k).is_some_and(|t| t.is_sym('/'))
            || toks.get(k).and_then(Token::number) == Some("1")
                && (k == rate + 1 || currency_at(toks, rate + 1))
    })?;
    let at = if word_at(toks, tie + 1) == Some("the") {
        tie + 2
    } else {
        tie + 1
    };
    currency_at(toks, at).then(|| fold_currency(toks, at))
}

/// Whether any word of `toks` names a currency (`yen`, `kr`, `đô`).
pub(crate) fn names_currency(toks: &[Token]) -> bool {
    (0..toks.len()).any(|k| currency_at(toks, k))
}

/// Whether the word at `k` names a currency (`đô` typed `do` too).
fn currency_at(toks: &[Token], k: usize) -> bool {
    word_at(toks, k).is_some_and(|w| {
        let f = crate::normalise::fold::fold(w);
        CURRENCIES.contains(&w)
            || FOLDED_CURRENCIES.contains(&f.as_str())
            || MARKED_CURRENCIES
                .iter()
                .any(|(marked, folded)| w == *marked || f == *folded && names_exchange_rate(toks))
    })
}

/// Whether `toks` name an exchange rate (`tỷ giá`, `exchange rate`, `rate`).
fn names_exchange_rate(toks: &[Token]) -> bool {
    (0..toks.len()).any(|i| RATE[..4].iter().any(|p| words_at(toks, i, p)))
}

/// Where the currency asked after `bao nhiêu`/`how many` stands (`bao nhiêu đô`, `how
/// many dong`), or after `how much` too with `much` (`how much aud is that`).
fn asking_currency(toks: &[Token], much: bool) -> Option<usize> {
    (0..toks.len()).find_map(|i| {
        let asked = words_at(toks, i, &["bao", "nhiêu"])
            || words_at(toks, i, &["how", "many"])
            || much && words_at(toks, i, &["how", "much"]);
        (asked && currency_at(toks, i + 2)).then_some(i + 2)
    })
}

/// The currency word at `k`, folded and in one spelling: every word of the home
/// currency is `vnd`, a plural is its singular.
fn fold_currency(toks: &[Token], k: usize) -> String {
    let f = crate::normalise::fold::fold(word_at(toks, k).unwrap_or(""));
    let f = f.strip_suffix('s').map(str::to_owned).unwrap_or(f);
    if HOME.contains(&f.as_str()) || f == "vnd" || f == "d" {
        "vnd".to_owned()
    } else {
        f
    }
}

/// Whether two folded currency words name the same currency (any dollar is a dollar:
/// `A$300 … to the dollar`).
fn same_currency(a: &str, b: &str) -> bool {
    let dollar = |c: &str| matches!(c, "dollar" | "usd" | "aud" | "cad" | "sgd" | "do");
    let a = if a == "dong" { "vnd" } else { a };
    let b = if b == "dong" { "vnd" } else { b };
    a == b || dollar(a) && dollar(b)
}

/// The word at `k`, lowercase.
fn word_at(toks: &[Token], k: usize) -> Option<&str> {
    toks.get(k).and_then(Token::word)
}

/// `25,000 vnd to 1 usd`: the index of the `1` after a rate and its unit.
fn one_after(toks: &[Token], rate: usize) -> Option<usize> {
    let k = rate + 3;
    let tied = toks.get(k).and_then(Token::number) == Some("1")
        && matches!(
            word_at(toks, rate + 2),
            Some("to" | "per" | "for" | "=" | "một" | "cho")
        );
    // `33.150 đồng 1 bảng` (the home currency's word is dropped by the normaliser,
    // `33150 1 bảng`): the rate, then one of the other currency.
    let one =
        |at: usize| toks.get(at).and_then(Token::number) == Some("1") && currency_at(toks, at + 1);
    if tied {
        Some(k)
    } else if one(rate + 1) {
        Some(rate + 1)
    } else {
        (currency_at(toks, rate + 1) && one(rate + 2)).then_some(rate + 2)
    }
}

/// Where the currency asked stands: after a word of converting, or after `bao
/// nhiêu`/`how many` (`bao nhiêu đô`, `how many euros`).
fn asked_currency(toks: &[Token]) -> Option<usize> {
    into_currency(toks).or_else(|| asking_currency(toks, false))
}

/// Words before the currency a conversion asks.
/// (Laid out by hand: the vocabulary is learnt line by line, and `sang`, `ra` are
/// Vietnamese only beside a word with its marks.)
#[rustfmt::skip]
const CONVERT: &[&str] = &[
    "in", "into", "to",
    "sang", "ra", "đổi",
];

/// Where the currency asked stands: the first currency word within three words after a
/// word of converting (`to VND`, `sang tiền Việt`).
fn into_currency(toks: &[Token]) -> Option<usize> {
    // (`Đổi 1.250 USD, tỷ giá 25.380 đồng, ra bao nhiêu tiền Việt`: a currency right
    // after a number is that amount's, not the one asked.)
    let currency = |k: &usize| {
        toks.get(*k)
            .and_then(Token::word)
            .is_some_and(currency_asked)
            && !(*k > 0 && toks[k - 1].number().is_some())
    };
    (0..toks.len()).find_map(|i| {
        toks[i].word().filter(|w| CONVERT.contains(w))?;
        (i + 1..(i + 4).min(toks.len())).find(currency)
    })
}

/// Whether `word` names the currency a conversion asks: a currency word, one typed
/// without its marks (`tien viet`), or one that is a common word without them, typed
/// with them (`ra tệ`).
fn currency_asked(word: &str) -> bool {
    let folded = crate::normalise::fold::fold(word);
    CURRENCIES.contains(&word)
        || CURRENCIES
            .iter()
            .any(|c| !c.is_ascii() && crate::normalise::fold::fold(c) == folded)
        || MARKED_CURRENCIES.iter().any(|(marked, _)| *marked == word)
}

/// Where the currency asked ends in `src` (`toks` lexed from it) when `toks` ask one
/// amount converted with no rate said — the rate is then asked, and its answer put
/// right after: `convert 1,850 USD to VND` + ` 25350`.
pub fn rate_asked_after(toks: &[Token]) -> Option<usize> {
    asks_rate(toks)
        .then(|| into_currency(toks))
        .flatten()
        .map(|k| toks[k].end)
}

/// Whether `toks` ask one amount converted into another currency with no rate said:
/// the rate is then asked (there is no rate service), never guessed.
///
/// The amount stands beside its currency (`1,850 USD`), a currency follows a word of
/// converting (`to VND`, `sang tiền Việt`), and no live rate is asked (`at today's
/// rate` is refused: there is no rate service).
pub fn asks_rate(toks: &[Token]) -> bool {
    let currency = |k: usize| {
        toks.get(k)
            .and_then(Token::word)
            .is_some_and(|w| CURRENCIES.contains(&w))
    };
    let nums = crate::lexer::number_positions(toks);
    let [amount] = nums.as_slice() else {
        return false;
    };
    // (Normalisation drops a currency after its amount: `500 euro` reads `500`; a verb
    // of converting says it then.)
    let priced = currency(amount + 1)
        || amount.checked_sub(1).is_some_and(currency)
        || (0..toks.len()).any(|i| {
            toks[i].word().is_some_and(|w| {
                matches!(w, "convert" | "đổi" | "exchange")
                    // (`doi 2tr sang usd`: `đổi` typed without marks, an amount after it.)
                    || crate::normalise::fold::fold(w) == crate::normalise::fold::fold("đổi")
                        && toks.get(i + 1).and_then(Token::number).is_some()
            })
        });
    let into = into_currency(toks).is_some();
    let live = (0..toks.len()).any(|i| {
        toks[i].word().is_some_and(|w| {
            matches!(
                w,
                "today" | "today's" | "todays" | "current" | "live" | "now"
            )
        }) || words_at(toks, i, &["hôm", "nay"])
    });
    priced
        && into
        && !live
        && stated_rate(toks).is_none()
        && !crate::lexer::has_percent_or_date(toks)
}

/// Where the rate named in `toks` stands (`tỷ giá 25420`, `at 25,400`).
fn stated_rate(toks: &[Token]) -> Option<usize> {
    (0..toks.len()).find_map(|i| {
        let phrase = RATE.iter().find(|p| words_at(toks, i, p))?;
        let mut j = i + phrase.len();
        while toks.get(j).is_some_and(|t| {
            t.word().is_some_and(|w| BETWEEN.contains(&w)) || t.is_sym('=') || t.is_sym(':')
        }) {
            j += 1;
        }
        toks.get(j)?.number().map(|_| j)
    })
}

#[cfg(test)]
mod tests;
