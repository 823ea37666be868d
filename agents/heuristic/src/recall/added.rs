//! More added to the last total: `thêm 2 cái quần 200 nghìn 1 cái nữa thì tổng bn`,
//! `add 3 drench at 64.50`, `thêm 1 serum 420k nữa`, `them ngay cuoi 120km nua thi tong
//! la bao nhieu`. Read alone, the added part would answer as if it were the total.

use super::Conversation;
use super::roles::WHOLE_WORDS;

/// Words that add to what went before.
const ADDING: &[&str] = &["thêm", "more", "another", "add"];

/// Words that make it another question than an addition: a share, a rate, a division.
const OTHER: &[&str] = &[
    "each", "split", "per", "divide", "divided", "share", "chia", "mỗi", "average", "times",
    "multiply", "nhân", "minus", "subtract", "trừ", "bớt", "giảm", "less", "x",
];

/// Words of the last question that make its answer no total: an average.
const NOT_A_TOTAL: &[&str] = &["average", "avg", "mean", "trung", "tb"];

/// What `query` adds to, when it adds more to the last total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    /// The total added to: the last answer, or the one before when the last question
    /// asked an average of what was totalled.
    pub base: String,
    /// Whether the new total is asked outright (`tổng`, `total`): then the added part
    /// alone is never the answer, and the request is refused when it cannot be read.
    pub total_asked: bool,
    /// The one number the request says (`thêm 9,5 km nữa`), when it says one.
    pub lone_number: Option<String>,
    /// The request with `one` naming a thing rather than a number (`add the next one,
    /// 401.50`) said as `item`.
    pub text: String,
    /// Whether it is taken off rather than added: more spent after what was left was
    /// asked (`and another 470 on the train` after `how much left`).
    pub taken: bool,
    /// Whether the one number counts a unit the last question counted and priced
    /// (`thêm 40 lít nữa` after `60 lít nước mắm 85k 1 lít`): more of it at that price,
    /// the last question asked again with the count raised, never the number added.
    pub counts_priced_unit: bool,
}

/// Phrases of the last question asking what is left: more of the same is taken off it.
const LEFT: &[&str] = &[
    "left",
    "remaining",
    "còn lại",
    "còn bao",
    "còn dư",
    "còn được",
];

/// `query` with `one` after a word that points at a thing (`the next one`) said as
/// `item`, so it is no number.
fn without_pronoun_one(query: &str) -> String {
    let words: Vec<&str> = query.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let bare = w.trim_end_matches([',', '.', '?', '!']);
        let pointed = i > 0
            && matches!(
                words[i - 1].to_lowercase().as_str(),
                "next" | "the" | "this" | "that" | "new" | "last" | "other"
            );
        if pointed && bare.eq_ignore_ascii_case("one") {
            out.push(if bare.len() == w.len() {
                "item"
            } else {
                "item,"
            });
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

/// Whether `query` adds more to the last total (with `thêm`, `add`, `another`, `more`),
/// and what it adds to.
pub fn added_to_total(
    query: &str,
    conversation: &Conversation,
    questions: &[String],
) -> Option<Added> {
    let own = without_pronoun_one(query);
    let text = crate::normalise::normalise(&own, None).text;
    let toks = crate::lexer::lex(&text);
    let has = |list: &[&str]| {
        toks.iter()
            .any(|t| t.word().is_some_and(|w| list.contains(&w)))
    };
    // (`add that to the 40`: a reference to the last answer says what it adds to.)
    // (With the total asked, `mỗi xe 8 nghìn` prices what is added; `mỗi người thêm
    // 50k` after a share gives each that much more.)
    // (`mỗi đứa thêm 50 nghìn nữa`, `mỗi bạn thêm …`: whoever each one is.)
    let each_more = (0..toks.len()).any(|i| {
        crate::lexer::words_at(&toks, i, &["mỗi"])
            && toks
                .get(i + 1)
                .and_then(crate::lexer::Token::word)
                .is_some()
            && crate::lexer::words_at(&toks, i + 2, &["thêm"])
            || crate::lexer::words_at(&toks, i, &["each", "person", "gets"])
    });
    if !has(ADDING)
        || has(OTHER) && !has(WHOLE_WORDS) && !each_more
        || toks.iter().any(|t| t.is_sym('%'))
        || super::reference::find(&toks, &text).is_some()
    {
        return None;
    }
    let numeric = |a: &&String| a.parse::<f64>().is_ok();
    let last: Vec<String> = questions
        .last()
        .map(|q| {
            crate::normalise::normalise(q, None)
                .text
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let said = |list: &[&str]| last.iter().any(|w| list.contains(&w.as_str()));
    let averaged = said(NOT_A_TOTAL);
    let answers = &conversation.answers;
    let base = match (averaged, answers.as_slice()) {
        (true, [.., total, _]) => Some(total).filter(numeric),
        (false, [.., last]) => Some(last).filter(numeric),
        _ => None,
    }?;
    let numbers: Vec<&str> = toks.iter().filter_map(|t| t.number()).collect();
    // The unit after the one number, and the units the last question counted.
    let unit_after = |toks: &[crate::lexer::Token], k: usize| {
        toks.get(k + 1)
            .and_then(crate::lexer::Token::word)
            .map(crate::normalise::fold::fold)
    };
    let ptoks = questions
        .last()
        .map(|q| crate::lexer::lex(&crate::normalise::normalise(q, None).text))
        .unwrap_or_default();
    let counted: Vec<String> = (0..ptoks.len())
        .filter(|&k| ptoks[k].number().is_some())
        .filter_map(|k| unit_after(&ptoks, k))
        .collect();
    let counts_priced_unit = match (0..toks.len())
        .filter(|&k| toks[k].number().is_some())
        .collect::<Vec<_>>()
        .as_slice()
    {
        [k] => {
            unit_after(&toks, *k).is_some_and(|u| counted.iter().filter(|c| **c == u).count() >= 1)
                && counted.len() >= 2
        }
        _ => false,
    };
    Some(Added {
        counts_priced_unit,
        base: base.clone(),
        total_asked: has(WHOLE_WORDS),
        text: own,
        taken: LEFT
            .iter()
            .any(|p| format!(" {} ", last.join(" ")).contains(&format!(" {p} ")))
            && !has(WHOLE_WORDS),
        lone_number: match numbers.as_slice() {
            [n] => Some((*n).to_owned()),
            _ => None,
        },
    })
}
