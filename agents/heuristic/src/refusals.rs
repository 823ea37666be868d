//! What a refusal names. Once a request could not be planned, the report says which kind
//! of request no tool serves and the words of the request that named it
//! (`I have no tool for lottery results (xổ số)`), so the user sees what was understood.
//!
//! These kinds only name a refusal; they never steer a plan (`scope.rs` holds the kinds
//! that do). Their words are matched without marks in a Vietnamese request, as people
//! type them (`ket qua xo so`), and are not taught to the normaliser (build.rs skips
//! this file's Vietnamese): they would add readings to common folded words.

use chorus_bus::Language;

use crate::normalise::fold::fold;

/// Kinds named only in refusals, looked for before those of `scope.rs`. The first kind with a
/// match names the refusal.
const NAMED: &[Kind] = &[
    (
        &[
            "sắp xếp",
            "sort",
            "sorted",
            "ascending",
            "descending",
            "smallest first",
            "largest first",
            "lowest first",
            "highest first",
        ],
        "putting a list in order",
        "sắp xếp một dãy số theo thứ tự",
    ),
    (
        &["xổ số", "vietlott", "lottery", "lotto", "vé số"],
        "lottery results",
        "kết quả xổ số",
    ),
    (
        &[
            "kèo",
            "cá độ",
            "cá cược",
            "chấp mấy",
            "betting",
            "odds",
            "bet on",
            "nên đặt",
        ],
        "betting and sports odds",
        "cá cược và kèo bóng đá",
    ),
    (
        &[
            "sóng lớn",
            "sóng to",
            "biển động",
            "ra khơi",
            "bão",
            "storm",
            "waves",
        ],
        "the weather",
        "thời tiết",
    ),
    (
        &[
            "tắc đường",
            "kẹt xe",
            "ùn tắc",
            "traffic",
            "giao thông",
            "road closed",
        ],
        "traffic and roads",
        "tình hình giao thông",
    ),
    (
        &[
            "thuốc",
            "uống thuốc",
            "thuốc gì",
            "siro",
            "panadol",
            "paracetamol",
            "huyết áp",
            "bệnh",
            "bác sĩ",
            "tiêu chảy",
            "đau bụng",
            "medicine",
            "doctor",
            "symptoms",
            "blood pressure",
        ],
        "medical advice and medicines",
        "tư vấn bệnh và thuốc",
    ),
    (
        &["thời trang", "hợp mốt", "fashion", "in style", "trendy"],
        "fashion",
        "thời trang",
    ),
    (
        &[
            "go up",
            "go down",
            "lên hay xuống",
            "tăng không",
            "giảm không",
            "có tăng",
            "có giảm",
            "going up",
            "going down",
        ],
        "forecasts of prices and exchange rates",
        "dự đoán giá cả và tỷ giá",
    ),
    (
        &["which bank", "bank", "ngân hàng nào", "transfer fees"],
        "banks and money transfers",
        "ngân hàng và chuyển tiền",
    ),
    (
        &["bài hát", "bài karaoke", "karaoke", "songs"],
        "music and songs",
        "âm nhạc và bài hát",
    ),
    (
        &["cách pha", "cách làm món", "pha chế"],
        "recipes and cooking",
        "công thức nấu ăn và pha chế",
    ),
];

/// Kinds named only in refusals, looked for after those of `scope.rs` (a poem is
/// `writing poems`, not `writing texts`).
const NAMED_LAST: &[Kind] = &[
    (
        &["rate", "exchange", "tỷ giá hôm nay", "tỉ giá", "tỷ giá"],
        "currency exchange rates",
        "tỷ giá ngoại tệ",
    ),
    (
        &[
            "toast",
            "speech",
            "letter",
            "cover letter",
            "essay",
            "email",
            "write me",
            "write a",
            "write an",
            "write the",
            "bức thư",
            "lá thư",
            "viết thư",
            "lá đơn",
            "đơn xin",
            "hợp đồng",
            "quảng cáo",
            "soạn",
            "viết giúp",
        ],
        "writing texts (letters, emails, essays, speeches and ads)",
        "soạn văn bản (thư, đơn, hợp đồng, bài quảng cáo)",
    ),
    (
        &[
            "nói bằng tiếng",
            "tiếng đức",
            "tiếng anh",
            "tiếng nhật",
            "tiếng hàn",
        ],
        "translation",
        "dịch thuật",
    ),
];

