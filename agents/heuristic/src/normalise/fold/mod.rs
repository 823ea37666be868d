//! Stage 2: Vietnamese with or without diacritics. Most people type Vietnamese on a
//! phone without its marks ("tinh 15 cong 7"), or with a wrong one ("căn bặc hai").
//! Every word is folded (marks stripped by Unicode decomposition; `đ` is a letter of
//! its own and folds to `d` explicitly) and looked up in the folded lexicon of the
//! planner's Vietnamese words; the grammar then sees the word with its marks.
//!
//! A folded word that reads two ways ("can" is `căn` or `cần`, "may" `mấy` or `máy`,
//! "bay" `bảy` or `bây`) is decided by its neighbours: the reading the planner's own
//! phrases have beside the neighbouring words (`bây giờ`, `căn bậc`, `thứ mấy`), else a
//! number word between operators (`sau nhan bay` is 6 × 7). When the neighbours do not
//! decide, the word stays as typed, and the grammar refuses or asks rather than guesses.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::lexicon::lexicon;
use super::{Kind, Piece, Reading};

/// `text` with its diacritics stripped; `đ`/`Đ` become `d`/`D`. Case is kept.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_owned();
    }
    text.nfd()
        .filter(|c| !is_combining_mark(*c))
        .map(|c| match c {
            'đ' => 'd',
            'Đ' => 'D',
            c => c,
        })
        .collect()
}

/// English words that are also Vietnamese words without their marks, and common in
/// English requests: they count for English when the language is decided.
const ENGLISH_TOO: &[&str] = &[
    "a", "am", "an", "at", "can", "day", "do", "hang", "i", "in", "long", "man", "may", "me", "my",
    "no", "on", "sang", "so", "than", "that", "the", "them", "then", "to",
];

/// Vietnamese number words: a folded word between operators or number words reads as one.
pub(super) const NUMBER_WORDS: &[&str] = &[
    "không", "một", "hai", "ba", "bốn", "năm", "sáu", "bảy", "bẩy", "tám", "chín", "mười", "mươi",
    "trăm", "nghìn", "ngàn", "triệu", "tỷ", "tỉ", "linh", "lẻ", "mốt", "tư", "lăm", "nhăm", "rưỡi",
];

/// Vietnamese words that count what a number is of (`3 người`, `2 cái`).
const COUNTERS: &[&str] = &[
    "người", "đứa", "cái", "chiếc", "ly", "cốc", "quả", "chuyến", "lượt", "hộp", "tấn", "thùng",
];

/// Vietnamese operator words.
const OPERATOR_WORDS: &[&str] = &["cộng", "trừ", "nhân", "chia", "mũ", "với", "cho"];

/// How the words of `pieces` are to be read: the hint when it names a language, else
/// the language of the text ([`crate::language::detect`]: a Vietnamese letter,
/// or more words of the planner's Vietnamese without marks than English ones).
pub fn reading(pieces: &[Piece], hint: Option<&str>) -> Reading {
    let primary = hint
        .map(|h| {
            h.trim()
                .split(['-', '_'])
                .next()
                .unwrap_or("")
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    match primary.as_str() {
        "vi" => return Reading::Vietnamese,
        "en" => return Reading::English,
        _ => {}
    }
    let text: String = pieces.iter().map(|p| p.text.as_str()).collect();
    match crate::language::detect(&text, None) {
        chorus_bus::Language::Vi => Reading::Vietnamese,
        _ => Reading::English,
    }
}

/// How many of `words` (lowercase, no marks) read as Vietnamese only, and how many as
/// English.
pub fn vi_and_en(words: &[String]) -> (usize, usize) {
    let lex = lexicon();
    let (mut vi, mut en) = (0, 0);
    // A word of both languages counts for Vietnamese beside a word it forms one of the
    // planner's Vietnamese phrases with (`bang may`: `bằng mấy`), else for English.
    let in_phrase = |k: usize| {
        let own = lex.vietnamese(&words[k]);
        let pair =
            |a: &[&str], b: &[&str]| a.iter().any(|x| b.iter().any(|y| lex.side_by_side(x, y)));
        let before = k.checked_sub(1).map(|j| lex.vietnamese(&words[j]));
        let after = words.get(k + 1).map(|w| lex.vietnamese(w));
        before.is_some_and(|b| pair(b, own)) || after.is_some_and(|a| pair(own, a))
    };
    // (`tips mon 18, tue 12.50, wed 22, thu 9.80`: beside a day's short name that is
    // English only, `mon` and `thu` are days too, never `món` and `thứ`.)
    let days_in_english = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "tue" | "tues" | "wed" | "thur" | "thurs" | "fri"
        )
    });
    for (k, w) in words.iter().enumerate() {
        let short_day = matches!(
            w.as_str(),
            "mon" | "tue" | "tues" | "wed" | "thu" | "thur" | "thurs" | "fri" | "sat" | "sun"
        );
        if days_in_english && short_day {
            en += 1;
            continue;
        }
        if ENGLISH_TOO.contains(&w.as_str()) {
            match in_phrase(k) {
                true => vi += 1,
                false => en += 1,
            }
            continue;
        }
        let readings = lex.vietnamese(w);
        if readings.iter().any(|c| !c.is_ascii()) {
            vi += 1;
        } else if !readings.is_empty() {
            // Spelt the same in both (`chia`, `friday`): neither.
            vi += usize::from(!lex.is_english(w));
        } else if lex.is_english(w) {
            en += 1;
        }
    }
    (vi, en)
}

