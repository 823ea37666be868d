//! A number in place of the number of the same kind (`15%`, `6 people`, `of 150`).

use super::words::{
    FEWER_WORDS, JOIN_WORDS, MORE_WORDS, OPERATION_WORDS, PREPOSITIONS, PRICE_MOVES,
};
use super::{Decided, Parts, nearest_in_size, price_word, same_unit_counted};
use crate::lexer::{Tok, Token, words_at};
use crate::recall::ellipsis::NUMBER_DRESSING;
use crate::recall::roles::{BASE_BEFORE, COUNT_WORDS, PEOPLE_AFTER, PEOPLE_BEFORE, Role, role_at};
use crate::recall::splice;

/// The follow-up's one number, as the replacing reads it.
struct Number {
    /// The follow-up's tokens, without the words saying more, fewer or who joins.
    core: Vec<Token>,
    /// Where the number is in `core`.
    i: usize,
    /// What the number is to the request, and how many tokens after it say so.
    role: Role,
    marked: usize,
    /// `2 more people`, `2 fewer people`: the count is relative.
    more: bool,
    fewer: bool,
    /// The new value a price moved to (`raise it to ¥1,280`).
    moved_to: bool,
}

/// A follow-up with one number: decides when it has exactly one.
pub(super) fn number_for_number(p: &Parts) -> Decided {
    let nums: Vec<usize> = (0..p.core.len())
        .filter(|&i| matches!(p.core[i].tok, Tok::Num(_)))
        .collect();
    let [_] = nums.as_slice() else {
        return None;
    };
    Some(number_replaced(p))
}

/// `what if friday was 80 not 48`, `80 instead of 48`: the number said second, found
/// once in the last question, replaced by the one said first.
pub(super) fn swapped(p: &Parts) -> Decided {
    let nums: Vec<usize> = (0..p.core.len())
        .filter(|&i| matches!(p.core[i].tok, Tok::Num(_)))
        .collect();
    let [a, b] = nums.as_slice() else {
        return None;
    };
    let between = &p.core[a + 1..*b];
    let says = |w: &[&str]| (0..between.len()).any(|i| words_at(between, i, w));
    if !(says(&["not"])
        || says(&["instead", "of"])
        || says(&["thay", "vì"])
        || says(&["chứ", "không"]))
    {
        return None;
    }
    let (new, old) = (p.core[*a].number()?, p.core[*b].number()?);
    let found: Vec<&Token> = p.ptoks.iter().filter(|t| t.number() == Some(old)).collect();
    let [at] = found.as_slice() else {
        return Some(None);
    };
    Some(Some(splice(p.previous, (at.start, at.end), new)))
}

/// `previous` with the number the follow-up's one number stands for replaced.
fn number_replaced(p: &Parts) -> Option<String> {
    let n = read_number(p.core)?;
    if !only_dresses(&n, &p.ptoks) {
        return None;
    }
    let pnums = numbers_of(&p.ptoks, n.role);
    let at = match n.role {
        Role::Plain if pnums.len() == 1 => pnums[0],
        Role::Plain => plain_replaced(p, &n, &pnums)?,
        _ => role_replaced(&p.ptoks, &n, &pnums)?,
    };
    let new = new_value(p, &n, at)?;
    Some(splice(
        p.previous,
        (p.ptoks[at].start, p.ptoks[at].end),
        &new,
    ))
}

