//! Stage 3: shorthand and typos. Shorthand people type on a phone (`wat`, `hw`, `pls`,
//! `u`, `rn`; `ko`, `dc`) is expanded from a short table. A word the planner does not
//! know is corrected to the one vocabulary word within its edit distance (optimal string
//! alignment, so a swap of two letters is one edit): none for words of up to three
//! letters, one up to seven, two beyond; the closest words only. The first letter must match, a capitalised word
//! inside a sentence (a place) is left alone, numbers are never touched, and a typo is
//! corrected only when exactly one word fits — between two numbers, one operation word.
//! So "tims" between 6 and 7 is `times` (not `time`), and a word that is already a
//! vocabulary word is never changed into another.

use strsim::osa_distance;

use super::fold;
use super::lexicon::lexicon;
use super::{Kind, Piece, Reading};

/// Shorthand and the words it stands for, in English requests.
const SHORTHAND_EN: &[(&str, &str)] = &[
    ("wat", "what"),
    ("wht", "what"),
    ("wut", "what"),
    ("whta", "what"),
    ("waht", "what"),
    ("wats", "whats"),
    // (`wich` is one letter from both `which` and `with`.)
    ("wich", "which"),
    ("whcih", "which"),
    ("wuts", "whats"),
    ("hw", "how"),
    ("hows", "how"),
    ("u", "you"),
    // (`me n my roommate`, `n london?`)
    ("n", "and"),
    ("ur", "your"),
    ("r", "are"),
    ("pls", "please"),
    ("plz", "please"),
    ("rn", "right now"),
    ("tmrw", "tomorrow"),
    ("tmr", "tomorrow"),
    ("tmrow", "tomorrow"),
    ("2day", "today"),
    ("wk", "week"),
    ("wks", "weeks"),
    ("yr", "year"),
    ("yrs", "years"),
    ("hr", "hour"),
    ("hrs", "hours"),
    ("avg", "average"),
    // (`what week nr is it`)
    ("nr", "number"),
    ("ppl", "people"),
    ("ea", "each"),
    ("til", "until"),
    ("thru", "through"),
    ("bday", "birthday"),
    ("b-day", "birthday"),
];

/// Shorthand in Vietnamese requests (teen code).
pub(crate) const SHORTHAND_VI: &[(&str, &str)] = &[
    ("ko", "không"),
    ("k0", "không"),
    ("hok", "không"),
    ("dc", "được"),
    ("đc", "được"),
    ("j", "gì"),
    ("ng", "người"),
    ("bn", "bao nhiêu"),
    ("bnhiu", "bao nhiêu"),
    ("nhiu", "nhiêu"),
    ("tb", "trung bình"),
    ("tui", "tôi"),
    ("mik", "mình"),
    ("mk", "mình"),
    ("trc", "trước"),
    ("sn", "sinh nhật"),
    ("h", "giờ"),
    ("z", "vậy"),
    ("v", "vậy"),
    ("r", "rồi"),
    ("nx", "nữa"),
];

/// Operation words, and the operation each names: a typo never turns one into a word
/// of another operation.
pub const OPERATION_WORDS: &[(&str, &str)] = &[
    ("plus", "sum"),
    ("add", "sum"),
    ("added", "sum"),
    ("sum", "sum"),
    ("total", "sum"),
    ("minus", "subtract"),
    ("subtract", "subtract"),
    ("subtracted", "subtract"),
    ("less", "subtract"),
    ("difference", "subtract"),
    ("times", "multiply"),
    ("multiply", "multiply"),
    ("multiplied", "multiply"),
    ("product", "multiply"),
    ("double", "multiply"),
    ("twice", "multiply"),
    ("triple", "multiply"),
    ("divide", "divide"),
    ("divided", "divide"),
    ("over", "divide"),
    ("quotient", "divide"),
    ("half", "divide"),
    ("halve", "divide"),
    ("power", "power"),
    ("squared", "power"),
    ("square", "power"),
    ("cubed", "power"),
    ("cube", "power"),
    ("root", "sqrt"),
    ("sqrt", "sqrt"),
    ("percent", "percent"),
    ("percentage", "percent"),
    ("mod", "modulo"),
    ("modulo", "modulo"),
    ("remainder", "modulo"),
    ("average", "mean"),
    ("avg", "mean"),
    ("mean", "mean"),
    ("min", "min"),
    ("max", "max"),
    ("shortest", "min"),
    ("cheapest", "min"),
    ("longest", "max"),
    ("minimum", "min"),
    ("smallest", "min"),
    ("smaller", "min"),
    ("lowest", "min"),
    ("least", "min"),
    ("maximum", "max"),
    ("largest", "max"),
    ("larger", "max"),
    ("biggest", "max"),
    ("bigger", "max"),
    ("greatest", "max"),
    ("highest", "max"),
    ("round", "round"),
    ("rounded", "round"),
    ("absolute", "abs"),
];