/// Gives every Vietnamese word of `pieces` its marks, as the planner spells it.
///
/// In a text typed with its marks (most of its Vietnamese words carry them), a word
/// typed with other marks or none is meant as typed (`cá thu` is a mackerel, never `cả
/// thứ`), save an operator word beside a number (`Tính 5 cong 7 giúp mình`): only a
/// text typed without marks is given them all.
pub fn restore(pieces: &mut [Piece]) {
    let words = || pieces.iter().filter(|p| p.kind == Kind::Word);
    let marked = words().filter(|p| !p.text.is_ascii()).count();
    let bare = words()
        .filter(|p| p.text.is_ascii() && !lexicon().vietnamese(&p.lower()).is_empty())
        .count();
    let typed_with_marks = marked >= 3 && marked > bare;
    for i in 0..pieces.len() {
        if pieces[i].kind != Kind::Word {
            continue;
        }
        // (`a. 48 lít …`, `a) …`: one letter before a dot or a bracket marks a part.)
        // (`lấy a trừ b`: `a` beside a `b` names a part too.)
        let marker = pieces[i].text.len() == 1
            && (pieces
                .get(i + 1)
                .is_some_and(|p| p.text == "." || p.text == ")")
                || pieces[i].lower() == "a" && pieces.iter().any(|p| p.lower() == "b"));
        // (`thu 2 trieu 5 tru chi 1 trieu 8`: takings of an amount, no `thứ 2`, Monday.)
        // (`doanh thu` is takings, never `doanh thứ`: kept as typed.)
        let doanh_thu = pieces[i].lower() == "thu"
            && near(pieces, i, false).is_some_and(|j| pieces[j].lower() == "doanh");
        if marker || takings(pieces, i) || doanh_thu {
            continue;
        }
        // (`tha giong 15/9 toi nay duoc may ngay`: after a date, up to now — `tới nay`,
        // never `tối nay`, tonight; `lam tron toi ngan`: rounded to a place, `tới`.)
        let after_round = near(pieces, i, false)
            .is_some_and(|j| matches!(pieces[j].lower().as_str(), "tron" | "tròn"));
        if pieces[i].lower() == "toi" && (since_date(pieces, i) || after_round) {
            let cased = with_case_of(&pieces[i].text, "tới");
            pieces[i].set(cased);
            continue;
        }
        // A piece expanded from shorthand (`tb` → `trung bình`) neighbours by its
        // last (or first) word.
        let prev = near(pieces, i, false)
            .map(|j| pieces[j].lower())
            .map(|w| w.rsplit(' ').next().unwrap_or_default().to_owned());
        let next = near(pieces, i, true)
            .map(|j| pieces[j].lower())
            .map(|w| w.split(' ').next().unwrap_or_default().to_owned());
        // In a text typed with its marks: a wrong mark only where a phrase says so
        // (`căn bặc hai`), a bare word only as an operator.
        let phrased = |w: &str| {
            let lex = lexicon();
            prev.as_deref().is_some_and(|p| lex.side_by_side(p, w))
                || next.as_deref().is_some_and(|n| lex.side_by_side(w, n))
        };
        let kept = |w: &str| match pieces[i].text.is_ascii() {
            true => OPERATOR_WORDS.contains(&w),
            false => phrased(w),
        };
        // (A word typed with marks is never stripped of them: `bình khí` is no `khi`.)
        if let Some(word) = read(&pieces[i].lower(), prev.as_deref(), next.as_deref())
            && (!typed_with_marks || kept(word))
            && (pieces[i].text.is_ascii() || !word.is_ascii())
        {
            let cased = with_case_of(&pieces[i].text, word);
            pieces[i].set(cased);
        }
    }
}

