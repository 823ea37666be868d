//! Counts within counts: `chạy 3 chuyến, mỗi chuyến 18 bao, mỗi bao 50 ký, tổng bao
//! nhiêu ký` is 3 × 18 × 50; `3 trips, 18 sacks each trip, 50 kg a sack`, `bao 50 ký`
//! (a container named before what it holds) alike. Each count after the first is said
//! for one of the thing counted before it, so the answer is their product — never
//! their sum, nor two answers.

use crate::expr::{Expr, MathOp};
use crate::frames::vocabulary::{COUNTS_ASKED, PRICE_WORDS};
use crate::lexer::Token;
use crate::normalise::fold::fold;

/// Words before a thing that make the number beside it a count for one of it (`mỗi
/// chuyến 18 bao`, `18 bao mỗi chuyến`, `50 kg a sack`).
const ONE_OF: &[&str] = &["mỗi", "each", "every", "per", "a", "an", "1", "một"];

/// Words asking the total.
const ASKING: &[&[&str]] = &[
    &["bao", "nhiêu"],
    &["bn"],
    &["mấy"],
    &["how", "many"],
    &["how", "much"],
    &["total"],
    &["tổng"],
];

/// A number in the request and what it counts (empty for an amount that names none:
/// `35 một ngày`); `per`, the things one of which holds it (`mỗi bộ 35 một ngày`: one
/// set for one day).
#[derive(Debug)]
struct Link {
    value: String,
    noun: String,
    per: Vec<String>,
}

/// `word` lowercase, without marks, singular (`trips` is `trip`).
fn thing(word: &str) -> String {
    let w = fold(&word.to_lowercase());
    // (`boxes`, `batches`: `es` after a hissing end.)
    if let Some(stem) = w.strip_suffix("es")
        && ["x", "s", "sh", "ch"].iter().any(|e| stem.ends_with(e))
    {
        return stem.to_owned();
    }
    match w.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 => stem.to_owned(),
        _ => w,
    }
}

/// Whether `toks[k]` is a word of [`ONE_OF`] (or the number 1) with a thing after it.
fn one_of(toks: &[Token], k: usize) -> Option<String> {
    let marker = toks.get(k)?;
    let is_marker = marker.number() == Some("1")
        || marker
            .word()
            .is_some_and(|w| ONE_OF.contains(&w.to_lowercase().as_str()));
    let noun = toks.get(k + 1)?.word()?;
    is_marker.then(|| thing(noun))
}

