//! Number words in English and Vietnamese: `twenty one`, `one hundred and five`,
//! `hai mươi mốt`, `mười lăm`, `một trăm linh năm`, `hai nghìn không trăm hai mươi sáu`.
//!
//! Words are read left to right into an integer; a word that cannot continue the number
//! (`two three`) ends it. The value is returned as a decimal string, like typed numbers.

use crate::lexer::{Tok, Token};

/// The role a number word plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// 0–9.
    Unit(u128),
    /// English 10–19.
    Teen(u128),
    /// Vietnamese `mười` (10): a unit may follow (`mười hai` 12, `mười một` 11).
    ViTen,
    /// English tens: twenty … ninety.
    Tens(u128),
    /// Vietnamese `mươi`: multiplies the unit before it by ten.
    Muoi,
    /// A unit only valid right after tens: `mốt` 1, `tư` 4, `lăm`/`nhăm` 5.
    AfterTens(u128),
    /// hundred / trăm.
    Hundred,
    /// thousand, million, billion and their Vietnamese words.
    Scale(u128),
    /// `and` (English, `english`) or `linh`/`lẻ` (Vietnamese) between a hundred or a
    /// scale and a smaller number.
    Joiner {
        /// Whether this is English `and`.
        english: bool,
    },
}

fn kind(word: &str) -> Option<Kind> {
    const UNITS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    const TEENS: [&str; 10] = [
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 8] = [
        "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    const VI_UNITS: [(&str, u128); 11] = [
        ("không", 0),
        ("một", 1),
        ("hai", 2),
        ("ba", 3),
        ("bốn", 4),
        ("năm", 5),
        ("sáu", 6),
        ("bảy", 7),
        ("bẩy", 7),
        ("tám", 8),
        ("chín", 9),
    ];
    if let Some(v) = UNITS.iter().position(|w| *w == word) {
        return Some(Kind::Unit(v as u128));
    }
    if let Some(v) = TEENS.iter().position(|w| *w == word) {
        return Some(Kind::Teen(10 + v as u128));
    }
    if let Some(v) = TENS.iter().position(|w| *w == word) {
        return Some(Kind::Tens(20 + 10 * v as u128));
    }
    if word == "linh" || word == "lẻ" || word == "and" {
        return Some(Kind::Joiner {
            english: word == "and",
        });
    }
    if let Some((_, v)) = VI_UNITS.iter().find(|(w, _)| *w == word) {
        return Some(Kind::Unit(*v));
    }
    Some(match word {
        "mười" => Kind::ViTen,
        "mươi" => Kind::Muoi,
        "mốt" => Kind::AfterTens(1),
        "tư" => Kind::AfterTens(4),
        "lăm" | "nhăm" => Kind::AfterTens(5),
        "hundred" | "trăm" => Kind::Hundred,
        "thousand" | "nghìn" | "ngàn" => Kind::Scale(1_000),
        "million" | "triệu" => Kind::Scale(1_000_000),
        "billion" | "tỷ" | "tỉ" => Kind::Scale(1_000_000_000),
        _ => return None,
    })
}

/// Whether `word` can start a number.
pub fn starts_number(word: &str) -> bool {
    matches!(
        kind(word),
        Some(
            Kind::Unit(_)
                | Kind::Teen(_)
                | Kind::ViTen
                | Kind::Tens(_)
                | Kind::Hundred
                | Kind::Scale(_)
        )
    )
}