/// Whether piece `i` is `thu` before an amount with its scale (`thu 2 trieu 5`, `thu
/// 500k`): money taken in, never a weekday.
fn takings(pieces: &[Piece], i: usize) -> bool {
    const SCALES: &[&str] = &[
        "k", "tr", "trieu", "triệu", "nghin", "nghìn", "ngan", "ngàn", "ty", "tỷ", "tỉ",
    ];
    pieces[i].lower() == "thu"
        && near(pieces, i, true).is_some_and(|n| {
            pieces[n].kind == Kind::Number
                && (n + 1..pieces.len())
                    .find(|&j| pieces[j].kind != Kind::Space)
                    .is_some_and(|j| SCALES.contains(&pieces[j].lower().as_str()))
        })
}

/// Whether piece `i` stands between a day and month written with a slash (`15/9`) and
/// `nay`.
fn since_date(pieces: &[Piece], i: usize) -> bool {
    let before_nay = near(pieces, i, true).is_some_and(|n| pieces[n].lower() == "nay");
    let after_date = (0..i)
        .rev()
        .find(|&j| pieces[j].kind != Kind::Space)
        .is_some_and(|j| pieces[j].kind == Kind::Number && j > 0 && pieces[j - 1].text == "/");
    before_nay && after_date
}

/// The nearest word or number before (or after) piece `i`, past spaces only.
pub(in crate::normalise) fn near(pieces: &[Piece], i: usize, after: bool) -> Option<usize> {
    let found = match after {
        true => (i + 1..pieces.len()).find(|&j| pieces[j].kind != Kind::Space),
        false => (0..i).rev().find(|&j| pieces[j].kind != Kind::Space),
    }?;
    matches!(pieces[found].kind, Kind::Word | Kind::Number).then_some(found)
}

/// How many times more often the planner must use one reading than every other for it
/// to win when the neighbours say nothing.
const DOMINANT: u32 = 4;