/// The follow-up's number, what it is to the request and the words around it.
fn read_number(core: &[Token]) -> Option<Number> {
    // `2 more people`: the count is relative, and `people` says what it counts.
    let more = core
        .iter()
        .any(|t| t.word().is_some_and(|w| MORE_WORDS.contains(&w)));
    let fewer = core
        .iter()
        .any(|t| t.word().is_some_and(|w| FEWER_WORDS.contains(&w)));
    let core: Vec<Token> = core
        .iter()
        .filter(|t| {
            !t.word()
                .is_some_and(|w| MORE_WORDS.contains(&w) || FEWER_WORDS.contains(&w))
        })
        .cloned()
        .collect();
    // (`and if 2 more join`: people who come.)
    let joins = core
        .iter()
        .any(|t| t.word().is_some_and(|w| JOIN_WORDS.contains(&w)));
    let core: Vec<Token> = core
        .iter()
        .filter(|t| !(joins && t.word().is_some_and(|w| JOIN_WORDS.contains(&w))))
        .cloned()
        .collect();
    let i = (0..core.len()).find(|&i| matches!(core[i].tok, Tok::Num(_)))?;
    let (role, marked) = match role_at(&core, i) {
        (Role::Plain, _) if joins && (more || fewer) => (Role::People, 0),
        found => found,
    };
    // (`what if they raise it to ¥1,280`: the new value, no change applied.)
    let moved_to = i > 0
        && core[i - 1]
            .word()
            .is_some_and(|w| matches!(w, "to" | "lên" | "xuống"));
    Some(Number {
        core,
        i,
        role,
        marked,
        more,
        fewer,
        moved_to,
    })
}

/// Whether every other word only dresses the number or is the last question's own
/// (`what if it's 40% off` after `35% off 240`): a follow-up with words of its own
/// ("nhân thêm 3 nữa", "then 3 more") says what to do with it, and is no
/// ellipsis — replacing the number would answer another question.
fn only_dresses(n: &Number, ptoks: &[Token]) -> bool {
    let (core, i, role) = (n.core.as_slice(), n.i, n.role);
    let (more, fewer) = (n.more, n.fewer);
    let pwords: Vec<&str> = ptoks.iter().filter_map(Token::word).collect();
    let priced_follow = core.iter().any(|t| t.word().is_some_and(price_word));
    for (j, t) in core.iter().enumerate() {
        let Some(w) = t.word() else {
            continue;
        };
        // (`and at 60%?`: a percentage's own preposition.)
        let at_percent = j + 1 == i && role == Role::Percent && matches!(w, "at" | "với" | "ở");
        let role_word = at_percent
            || j + 1 == i && (PEOPLE_BEFORE.contains(&w) || BASE_BEFORE.contains(&w))
            || matches!(role, Role::Divisor | Role::People)
                && j < i
                && matches!(w, "chia" | "cho" | "divided" | "by" | "split");
        // `and the kitchen, 18 m2?`: a name for what the same unit now counts.
        // (Only a name before the number: `10 weeks before today` is no name.)
        let labels_unit = role == Role::Plain
            && j < i
            && same_unit_counted(ptoks, core, i)
            && !OPERATION_WORDS.contains(&w)
            && !crate::tolerant::DATE_WORDS.contains(&w);
        if labels_unit {
            continue;
        }
        if j > i && j <= i + n.marked || role_word {
            continue;
        }
        // (`thêm 40 lít nữa thì tổng là bao nhiêu`: more of it, the total asked.)
        let total_of_more = (more || fewer) && matches!(w, "tổng" | "total" | "altogether");
        // (`thoi chia 3 thoi`: `thôi`, "just", typed without marks and left so.)
        let just = crate::normalise::fold::fold(w) == crate::normalise::fold::fold("thôi");
        if !(NUMBER_DRESSING.contains(&w)
            || just
            || total_of_more
            || price_word(w)
            || (priced_follow || n.moved_to) && PRICE_MOVES.contains(&w)
            || (pwords.contains(&w) || pwords.contains(&w.trim_end_matches('s')))
                && !OPERATION_WORDS.contains(&w))
        {
            return false;
        }
    }
    true
}

