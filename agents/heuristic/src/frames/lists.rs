//! A list of amounts with one list operation asked.

use crate::arith::{ListOp, list_expr};
use crate::expr::Expr;
use crate::lexer::{Tok, Token};

use super::roles::*;
use super::vocabulary::*;
use super::words::*;

/// Whether the cue `p` found at `i` (compared folded) is no other word typed with its
/// marks: `tiền công` (wages) is no `cộng` (add up). (Only `cộng`: other cues typed a
/// little wrong, `nhiêu nhất` for `nhiều nhất`, are still theirs.)
fn typed_as(w: &Words, i: usize, p: &[&str]) -> bool {
    p != ["cộng"] || super::words::listed(w, i, &["cộng"])
}

/// The first word a count counts (`11,8 km` → `km`).
fn first_noun_of(x: &Quantity) -> Option<&String> {
    match &x.role {
        Role::Count(nouns) => nouns.first(),
        _ => None,
    }
}

/// Whether every operator between two numbers is a `+`.
pub(super) fn only_plus_between(toks: &[Token]) -> bool {
    toks.windows(3).all(|t| {
        !(t[0].number().is_some()
            && matches!(t[1].tok, Tok::Sym('-' | '^' | '=' | '*' | '/'))
            && t[2].number().is_some())
    }) && !toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Sym('(' | ')' | '^' | '=')))
}

