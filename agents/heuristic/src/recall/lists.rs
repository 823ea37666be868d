//! Follow-ups about the last question's list of numbers: one more item, or another
//! question of the same numbers.

use super::ellipsis::{ELLIPSIS_DRESSING, NUMBER_DRESSING};
use super::splice;
use crate::lexer::{Token, words_at};

/// Words after which a follow-up names the numbers of the last question's list:
/// `the highest of those`, `số lớn nhất trong các số đó`.
const LIST_REFERENCES: &[&[&str]] = &[
    &["those", "numbers"],
    &["these", "numbers"],
    &["the", "numbers"],
    &["those"],
    &["these"],
    &["them"],
    &["all", "of", "them"],
    &["các", "số", "đó"],
    &["các", "số", "trên"],
    &["những", "số", "đó"],
    &["những", "số", "trên"],
    &["mấy", "số", "đó"],
    &["mấy", "số", "trên"],
];

/// Words of a follow-up adding one item to the last question's list: `and if I add a
/// 95?`, `include 12 too`, `thêm 8 nữa thì sao`.
const LIST_ADD: &[&str] = &[
    "add",
    "adding",
    "added",
    "include",
    "including",
    "plus",
    "also",
    "too",
    "one",
    "score",
    "grade",
    "number",
    "thêm",
    "cả",
    "số",
    "điểm",
    "now",
    "bây",
    "giờ",
];

/// Words an item added to a list may be said with: `add 95 to the list, whats the new
/// average`, `thêm số 10 vào`.
const LIST_ITEM_DRESSING: &[&str] = &["to", "list", "new", "whats", "what's", "vào", "mới"];

/// Words naming what is asked of a list, alone after it: `and the max?`, `còn số lớn
/// nhất?`, `what about the average`.
const LIST_HEADS: &[&str] = &[
    "max", "maximum", "min", "minimum", "highest", "lowest", "largest", "smallest", "biggest",
    "greatest", "sum", "total", "average", "mean", "product", "số", "lớn", "nhỏ", "nhất", "tổng",
    "trung", "bình", "cộng", "tích", "cao", "thấp", "nhiều", "ít",
];

/// Words a list's head may be asked with, saying nothing of their own: `whats the
/// average`, `ngày nhiều nhất là bao nhiêu`, `which one is highest`.
const HEAD_DRESSING: &[&str] = &[
    "whats", "what's", "much", "bao", "nhiêu", "bn", "mấy", "được", "which", "one", "nào", "ngày",
    "day",
];

/// The span of the longest list of numbers in `toks` (two or more, joined by `,`,
/// `;`, `and`, `và`, `or`), as the first and last number's indices.
fn list_span(toks: &[Token]) -> Option<(usize, usize)> {
    use crate::lexer::Tok;
    let is_num = |k: usize| matches!(toks.get(k).map(|t| &t.tok), Some(Tok::Num(_)));
    let joins = |k: usize| {
        toks.get(k).is_some_and(|t| {
            t.is_sym(',')
                || t.is_sym(';')
                || t.word()
                    .is_some_and(|w| matches!(w, "and" | "và" | "or" | "hoặc"))
        })
    };
    let mut best: Option<(usize, usize, usize)> = None;
    let mut k = 0;
    while k < toks.len() {
        if !is_num(k) {
            k += 1;
            continue;
        }
        let (first, mut last, mut count) = (k, k, 1);
        let mut j = k + 1;
        loop {
            let mut g = j;
            while joins(g) && g < j + 2 {
                g += 1;
            }
            // (Side by side too: `trung bình của 6 7 8 9`.)
            if is_num(g) {
                last = g;
                count += 1;
                j = g + 1;
            } else {
                break;
            }
        }
        if count >= 2 && best.is_none_or(|(_, _, c)| count > c) {
            best = Some((first, last, count));
        }
        k = last + 1;
    }
    best.map(|(f, l, _)| (f, l))
}