/// The Vietnamese word `typed` stands for between `prev` (already read; a word or a
/// number) and `next` (as typed), or `None` to keep it as typed. In order: the reading
/// the planner's phrases have beside a neighbour; next to a number or an operator, the
/// one operator reading, or between operators and number words, the one number
/// reading; the reading the planner uses far more often than all others; else none.
pub fn read(typed: &str, prev: Option<&str>, next: Option<&str>) -> Option<&'static str> {
    let lex = lexicon();
    let candidates = lex.vietnamese(typed);
    if candidates.is_empty() {
        return None;
    }
    // (Before a word's only reading: `cong ty` keeps `ty`, the one reading of which is
    // `tỷ`.)
    if let Some(word) = by_neighbour(typed, prev, next, candidates) {
        return (word != typed).then_some(word);
    }
    match candidates {
        // A word typed with its marks is never turned into a number (`bà` is no `ba`).
        [only] if !typed.is_ascii() && *only != typed && NUMBER_WORDS.contains(only) => {
            return None;
        }
        [only] => return Some(only),
        // Typed with its marks, and a word the planner knows: as typed.
        _ if !typed.is_ascii() && candidates.contains(&typed) => return None,
        _ => {}
    }
    let next_readings: &[&str] = next.map_or(&[], |n| lex.vietnamese(n));
    let score = |c: &str| {
        let before = prev.is_some_and(|p| lex.side_by_side(p, c));
        let after = next_readings.iter().any(|n| lex.side_by_side(c, n));
        usize::from(before) + usize::from(after)
    };
    if let Some(best) = unique_best(candidates, score) {
        return Some(best);
    }
    // `luy` is `lũy` or `luỹ`: one word, its mark placed two ways (old and new style);
    // the spelling the planner uses more.
    let spelling = |c: &str| {
        let mut chars: Vec<char> = c.nfd().collect();
        chars.sort_unstable();
        chars
    };
    if candidates
        .iter()
        .all(|c| spelling(c) == spelling(candidates[0]))
    {
        return candidates.iter().max_by_key(|c| lex.uses(c)).copied();
    }
    // A word the planner knows as typed (`sau`, `chia`) stays when no phrase decides.
    if lex.is_english(typed) || candidates.contains(&typed) {
        return None;
    }
    // (`3,75 cong 2,5`: a decimal comma too.)
    let is_number = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_digit())
            && w.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    };
    let operator_or_number = |w: &str| OPERATOR_WORDS.contains(&w) || NUMBER_WORDS.contains(&w);
    let beside_number = prev.is_some_and(is_number) || next.is_some_and(is_number);
    let beside_words =
        prev.is_some_and(operator_or_number) || next_readings.iter().any(|r| operator_or_number(r));
    let only = |set: &[&str]| -> Option<&'static str> {
        let mut it = candidates.iter().filter(|c| set.contains(c));
        match (it.next(), it.next()) {
            (Some(c), None) => Some(*c),
            _ => None,
        }
    };
    if (beside_number || beside_words)
        && let Some(op) = only(OPERATOR_WORDS)
    {
        return Some(op);
    }
    // `3 cai` (three things): after a number, the one word that counts.
    if prev.is_some_and(is_number)
        && let Some(c) = only(COUNTERS)
    {
        return Some(c);
    }
    // `khach dua 500000` (hands over): a counter (`đứa`, `cái`) counts only after a
    // number or a word that counts (`mỗi cái`, `mấy đứa`).
    let counting = prev.is_some_and(|p| {
        is_number(p)
            || NUMBER_WORDS.contains(&p)
            || matches!(p, "mỗi" | "mấy" | "các" | "những" | "vài")
    });
    if !counting
        && candidates.iter().any(|c| COUNTERS.contains(c))
        && let [other] = candidates
            .iter()
            .filter(|c| !COUNTERS.contains(c))
            .collect::<Vec<_>>()
            .as_slice()
    {
        return Some(other);
    }
    // `tu 19/5/2026 den nay`: before a number, "from" rather than "fourth".
    if next.is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        && let Some(w) = only(&["từ"])
    {
        return Some(w);
    }
    if beside_words && let Some(n) = only(NUMBER_WORDS) {
        return Some(n);
    }
    let total: u32 = candidates.iter().map(|c| lex.uses(c)).sum();
    candidates
        .iter()
        .find(|c| lex.uses(c) > 0 && lex.uses(c) >= DOMINANT * (total - lex.uses(c)))
        .copied()
}