/// The clause naming what `text` asks for that no tool serves, in `language`: the kind,
/// and the words of the request that named it when the kind's name does not hold them
/// (`lottery results (xổ số)`); `None` when nothing names one.
pub fn topic(text: &str, language: Language) -> Option<String> {
    let vi = language.is_vi();
    let words = Words::of(text);
    let find = |table: &'static [Kind]| first_kind(table, &words, vi);
    let (kind, keys) = find(NAMED)
        .or_else(|| {
            crate::scope::outside_tools_named(text, language).map(|(kind, key)| (kind, vec![key]))
        })
        .or_else(|| find(NAMED_LAST))?;
    // The kind's name alone when it holds the first word that named it (`flight` in
    // `bookings of flights`, `thơ` in `viết thơ`), else the name and that word.
    Some(if names(kind, keys[0]) {
        kind.to_owned()
    } else {
        format!("{kind} ({})", keys[0])
    })
}

/// Whether the name of a kind holds `key`, a word of it of three letters or more, or its
/// stem (`translat` of `translate`, in `translation`).
fn names(kind: &str, key: &str) -> bool {
    let (kind, key) = (fold(kind).to_lowercase(), fold(key));
    kind.contains(&key)
        || key.split(' ').any(|w| {
            let n = w.chars().count();
            (n >= 3 && kind.contains(w))
                || (n >= 5 && kind.contains(&w.chars().take(n - 1).collect::<String>()))
        })
}

/// A kind no tool serves: (the words that name it, the English name, the Vietnamese name).
type Kind = (&'static [&'static str], &'static str, &'static str);

/// The first kind of `table` some of `words` name: its name in the language, and every
/// key of it found.
fn first_kind(
    table: &'static [Kind],
    words: &Words,
    vi: bool,
) -> Option<(&'static str, Vec<&'static str>)> {
    table.iter().find_map(|(keys, en, vi_name)| {
        let found: Vec<&'static str> = keys.iter().copied().filter(|k| words.has(k, vi)).collect();
        (!found.is_empty()).then_some((if vi { *vi_name } else { *en }, found))
    })
}

/// A request's words, lowercase, padded by spaces, as typed and without marks.
struct Words {
    typed: String,
    folded: String,
}

impl Words {
    fn of(text: &str) -> Self {
        let typed = crate::scope::padded_words(text);
        let folded = fold(&typed);
        Self { typed, folded }
    }

    /// Whether `key` stands as whole words: as typed, or — a Vietnamese phrase of two
    /// words or more in a Vietnamese request — without marks (one word without its marks
    /// reads many ways: `thuoc` is `thuốc` or `thuộc`).
    fn has(&self, key: &str, vi: bool) -> bool {
        let padded = |k: &str| format!(" {k} ");
        if self.typed.contains(&padded(key)) {
            return true;
        }
        vi && !key.is_ascii() && key.contains(' ') && self.folded.contains(&padded(&fold(key)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_the_kind_and_the_words_that_named_it() {
        for (q, lang, want) in [
            (
                "ket qua xo so mien trung hom nay",
                Language::Vi,
                "kết quả xổ số",
            ),
            (
                "mai bien vung tau song lon ko",
                Language::Vi,
                "thời tiết (sóng lớn)",
            ),
            (
                "book me the cheapest flight to da nang",
                Language::En,
                "bookings of flights, tickets, rooms or tables, orders, and recommendations",
            ),
            (
                "write me a short toast for my sister",
                Language::En,
                "writing texts (letters, emails, essays, speeches and ads) (toast)",
            ),
            (
                "huyet ap 150/90 vay co cao ko",
                Language::Vi,
                "tư vấn bệnh và thuốc (huyết áp)",
            ),
        ] {
            assert_eq!(topic(q, lang).as_deref(), Some(want), "{q}");
        }
        // Without marks only in Vietnamese: `don` is no `đơn` in English.
        assert_eq!(topic("i don know what to do", Language::En), None);
        assert_eq!(topic("2+4", Language::En), None);
    }
}
