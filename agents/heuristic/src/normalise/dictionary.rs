//! English words people type that are no typo: a word in an English dictionary is
//! typed as meant (`flour` is no `four`, `shop` no `show`, `worked` no `worker`), so
//! typo correction leaves it alone. The list is SCOWL's size-35 American English words
//! of four letters or more (`data/english-words.txt`, `data/README.md`), built into a
//! sorted static table by `build.rs`.

include!(concat!(env!("OUT_DIR"), "/dictionary.rs"));

/// Whether `word` (lowercase) is an English dictionary word.
pub fn is_word(word: &str) -> bool {
    WORDS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_everyday_words_and_not_typos() {
        for w in ["flour", "shop", "worked", "concrete", "dividend"] {
            assert!(is_word(w), "{w}");
        }
        for w in ["tims", "sqaure", "mutliply", "pls"] {
            assert!(!is_word(w), "{w}");
        }
    }

    #[test]
    fn the_table_is_sorted_for_binary_search() {
        assert!(WORDS.windows(2).all(|p| p[0] < p[1]));
        assert!(WORDS.len() > 30_000);
    }
}