/// A follow-up about the last question's list: one more item (`and if I add a 95?` →
/// the same question of the longer list), or another question of the same numbers
/// (`whats the highest of those` → `whats the highest of 68, 74, 81, 90`).
pub(super) fn about_list(previous: &str, toks: &[Token], follow: &str) -> Option<String> {
    use crate::lexer::Tok;
    let ptoks = crate::lexer::lex(previous);
    // (`Tiền điện 3 tháng: 1.110.000, 1.340.000, 1.510.000`: the count announcing the
    // items is none of them.)
    let ptoks = crate::counted::without_item_count(&ptoks).unwrap_or(ptoks);
    // (`tháng 9 là 1.110.000, tháng 10 là 1.340.000, …`: numbered months name items.)
    let named = |k: usize| {
        k > 0
            && ptoks[k - 1]
                .word()
                .is_some_and(|w| matches!(w, "tháng" | "tuần" | "month" | "week"))
    };
    let numbers: Vec<usize> = (0..ptoks.len())
        .filter(|&k| matches!(ptoks[k].tok, Tok::Num(_)) && !named(k))
        .collect();
    let (first, last) = match list_span(&ptoks) {
        Some(span) => span,
        // (The items with names between them: the first and last amount.)
        None if numbers.len() >= 3 && (0..ptoks.len()).any(named) => {
            (*numbers.first()?, *numbers.last()?)
        }
        None => return None,
    };
    // The list is the question's numbers, all of them: `2+4 and 3*5` has none.
    let outside = ptoks
        .iter()
        .enumerate()
        .any(|(k, t)| matches!(t.tok, Tok::Num(_)) && !named(k) && !(first..=last).contains(&k));
    if outside {
        return None;
    }
    let inside: Vec<usize> = numbers
        .iter()
        .copied()
        .filter(|k| (first..=last).contains(k))
        .collect();
    let named_inside = (first..=last).any(named);
    let items = match named_inside {
        // (The amounts alone, without the months that name them.)
        true => inside
            .iter()
            .map(|&k| &previous[ptoks[k].start..ptoks[k].end])
            .collect::<Vec<_>>()
            .join(", "),
        false => previous[ptoks[first].start..ptoks[last].end].to_owned(),
    };
    let items = items.as_str();
    // The numbers of that list, named: `those`, `các số đó`.
    if let Some((i, r)) = (0..toks.len()).find_map(|i| {
        LIST_REFERENCES
            .iter()
            .find(|r| words_at(toks, i, r))
            .map(|r| (i, r))
    }) {
        if toks
            .iter()
            .any(|t| matches!(t.tok, Tok::Num(_) | Tok::Date(_)))
        {
            return None;
        }
        let span = (toks[i].start, toks[i + r.len() - 1].end);
        return Some(splice(follow, span, items));
    }
    // Another question of the same numbers, named by its head alone: `and the max?`,
    // `còn số lớn nhất?`.
    // (`Trung bình mỗi tháng?`, `trung bình mỗi đơn`, `average per order`: what each
    // item is, said after `mỗi`/`per`, only dresses it.)
    let per_item = |i: usize| {
        let is_per = |k: usize| {
            toks.get(k)
                .and_then(Token::word)
                .is_some_and(|w| matches!(w, "mỗi" | "per" | "a" | "each"))
        };
        is_per(i) || i > 0 && is_per(i - 1)
    };
    let heads: Vec<&str> = toks
        .iter()
        .enumerate()
        .filter(|(i, _)| !per_item(*i))
        .filter_map(|(_, t)| t.word())
        .filter(|w| !ELLIPSIS_DRESSING.contains(w) && !HEAD_DRESSING.contains(w) && *w != "the")
        .collect();
    let dressed = toks
        .iter()
        .all(|t| t.word().is_some() || matches!(t.tok, Tok::Sym('?' | '!' | ',' | '.')));
    if dressed && !heads.is_empty() && heads.iter().all(|w| LIST_HEADS.contains(w)) {
        let head = heads.join(" ");
        return Some(match crate::language::detect(previous, None) {
            chorus_bus::Language::Vi => format!("{head} trong {items}"),
            _ => format!("the {head} of {items}"),
        });
    }
    // One more item.
    let nums: Vec<&Token> = toks
        .iter()
        .filter(|t| matches!(t.tok, Tok::Num(_)))
        .collect();
    let [n] = nums.as_slice() else {
        return None;
    };
    // One more item, said as one: `if I add a 95`, `include 12 too`, `nếu thêm 8`
    // (a bare `add 5` goes on from the answer).
    let at = toks.iter().position(|t| std::ptr::eq(t, *n))?;
    let item = at
        .checked_sub(1)
        .and_then(|p| toks[p].word())
        .is_some_and(|w| {
            matches!(
                w,
                "a" | "an" | "another" | "số" | "điểm" | "score" | "grade"
            )
        })
        || toks.iter().any(|t| {
            t.word().is_some_and(|w| {
                matches!(
                    w,
                    "if" | "nếu" | "include" | "including" | "also" | "too" | "cả" | "list" | "vào"
                )
            })
        });
    if !item {
        return None;
    }
    let mut adds = false;
    // `add 95 to the list, whats the new average`: the list's own head asked again.
    let pwords: Vec<&str> = ptoks.iter().filter_map(Token::word).collect();
    for t in toks {
        match t.word() {
            Some(w) if LIST_ITEM_DRESSING.contains(&w) => {}
            Some(w) if LIST_HEADS.contains(&w) && pwords.contains(&w) => {}
            Some(w) if LIST_ADD.contains(&w) => {
                adds |= !matches!(w, "one" | "số" | "điểm" | "now" | "bây" | "giờ");
            }
            Some(w) if ELLIPSIS_DRESSING.contains(&w) || NUMBER_DRESSING.contains(&w) => {}
            Some(_) => return None,
            None => {}
        }
    }
    adds.then(|| {
        let end = ptoks[last].end;
        splice(
            previous,
            (end, end),
            &format!(", {}", &follow[n.start..n.end]),
        )
    })
}