/// The counts of `toks`, each with what it counts and what one of holds it; `None` when
/// a number is neither (a price, a percentage, a bare number).
fn links(toks: &[Token]) -> Option<Vec<Link>> {
    let mut links: Vec<Link> = Vec::new();
    let mut markers = Vec::new();
    // (`1 ngày chạy 3 chuyến`: a 1 before a thing, a verb or two, then a count: the
    // count is for one of it.)
    let mut pending: Option<String> = None;
    for k in 0..toks.len() {
        let Some(value) = toks[k].number() else {
            continue;
        };
        // (`1 chuyến 18 bao`: a 1 before a thing and a count says `for one`.)
        let marks_next = value == "1" && toks.get(k + 2).is_some_and(|t| t.number().is_some());
        if markers.contains(&k) || marks_next {
            continue;
        }
        let opens_for_one = value == "1"
            && k == 0
            && (k + 2..(k + 5).min(toks.len())).any(|j| toks[j].number().is_some())
            && toks[k + 1..]
                .iter()
                .take_while(|t| t.number().is_none())
                .all(|t| t.word().is_some());
        if opens_for_one {
            let one = thing(toks.get(k + 1)?.word()?);
            links.push(Link {
                value: value.to_owned(),
                noun: one.clone(),
                per: Vec::new(),
            });
            pending = Some(one);
            continue;
        }
        // (`35 một ngày`, `95 nghìn 1 ký`: an amount for one of a thing, naming nothing
        // it counts.)
        let for_one = one_of(toks, k + 1);
        if for_one.is_some() && toks[k + 1].number().is_some() {
            markers.push(k + 1);
        }
        // (`22 khách vé 250k,`: a price said after what it is for, of one of it.)
        let priced = k > 0
            && toks[k - 1].word().is_some_and(|w| PRICE_WORDS.contains(&w))
            && toks.get(k + 1).is_none_or(|t| t.word().is_none());
        if priced {
            let of = links.last()?.noun.clone();
            links.push(Link {
                value: value.to_owned(),
                noun: String::new(),
                per: vec![of],
            });
            continue;
        }
        let noun = match for_one {
            Some(_) => String::new(),
            None => thing(toks.get(k + 1)?.word()?),
        };
        // `mỗi chuyến 18 bao`; `bao 50 ký`, the container counted before.
        let before = k
            .checked_sub(2)
            .and_then(|j| one_of(toks, j))
            .filter(|_| k >= 1 && toks[k - 1].word().is_some())
            .or_else(|| {
                // (Only opening a clause: `tháng 3 năm`, `nhân 45 cộng` name no
                // container.)
                let opens = k < 2 || toks[k - 2].is_sym(',') || toks[k - 2].is_sym(';');
                let w = thing(toks.get(k.checked_sub(1)?)?.word()?);
                (opens && links.last().is_some_and(|l| l.noun == w)).then_some(w)
            });
        // `18 sacks each trip`, `50 ký 1 bao` (never its own thing: `3 chuyến mỗi
        // chuyến 18 bao` opens the next count).
        let said_for_one = for_one.is_some();
        let after = for_one.or_else(|| one_of(toks, k + 2).filter(|w| *w != noun));
        if !said_for_one && after.is_some() && toks[k + 2].number().is_some() {
            markers.push(k + 2);
        }
        let context = pending.take();
        links.push(Link {
            value: value.to_owned(),
            noun,
            per: before.into_iter().chain(after).chain(context).collect(),
        });
    }
    Some(links)
}

/// The product of counts within counts that `toks` say, with the total asked; `None`
/// unless every number is one link of one chain of three or more.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    let asks = crate::lexer::says(toks, ASKING) || crate::lexer::says(toks, COUNTS_ASKED);
    if !asks || toks.iter().any(|t| t.is_sym('%')) {
        return None;
    }
    // (`1 thùng bia 24 lon giá 312.000, mỗi lon bao nhiêu`: one of a thing asked after
    // the numbers is a price of one, no product.)
    let last = crate::lexer::number_positions(toks).last().copied()?;
    let asked_at = |j: usize| ASKING.iter().any(|p| crate::lexer::words_at(toks, j, p));
    let one_asked = (last + 1..toks.len()).any(|j| {
        toks[j].number().is_none()
            && one_of(toks, j).is_some()
            && (asked_at(j + 2)
                || toks.get(j + 2).and_then(Token::word) == Some("là") && asked_at(j + 3))
    });
    if one_asked {
        return None;
    }
    let links = links(toks)?;
    if links.len() < 3 {
        return None;
    }
    let product = |links: &[&Link]| {
        Expr::chain(
            MathOp::Multiply,
            links
                .iter()
                .map(|l| Expr::Num(l.value.clone()))
                .collect::<Vec<_>>(),
        )
    };
    let all: Vec<&Link> = links.iter().collect();
    if linked(&all) {
        return product(&all);
    }
    // (`làm 3 mẻ, mỗi mẻ 48 cái, 4 cái một hộp, được mấy hộp`: the last thing packed so
    // many to one of the thing asked — the product divided, when it comes out whole.)
    let asked = asked_thing(toks)?;
    let packs: Vec<usize> = (0..all.len())
        .filter(|&i| all[i].per == [asked.clone()])
        .collect();
    let [at] = packs[..] else { return None };
    let pack = all[at];
    let rest: Vec<&Link> = (0..all.len())
        .filter(|&i| i != at)
        .map(|i| all[i])
        .collect();
    let whole = rest
        .iter()
        .try_fold(1f64, |acc, l| Some(acc * l.value.parse::<f64>().ok()?))?;
    let size: f64 = pack.value.parse().ok()?;
    let fits = linked(&rest)
        && rest.iter().any(|l| l.noun == pack.noun)
        && !rest.iter().any(|l| l.noun == asked)
        && size > 0.0
        && (whole / size).fract() == 0.0;
    fits.then(|| {
        Some(Expr::bin(
            MathOp::Divide,
            product(&rest)?,
            Expr::Num(pack.value.clone()),
        ))
    })?
}