/// A list of three or more amounts with one list operation asked (`my grades this yr:
/// 6, 7, 5, 6, 7. whats my gpa`, `quotes from 4 shops: 640k, 615k, 655k, 620k a bag.
/// which one is cheapest`, `Cộng giúp chị 3 hóa đơn: 2,5 triệu; 1tr2; 875.000đ`), or
/// joined by `+` alone. A count of the items (`4 shops`, `3 hóa đơn`, `the last 4
/// months`) and a scale (`marks out of 20`) are no items; a percentage is another
/// question.
pub(super) fn listed(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.iter().any(|x| x.role == Role::Percent) || crate::tolerant::asks_sorted(w.toks) {
        return None;
    }
    let scale = |x: &Quantity| {
        x.at >= 2 && w.word(x.at - 1) == Some("of") && w.word(x.at - 2) == Some("out")
    };
    // (`… trung bình 1 tháng`, `avg per 1 day`: the one period asked per is no item.)
    let per_one = |x: &Quantity| {
        x.value == "1"
            && matches!(&x.role, Role::Count(n) if n.first().is_some_and(|n| is_period(n)))
    };
    // (`roti canai 2x1.80, teh tarik 2x2.50, maggi goreng 7.50. total`: a count joined
    // to its price by `x` is one item, the count times the price — never two items.)
    let times_at = |at: usize| {
        w.toks
            .get(at)
            .is_some_and(|t| t.is_sym('*') || t.word() == Some("x"))
    };
    // The count a price is bought so many times at, joined to it by `x`.
    let count_of = |x: &Quantity| {
        q.iter()
            .find(|c| c.at + 2 == x.at && times_at(c.at + 1) && !big(&c.value))
            .map(|c| c.value.clone())
    };
    let mut items: Vec<&Quantity> = q
        .iter()
        .filter(|x| !scale(x) && !per_one(x))
        .filter(|x| !q.iter().any(|p| x.at + 2 == p.at && count_of(p).is_some()))
        .collect();
    // The count of the items, said before or after them.
    let counted = |items: &[&Quantity], x: &Quantity| {
        matches!(x.role, Role::Count(_))
            && x.value.parse::<usize>().ok() == Some(items.len() - 1)
            && (x.at < items[1].at || x.at > items[items.len() - 2].at)
    };
    // (`tổng 2 ngày bao nhiêu` after two amounts: the count right after the total word.)
    let after_total = |x: &Quantity| {
        x.at > 0
            && w.word(x.at - 1)
                .is_some_and(|p| is_in(&["tổng", "total"], p))
    };
    let mut count_dropped = false;
    if (items.len() >= 4 || items.len() == 3)
        && let Some(k) = items
            .iter()
            .position(|x| counted(&items, x) && (items.len() >= 4 || after_total(x)))
    {
        count_dropped = after_total(items[k]);
        items.remove(k);
    }
    // (`gia thue xe 3 cho: 250k, 220k, 280k`: a small count in the label before a
    // colon names what the amounts are for, no item of theirs.)
    let heading = |x: &Quantity| {
        !big(&x.value)
            && matches!(x.role, Role::Count(_) | Role::Amount)
            && (x.at + 1..x.at + 4).any(|k| w.toks.get(k).is_some_and(|t| t.is_sym(':')))
    };
    if let Some(k) = items.iter().position(|x| heading(x))
        && items.len() >= 4
        && items.iter().filter(|x| big(&x.value)).count() == items.len() - 1
    {
        items.remove(k);
    }
    // (`từ 24/12 đến 28/12`: a date's day and month, or a fraction, are no items.)
    // (`182,400 / 176,900 / …`: a slash between amounts only lists them.)
    let small = |i: usize, most: u32| {
        w.toks
            .get(i)
            .and_then(Token::number)
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| (1..=most).contains(&n))
    };
    let slashed = |x: &&Quantity| {
        w.word(x.at + 1) == Some("/") && small(x.at, 31) && small(x.at + 2, 12)
            || x.at >= 2 && w.word(x.at - 1) == Some("/") && small(x.at - 2, 31) && small(x.at, 12)
    };
    if items.iter().any(slashed) {
        return None;
    }
    // (Two items only when they count the same thing and their total is asked:
    // `Hôm qua đi 11,8 km, hôm nay 14,2 km, tổng bao nhiêu km`.)
    let two_alike = items.len() == 2
        && items.iter().all(|x| match &x.role {
            Role::Count(nouns) => {
                nouns.first() == first_noun_of(items[0])
                    && nouns
                        .iter()
                        .all(|n| !is_person(n) && !is_group(n) && !is_period(n))
            }
            _ => false,
        })
        && w.says(SUM_OF);
    // (`hôm nay 1tr2, hôm qua 950k. tổng 2 ngày`: two amounts, their count with the total.)
    let two_counted =
        items.len() == 2 && count_dropped && items.iter().all(|x| x.role == Role::Amount);
    // (`tiền điện 1245000 tiền nước 386000 cộng lại`: each amount named right before it;
    // the words after one are the next one's name.)
    // (No operation before the last amount: `double the bill of 40 plus 12` is no list.)
    let operation = |i: usize| {
        w.toks[i].word().is_some_and(|k| {
            crate::normalise::typo::operation(k).is_some()
                || matches!(k, "cộng" | "trừ" | "nhân" | "chia" | "x")
        })
    };
    // (… nor another after it: `… cộng tiền váy 7,2 triệu …, rồi chia đôi ra` asks more
    // than a total.)
    let no_operation = items.last().is_some_and(|l| {
        (0..l.at).all(|i| !operation(i))
            && (l.at + 1..w.toks.len()).all(|i| {
                !operation(i) || matches!(w.toks[i].word(), Some("cộng" | "total" | "sum"))
            })
    });
    let labelled_before =
        no_operation && items.iter().all(|x| x.at > 0 && w.word(x.at - 1).is_some());
    // (`gas 2 bình 920.000đ`: a small count beside money names no amount.)
    let names_next = |x: &Quantity| {
        big(&x.value)
            && matches!(&x.role, Role::Count(n) if n.iter().all(|n| !is_person(n) && !is_group(n) && !is_period(n)))
            && labelled_before
            && w.says(SUM_OF)
    };
    let two_labelled = items.len() == 2
        && labelled_before
        && w.says(SUM_OF)
        && items
            .iter()
            .all(|x| x.role == Role::Amount || names_next(x));
    if items.len() < 3 && !two_alike && !two_counted && !two_labelled {
        return None;
    }
    // Items are amounts (`5 đô`, `2.3m won`, the last one's `a bag` said of all), never
    // counts of people, groups or periods (`4 khách ăn 2 buổi` is a product).
    // (`14 waiters 200k each plus 2 captains 500k each` is priced items, no list.)
    let last = items.len() - 1;
    let first_noun = |x: &Quantity| match &x.role {
        Role::Count(nouns) => nouns.first().cloned(),
        _ => None,
    };
    let all_counted_alike = items
        .iter()
        .all(|x| first_noun(x).is_some() && first_noun(x) == first_noun(items[0]));
    // (`38.5, 41.25, 39.75, 40 hrs`: the last one's unit, said of all.)
    let others_bare = items[..last].iter().all(|x| x.role == Role::Amount);
    let item = |(k, x): (usize, &&Quantity)| match &x.role {
        Role::Amount => true,
        _ if names_next(x) => true,
        Role::Rate(Some(_)) => k == last,
        Role::Count(nouns) if k == last && others_bare && last >= 2 => {
            nouns.iter().all(|n| !is_person(n) && !is_group(n))
        }
        Role::Count(nouns) => {
            let thing = nouns
                .iter()
                .all(|n| !is_person(n) && !is_group(n) && !is_period(n));
            thing && (is_in(CURRENCY, &nouns[0]) || all_counted_alike)
        }
        _ => false,
    };
    if !items.iter().enumerate().all(item) {
        return None;
    }
    let ops: Vec<ListOp> = (0..w.toks.len())
        .filter_map(|i| {
            LIST_CUES
                .iter()
                .find(|(p, _)| w.at(i, p) && typed_as(w, i, p))
                .map(|(_, op)| *op)
        })
        .collect();
    let plus_only = items
        .windows(2)
        .all(|p| p[1].at == p[0].at + 2 && w.toks[p[0].at + 1].is_sym('+'));
    // (`milk 1.55, bread 1.40, eggs 2.79 how much`: three or more things, each named
    // before its price, and `how much` asked — what they come to.)
    let labelled_prices = items.len() >= 3
        && items
            .iter()
            .all(|x| x.role == Role::Amount && x.at > 0 && w.word(x.at - 1).is_some())
        && only_labels_then_how_much(w, items[0].at, items[items.len() - 1].at);
    // (`grab to work this wk 14.30, 9.80, 17.45, 12.00 and 11.65 how much all
    // together`: three or more amounts in a row under one heading, `how much` asked.)
    let in_a_row = items.len() >= 3
        && items.iter().all(|x| x.role == Role::Amount)
        && items.windows(2).all(|p| {
            let between = &w.toks[p[0].at + 1..p[1].at];
            !between.is_empty()
                && between.iter().all(|t| {
                    matches!(t.tok, Tok::Sym(',' | ';' | '&'))
                        || t.word().is_some_and(|k| is_in(&["and", "và"], k))
                })
        })
        && labels_up_to(w, items[0].at, items[0].at)
        && how_much_after(w, items[items.len() - 1].at);
    let op = match ops.first() {
        Some(op) if ops.iter().all(|o| o == op) => *op,
        None if plus_only || labelled_prices || in_a_row => ListOp::Sum,
        _ => return None,
    };
    // Only separators, labels and units between the items: no number of another kind.
    let values = items
        .iter()
        .map(|x| {
            let price = Expr::Num(x.value.clone());
            match count_of(x) {
                Some(count) => Expr::bin(crate::expr::MathOp::Multiply, Expr::Num(count), price),
                None => price,
            }
        })
        .collect();
    list_expr(op, values)
}