/// Two readings no phrase of the planner tells apart, decided by one neighbour:
/// `cong lai` asked (`… cong lai bn`, at the end) adds up (`cộng lại`), where `cộng lãi
/// 30%` adds interest; `thu bay nay` is this Saturday (`này`), where `nay` alone is today.
fn by_neighbour(
    typed: &str,
    prev: Option<&str>,
    next: Option<&str>,
    candidates: &[&'static str],
) -> Option<&'static str> {
    let pick = |w: &str| candidates.iter().find(|c| **c == w).copied();
    match typed {
        "lai"
            if prev.is_some_and(|p| matches!(p, "cộng" | "cong"))
                && next.is_none_or(|n| {
                    matches!(
                        n,
                        "bao" | "bn" | "là" | "la" | "được" | "dc" | "hết" | "het" | "thì"
                    )
                }) =>
        {
            pick("lại")
        }
        // (`1 ky`: a kilo after a number, never `kỳ`, a term; `mỗi ky lai bao nhiêu`:
        // the profit on one kilo, `lãi`.)
        "ky" if prev.is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit() || b == b'.')) => {
            pick("ký")
        }
        // (`ban dc 38 tr lai bn`: the profit asked, `lãi`, unless something is given
        // back or left — `thoi lai bn`, `con lai bn`.)
        "lai"
            if next.is_some_and(|n| matches!(n, "bao" | "bn"))
                && !prev.is_some_and(|p| {
                    matches!(
                        p,
                        "còn"
                            | "con"
                            | "thối"
                            | "thoi"
                            | "trả"
                            | "tra"
                            | "tính"
                            | "tinh"
                            | "gửi"
                            | "gui"
                            | "đưa"
                            | "dua"
                            | "cộng"
                            | "cong"
                            | "chia"
                            | "hoàn"
                            | "hoan"
                    )
                }) =>
        {
            pick("lãi")
        }
        // (`thuong lai moi tra 2tr7`: only just paid, `mới`, before a verb — `mỗi` goes
        // before what it counts.)
        "moi"
            // (Not `dua`, `nhan`: `moi dua` is each child, `moi nhan vien` each
            // employee.)
            if next.is_some_and(|n| matches!(n, "tra" | "trả" | "gửi" | "gui" | "nhận")) =>
        {
            pick("mới")
        }
        "thieu" if prev.is_some_and(|p| matches!(p, "còn" | "con")) => pick("thiếu"),
        // (`chia 9tr6 cho 4 tho`: workers counted, `thợ` — a poem, `thơ`, is no count.)
        "tho" if prev.is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit())) => pick("thợ"),
        // (`cong ty tra 165.000/tan`: the company, `công ty` — never plus a billion.)
        "cong" if next == Some("ty") => pick("công"),
        "ty" if prev.is_some_and(|p| matches!(p, "cong" | "công")) => Some("ty"),
        // (`10% cua so tien do`: that sum, `đó`, ending the request.)
        "do" if next.is_none()
            && prev.is_some_and(|p| matches!(p, "tiền" | "tien" | "quả" | "qua" | "số" | "so")) =>
        {
            pick("đó")
        }
        // (`moi tra 2tr7`, `da tra 500k`: paid, `trả` — never tea.)
        "tra" if prev.is_some_and(|p| matches!(p, "mới" | "moi" | "đã" | "da")) => pick("trả"),
        // (`ban dc 38 tr`, `ban 2 dot`: sold, before what was got or how much.)
        "ban"
            if next.is_some_and(|n| {
                matches!(n, "dc" | "được" | "hết" | "het" | "le" | "lẻ" | "si" | "sỉ")
                    || n.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            }) =>
        {
            pick("bán")
        }
        "nay"
            if prev.is_some_and(|p| {
                matches!(
                    p,
                    "bảy" | "sáu" | "tư" | "nhật" | "2" | "3" | "4" | "5" | "6" | "7"
                )
            }) =>
        {
            pick("này")
        }
        _ => None,
    }
}

/// The candidate with the highest score, when it is the only one with it and above 0.
fn unique_best(candidates: &[&'static str], score: impl Fn(&str) -> usize) -> Option<&'static str> {
    let scored: Vec<(usize, &'static str)> = candidates.iter().map(|c| (score(c), *c)).collect();
    let best = scored.iter().map(|s| s.0).max()?;
    let mut top = scored.iter().filter(|s| s.0 == best);
    match (top.next(), top.next()) {
        (Some(&(s, c)), None) if s > 0 => Some(c),
        _ => None,
    }
}

/// `word` with the first letter upper case when `typed`'s is.
pub(super) fn with_case_of(typed: &str, word: &str) -> String {
    match typed.chars().next() {
        Some(c) if c.is_uppercase() => {
            let mut chars = word.chars();
            chars
                .next()
                .map(|f| f.to_uppercase().chain(chars).collect())
                .unwrap_or_default()
        }
        _ => word.to_owned(),
    }
}

#[cfg(test)]
mod tests;
