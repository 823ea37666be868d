//! The normaliser's vocabulary: the planner's own words, read from its string literals
//! by `build.rs` (so a word the grammar learns is folded and corrected with no second
//! list to keep in step), indexed once on first use.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use super::fold::fold;

include!(concat!(env!("OUT_DIR"), "/vocabulary.rs"));

/// Word pairs people type that the planner's literals do not hold side by side,
/// declared here (this folder's literals are not learnt): where a folded word reads
/// two ways, the word before it decides (`cua no` is `của nó`, "of it", never `của
/// nợ`; `con no` is `còn nợ`, "still owe").
const DECLARED_PAIRS: &[(&str, &str)] = &[
    ("của", "nó"),
    ("còn", "nợ"),
    ("đã", "trả"),
    ("tối", "nay"),
    ("chiều", "nay"),
    ("sáng", "mai"),
    ("tối", "mai"),
    ("trăm", "linh"),
    ("trăm", "lẻ"),
    // (`tru thue 5%` is a tax taken off, never `thuê`, a rent.)
    ("trừ", "thuế"),
    ("đóng", "thuế"),
];

/// The indexed vocabulary.
pub struct Lexicon {
    /// Folded Vietnamese word → the words it folds from (a word without marks among them
    /// when the planner uses it so).
    pub folded: HashMap<String, Vec<&'static str>>,
    /// How often the planner's literals use each Vietnamese word.
    pub uses: HashMap<&'static str, u32>,
    /// Vietnamese words seen side by side in the planner's phrases.
    pub pairs: HashSet<(&'static str, &'static str)>,
    /// English words of the planner.
    pub english: HashSet<&'static str>,
    /// English words a typo may be corrected into, by length.
    pub english_by_len: Vec<Vec<&'static str>>,
    /// Folded Vietnamese words by length, for typo look-ups.
    pub folded_by_len: Vec<Vec<String>>,
}

/// The vocabulary, indexed on first use.
pub fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(build)
}

fn build() -> Lexicon {
    let mut folded: HashMap<String, Vec<&'static str>> = HashMap::new();
    let mut uses = HashMap::new();
    for (w, n) in VI_WORDS {
        folded.entry(fold(w)).or_default().push(w);
        uses.insert(*w, *n);
    }
    // The number words are Vietnamese whatever the literals say (`linh` in `ba trăm
    // linh một` is written without marks, and was learnt as English only).
    for w in super::fold::NUMBER_WORDS {
        let readings = folded.entry(fold(w)).or_default();
        if !readings.contains(w) {
            readings.push(w);
            uses.entry(*w).or_insert(1);
        }
    }
    let english: HashSet<&'static str> = EN_WORDS.iter().map(|(w, _)| *w).collect();
    let mut english_by_len: Vec<Vec<&'static str>> = Vec::new();
    for (w, _) in EN_WORDS.iter().filter(|(_, target)| *target) {
        let n = w.chars().count();
        if english_by_len.len() <= n {
            english_by_len.resize(n + 1, Vec::new());
        }
        english_by_len[n].push(w);
    }
    let mut folded_by_len: Vec<Vec<String>> = Vec::new();
    for key in folded.keys() {
        let n = key.chars().count();
        if folded_by_len.len() <= n {
            folded_by_len.resize(n + 1, Vec::new());
        }
        folded_by_len[n].push(key.clone());
    }
    folded_by_len.iter_mut().for_each(|v| v.sort());
    Lexicon {
        folded,
        uses,
        pairs: VI_PAIRS.iter().chain(DECLARED_PAIRS).copied().collect(),
        english,
        english_by_len,
        folded_by_len,
    }
}

