//! Properties of each normalisation stage (issue 28): folding is idempotent and a word
//! with its marks and without them reads as the same canonical word; a typo never
//! changes a number or turns one operation into another; an amount reads to the same
//! value in every spelling.

use chorus_heuristic::normalise::fold::{fold, read};
use chorus_heuristic::normalise::lexicon::lexicon;
use chorus_heuristic::normalise::typo::{OPERATION_WORDS, correction, operation};
use chorus_heuristic::normalise::{Reading, normalise};
use proptest::prelude::*;

/// Vietnamese words of the planner whose folded form reads one way only.
fn unambiguous_words() -> Vec<&'static str> {
    let mut words: Vec<&'static str> = lexicon()
        .folded
        .values()
        .filter(|v| v.len() == 1)
        .map(|v| v[0])
        .collect();
    words.sort();
    words
}

/// `word` with one edit at `at`: a letter dropped, doubled, swapped with the next, or
/// replaced by `c`.
fn edit(word: &str, kind: u8, at: usize, c: char) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    let i = at % chars.len();
    match kind % 4 {
        0 => {
            chars.remove(i);
        }
        1 => chars.insert(i, chars[i]),
        2 if i + 1 < chars.len() => chars.swap(i, i + 1),
        _ => chars[i] = c,
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn folding_is_idempotent(s in "\\PC{0,24}") {
        let once = fold(&s);
        prop_assert_eq!(fold(&once), once);
    }

    #[test]
    fn a_word_with_and_without_its_marks_reads_as_the_same_word(i in 0usize..10_000) {
        let words = unambiguous_words();
        let word = words[i % words.len()];
        let plain = fold(word);
        prop_assert_eq!(read(&plain, None, None).unwrap_or(&plain), word);
        prop_assert_eq!(read(word, None, None).unwrap_or(word), word);
    }

    #[test]
    fn a_typo_never_turns_one_operation_into_another(
        i in 0usize..1000, kind in 0u8..4, at in 0usize..16, c in proptest::char::range('a', 'z'),
        between in any::<bool>(),
    ) {
        let (word, op) = OPERATION_WORDS[i % OPERATION_WORDS.len()];
        let typo = edit(word, kind, at, c);
        if let Some(fixed) = correction(&typo, Reading::English, between)
            && let Some(other) = operation(&fixed)
        {
            prop_assert_eq!(other, op, "{} -> {} -> {}", word, typo, fixed);
        }
    }

    #[test]
    fn a_typo_never_changes_a_number(
        a in 0u32..1_000_000, b in 1u32..1_000_000, i in 0usize..1000, kind in 0u8..4,
        at in 0usize..16, c in proptest::char::range('a', 'z'),
    ) {
        let (word, _) = OPERATION_WORDS[i % OPERATION_WORDS.len()];
        let query = format!("what is {a} {} {b}", edit(word, kind, at, c));
        let text = normalise(&query, Some("en")).text;
        let numbers: Vec<&str> = text
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|n| !n.is_empty())
            .collect();
        let (a, b) = (a.to_string(), b.to_string());
        prop_assert_eq!(numbers, vec![a.as_str(), b.as_str()], "{}", text);
    }

    #[test]
    fn an_amount_reads_to_the_same_value_in_every_spelling(
        whole in 1u64..100_000_000, cents in 0u32..100,
    ) {
        let plain = format!("{whole}.{cents:02}");
        let expected = chorus_heuristic::lexer::normalise(&whole.to_string(), &format!("{cents:02}"));
        let en_grouped = group(whole, ',');
        let vi_grouped = group(whole, '.');
        let spellings = [
            (format!("${plain}"), "en"),
            (format!("{plain} dollars"), "en"),
            (format!("{en_grouped}.{cents:02}"), "en"),
            (format!("${en_grouped}.{cents:02}"), "en"),
            (format!("{vi_grouped},{cents:02} đồng"), "vi"),
            (format!("{vi_grouped},{cents:02}đ"), "vi"),
        ];
        for (typed, lang) in spellings {
            let text = normalise(&typed, Some(lang)).text;
            let value = chorus_heuristic::lexer::lex(&text);
            let got = match value.as_slice() {
                [t] => match &t.tok {
                    chorus_heuristic::lexer::Tok::Num(n) => n.clone(),
                    other => format!("{other:?}"),
                },
                other => format!("{other:?}"),
            };
            prop_assert_eq!(&got, &expected, "{} -> {}", typed, text);
        }
    }

    #[test]
    fn scales_multiply_exactly(n in 1u64..1_000_000) {
        for (typed, lang, times) in [
            (format!("{n}k"), "en", 1_000u64),
            (format!("{n} nghìn"), "vi", 1_000),
            (format!("{n} triệu"), "vi", 1_000_000),
            (format!("{n} trieu"), "vi", 1_000_000),
            (format!("{n}tr"), "vi", 1_000_000),
        ] {
            prop_assert_eq!(normalise(&typed, Some(lang)).text, (n * times).to_string());
        }
    }
}

/// `n` with its thousands grouped by `sep`.
fn group(n: u64, sep: char) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(d);
    }
    out
}
