//! Which language to answer in: the client's hint when it names one, else Vietnamese
//! when the query has Vietnamese letters or words, else English.

use chorus_bus::Language;

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
    "tinh", "cong", "tru", "nhan", "chia", "cho", "voi", "bao", "nhieu", "ngay", "hom", "nay",
    "may", "nguoi", "tien", "moi", "thang", "tuan", "duoc", "het", "nua", "mot", "trieu", "nghin",
    "mua", "thit", "khach", "chuyen",
];

/// Vietnamese question phrases: one of them, typed with or without marks, is enough
/// (`15 + 27 x 2 bang may`).
const VI_PHRASES: &[&[&str]] = &[
    &["bằng", "mấy"],
    &["bằng", "bao", "nhiêu"],
    &["là", "bao", "nhiêu"],
    &["là", "mấy"],
    &["là", "ngày", "nào"],
    &["mấy", "giờ"],
    &["thứ", "mấy"],
    &["mấy", "tuổi"],
];

/// Amount words written with Vietnamese letters in requests otherwise English (`8
/// triệu`, `500 nghìn`, `200.000 đồng`).
const AMOUNT_WORDS: &[&str] = &["triệu", "nghìn", "ngàn", "đồng", "tỷ", "tỉ", "đ", "vnđ"];

/// Vietnamese when `hint` says so or the text is Vietnamese, else English. A hint
/// such as `vi-VN` or `en-US` wins over the text. (Other crates call it as
/// `chorus_heuristic::detect_language`.)
pub fn detect(query: &str, hint: Option<&str>) -> Language {
    if let Some(language) = hint.and_then(|h| Language::from_tag(h).ok()) {
        return language;
    }
    // A Vietnamese letter makes it Vietnamese — unless only amounts are written so (`i
    // save 150k a week and the phone is 8 triệu`): the other words then decide.
    let marked_words = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().any(is_vietnamese_letter));
    let mut only_amounts = true;
    let mut any_marked = false;
    for w in marked_words {
        any_marked = true;
        only_amounts &= AMOUNT_WORDS.contains(&w.to_lowercase().as_str());
    }
    if any_marked && !only_amounts {
        return Language::Vi;
    }
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .collect();
    let accented = words
        .iter()
        .any(|w| ACCENTED_VI_WORDS.contains(&w.as_str()));
    // Teen code (`bn`, `tb`, `ko`) counts as plain Vietnamese.
    let teen = |w: &str| {
        w.len() > 1
            && crate::normalise::typo::SHORTHAND_VI
                .iter()
                .any(|(short, _)| *short == w)
    };
    let plain_hits = words
        .iter()
        .filter(|w| PLAIN_VI_WORDS.contains(&w.as_str()) || teen(w))
        .count();
    // `10 chia 4`, `a) 125 + 375 b) 1000 chia 8`: every word is a plain Vietnamese
    // one, besides one-letter words (part markers, `x` for times, `z`/`v` endings).
    let only_plain = plain_hits >= 1
        && words
            .iter()
            .filter(|w| w.chars().any(char::is_alphabetic) && w.chars().count() > 1)
            .all(|w| PLAIN_VI_WORDS.contains(&w.as_str()) || teen(w));
    // Words of the planner's Vietnamese vocabulary typed without marks, against its
    // English words (`ngay mai la thu may`, `bay gio o Paris may gio`).
    let letters: Vec<String> = words
        .into_iter()
        .filter(|w| !w.is_empty() && w.chars().all(char::is_alphabetic))
        .collect();
    // (Each word votes once: `5 do, 10 do, 20 do` is one `do`.)
    // (In order: a word's reading may hang on its neighbour, `so do` is `số đó`.)
    let mut distinct: Vec<String> = Vec::with_capacity(letters.len());
    for w in &letters {
        if !distinct.contains(w) {
            distinct.push(w.clone());
        }
    }
    let (vi, en) = crate::normalise::fold::vi_and_en(&distinct);
    // Teen code votes Vietnamese too (`mon do 680k giam 15% con bn`).
    let vi = vi + distinct.iter().filter(|w| teen(w)).count();
    let folded = (vi >= 2 && vi > en) || (vi >= 1 && vi == distinct.len());
    let fold = crate::normalise::fold::fold;
    let phrase = VI_PHRASES.iter().any(|p| {
        letters
            .windows(p.len())
            .any(|w| w.iter().zip(p.iter()).all(|(a, b)| fold(a) == fold(b)))
    });
    if accented || plain_hits >= 2 || only_plain || folded || phrase || dong_typed(query) {
        Language::Vi
    } else {
        Language::En
    }
}

/// Whether an amount is typed the Vietnamese way (`23.450d`, `1tr2`), which the
/// normaliser's canonical amounts no longer show.
pub(crate) fn amounts_typed_vi(query: &str) -> bool {
    dong_typed(query) || millions_typed(query)
}

