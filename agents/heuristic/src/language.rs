//! Which language to answer in: the client's hint when it names one, else Vietnamese
//! when the query has Vietnamese letters or words, else English.

/// Letters found in Vietnamese and not in English or the common Western languages.
pub(crate) fn is_vietnamese_letter(c: char) -> bool {
    matches!(
        c,
        'đ' | 'Đ'
            | 'ă'
            | 'Ă'
            | 'ơ'
            | 'Ơ'
            | 'ư'
            | 'Ư'
            | 'ĩ'
            | 'Ĩ'
            | 'ũ'
            | 'Ũ'
            | 'â'
            | 'Â'
            | 'ê'
            | 'Ê'
            | 'ô'
            | 'Ô'
    ) || ('\u{1EA0}'..='\u{1EF9}').contains(&c)
}

/// Vietnamese words whose letters are also found in Western languages (`í`, `à`) or
/// in none: one of them is enough.
const ACCENTED_VI_WORDS: &[&str] = &[
    "tính", "là", "và", "mấy", "có", "không", "một", "bốn", "sáu", "tám", "chín", "giúp", "chào",
    "xin", "còn", "thì", "rồi", "nhé", "nhỉ", "gì",
];

/// Vietnamese words written without diacritics that are common in requests.
const PLAIN_VI_WORDS: &[&str] = &[
    "tinh", "cong", "tru", "nhan", "chia", "bao", "nhieu", "ngay", "hom", "nay", "may",
];

/// `vi` when `hint` says so or the text is Vietnamese, else `en`. A hint such as
/// `vi-VN` or `en-US` wins over the text.
pub fn detect_language(query: &str, hint: Option<&str>) -> String {
    if let Some(h) = hint.map(str::trim).filter(|h| !h.is_empty()) {
        let primary = h.split(['-', '_']).next().unwrap_or(h).to_ascii_lowercase();
        if primary == "vi" || primary == "en" {
            return primary;
        }
    }
    if query.chars().any(is_vietnamese_letter) {
        return "vi".to_owned();
    }
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .collect();
    let accented = words
        .iter()
        .any(|w| ACCENTED_VI_WORDS.contains(&w.as_str()));
    let plain_hits = words
        .iter()
        .filter(|w| PLAIN_VI_WORDS.contains(&w.as_str()))
        .count();
    // `10 chia 4`: every word is a plain Vietnamese one.
    let only_plain = plain_hits >= 1
        && words
            .iter()
            .filter(|w| w.chars().any(char::is_alphabetic))
            .all(|w| PLAIN_VI_WORDS.contains(&w.as_str()));
    // Words of the planner's Vietnamese vocabulary typed without marks, against its
    // English words (`ngay mai la thu may`, `bay gio o Paris may gio`).
    let letters: Vec<String> = words
        .into_iter()
        .filter(|w| !w.is_empty() && w.chars().all(char::is_alphabetic))
        .collect();
    let (vi, en) = crate::normalise::fold::vi_and_en(&letters);
    let folded = (vi >= 2 && vi > en) || (vi >= 1 && vi == letters.len());
    if accented || plain_hits >= 2 || only_plain || folded {
        "vi"
    } else {
        "en"
    }
    .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vietnamese_diacritics_make_vietnamese() {
        assert_eq!(detect_language("tính 2+4 = ??", None), "vi");
        assert_eq!(detect_language("hôm nay là ngày mấy", None), "vi");
        assert_eq!(detect_language("2 cộng 4", None), "vi");
        assert_eq!(detect_language("10 chia 4", None), "vi");
        assert_eq!(detect_language("3 nhân 7", None), "vi");
    }

    #[test]
    fn plain_english_and_bare_arithmetic_are_english() {
        assert_eq!(detect_language("what day is it in 10 days", None), "en");
        assert_eq!(detect_language("2+4", None), "en");
        assert_eq!(detect_language("café olé", None), "en");
    }

    #[test]
    fn the_hint_wins() {
        assert_eq!(detect_language("2+4", Some("vi-VN")), "vi");
        assert_eq!(detect_language("tính 2+4", Some("en")), "en");
        assert_eq!(detect_language("tính 2+4", Some("fr")), "vi");
    }

    #[test]
    fn vietnamese_without_diacritics_needs_two_words() {
        assert_eq!(detect_language("tinh 2 cong 4", None), "vi");
        assert_eq!(detect_language("may I ask", None), "en");
        assert_eq!(detect_language("ngay mai la thu may", None), "vi");
        assert_eq!(detect_language("bay gio o Seoul may gio", None), "vi");
        assert_eq!(detect_language("can u multiply 45 by", None), "en");
    }
}
