//! List forms: a head (`sum of`, `trung bình của`) over items, and what it computes.

use super::Parser;
use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

/// What a list form computes over its items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListOp {
    /// Their sum.
    Sum,
    /// Their product.
    Product,
    /// Their arithmetic mean: the sum divided by how many there are.
    Mean,
    /// The smallest of them (`min` pairwise).
    Min,
    /// The largest of them (`max` pairwise).
    Max,
}

/// List forms `HEAD x, y, … and z` (`sum of 1, 2 and 3`, `trung bình cộng của 4, 6 và 8`);
/// the commas keep the list whole where they would split a request
/// (`crate::compound`).
const LIST_HEADS: &[(&[&str], ListOp)] = &[
    (&["the", "sum", "of"], ListOp::Sum),
    (&["sum", "of"], ListOp::Sum),
    (&["the", "total", "of"], ListOp::Sum),
    (&["total", "of"], ListOp::Sum),
    (&["add", "up"], ListOp::Sum),
    (&["add"], ListOp::Sum),
    (&["tổng", "của"], ListOp::Sum),
    (&["cộng"], ListOp::Sum),
    (&["the", "product", "of"], ListOp::Product),
    (&["product", "of"], ListOp::Product),
    (&["multiply"], ListOp::Product),
    (&["tích", "của"], ListOp::Product),
    (&["the", "mean", "of"], ListOp::Mean),
    (&["mean", "of"], ListOp::Mean),
    (&["the", "average", "of"], ListOp::Mean),
    (&["average", "of"], ListOp::Mean),
    (&["the", "arithmetic", "mean", "of"], ListOp::Mean),
    (&["trung", "bình", "cộng", "của"], ListOp::Mean),
    (&["trung", "bình", "của"], ListOp::Mean),
    (&["trung", "bình", "cộng"], ListOp::Mean),
    (&["trung", "bình"], ListOp::Mean),
    (&["tổng"], ListOp::Sum),
    (&["tích"], ListOp::Product),
    (&["the", "biggest", "number", "among"], ListOp::Max),
    (&["the", "largest", "number", "among"], ListOp::Max),
    (&["the", "smallest", "number", "among"], ListOp::Min),
    (&["biggest", "number", "among"], ListOp::Max),
    (&["largest", "number", "among"], ListOp::Max),
    (&["smallest", "number", "among"], ListOp::Min),
    (&["the", "largest", "of"], ListOp::Max),
    (&["largest", "of"], ListOp::Max),
    (&["the", "biggest", "of"], ListOp::Max),
    (&["biggest", "of"], ListOp::Max),
    (&["the", "greatest", "of"], ListOp::Max),
    (&["greatest", "of"], ListOp::Max),
    (&["the", "highest", "of"], ListOp::Max),
    (&["highest", "of"], ListOp::Max),
    (&["the", "larger", "of"], ListOp::Max),
    (&["larger", "of"], ListOp::Max),
    (&["the", "bigger", "of"], ListOp::Max),
    (&["bigger", "of"], ListOp::Max),
    (&["the", "maximum", "of"], ListOp::Max),
    (&["maximum", "of"], ListOp::Max),
    (&["the", "max", "of"], ListOp::Max),
    (&["max", "of"], ListOp::Max),
    (&["max"], ListOp::Max),
    (&["the", "smallest", "of"], ListOp::Min),
    (&["smallest", "of"], ListOp::Min),
    (&["the", "lowest", "of"], ListOp::Min),
    (&["lowest", "of"], ListOp::Min),
    (&["the", "least", "of"], ListOp::Min),
    (&["least", "of"], ListOp::Min),
    (&["the", "smaller", "of"], ListOp::Min),
    (&["smaller", "of"], ListOp::Min),
    (&["the", "minimum", "of"], ListOp::Min),
    (&["minimum", "of"], ListOp::Min),
    (&["the", "min", "of"], ListOp::Min),
    (&["min", "of"], ListOp::Min),
    (&["min"], ListOp::Min),
    (&["số", "lớn", "nhất", "trong"], ListOp::Max),
    (&["số", "lớn", "nhất", "của"], ListOp::Max),
    (&["giá", "trị", "lớn", "nhất", "của"], ListOp::Max),
    (&["lớn", "nhất", "trong"], ListOp::Max),
    (&["lớn", "nhất", "của"], ListOp::Max),
    (&["số", "lớn", "hơn", "trong"], ListOp::Max),
    (&["số", "nhỏ", "nhất", "trong"], ListOp::Min),
    (&["số", "nhỏ", "nhất", "của"], ListOp::Min),
    (&["giá", "trị", "nhỏ", "nhất", "của"], ListOp::Min),
    (&["nhỏ", "nhất", "trong"], ListOp::Min),
    (&["nhỏ", "nhất", "của"], ListOp::Min),
    (&["số", "nhỏ", "hơn", "trong"], ListOp::Min),
    (&["which", "is", "larger"], ListOp::Max),
    (&["which", "is", "bigger"], ListOp::Max),
    (&["which", "is", "greater"], ListOp::Max),
    (&["which", "is", "largest"], ListOp::Max),
    (&["which", "is", "smaller"], ListOp::Min),
    (&["which", "is", "smallest"], ListOp::Min),
    (&["số", "nào", "lớn", "hơn"], ListOp::Max),
    (&["số", "nào", "lớn", "nhất"], ListOp::Max),
    (&["số", "nào", "nhỏ", "hơn"], ListOp::Min),
    (&["số", "nào", "nhỏ", "nhất"], ListOp::Min),
    // After `what is` (a filler): `what is bigger, 0.3 or 0.25`; `largest: 4.5; -2; 3.75`.
    (&["largest"], ListOp::Max),
    (&["biggest"], ListOp::Max),
    (&["highest"], ListOp::Max),
    (&["maximum"], ListOp::Max),
    (&["smallest"], ListOp::Min),
    (&["lowest"], ListOp::Min),
    (&["minimum"], ListOp::Min),
    (&["số", "lớn", "nhất"], ListOp::Max),
    (&["số", "nhỏ", "nhất"], ListOp::Min),
    (&["bigger"], ListOp::Max),
    (&["larger"], ListOp::Max),
    (&["greater"], ListOp::Max),
    (&["smaller"], ListOp::Min),
];