/// Whether `links` are counts within counts: every thing one of which holds a count is
/// what one other link counts, every link holds or is held, no thing counted twice.
fn linked(links: &[&Link]) -> bool {
    let counts = |thing: &str| links.iter().filter(|l| l.noun == thing).count();
    // (Two prices of one thing are a profit's, never one product: `nhập 40 hộp giá
    // 48k, bán 65k một hộp`.)
    let prices = |per: &[String]| {
        links
            .iter()
            .filter(|l| l.noun.is_empty() && l.per == per)
            .count()
    };
    let distinct = links.iter().all(|l| match l.noun.is_empty() {
        true => prices(&l.per) == 1,
        false => counts(&l.noun) == 1,
    });
    let held = links
        .iter()
        .all(|l| l.per.iter().all(|p| counts(p) == 1 && *p != l.noun));
    let joined = links
        .iter()
        .all(|l| !l.per.is_empty() || links.iter().any(|o| o.per.contains(&l.noun)));
    // (One problem, all its counts joined: `3 cái 25k một cái với 2 ly 35k một ly` is
    // two items priced, never one product.)
    let mut reached = vec![false; links.len()];
    reached[0] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for i in 0..links.len() {
            for j in 0..links.len() {
                let joined =
                    links[i].per.contains(&links[j].noun) || links[j].per.contains(&links[i].noun);
                if reached[i] && !reached[j] && joined {
                    reached[j] = true;
                    grew = true;
                }
            }
        }
    }
    distinct
        && held
        && joined
        && reached.iter().all(|r| *r)
        && links.iter().any(|l| !l.per.is_empty())
}

/// The thing a count is asked of (`mấy hộp`, `how many boxes`).
fn asked_thing(toks: &[Token]) -> Option<String> {
    const HOW_MANY: &[&[&str]] = &[&["mấy"], &["bao", "nhiêu"], &["bn"], &["how", "many"]];
    crate::lexer::after_phrases(toks, HOW_MANY)
        .find_map(|at| toks.get(at)?.word())
        .map(thing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn product(q: &str) -> Option<Vec<String>> {
        let Expr::Op(MathOp::Multiply, _) = parse(&lex(q))? else {
            return None;
        };
        fn nums(e: &Expr, out: &mut Vec<String>) {
            match e {
                Expr::Num(n) => out.push(n.clone()),
                Expr::Op(_, args) => args.iter().for_each(|a| nums(a, out)),
            }
        }
        let mut out = Vec::new();
        nums(&parse(&lex(q))?, &mut out);
        Some(out)
    }

    #[test]
    fn counts_within_counts_multiply() {
        let three = Some(vec!["3".to_owned(), "18".to_owned(), "50".to_owned()]);
        let q = "làm 3 mẻ, mỗi mẻ 48 cái, 4 cái một hộp, được mấy hộp";
        assert!(matches!(parse(&lex(q)), Some(Expr::Op(MathOp::Divide, _))));
        let q = "chạy 3 chuyến mỗi chuyến 18 bao, bao 50 ký, tổng cộng bao nhiêu ký";
        assert_eq!(product(q), three);
        let q = "chạy 3 chuyến, 1 chuyến 18 bao, 1 bao 50 ký, tổng cộng bao nhiêu ký";
        assert_eq!(product(q), three);
        let q = "3 trips, 18 sacks each trip, 50 kg a sack, how many kg in total";
        assert_eq!(product(q), three);
    }

    #[test]
    fn anything_but_one_chain_is_left_alone() {
        // Two things, no chain; a percentage; a count for nothing said before.
        assert_eq!(
            parse(&lex("3 chuyến mỗi chuyến 18 bao, tổng bao nhiêu bao")),
            None
        );
        assert_eq!(
            parse(&lex("4 hộp, mỗi hộp 6 cái, giảm 10%, tổng bao nhiêu")),
            None
        );
        assert_eq!(
            parse(&lex("3 trips and 18 sacks and 50 kg, how many")),
            None
        );
    }
}
