//! A request's words as the frames compare them: folded, lowercase and singular, with
//! the tests of what a word names (a person, a group, a period).

use crate::lexer::{Tok, Token};
use crate::normalise::fold::fold;

use super::vocabulary::*;

/// The request's words, folded and singular, with the tokens' positions.
pub(super) struct Words<'a> {
    pub(super) toks: &'a [Token],
    pub(super) keys: Vec<Option<String>>,
}

impl<'a> Words<'a> {
    pub(super) fn new(toks: &'a [Token]) -> Self {
        let keys = toks
            .iter()
            .map(|t| match &t.tok {
                // (`45 tờ 500k`: a word typed with its marks is no English word its
                // folding spells — `tờ` is no `to`.)
                Tok::Word(w) if !w.is_ascii() && is_in(MARKED_NOT_ENGLISH, &key(w)) => {
                    Some(w.to_lowercase())
                }
                Tok::Word(w) => Some(key(w)),
                Tok::Sym(c) if matches!(c, '/' | '*' | '@') => Some(c.to_string()),
                _ => None,
            })
            .collect();
        Words { toks, keys }
    }

    pub(super) fn word(&self, i: usize) -> Option<&str> {
        self.keys.get(i).and_then(|k| k.as_deref())
    }

    /// Whether the phrase `p` (compared folded) starts at `i`.
    pub(super) fn at(&self, i: usize, p: &[&str]) -> bool {
        p.iter()
            .enumerate()
            .all(|(k, w)| self.word(i + k).is_some_and(|t| is_key(w, t)))
    }

    /// Whether any of `phrases` is said anywhere.
    pub(super) fn says(&self, phrases: &[&[&str]]) -> bool {
        (0..self.toks.len()).any(|i| phrases.iter().any(|p| self.at(i, p)))
    }

    /// The thing a count is asked of (`how many shifts`, `bao nhiêu tuần`, `mấy ly`):
    /// the first word after the question, when it names a thing and not money.
    pub(super) fn count_asked(&self) -> Option<&str> {
        let thing = (0..self.toks.len()).find_map(|i| {
            [&["how", "many"][..], &["bao", "nhiêu"], &["mấy"]]
                .iter()
                .find(|p| self.at(i, p))
                .and_then(|p| self.word(i + p.len()))
        })?;
        (is_noun(thing) && !is_in(&["tiền", "money", "much"], thing)).then_some(thing)
    }

    /// Whether any of `phrases` is said within `before` tokens before `i` or `after`
    /// tokens after it.
    pub(super) fn near(&self, i: usize, before: usize, after: usize, phrases: &[&[&str]]) -> bool {
        let end = (i + after + 1).min(self.toks.len());
        (i.saturating_sub(before)..end).any(|k| k != i && phrases.iter().any(|p| self.at(k, p)))
    }
}

/// Whether the listed word `w` has the key `k`, with no allocation for a lowercase
/// ASCII word and one per thread for any other (planning stays in microseconds).
pub(super) fn is_key(w: &str, k: &str) -> bool {
    if w.bytes()
        .all(|b| b.is_ascii_lowercase() || !b.is_ascii_alphabetic())
        && w.is_ascii()
    {
        return singular(w) == k;
    }
    thread_local! {
        static KEYS: std::cell::RefCell<std::collections::HashMap<Box<str>, Box<str>>> =
            Default::default();
    }
    KEYS.with(|keys| {
        if let Some(v) = keys.borrow().get(w) {
            return &**v == k;
        }
        let v = key(w);
        let same = v == k;
        keys.borrow_mut().insert(w.into(), v.into());
        same
    })
}

/// `f` without a plural's `s` (`guests` → `guest`; `plus`, `gas`, `this` kept).
pub(super) fn singular(f: &str) -> &str {
    let keep = ["ss", "us", "is"].iter().any(|e| f.ends_with(e));
    if f.len() > 3 && f.ends_with('s') && !keep {
        &f[..f.len() - 1]
    } else {
        f
    }
}

/// `w` folded and singular (`guests` → `guest`, `khách` → `khach`).
pub(super) fn key(w: &str) -> String {
    let f = fold(&w.to_lowercase());
    let keep = ["ss", "us", "is"].iter().any(|e| f.ends_with(e));
    if f.len() > 3 && f.ends_with('s') && !keep {
        f[..f.len() - 1].to_owned()
    } else {
        f
    }
}

/// English words of [`NOT_NOUNS`] that a Vietnamese word folds into (`tờ`, `số`,
/// `ổn`): typed with marks, the Vietnamese word is kept as typed.
const MARKED_NOT_ENGLISH: &[&str] = &["to", "so", "on", "at", "in", "is", "or", "but", "now"];

/// Whether the word at `i` is one of `list`: compared folded, but a word typed with its
/// marks is that word (`tiền công` is no `cộng`).
pub(super) fn listed(w: &Words, i: usize, list: &[&str]) -> bool {
    let raw = w.toks[i].word().unwrap_or("").to_lowercase();
    w.word(i).is_some_and(|k| is_in(list, k)) && (raw.is_ascii() || list.contains(&raw.as_str()))
}

pub(super) fn is_in(list: &[&str], k: &str) -> bool {
    list.iter().any(|w| is_key(w, k))
}

pub(super) fn is_person(k: &str) -> bool {
    is_in(PEOPLE, k)
}

pub(super) fn is_group(k: &str) -> bool {
    is_in(GROUPS, k)
}

pub(super) fn is_period(k: &str) -> bool {
    is_in(PERIODS, k)
}

/// Whether a rate per `unit` is paid for each of a count of `noun`.
pub(super) fn same_thing(unit: &str, noun: &str) -> bool {
    unit == noun
        || is_in(ANY_ONE, unit)
        || (is_person(unit) && is_person(noun))
        || SAME.iter().any(|set| is_in(set, unit) && is_in(set, noun))
}

/// Whether a word can name what a number counts.
pub(super) fn is_noun(k: &str) -> bool {
    !is_in(NOT_NOUNS, k) && !is_in(TIES, k) && k.chars().all(char::is_alphabetic)
}
