//! Counts of people spelled in words (`bốn anh em chia đều`, `split among four
//! friends`), the people counted by `of us` (`between 3 of us`, `the two of us`) and
//! `me and my sister` (two), `me and my 2 brothers` (three), `split it with my sister`
//! (with one person: two in all): read as a number and a word that counts people, so the
//! frames see a count like any other.

use crate::lexer::{Tok, Token};

use super::vocabulary::{PEOPLE, SHARERS};
use super::words::{is_in, key};

/// The people named one word each from `at` (`mom and grandpa`, `me, mai and jess`):
/// how many, and the index after the last name; `None` unless two or more are named and
/// joined by commas and a last `and`.
fn named_people(toks: &[Token], at: usize) -> Option<(usize, usize)> {
    let name = |k: usize| {
        toks.get(k).and_then(Token::word).is_some_and(|w| {
            w.chars().all(char::is_alphabetic)
                && !matches!(
                    w,
                    "and"
                        | "the"
                        | "us"
                        | "them"
                        | "you"
                        | "my"
                        | "our"
                        | "all"
                        | "both"
                        | "each"
                        | "everyone"
                        | "people"
                        | "friends"
                )
        })
    };
    let (mut k, mut count) = (at, 0);
    loop {
        // (`my sister`: one person, two words.)
        if toks.get(k).and_then(Token::word) == Some("my") && name(k + 1) {
            k += 1;
        }
        if !name(k) {
            return None;
        }
        count += 1;
        k += 1;
        match toks.get(k) {
            Some(t) if t.is_sym(',') => k += 1,
            Some(t) if t.word() == Some("and") && count >= 1 => {
                k += 1;
                if toks.get(k).and_then(Token::word) == Some("my") && name(k + 1) {
                    k += 1;
                }
                if !name(k) {
                    return None;
                }
                return Some((count + 1, k + 1));
            }
            _ => return None,
        }
    }
}

/// `toks` with each small count spelled in words before a word for people (or what
/// is shared among) written as its number, and `N of us`/`N of them` as `N people`;
/// `None` when there is neither.
pub(super) fn people_counts(toks: &[Token]) -> Option<Vec<Token>> {
    let others = me_and_others(toks);
    let toks = others.as_deref().unwrap_or(toks);
    let counted_words = counted_words(toks);
    match (others, counted_words) {
        (_, Some(out)) => Some(out),
        (others, None) => others,
    }
}

/// `toks` with `me and my 2 brothers`, `me and 2 other au pairs` written as a count of
/// people (those and me: `3 people`), and `split that with my sister` as `with 1
/// people`; `None` when neither is said. Read before any other reading of a request:
/// the count after `my` is no count of sharers.
pub fn me_and_others(toks: &[Token]) -> Option<Vec<Token>> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut changed = false;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let word_at = |k: usize| toks.get(k).and_then(Token::word);
        // (`me and my 2 brothers`, `me and 2 other au pairs`: those and me.)
        let my = usize::from(word_at(i + 2) == Some("my"));
        let others = (t.word() == Some("me") && word_at(i + 1) == Some("and"))
            .then(|| toks.get(i + 2 + my).and_then(Token::number))
            .flatten()
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..=20).contains(n));
        // (`split between mom and grandpa`, `between me, mai and jess`: the people
        // named, one word each, counted.)
        let shares = || {
            toks.iter().any(|x| {
                x.word().is_some_and(|w| {
                    matches!(
                        w,
                        "split"
                            | "share"
                            | "shared"
                            | "sharing"
                            | "halve"
                            | "divide"
                            | "divided"
                            | "each"
                            | "chia"
                    )
                })
            })
        };
        // (`and the rest split … between dad and grandma`: the rest of an earlier whole,
        // which no reading here has; left unread rather than split from the last share.)
        let rest = toks.iter().any(|x| x.word() == Some("rest"));
        if matches!(t.word(), Some("between" | "among"))
            && shares()
            && !rest
            && let Some((count, next)) = named_people(toks, i + 1)
        {
            out.push(t.clone());
            let last = &toks[next - 1];
            let lead = Token {
                end: toks[next - 2].end,
                ..toks[i + 1].clone()
            };
            out.extend(people(count.to_string(), &lead, last));
            changed = true;
            i = next;
            continue;
        }
        // (`group of 6`, `party of 4`: six people.)
        if matches!(t.word(), Some("group" | "party"))
            && word_at(i + 1) == Some("of")
            && let Some(n) = toks.get(i + 2).filter(|n| n.number().is_some())
            && !word_at(i + 3).is_some_and(|w| w.chars().all(char::is_alphabetic) && w != "and")
        {
            // (The count where `group of` was, `people` where its number was: in order.)
            let lead = Token {
                end: toks[i + 1].end,
                ..t.clone()
            };
            out.extend(people(n.number().unwrap_or_default(), &lead, n));
            changed = true;
            i += 3;
            continue;
        }
        if let Some(n) = others {
            let mut next = i + 3 + my;
            if word_at(next) == Some("other") {
                next += 1;
            }
            out.extend(people((n + 1).to_string(), t, &toks[i + 2 + my]));
            changed = true;
            i = next;
            continue;
        }
        // (`split that with my sister`: one person besides me, `with 1 person`, as `split
        // with 2 friends` is among three; `with my flatmates` counts none.)
        let with_my = t.word() == Some("with")
            && word_at(i + 1) == Some("my")
            && word_at(i + 2)
                .is_some_and(|w| !w.ends_with('s') && w.chars().all(char::is_alphabetic))
            && toks.iter().any(|x| {
                x.word()
                    .is_some_and(|w| matches!(w, "split" | "share" | "halve" | "chia"))
            });
        if with_my {
            out.push(t.clone());
            out.extend(people("1", &toks[i + 1], &toks[i + 2]));
            changed = true;
            i += 3;
            continue;
        }
        out.push(t.clone());
        i += 1;
    }
    changed.then_some(out)
}