/// Reads number words starting at `toks[i]`. Returns the value and the index after the
/// last word used, or `None` when no number starts there. English `and` is used only
/// when `allow_and` (so `add three and five` keeps its `and`).
pub fn parse_words(toks: &[Token], i: usize, allow_and: bool) -> Option<(String, usize)> {
    let words: Vec<&str> = toks[i.min(toks.len())..]
        .iter()
        .map_while(|t| match &t.tok {
            Tok::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    let mut expanded: Vec<(Kind, usize)> = Vec::new();
    // `a hundred`, `a thousand`: one.
    let big = |w: Option<&&str>| {
        matches!(
            w.and_then(|w| kind(w)),
            Some(Kind::Hundred | Kind::Scale(_))
        )
    };
    if matches!(words.first(), Some(&("a" | "an"))) && big(words.get(1)) {
        expanded.push((Kind::Unit(1), 1));
    }
    for (n, w) in words.iter().enumerate().skip(expanded.len()) {
        // After `mười`/`mươi` a five is `lăm`: `mười năm`, `hai mươi năm` are ten and
        // twenty years (`mười năm nữa`), not 15 and 25.
        if *w == "năm" && matches!(expanded.last(), Some((Kind::ViTen | Kind::Muoi, _))) {
            break;
        }
        let parts: Vec<Option<Kind>> = w.split('-').map(kind).collect();
        if parts.iter().any(Option::is_none) {
            break;
        }
        expanded.extend(parts.into_iter().flatten().map(|k| (k, n + 1)));
    }
    let (value, used) = read(&expanded, allow_and)?;
    if used == 1 && (birth_order_name(toks, i) || one_after_amount(toks, i)) {
        return None;
    }
    Some((value.to_string(), i + used))
}

/// Whether `toks[i]` is `one` standing for a thing after its price (`the 89.90 one`):
/// no number.
fn one_after_amount(toks: &[Token], i: usize) -> bool {
    toks[i].word() == Some("one")
        && i.checked_sub(1)
            .is_some_and(|j| matches!(toks[j].tok, Tok::Num(_)))
}

/// Whether the one number word at `toks[i]` is a name by birth order (`anh Tám
/// 7.200.000`, `chị Hai, anh Ba`): a kin word before it, and after it no word (a number,
/// a mark or the end) — `bé ba tuổi` is three years old.
fn birth_order_name(toks: &[Token], i: usize) -> bool {
    let kin = i
        .checked_sub(1)
        .and_then(|j| toks[j].word())
        .is_some_and(crate::frames::is_kin_word);
    kin && toks.get(i + 1).is_none_or(|t| t.word().is_none())
}

/// The integer value of a run of kinds and how many source words it used.
fn read(kinds: &[(Kind, usize)], allow_and: bool) -> Option<(u128, usize)> {
    let (mut total, mut current, mut last_unit) = (0u128, 0u128, 0u128);
    let mut last: Option<Kind> = None;
    let mut used = 0;
    for (n, &(k, words)) in kinds.iter().enumerate() {
        let next = kinds.get(n + 1).map(|x| x.0);
        let ok = match k {
            Kind::Unit(v) => {
                // `mười hai` is 12, `mười không` nothing.
                let fits = match last {
                    Some(Kind::ViTen) => v > 0,
                    l => !matches!(l, Some(Kind::Unit(_) | Kind::Teen(_) | Kind::AfterTens(_))),
                };
                if fits {
                    current = current.checked_add(v)?;
                    last_unit = v;
                }
                fits
            }
            Kind::Teen(_) | Kind::Tens(_) | Kind::ViTen => {
                let v = match k {
                    Kind::Teen(v) | Kind::Tens(v) => v,
                    _ => 10,
                };
                let fits = !matches!(
                    last,
                    Some(
                        Kind::Unit(_)
                            | Kind::Teen(_)
                            | Kind::ViTen
                            | Kind::Tens(_)
                            | Kind::Muoi
                            | Kind::AfterTens(_)
                    )
                );
                if fits {
                    current = current.checked_add(v)?;
                }
                fits
            }
            Kind::AfterTens(v) => {
                let fits = matches!(last, Some(Kind::Muoi | Kind::ViTen));
                if fits {
                    current = current.checked_add(v)?;
                }
                fits
            }
            Kind::Muoi => {
                let fits = matches!(last, Some(Kind::Unit(u)) if u >= 2);
                if fits {
                    current = current - last_unit + last_unit * 10;
                }
                fits
            }
            Kind::Hundred => match last {
                None => {
                    current = 100;
                    true
                }
                Some(Kind::Unit(_)) if current < 10 || current % 100 < 10 => {
                    current = current - last_unit + last_unit * 100;
                    true
                }
                // `fifteen hundred` is 1500.
                Some(Kind::Teen(_)) if current < 100 => {
                    current *= 100;
                    true
                }
                _ => false,
            },
            Kind::Scale(m) => {
                let fits = !matches!(last, Some(Kind::Scale(_) | Kind::Joiner { .. }));
                if fits {
                    let base = if last.is_none() { 1 } else { current };
                    total = total.checked_add(base.checked_mul(m)?)?;
                    current = 0;
                }
                fits
            }
            Kind::Joiner { english } => {
                let after_big = matches!(last, Some(Kind::Hundred | Kind::Scale(_)));
                let before_small = matches!(
                    next,
                    Some(Kind::Unit(_) | Kind::Teen(_) | Kind::ViTen | Kind::Tens(_))
                );
                after_big && before_small && (allow_and || !english)
            }
        };
        if !ok {
            break;
        }
        last = Some(k);
        used = words;
    }
    if matches!(last, None | Some(Kind::Joiner { .. })) {
        return None;
    }
    Some((total.checked_add(current)?, used))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn value(text: &str) -> Option<(String, usize)> {
        parse_words(&lex(text), 0, true)
    }

    fn number(text: &str) -> String {
        value(text).expect("a number").0
    }

    #[test]
    fn english_number_words_up_to_millions() {
        assert_eq!(number("ten"), "10");
        assert_eq!(number("twenty one"), "21");
        assert_eq!(number("twenty-one"), "21");
        assert_eq!(number("one hundred and five"), "105");
        assert_eq!(number("three thousand four hundred"), "3400");
        assert_eq!(
            number("two million five hundred thousand and seven"),
            "2500007"
        );
        assert_eq!(number("hundred"), "100");
    }

    #[test]
    fn vietnamese_number_words() {
        assert_eq!(number("mười lăm"), "15");
        assert_eq!(number("a hundred"), "100");
        assert_eq!(number("a thousand and five"), "1005");
        assert_eq!(number("fifteen hundred"), "1500");
        assert_eq!(number("mười hai"), "12");
        assert_eq!(number("mười một"), "11");
        assert_eq!(number("hai trăm mười một"), "211");
        assert_eq!(number("mười hai nghìn"), "12000");
        // A five after mười/mươi is lăm: `mười năm` is ten (years), not 15.
        assert_eq!(value("mười năm"), Some(("10".to_owned(), 1)));
        assert_eq!(value("hai mươi năm"), Some(("20".to_owned(), 2)));
        assert_eq!(number("hai mươi mốt"), "21");
        assert_eq!(number("hai mươi tư"), "24");
        assert_eq!(number("ba mươi"), "30");
        assert_eq!(number("một trăm linh năm"), "105");
        assert_eq!(number("hai nghìn không trăm hai mươi sáu"), "2026");
        assert_eq!(number("một triệu hai trăm ngàn"), "1200000");
        assert_eq!(number("không"), "0");
    }

    #[test]
    fn a_number_ends_where_the_next_word_cannot_continue_it() {
        assert_eq!(value("two three"), Some(("2".into(), 1)));
        assert_eq!(value("năm năm nữa"), Some(("5".into(), 1)));
        assert_eq!(value("ten minus three"), Some(("10".into(), 1)));
    }

    #[test]
    fn english_and_is_left_alone_when_not_allowed() {
        assert_eq!(
            parse_words(&lex("one hundred and five"), 0, false),
            Some(("100".into(), 2))
        );
        assert_eq!(value("three and five"), Some(("3".into(), 1)));
    }

    #[test]
    fn words_after_tens_only_count_after_tens() {
        assert_eq!(value("tư"), None);
        assert_eq!(value("lăm"), None);
        assert_eq!(value("poem"), None);
    }
}
