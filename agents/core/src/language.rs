//! The heuristic planner speaks of languages as codes (`en`, `vi`); the bus, the
//! model and the doors as [`Language`]. These two functions are where one becomes the
//! other.

use chorus_bus::Language;

/// The language to answer `query` in: the client's hint when it names one Chorus
/// answers in, else Vietnamese when the words are, else English.
pub fn detect(query: &str, hint: Option<&str>) -> Language {
    of_heuristic(&chorus_heuristic::detect_language(query, hint))
}

/// A language code the heuristic planner wrote (always `en` or `vi`; English for
/// anything else, as its templates read it).
pub fn of_heuristic(code: &str) -> Language {
    Language::from_tag(code).unwrap_or_default()
}