/// `toks` with each small count spelled in words before a word for people written as
/// its number, `N of us` as `N people`, and `me and my sister` as `2 people`.
fn counted_words(toks: &[Token]) -> Option<Vec<Token>> {
    // (Compared folded, but a word typed with its marks is that word: `ba chỉ` is pork
    // belly, not three `chị`.)
    let counted = |k: usize| {
        toks.get(k).and_then(Token::word).is_some_and(|w| {
            let raw = w.to_lowercase();
            [PEOPLE, SHARERS].iter().any(|list| {
                is_in(list, &key(w)) && (raw.is_ascii() || list.contains(&raw.as_str()))
            })
        })
    };
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut changed = false;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // (`one` is no count here: `the big one`, `một người` is each one's rate.)
        let spelled = t
            .word()
            .filter(|w| !matches!(*w, "one" | "một" | "a" | "an"));
        if let Some((value, next)) =
            spelled.and_then(|_| crate::numbers::parse_words(toks, i, false))
        {
            let small = value.parse::<u32>().is_ok_and(|n| (2..=20).contains(&n));
            // (`the two of us`: a count, then `of us`.)
            let of_us = toks.get(next).and_then(Token::word) == Some("of")
                && toks
                    .get(next + 1)
                    .and_then(Token::word)
                    .is_some_and(|w| matches!(w, "us" | "them"));
            if small && next == i + 1 && of_us {
                out.extend(people(value, t, &toks[next]));
                changed = true;
                i = next + 2;
                continue;
            }
            if small && next == i + 1 && counted(next) {
                out.push(Token {
                    tok: Tok::Num(value),
                    ..t.clone()
                });
                changed = true;
                i = next;
                continue;
            }
        }
        // (`for me and my sister`: two people.)
        let me_and_my = t.word() == Some("me")
            && toks.get(i + 1).and_then(Token::word) == Some("and")
            && matches!(toks.get(i + 2).and_then(Token::word), Some("my" | "the"))
            && toks.get(i + 3).and_then(Token::word).is_some()
            && toks.get(i + 4).is_none_or(|n| n.word() != Some("and"));
        if me_and_my {
            out.extend(people("2", t, &toks[i + 3]));
            changed = true;
            i += 4;
            continue;
        }
        out.push(t.clone());
        // (`3 of us`: the number counts people.)
        let of_us = t.number().is_some()
            && toks.get(i + 1).and_then(Token::word) == Some("of")
            && toks
                .get(i + 2)
                .and_then(Token::word)
                .is_some_and(|w| matches!(w, "us" | "them"));
        if of_us {
            out.push(Token {
                tok: Tok::Word("people".into()),
                ..toks[i + 1].clone()
            });
            changed = true;
            i += 3;
            continue;
        }
        i += 1;
    }
    changed.then_some(out)
}

/// `value` people, as two tokens in the places of `number` and `word`.
fn people(value: impl Into<String>, number: &Token, word: &Token) -> [Token; 2] {
    [
        Token {
            tok: Tok::Num(value.into()),
            ..number.clone()
        },
        Token {
            tok: Tok::Word("people".into()),
            ..word.clone()
        },
    ]
}