/// The numbers of `ptoks` one of `role` may replace: `split $180 four ways`, a count in
/// words is the count it replaces.
fn numbers_of(ptoks: &[Token], role: Role) -> Vec<usize> {
    (0..ptoks.len())
        .filter(|&k| {
            matches!(ptoks[k].tok, Tok::Num(_))
                || role == Role::People
                    && ptoks[k].word().is_some_and(|w| COUNT_WORDS.contains(&w))
                    && PEOPLE_AFTER.iter().any(|p| words_at(ptoks, k + 1, p))
        })
        .collect()
}

/// Of several numbers `pnums`, the one a plain number replaces: `còn nếu mua 10 hộp
/// thì sao` after `mua 4 hộp … giá 32.500 một hộp`, the number counted in the same unit;
/// `nếu giá tăng lên 25.500` after `giá xăng 24.000 một lít …`, the price.
fn plain_replaced(p: &Parts, n: &Number, pnums: &[usize]) -> Option<usize> {
    let (ptoks, core, i) = (&p.ptoks, n.core.as_slice(), n.i);
    let unit = core.get(i + 1).and_then(Token::word);
    // (`and for 9 hours?` after `7.5 hr shift`: one unit however spelt.)
    let said = unit.map(crate::everyday::unit_of);
    let mut counted: Vec<usize> = pnums
        .iter()
        .copied()
        .filter(|&k| {
            said.as_ref().is_some_and(|u| {
                ptoks
                    .get(k + 1)
                    .and_then(Token::word)
                    .is_some_and(|w| crate::everyday::unit_of(w) == *u)
            })
        })
        .collect();
    // (`1 tháng trả góp 2tr1, 18 tháng tổng bao nhiêu`: `1 tháng` says what
    // the rate is for; the count replaced is the other.)
    if counted.len() == 2 {
        counted.retain(|&k| ptoks[k].number() != Some("1"));
    }
    let priced = core.iter().any(|t| t.word().is_some_and(price_word));
    let price_at = pnums
        .iter()
        .copied()
        .filter(|&k| (k.saturating_sub(3)..k).any(|j| ptoks[j].word().is_some_and(price_word)));
    let at = match (counted.as_slice(), priced) {
        ([k], _) => *k,
        // (`còn nếu ngày 3 viên thì sao` after `hộp 60 viên, ngày uống 2
        // viên`; `chuyến 760 km` after `chuyến 520 km, 28 lít/100 km`: of the
        // numbers counted in the unit, the one nearest in size.)
        ([_, _, ..], false) => nearest_in_size(ptoks, &counted, core[i].number()?)?,
        // (`and for 32 hrs?` after `27.50 an hour times 40`: the unit is the
        // rate's, and the count said bare is the one nearest in size.)
        ([], false)
            if unit.is_some_and(|u| {
                let u = u.trim_end_matches('s');
                ptoks.iter().any(|t| t.word() == Some(u))
            }) =>
        {
            rate_count(ptoks, pnums, unit, core[i].number()?)?
        }
        // (`gia len 38k thi sao` after `… 36k 1 chục …`: no word names the
        // price there; the number nearest in size.)
        ([], true) => match price_at.collect::<Vec<_>>().as_slice() {
            [k] => *k,
            [] => nearest_in_size(ptoks, pnums, core[i].number()?)?,
            _ => return None,
        },
        ([], false) if unit.is_none() || n.moved_to => after_same_preposition(p, n, pnums)?,
        _ => return None,
    };
    Some(at)
}

/// Of `pnums`, the count a bare count `new` in the rate's `unit` replaces: the one
/// nearest in size, never the rate itself.
fn rate_count(ptoks: &[Token], pnums: &[usize], unit: Option<&str>, new: &str) -> Option<usize> {
    // (Never the rate itself: `12/hr`, `27.50 an hour`.)
    let tied = |k: usize| {
        matches!(
            ptoks.get(k + 1).and_then(Token::word),
            Some("an" | "a" | "per")
        ) || ptoks.get(k + 1).is_some_and(|t| t.is_sym('/'))
    };
    // (A bare count, nothing after it naming what else it counts:
    // `times 40`, never `the 3 of us`.)
    let bare = |k: usize| {
        ptoks
            .get(k + 1)
            .is_none_or(|t| t.word().is_none() || t.word() == unit)
    };
    let untied: Vec<usize> = pnums
        .iter()
        .copied()
        .filter(|&k| !tied(k) && bare(k))
        .collect();
    nearest_in_size(ptoks, &untied, new)
}