/// Whether only amounts are written, one of them in millions the Vietnamese way, `tr`
/// for triệu glued to its digits (`1tr2 + 850k + 430k`), or with `đ` glued to it
/// (`1.500.000đ`); words make the language.
fn millions_typed(query: &str) -> bool {
    let words: Vec<&str> = query
        .split(|c: char| c.is_whitespace() || matches!(c, '+' | ',' | ';' | '(' | ')'))
        // (One letter is an operator or a part's mark: `x`, `a`.)
        .filter(|w| w.chars().any(char::is_alphabetic) && w.chars().count() > 1)
        .collect();
    words
        .iter()
        .all(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        && words.iter().any(|w| {
            let w = w.to_lowercase();
            // (`1.500.000đ`: đồng glued to its digits.)
            if let Some(digits) = w.strip_suffix('đ') {
                return !digits.is_empty()
                    && digits.chars().all(|c| c.is_ascii_digit() || c == '.');
            }
            let Some((before, after)) = w.split_once("tr") else {
                return false;
            };
            !before.is_empty()
                && before.chars().all(|c| c.is_ascii_digit() || c == '.')
                && before.starts_with(|c: char| c.is_ascii_digit())
                && after.chars().all(|c| c.is_ascii_digit())
        })
}

/// Whether an amount is written the Vietnamese way with `d` for đồng glued to it
/// (`23.450d`, `1.200.000d`): a dot before three digits, then `d`.
pub(crate) fn dong_typed(query: &str) -> bool {
    let b = query.as_bytes();
    (4..b.len()).any(|i| {
        matches!(b[i], b'd' | b'D')
            && b[i - 4] == b'.'
            && b[i - 3..i].iter().all(u8::is_ascii_digit)
            && b.get(i + 1).is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vietnamese_diacritics_make_vietnamese() {
        assert_eq!(detect("tính 2+4 = ??", None), Language::Vi);
        assert_eq!(detect("hôm nay là ngày mấy", None), Language::Vi);
        assert_eq!(detect("2 cộng 4", None), Language::Vi);
        assert_eq!(detect("10 chia 4", None), Language::Vi);
        assert_eq!(detect("3 nhân 7", None), Language::Vi);
    }

    #[test]
    fn an_operation_typed_without_marks_is_vietnamese() {
        assert_eq!(detect("chia 1.000.000 cho", None), Language::Vi);
        assert_eq!(detect("nhan 12 voi", None), Language::Vi);
    }

    #[test]
    fn everyday_words_typed_without_marks_are_vietnamese() {
        assert_eq!(detect("thit 135k 1kg mua 8kg", None), Language::Vi);
        assert_eq!(detect("3tr6 chia 4 nguoi boc hang", None), Language::Vi);
        assert_eq!(detect("new york?", None), Language::En);
        assert_eq!(detect("21,6 lit x 23.450d", None), Language::Vi);
    }

    #[test]
    fn plain_english_and_bare_arithmetic_are_english() {
        assert_eq!(detect("what day is it in 10 days", None), Language::En);
        assert_eq!(detect("2+4", None), Language::En);
        assert_eq!(detect("café olé", None), Language::En);
    }

    #[test]
    fn millions_glued_to_tr_are_vietnamese() {
        assert!(amounts_typed_vi("1tr2 + 850k + 430k"));
        assert!(amounts_typed_vi("2tr5 x 3"));
        assert!(!amounts_typed_vi("venue quoted 85tr for 32 tables"));
        assert!(!amounts_typed_vi("2 trees + 3"));
        assert!(!amounts_typed_vi("850k + 430k"));
        assert!(amounts_typed_vi("1.500.000đ + 850.000đ"));
    }

    #[test]
    fn the_hint_wins() {
        assert_eq!(detect("2+4", Some("vi-VN")), Language::Vi);
        assert_eq!(detect("tính 2+4", Some("en")), Language::En);
        assert_eq!(detect("tính 2+4", Some("fr")), Language::Vi);
    }

    #[test]
    fn each_word_votes_once() {
        assert_eq!(
            detect("tong tip tuan nay: 5 do, 10 do, 20 do, 2 do", None),
            Language::Vi
        );
    }

    #[test]
    fn vietnamese_without_diacritics_needs_two_words() {
        assert_eq!(detect("tinh 2 cong 4", None), Language::Vi);
        assert_eq!(detect("may I ask", None), Language::En);
        assert_eq!(detect("ngay mai la thu may", None), Language::Vi);
        assert_eq!(detect("bay gio o Seoul may gio", None), Language::Vi);
        assert_eq!(detect("can u multiply 45 by", None), Language::En);
    }

    #[test]
    fn one_letter_words_do_not_make_a_request_english() {
        assert_eq!(detect("a) 12 + 30  b) 400 chia 16", None), Language::Vi);
        assert_eq!(detect("7 + 8 x 3 bang may v", None), Language::Vi);
        assert_eq!(detect("what is 7 x 8", None), Language::En);
        assert_eq!(detect("a) 2+4 b) 10 / 4", None), Language::En);
        assert_eq!(detect("con o Bangkok?", None), Language::Vi);
        assert_eq!(detect("mon do 680k giam 15% con bn", None), Language::Vi);
    }
}