/// `op` over `items`: their sum, product, smallest or largest, or their sum divided by
/// how many there are for a mean; `None` when there are none.
pub(crate) fn list_expr(op: ListOp, items: Vec<Expr>) -> Option<Expr> {
    let count = items.len();
    let join = match op {
        ListOp::Sum | ListOp::Mean => MathOp::Sum,
        ListOp::Product => MathOp::Multiply,
        ListOp::Min => MathOp::Min,
        ListOp::Max => MathOp::Max,
    };
    let folded = Expr::chain(join, items)?;
    Some(match op {
        ListOp::Mean => Expr::bin(MathOp::Divide, folded, Expr::Num(count.to_string())),
        _ => folded,
    })
}

/// Most items in one list.
const MAX_LIST_ITEMS: usize = 16;

/// Whether `toks` hold a list head ([`LIST_HEADS`]) somewhere.
pub(crate) fn has_list_head(toks: &[Token]) -> bool {
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    LIST_HEADS
        .iter()
        .any(|(p, _)| words.windows(p.len()).any(|w| w == *p))
}

/// Whether `toks` end with a list head (`which is larger, 4 or 9`: the comma right
/// after the head opens the list).
pub(crate) fn ends_with_list_head(toks: &[Token]) -> bool {
    LIST_HEADS.iter().any(|(p, _)| {
        toks.len() >= p.len() && crate::lexer::words_at(toks, toks.len() - p.len(), p)
    })
}

impl Parser<'_> {
    /// A list form: `HEAD x, y, … and z`, or `HEAD x and y` for a mean. Leaves the
    /// position alone and returns `None` when what follows the head is no such list (a
    /// verb form may still read it).
    pub(super) fn list(&mut self) -> Option<Expr> {
        let start = self.pos;
        let (head, op) = LIST_HEADS
            .iter()
            .find(|(p, _)| self.at_words(self.pos, p))?;
        self.pos += head.len();
        // `which is larger: 4 or 9`, `số nào lớn hơn, 4 hay 9`.
        let choice = matches!(op, ListOp::Min | ListOp::Max);
        if choice && !self.eat_sym(':') {
            self.eat_sym(',');
        }
        let saved = (self.no_and, self.in_list);
        // Only a choice or a mean is written with slashes between its items.
        let slashes = matches!(op, ListOp::Min | ListOp::Max | ListOp::Mean);
        (self.no_and, self.in_list) = (true, slashes);
        let items = self.list_items(choice);
        (self.no_and, self.in_list) = saved;
        // Two items without a comma (`mean of 4 and 6`, `the larger of 3 and 8`) are a
        // list only where a verb form cannot read them.
        let commas_or_pair = |items: &Vec<Expr>, commas: bool| {
            commas || matches!(op, ListOp::Mean | ListOp::Min | ListOp::Max) && items.len() == 2
        };
        match items {
            Some((items, commas)) if items.len() >= 2 && commas_or_pair(&items, commas) => {
                list_expr(*op, items)
            }
            _ => {
                self.pos = start;
                None
            }
        }
    }

    /// `x, y, … (and|và) z`: the items, and whether a comma separated any two. With
    /// `or_too` (a choice: the larger, the smallest), `or`/`hoặc`/`hay` join items too.
    fn list_items(&mut self, or_too: bool) -> Option<(Vec<Expr>, bool)> {
        let mut items = vec![self.expr()?];
        let mut commas = false;
        let or_words: &[&str] = if or_too {
            &["or", "hoặc", "hay"]
        } else {
            &[]
        };
        let join = |p: &mut Self| {
            p.eat_sym('&')
                || p.eat_words(&["and"])
                || p.eat_words(&["và"])
                || or_words.iter().any(|w| p.eat_words(&[w]))
        };
        while items.len() < MAX_LIST_ITEMS {
            if self.in_list && self.at_spaced_slash() {
                self.pos += 1;
                commas = true;
            } else if self.eat_sym(',') || self.eat_sym(';') || self.eat_sym('&') {
                commas = true;
                // An Oxford comma: `1, 2, and 3`.
                let _ = join(self);
            } else if join(self) {
            } else {
                break;
            }
            items.push(self.expr()?);
        }
        Some((items, commas))
    }
}
