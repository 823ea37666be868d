//! A new headcount for the last split, said as people say who comes and who goes: `and
//! if 2 more join`, `what if 2 guys dont come`, `and if we get a 5th roommate?`, `what if
//! jake joins, so 5`, `what if jess moves out n its just 2 of us`, `nếu 2 người không đi`,
//! `chỉ còn 3 người thì sao`. The last question is asked again with its count of sharers
//! replaced; the share is never divided again.

use super::roles::{Role, role_at};
use super::splice;
use crate::lexer::{Tok, Token, words_at};

/// Words that say someone comes: the count after them (or before) is added.
const COMING: &[&str] = &[
    "join", "joins", "joined", "joining", "come", "comes", "coming", "came", "tags", "tag",
];

/// Phrases that say someone stays away or leaves: the count is taken off.
const GOING: &[&[&str]] = &[
    &["dont", "come"],
    &["don't", "come"],
    &["doesnt", "come"],
    &["doesn't", "come"],
    &["cant", "come"],
    &["can't", "come"],
    &["cannot", "come"],
    &["cant", "make", "it"],
    &["can't", "make", "it"],
    &["drop", "out"],
    &["drops", "out"],
    &["dropped", "out"],
    &["bail"],
    &["bails"],
    &["moves", "out"],
    &["move", "out"],
    &["leaves"],
    &["leave"],
    &["không", "đi"],
    &["không", "đến"],
    &["không", "tới"],
    &["rút"],
    &["nghỉ"],
];

/// Words before a count that make it the whole new count: `its just 2 of us`, `chỉ còn 3
/// người`, `so 5`, `thêm con Linh nữa là 5 người`.
const WHOLE_BEFORE: &[&str] = &["just", "only", "so", "making", "còn", "chỉ", "là"];

/// Words naming the people counted (besides the sharers' own words of `role_at`).
const PEOPLE: &[&str] = &[
    "guys",
    "guy",
    "people",
    "ppl",
    "friends",
    "friend",
    "roommate",
    "roommates",
    "flatmate",
    "flatmates",
    "housemate",
    "housemates",
    "person",
    "persons",
    "kids",
    "guests",
    "người",
    "bạn",
    "đứa",
];

/// Words naming people paid, counted in the last question as a count the follow-up may
/// change (`what if i bring a 4th guy` after `3 workers x $260/day x 5 days`).
const WORKERS: &[&str] = &["workers", "worker", "thợ", "staff", "helpers", "porters"];

/// Ordinal endings after a number: `a 5th roommate`.
const ORDINAL: &[&str] = &["th", "st", "nd", "rd"];

/// What the follow-up says of the count.
enum Change {
    /// So many more than before.
    More(u64),
    /// So many fewer than before.
    Fewer(u64),
    /// The whole count now.
    Now(u64),
}

/// `previous` with its one count of sharers replaced by the count `toks` (the
/// follow-up, normalised and lexed) says, or `None` when it says none or the last
/// question counted no sharers.
pub(super) fn recount(previous: &str, toks: &[Token]) -> Option<String> {
    recount_counted(previous, toks, false)
}

/// [`recount`] where the last question counted the speaker beside the others (`split
/// between me and 3 friends`): read before any other replacement, which would take
/// the 3 for all the sharers.
pub(super) fn recount_beside_me(previous: &str, toks: &[Token]) -> Option<String> {
    recount_counted(previous, toks, true)
}

fn recount_counted(previous: &str, toks: &[Token], beside_me: bool) -> Option<String> {
    let change = change_of(toks)?;
    let ptoks = crate::lexer::lex(previous);
    // (`split between me and 2 other au pairs`: the speaker is one more.)
    let with_me = |k: usize| {
        k >= 2
            && matches!(ptoks[k - 1].word(), Some("and" | "và"))
            && matches!(ptoks[k - 2].word(), Some("me" | "mình" | "tôi"))
    };
    let counts: Vec<usize> = (0..ptoks.len())
        .filter(|&k| matches!(ptoks[k].tok, Tok::Num(_)))
        .filter(|&k| {
            with_me(k)
                || matches!(role_at(&ptoks, k).0, Role::People | Role::Divisor)
                // (`3 workers x $260/day x 5 days`: people paid, counted.)
                || ptoks
                    .get(k + 1)
                    .and_then(Token::word)
                    .is_some_and(|w| PEOPLE.contains(&w) || WORKERS.contains(&w))
        })
        .collect();
    let [at] = counts.as_slice() else {
        return None;
    };
    if beside_me && !with_me(*at) {
        return None;
    }
    let old: u64 = ptoks[*at].number()?.parse().ok()?;
    // (The others counted beside the speaker: `me and 3 other au pairs` for 4.)
    let me = u64::from(with_me(*at));
    let old = old + me;
    let new = match change {
        Change::More(n) => old.checked_add(n)?,
        Change::Fewer(n) => old.checked_sub(n)?,
        Change::Now(n) => n,
    };
    (new > me && new != old).then(|| {
        splice(
            previous,
            (ptoks[*at].start, ptoks[*at].end),
            &(new - me).to_string(),
        )
    })
}