impl Lexicon {
    /// The Vietnamese words `word` (any case, with or without marks) may stand for.
    pub fn vietnamese(&self, word: &str) -> &[&'static str] {
        self.folded
            .get(&fold(&word.to_lowercase()))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether `word` (lowercase) is one of the planner's English words.
    pub fn is_english(&self, word: &str) -> bool {
        self.english.contains(word)
    }

    /// How often the planner's literals use the Vietnamese word `word`.
    pub fn uses(&self, word: &str) -> u32 {
        self.uses.get(word).copied().unwrap_or(0)
    }

    /// Whether the planner's phrases have `a` then `b`.
    pub fn side_by_side(&self, a: &str, b: &str) -> bool {
        self.pairs.contains(&(a, b))
    }
}

/// People a request speaks to at its end (`thứ mấy vậy con?`, `mấy giờ rồi em`),
/// compared folded by `filler::without_vocative`. They live here, never taught to the
/// fold lexicon: taught, `chị`, `cô`, `ba` would make `chi`, `co`, `ba` read two ways
/// (`nếu chi có 3 người` must stay `chỉ`).
const SPOKEN_TO: &[&str] = &[
    "con", "em", "anh", "chị", "cháu", "mẹ", "má", "ba", "bố", "bà", "ông", "cô", "chú", "dì",
    "bạn", "ơi",
];

/// Question particles a vocative follows (`vậy`, `hả`, `rồi`, `nhé`).
const BEFORE_VOCATIVE: &[&str] = &[
    "vậy", "hả", "nhỉ", "nhé", "ạ", "rồi", "ơi", "nha", "hen", "chưa", "không", "giùm", "giúp",
];

/// Whether the folded word `w` speaks to someone at the end of a request (`con`, `em`)
/// and `before` is a question particle it follows (`vay`, `ha`, `roi`): the folded lists
/// are made once.
pub fn ends_with_vocative(before: &str, w: &str) -> bool {
    static FOLDED: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    let (spoken_to, particles) = FOLDED.get_or_init(|| {
        let fold = |list: &[&str]| list.iter().map(|v| super::fold::fold(v)).collect();
        (fold(SPOKEN_TO), fold(BEFORE_VOCATIVE))
    });
    spoken_to.iter().any(|v| v == w) && particles.iter().any(|v| v == before)
}

/// A Vietnamese weight as a power of ten grams, matched folded (without marks): `tấn` a
/// tonne, `tạ` 100 kg, `yến` 10 kg, `ký` typed `ky`. They live here, never taught to the
/// fold lexicon: taught, `tan`, `ta`, `yen` and `ky` typed without marks would read two
/// ways (or as English).
pub fn heavy_weight(word: &str) -> Option<i32> {
    match super::fold::fold(&word.to_lowercase()).as_str() {
        "tan" => Some(6),
        "ta" => Some(5),
        "yen" => Some(4),
        "ky" => Some(3),
        _ => None,
    }
}

/// Words that may stand around `thứ mấy` in a follow-up asking the weekday of the date
/// just answered (`Còn thứ mấy?`, `thu may`, `vậy ngày đó thứ mấy hả con`), folded.
const AROUND_WEEKDAY: &[&str] = &[
    "còn", "vậy", "thế", "là", "ngày", "đó", "hôm", "ấy", "nhỉ", "ạ", "hả", "vào", "rơi",
];

/// Whether the words `folded` (folded, in order) only ask `thứ mấy`, the weekday of the
/// date answered last.
pub fn asks_weekday_alone(folded: &[String]) -> bool {
    static FOLDED: OnceLock<Vec<String>> = OnceLock::new();
    let around = FOLDED.get_or_init(|| {
        AROUND_WEEKDAY
            .iter()
            .chain(SPOKEN_TO)
            .map(|v| super::fold::fold(v))
            .collect()
    });
    let at = folded
        .windows(2)
        .position(|p| p[0] == "thu" && p[1] == "may");
    at.is_some_and(|k| {
        folded
            .iter()
            .enumerate()
            .all(|(i, w)| i == k || i == k + 1 || around.contains(w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_comes_from_the_planners_words() {
        let l = lexicon();
        assert!(l.vietnamese("cong").contains(&"cộng"));
        assert!(l.vietnamese("tinh").contains(&"tính"));
        assert!(l.vietnamese("CĂN").contains(&"căn"));
        assert!(l.is_english("times"));
        assert!(l.is_english("square"));
        assert!(l.side_by_side("bây", "giờ"));
        assert!(l.side_by_side("căn", "bậc"));
    }
}