/// The operation `word` names, if it is an operation word.
pub fn operation(word: &str) -> Option<&'static str> {
    OPERATION_WORDS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, op)| *op)
}

/// The edit distance allowed for a word of `len` letters.
pub fn max_distance(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// Expands shorthand words and `&`.
pub fn expand_shorthand(pieces: &mut [Piece], reading: Reading) {
    let table = match reading {
        Reading::English => SHORTHAND_EN,
        Reading::Vietnamese => SHORTHAND_VI,
    };
    for i in 0..pieces.len() {
        // `what % of 80`, `the % increase`: a percent sign after no number is the word.
        let after_number = (0..i)
            .rev()
            .find(|&j| pieces[j].kind != Kind::Space)
            .is_some_and(|j| pieces[j].kind == Kind::Number);
        let p = &mut pieces[i];
        match p.kind {
            Kind::Other if p.text == "%" && !after_number => p.set(match reading {
                Reading::English => " percent ".to_owned(),
                Reading::Vietnamese => " phần trăm ".to_owned(),
            }),
            Kind::Word => {
                let lower = p.lower();
                if let Some((_, long)) = table.iter().find(|(short, _)| *short == lower) {
                    p.set((*long).to_owned());
                }
            }
            Kind::Other if p.text == "&" => p.set(match reading {
                Reading::English => " and ".to_owned(),
                Reading::Vietnamese => " và ".to_owned(),
            }),
            _ => {}
        }
    }
}

/// Corrects the typos of `pieces` (see the module's rules).
pub fn correct(pieces: &mut [Piece], reading: Reading) {
    let mut first_word = true;
    // The last word left alone as a place's name.
    let mut last_place: Option<usize> = None;
    for i in 0..pieces.len() {
        if pieces[i].kind != Kind::Word || !pieces[i].same {
            first_word &= pieces[i].kind != Kind::Word;
            continue;
        }
        let capitalised = pieces[i]
            .text
            .chars()
            .next()
            .is_some_and(char::is_uppercase);
        let proper = capitalised && !first_word;
        first_word = false;
        // `in paris`, `o sai gon`: after a place word a name comes, typed in lowercase
        // as often as not; it is never corrected (`paris` is no `pairs`).
        let before = |i: usize| (0..i).rev().find(|&j| pieces[j].kind != Kind::Space);
        let after_place = before(i).is_some_and(|j| {
            pieces[j].kind == Kind::Word
                && matches!(
                    pieces[j].lower().as_str(),
                    "in" | "at" | "ở" | "o" | "tại" | "tai" | "bên" | "ben"
                )
        });
        // `in tokyo and paris`: a name joined to a place's name is one too.
        let joined_to_place = before(i).is_some_and(|j| {
            matches!(
                pieces[j].lower().as_str(),
                "and" | "or" | "và" | "va" | "hay" | ","
            ) && before(j).is_some_and(|k| last_place == Some(k))
        });
        if proper || after_place || joined_to_place {
            // (`left in novmber`: a month's name after `in` is no place's.)
            if after_place
                && !proper
                && let Some(month) = correction(&pieces[i].lower(), reading, false).filter(|m| {
                    crate::wording::MONTHS
                        .iter()
                        .any(|n| n.eq_ignore_ascii_case(m))
                })
            {
                pieces[i].set(month);
                continue;
            }
            last_place = Some(i);
            continue;
        }
        let between_numbers = neighbour(pieces, i, false) == Some(Kind::Number)
            && neighbour(pieces, i, true) == Some(Kind::Number);
        if let Some(fixed) = correction(&pieces[i].lower(), reading, between_numbers) {
            pieces[i].set(fixed);
        }
    }
}

/// The number words folded (`rưỡi` is `ruoi`), once.
fn folded_number_words() -> &'static std::collections::HashSet<String> {
    static FOLDED: std::sync::OnceLock<std::collections::HashSet<String>> =
        std::sync::OnceLock::new();
    FOLDED.get_or_init(|| fold::NUMBER_WORDS.iter().map(|w| fold::fold(w)).collect())
}

/// The kind of the nearest piece before (or after) `i` that is not a space.
fn neighbour(pieces: &[Piece], i: usize, after: bool) -> Option<Kind> {
    let mut it: Box<dyn Iterator<Item = &Piece>> = match after {
        true => Box::new(pieces[i + 1..].iter()),
        false => Box::new(pieces[..i].iter().rev()),
    };
    it.find(|p| p.kind != Kind::Space).map(|p| p.kind)
}