/// Of `pnums`, the number after the preposition the follow-up's number has (`what
/// about at 172` after `… at 169 dong per yen`), else the one nearest in size; `and
/// for 3?` after `recipe for 4 … how much for 10 people` reads two ways.
fn after_same_preposition(p: &Parts, n: &Number, pnums: &[usize]) -> Option<usize> {
    let (ptoks, core, i) = (&p.ptoks, n.core.as_slice(), n.i);
    let ftoks = crate::lexer::lex(p.follow);
    let k = ftoks.iter().position(|t| t.start == core[i].start)?;
    let prep = k
        .checked_sub(1)
        .and_then(|j| ftoks[j].word())
        .filter(|w| PREPOSITIONS.contains(w));
    let after_prep: Vec<usize> = pnums
        .iter()
        .copied()
        .filter(|&k| k > 0 && prep.is_some() && ptoks[k - 1].word() == prep)
        .collect();
    match after_prep.as_slice() {
        [k] => Some(*k),
        [] => nearest_in_size(ptoks, pnums, core[i].number()?),
        _ => None,
    }
}

/// Of `pnums`, the one number of the follow-up's role (a count of sharers and a
/// divisor stand for each other: `and for 5 people?` after `219.952 / 4`, `chia 3`
/// after `… cho 4 nhà`).
fn role_replaced(ptoks: &[Token], n: &Number, pnums: &[usize]) -> Option<usize> {
    let of_role = |r: Role| -> Vec<usize> {
        pnums
            .iter()
            .copied()
            .filter(|&k| role_at(ptoks, k).0 == r)
            .collect()
    };
    let mut found = of_role(n.role);
    if found.is_empty() {
        found = match n.role {
            Role::People => of_role(Role::Divisor),
            Role::Divisor => of_role(Role::People),
            _ => Vec::new(),
        };
    }
    // (`nếu chia 6 đợt thì sao` after `đóng 4 đợt, mỗi đợt bao nhiêu`: the
    // number counted in the same unit is what was divided by.)
    if found.is_empty() && n.role == Role::Divisor {
        let unit = n.core.get(n.i + 1).and_then(Token::word);
        found = pnums
            .iter()
            .copied()
            .filter(|&k| unit.is_some() && ptoks.get(k + 1).and_then(Token::word) == unit)
            .collect();
    }
    match found.as_slice() {
        [k] => Some(*k),
        _ => None,
    }
}

/// The number written in place of the one at `at`: the follow-up's, or one more (or
/// fewer) than before.
fn new_value(p: &Parts, n: &Number, at: usize) -> Option<String> {
    let (core, i) = (n.core.as_slice(), n.i);
    let Tok::Num(new) = &core[i].tok else {
        return None;
    };
    let new = match (n.more, n.fewer) {
        (false, false) => p.follow[core[i].start..core[i].end].to_owned(),
        // One more (or fewer) than before: only a count is counted on.
        // (`còn nếu làm thêm 5 ngày nữa thì sao` after `… làm 15 ngày …`: the days
        // counted in the same unit, five more.)
        (true, false) | (false, true)
            if n.role == Role::People || same_unit_counted(&p.ptoks, core, i) =>
        {
            let Tok::Num(old) = &p.ptoks[at].tok else {
                return None;
            };
            let (old, by): (u64, u64) = (old.parse().ok()?, new.parse().ok()?);
            match n.more {
                true => old.checked_add(by)?,
                false => old.checked_sub(by).filter(|n| *n > 0)?,
            }
            .to_string()
        }
        _ => return None,
    };
    Some(new)
}
