//! Continuations of the previous part: `subtract 2`, `then divide by 4`, `halve it`.

use super::words::{ADD_WORDS, MUL_WORDS};
use super::{Parser, Table};
use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

/// Words that name the previous part's result in a continuation.
const BACK_REFS: &[&[&str]] = &[
    &["the", "result"],
    &["that", "result"],
    &["the", "answer"],
    &["that"],
    &["it"],
    &["kết", "quả", "đó"],
    &["kết", "quả"],
    &["số", "đó"],
    &["nó"],
];

/// Continuation verbs with their operand: `subtract 2` (from the previous result),
/// `multiply it by 3`, `divide the result by 4`.
const THEN_VERBS: Table = &[
    (&["subtract"], MathOp::Subtract),
    (&["take", "away"], MathOp::Subtract),
    (&["add"], MathOp::Sum),
    (&["multiply"], MathOp::Multiply),
    (&["divide"], MathOp::Divide),
    (&["cộng", "thêm"], MathOp::Sum),
    (&["trừ", "tiếp"], MathOp::Subtract),
    (&["khai", "căn"], MathOp::Sqrt),
    (&["take", "the", "square", "root", "of"], MathOp::Sqrt),
    (&["take", "the", "square", "root"], MathOp::Sqrt),
    (&["take", "its", "square", "root"], MathOp::Sqrt),
    (&["square", "root"], MathOp::Sqrt),
];

/// Words that may open a continuation (`then` and `rồi` are separators already).
const THEN_LEADS: &[&[&str]] = &[
    &["sau", "đó"],
    &["tiếp", "theo"],
    &["tiếp", "đó"],
    &["after", "that"],
    &["next"],
    &["finally"],
];

/// Joining words allowed between a continuation verb and its operand.
const THEN_JOINS: &[&str] = &["by", "from", "to", "with", "cho", "với", "đi", "thêm"];

/// Continuations with a fixed operand: `halve it`, `double that`, `square the result`.
const THEN_FIXED: &[(&[&str], MathOp, &str)] = &[
    (&["halve"], MathOp::Divide, "2"),
    (&["double"], MathOp::Multiply, "2"),
    (&["triple"], MathOp::Multiply, "3"),
    (&["square"], MathOp::Power, "2"),
    (&["cube"], MathOp::Power, "3"),
    (&["chia", "đôi", "ra"], MathOp::Divide, "2"),
    (&["chia", "đôi"], MathOp::Divide, "2"),
    (&["gấp", "đôi"], MathOp::Multiply, "2"),
    (&["nhân", "đôi"], MathOp::Multiply, "2"),
    (&["bình", "phương"], MathOp::Power, "2"),
];

/// Verbs that share the previous result out: `split between 6 people`, `chia 6 người`.
const SPLIT_VERBS: &[&[&str]] = &[
    &["split"],
    &["share"],
    &["shared"],
    &["divided"],
    &["divide"],
    &["chia", "đều"],
    &["chia"],
];

/// Words between a split verb and its count: `among`, `cho`, `đều`.
const SPLIT_JOINS: &[&str] = &[
    "it", "that", "between", "among", "amongst", "by", "evenly", "equally", "cho", "ra", "đều",
    "thành",
];

/// Words that may follow the count of a split: who or what shares it.
const SPLIT_COUNTED: &[&str] = &[
    "people", "persons", "ways", "way", "guys", "friends", "of", "us", "người", "đứa", "phần",
];

/// Parses `toks` as a continuation of the previous part — `subtract 2`, `then divide
/// the result by 4`, `halve it`, `minus 1`, `nhân 3`, `trừ đi 1` — into an expression
/// whose first operand is [`Expr::PREVIOUS`].
pub fn parse_continuation(toks: &[Token]) -> Option<Expr> {
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        no_and: false,
        in_list: false,
    };
    let e = p.continuation()?;
    (p.pos == toks.len()).then_some(e)
}

impl Parser<'_> {
    /// `split between 6 people`, `(còn) lại chia 6 người`, `chia đều cho 4 đứa`: the
    /// count the previous result is shared by, when a count word follows it — the
    /// bare `chia 6` is read as an operation like any other.
    fn split_among(&mut self) -> Option<Expr> {
        let start = self.pos;
        let found = (|| {
            let _ = self.eat_words(&["lại"]);
            SPLIT_VERBS.iter().find(|v| self.eat_words(v))?;
            while let Some(w) = self.toks.get(self.pos).and_then(Token::word)
                && SPLIT_JOINS.contains(&w)
            {
                self.pos += 1;
            }
            let n = self.toks.get(self.pos)?.number()?.to_owned();
            self.pos += 1;
            let counted = self.pos;
            while let Some(w) = self.toks.get(self.pos).and_then(Token::word)
                && SPLIT_COUNTED.contains(&w)
            {
                self.pos += 1;
            }
            (self.pos > counted && self.pos == self.toks.len()).then_some(Expr::Num(n))
        })();
        if found.is_none() {
            self.pos = start;
        }
        found
    }

    fn eat_back_ref(&mut self) -> bool {
        BACK_REFS.iter().any(|r| self.eat_words(r))
    }

    /// See [`parse_continuation`].
    fn continuation(&mut self) -> Option<Expr> {
        let previous = Expr::Num(Expr::PREVIOUS.into());
        let _ = THEN_LEADS.iter().any(|l| self.eat_words(l));
        // `…, rounded to 2 decimal places`, `then round it to the nearest cent`.
        if self.eat_words(&["rounded"])
            || self.eat_words(&["round"])
            || self.eat_words(&["làm", "tròn"])
        {
            self.eat_back_ref();
            let places = self.round_places()?;
            return Some(Expr::bin(MathOp::Round, previous, places));
        }
        if let Some(n) = self.split_among() {
            return Some(Expr::bin(MathOp::Divide, previous, n));
        }
        if let Some((verb, op, n)) = THEN_FIXED
            .iter()
            .find(|(v, _, _)| self.at_words(self.pos, v))
        {
            self.pos += verb.len();
            self.eat_back_ref();
            return Some(Expr::bin(*op, previous, Expr::Num((*n).into())));
        }
        let op = if let Some(op) = self.eat_table(THEN_VERBS) {
            self.eat_back_ref();
            if let Some(w) = self.toks.get(self.pos).and_then(Token::word)
                && THEN_JOINS.contains(&w)
            {
                self.pos += 1;
            }
            op
        } else {
            self.eat_back_ref();
            if self.eat_sym('+') {
                MathOp::Sum
            } else if self.eat_sym('-') {
                MathOp::Subtract
            } else if self.eat_sym('*') || self.eat_sym('×') {
                MathOp::Multiply
            } else if self.eat_sym('/') || self.eat_sym('÷') {
                MathOp::Divide
            } else {
                let op = self
                    .eat_table(ADD_WORDS)
                    .or_else(|| self.eat_table(MUL_WORDS))?;
                // `chia kết quả cho 4`: the operator, the result, a joining word.
                if self.eat_back_ref()
                    && let Some(w) = self.toks.get(self.pos).and_then(Token::word)
                    && THEN_JOINS.contains(&w)
                {
                    self.pos += 1;
                }
                op
            }
        };
        if op == MathOp::Sqrt {
            self.eat_back_ref();
            return Some(Expr::Op(MathOp::Sqrt, vec![previous]));
        }
        Some(Expr::bin(op, previous, self.expr()?))
    }
}