/// Words asking what labelled prices come to, after the last one.
const HOW_MUCH: &[&str] = &[
    "how", "much", "is", "it", "that", "bao", "nhiêu", "bn", "hết", "là",
];

/// Whether the words up to `last` (a number's position) only name the numbers — no
/// operation, no cue, nothing left asked — and the words after it only ask `how much`.
fn only_labels_then_how_much(w: &Words, first: usize, last: usize) -> bool {
    labels_up_to(w, first, last) && how_much_after(w, last)
}

/// Whether the words up to `last` (a number's position) only name the numbers — no
/// operation, no cue — with a `:` only before `first`.
fn labels_up_to(w: &Words, first: usize, last: usize) -> bool {
    let label = |k: &str| {
        k.chars().all(char::is_alphabetic)
            && !is_in(super::vocabulary::NOT_LABELS, k)
            && crate::normalise::typo::operation(k).is_none()
    };
    (0..last).all(|i| {
        w.toks[i].number().is_some()
            || w.toks[i].is_sym(',')
            || i < first && w.toks[i].is_sym(':')
            || w.word(i).is_some_and(label)
    })
}

/// Whether the words after `last` (a number's position) only ask `how much` (with what
/// the total is of, and for when).
fn how_much_after(w: &Words, last: usize) -> bool {
    let after: Vec<&str> = (last + 1..w.toks.len()).filter_map(|i| w.word(i)).collect();
    // (`… how much in bills a month`: what the total is of, and for when.)
    let dressing = |k: &str| {
        is_in(
            &[
                "in",
                "bills",
                "bill",
                "a",
                "per",
                "for",
                "all",
                "of",
                "altogether",
                "together",
                "month",
                "week",
                "year",
                "tháng",
                "tuần",
                "mỗi",
                "cả",
                "hết",
            ],
            k,
        )
    };
    let asked = after.iter().all(|k| is_in(HOW_MUCH, k) || dressing(k))
        && (after.iter().any(|k| is_in(&["much"], k))
            || after
                .windows(2)
                .any(|p| is_in(&["bao"], p[0]) && is_in(&["nhiêu"], p[1]))
            || after.iter().any(|k| is_in(&["bn"], k)));
    asked
        && (last + 1..w.toks.len())
            .all(|i| w.word(i).is_some() || matches!(w.toks[i].tok, Tok::Sym('?' | '.' | '!')))
}