/// The vocabulary word `word` (lowercase) is a typo of, if exactly one fits.
pub fn correction(word: &str, reading: Reading, between_numbers: bool) -> Option<String> {
    let lex = lexicon();
    let len = word.chars().count();
    let d = max_distance(len);
    if d == 0 || lex.is_english(word) || !lex.vietnamese(word).is_empty() {
        return None;
    }
    if !word.chars().all(char::is_alphabetic) {
        return None;
    }
    // (`flour`, `shop`: a dictionary word was typed as meant; between two numbers only
    // an operation word fits, so `6 tomes 7` is still `times`.)
    if !between_numbers && super::dictionary::is_word(word) {
        return None;
    }
    // Words a place is one edit from (`paris` → `pairs`): never a typo's target.
    const NOT_TARGETS: &[&str] = &["pairs"];
    let first = word.chars().next()?;
    let mut found: Vec<String> = Vec::new();
    for n in len.saturating_sub(d)..=len + d {
        if let Some(words) = lex.english_by_len.get(n) {
            found.extend(
                words
                    .iter()
                    .filter(|w| w.starts_with(first) && w.chars().count() >= 4)
                    .filter(|w| !NOT_TARGETS.contains(w))
                    .filter(|w| osa_distance(word, w) <= d)
                    .map(|w| (*w).to_owned()),
            );
        }
        if reading == Reading::Vietnamese
            && let Some(keys) = lex.folded_by_len.get(n)
        {
            found.extend(
                keys.iter()
                    .filter(|k| k.starts_with(first) && k.chars().count() >= 4)
                    // (A number word is typed as meant or not at all: `chai ruou`,
                    // a bottle of rượu, had become `chai rưỡi`, 150 bottles 150.5.)
                    .filter(|k| !folded_number_words().contains(k.as_str()))
                    .filter(|k| osa_distance(&fold::fold(word), k) <= d)
                    .filter_map(|k| fold::read(k, None, None).map(str::to_owned)),
            );
        }
    }
    // A word typed with Vietnamese marks was typed as meant (`viên`, a tablet, is no
    // typo of `việc`): only its marks may be set right.
    if !word.is_ascii() {
        found.retain(|w| fold::fold(w) == fold::fold(word));
    }
    found.sort();
    found.dedup();
    // The closest words only (`multipled` is one edit from `multiplied`, two from
    // `multiply`).
    let distance = |w: &str| osa_distance(&fold::fold(word), &fold::fold(w));
    if let Some(closest) = found.iter().map(|w| distance(w)).min() {
        found.retain(|w| distance(w) == closest);
    }
    // (`rent 2150 internet 95`: a dictionary word between two numbers is only ever
    // read as an operation it was mistyped for, never another word: `interest`.)
    if (found.len() > 1 || super::dictionary::is_word(word)) && between_numbers {
        found.retain(|w| operation(w).is_some());
    }
    match found.as_slice() {
        // An operation word only when no other operation is as near the typo, whatever
        // its first letter ("ower" is one edit from "over" and from "power"): a typo
        // never turns one operation into another.
        [only] if operation(only).is_some() && operations_near(word, d) > 1 => None,
        [only] => Some(only.clone()),
        _ => None,
    }
}

/// How many different operations have a word within `d` edits of `word`.
fn operations_near(word: &str, d: usize) -> usize {
    let mut ops: Vec<&str> = OPERATION_WORDS
        .iter()
        .filter(|(w, _)| osa_distance(word, w) <= d)
        .map(|(_, op)| *op)
        .collect();
    ops.sort_unstable();
    ops.dedup();
    ops.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalise::unicode::pieces;

    fn fixed(s: &str) -> String {
        let mut p = pieces(s);
        expand_shorthand(&mut p, Reading::English);
        correct(&mut p, Reading::English);
        p.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn shorthand_and_typos_of_vocabulary_words_are_corrected() {
        assert_eq!(fixed("wat is 6 tims 7"), "what is 6 times 7");
        assert_eq!(fixed("whats 9 plus 10 pls"), "whats 9 plus 10 please");
        assert_eq!(fixed("sqaure root of 64"), "square root of 64");
        assert_eq!(
            fixed("what percnt of 160 is 36"),
            "what percent of 160 is 36"
        );
        assert_eq!(fixed("85, 90 & 92"), "85, 90  and  92");
    }

    #[test]
    fn a_city_alone_is_never_corrected_into_a_word() {
        assert_eq!(fixed("paris?"), "paris?");
    }

    #[test]
    fn places_joined_to_a_place_stay() {
        assert_eq!(
            fixed("what time is it in tokyo and paris"),
            "what time is it in tokyo and paris"
        );
    }

    #[test]
    fn numbers_places_and_known_words_stay() {
        assert_eq!(
            fixed("what time is it in Tokio"),
            "what time is it in Tokio"
        );
        assert_eq!(fixed("12345 tims 7"), "12345 times 7");
        assert_eq!(fixed("6 time 7"), "6 time 7");
    }

    #[test]
    fn the_allowed_distance_grows_with_the_word() {
        assert_eq!(max_distance(3), 0);
        assert_eq!(max_distance(5), 1);
        assert_eq!(max_distance(9), 2);
    }
}