/// The change of count `toks` say, when they say one and name no other number.
fn change_of(toks: &[Token]) -> Option<Change> {
    let word = |k: usize| toks.get(k).and_then(Token::word);
    let nums: Vec<usize> = (0..toks.len())
        .filter(|&k| matches!(toks[k].tok, Tok::Num(_)))
        .collect();
    // (`dont come` goes: its `come` comes to nothing.)
    let going_at = (0..toks.len()).find_map(|k| {
        GOING
            .iter()
            .find(|p| words_at(toks, k, p))
            .map(|p| k..k + p.len())
    });
    let going = going_at.is_some();
    let coming = (0..toks.len()).any(|k| {
        toks[k].word().is_some_and(|w| COMING.contains(&w))
            && !going_at.as_ref().is_some_and(|r| r.contains(&k))
    });
    if coming && going {
        return None;
    }
    let people_after = |k: usize| {
        word(k + 1).is_some_and(|w| PEOPLE.contains(&w) || WORKERS.contains(&w))
            || matches!(role_at(toks, k).0, Role::People)
    };
    // (`chia đôi đi` after a split among 3: between two now.)
    let halves = (0..toks.len()).any(|k| words_at(toks, k, &["chia", "đôi"]));
    match nums.as_slice() {
        [] if halves => Some(Change::Now(2)),
        [] => {
            // `what if jake joins`: one more; `jess moves out`: one fewer — someone named
            // before the verb (never `it comes with fries`).
            let verb = (0..toks.len()).find(|&k| {
                toks[k].word().is_some_and(|w| COMING.contains(&w))
                    || GOING.iter().any(|p| words_at(toks, k, p))
            })?;
            let named = verb
                .checked_sub(1)
                .and_then(word)
                .is_some_and(|w| !matches!(w, "it" | "that" | "this" | "what" | "which" | "if"));
            match (named, coming, going) {
                (true, true, false) => Some(Change::More(1)),
                (true, false, true) => Some(Change::Fewer(1)),
                _ => None,
            }
        }
        [k] => {
            let k = *k;
            let n: u64 = toks[k].number()?.parse().ok()?;
            // (`5th` lexes as the number and its ending.)
            let ordinal = word(k + 1).is_some_and(|w| ORDINAL.contains(&w))
                && toks[k + 1].start == toks[k].end;
            if ordinal && !going {
                // `a 5th roommate`: there are five now.
                return Some(Change::Now(n));
            }
            let whole = k
                .checked_sub(1)
                .and_then(word)
                .is_some_and(|w| WHOLE_BEFORE.contains(&w));
            if whole && (people_after(k) || coming || going || toks.len() == k + 1) {
                return Some(Change::Now(n));
            }
            // (`what about if 4 of us split it`: the sharers, all of them.)
            let splits = toks[k + 1..].iter().any(|t| {
                t.word()
                    .is_some_and(|w| matches!(w, "split" | "share" | "chia" | "divide"))
            });
            if splits && people_after(k) && !coming && !going {
                return Some(Change::Now(n));
            }
            let more = matches!(word(k + 1), Some("more" | "extra" | "thêm"))
                || k.checked_sub(1)
                    .and_then(word)
                    .is_some_and(|w| matches!(w, "thêm" | "another"));
            // (`2 more join`, `2 guys dont come`: the count is of people who come or go,
            // never `it comes to 500`.)
            let verb_next = word(k + 1 + usize::from(more)).is_some_and(|w| COMING.contains(&w));
            if !(people_after(k) || verb_next || more && people_after(k + 1)) {
                return None;
            }
            match (coming || more, going) {
                (true, false) => Some(Change::More(n)),
                (false, true) => Some(Change::Fewer(n)),
                _ => None,
            }
        }
        // `what if 2 people bail and its only 3 of us`: the whole count said wins.
        many => {
            let whole: Vec<usize> = many
                .iter()
                .copied()
                .filter(|&k| {
                    k.checked_sub(1)
                        .and_then(word)
                        .is_some_and(|w| WHOLE_BEFORE.contains(&w))
                        && people_after(k)
                })
                .collect();
            let [k] = whole.as_slice() else {
                return None;
            };
            Some(Change::Now(toks[*k].number()?.parse().ok()?))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::recount;

    fn follow(previous: &str, query: &str) -> Option<String> {
        let text = crate::normalise::normalise(query, None).text;
        recount(previous, &crate::lexer::lex(&text))
    }

    #[test]
    fn people_coming_and_going_change_the_count() {
        let split = "split 120 between 4 people";
        assert_eq!(
            follow(split, "and if 2 more join").as_deref(),
            Some("split 120 between 6 people")
        );
        assert_eq!(
            follow(split, "what if 2 guys dont come").as_deref(),
            Some("split 120 between 2 people")
        );
        assert_eq!(
            follow(split, "what if jake joins").as_deref(),
            Some("split 120 between 5 people")
        );
        assert_eq!(
            follow(split, "and if we get a 6th roommate").as_deref(),
            Some("split 120 between 6 people")
        );
        assert_eq!(
            follow(split, "what if jess moves out n its just 3 of us").as_deref(),
            Some("split 120 between 3 people")
        );
        assert_eq!(
            follow("chia 1200000 cho 6 người", "nếu 2 người không đi").as_deref(),
            Some("chia 1200000 cho 4 người")
        );
    }

    #[test]
    fn other_numbers_and_no_split_are_no_new_count() {
        // A total, not people: nothing to recount.
        assert_eq!(
            follow("split 120 between 4 people", "what if it comes to 150"),
            None
        );
        // The last question counted nobody.
        assert_eq!(follow("15% of 80", "what if 2 more join"), None);
        // More leaving than there were.
        assert_eq!(
            follow("split 120 between 2 people", "what if 3 guys dont come"),
            None
        );
    }
}
