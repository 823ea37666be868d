//! The arithmetic parser: precedence climbing over symbols and English/Vietnamese
//! operator words, producing an [`Expr`]. Every token of the part must be used, so
//! `2+4 and a poem` is not silently read as `2+4`.
//!
//! Precedence, loosest first: `+ −` (plus, cộng, minus, trừ); `× ÷ mod` (times, x,
//! nhân, divided by, chia cho, `:`); unary minus; `^` (right-associative, binds tighter
//! than unary minus: `-2^2` = −4); postfix `squared`, `% of`; then numbers, number words,
//! parentheses, `sqrt`/`căn bậc hai của`, "X of N" forms (`sqrt of 49`, `the square of
//! 12`, `half of 90`, `double 21`, `một nửa của 90`), and verb forms (`add 3 and 5`,
//! `subtract 7 from 10`, `multiply 6 by 7`, `divide 10 by 4`, `round(x, n)`).

use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token};
use crate::numbers;
use forms::{remainder_after, rounded_after};
use words::{
    ADD_WORDS, MUL_WORDS, POSTFIX_CONST, POSTFIX_POWERS, POW_WORDS, PREFIX_CONST, PREFIX_WORDS,
    VERB_WORDS,
};

mod continuation;
mod forms;
mod lists;
mod words;

pub use continuation::parse_continuation;
pub(crate) use lists::{ListOp, ends_with_list_head, has_list_head, list_expr};

/// Deepest nesting accepted (parentheses, unary operators), so a hostile query cannot
/// exhaust the stack.
const MAX_DEPTH: usize = 64;

type Table = &'static [(&'static [&'static str], MathOp)];

/// Parses the whole of `toks` as one arithmetic expression.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        no_and: false,
        in_list: false,
    };
    match p.expr() {
        Some(e) if p.pos == toks.len() => Some(e),
        _ => rounded_after(toks).or_else(|| remainder_after(toks)),
    }
}

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    depth: usize,
    no_and: bool,
    /// Reading a list's items: a slash with spaces around it separates two items
    /// (`7; 8,5 / 9 và 6,5`), one written tight divides (`1/2, 3/4`).
    in_list: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    /// Whether a slash with a space on each side comes next.
    fn at_spaced_slash(&self) -> bool {
        let (Some(prev), Some(t), Some(next)) = (
            self.pos.checked_sub(1).and_then(|k| self.toks.get(k)),
            self.toks.get(self.pos),
            self.toks.get(self.pos + 1),
        ) else {
            return false;
        };
        t.is_sym('/') && prev.end < t.start && t.end < next.start
    }

    fn peek_sym(&self, c: char) -> bool {
        self.toks.get(self.pos).is_some_and(|t| t.is_sym(c))
    }

    fn eat_sym(&mut self, c: char) -> bool {
        let hit = self.peek_sym(c);
        self.pos += usize::from(hit);
        hit
    }

    fn at_words(&self, at: usize, phrase: &[&str]) -> bool {
        crate::lexer::words_at(self.toks, at, phrase)
    }

    fn eat_words(&mut self, phrase: &[&str]) -> bool {
        let hit = self.at_words(self.pos, phrase);
        if hit {
            self.pos += phrase.len();
        }
        hit
    }

    fn eat_table(&mut self, table: Table) -> Option<MathOp> {
        table
            .iter()
            .find(|(p, _)| self.eat_words(p))
            .map(|(_, op)| *op)
    }

    fn expr(&mut self) -> Option<Expr> {
        let mut left = self.term()?;
        loop {
            let op = if self.eat_sym('+') {
                MathOp::Sum
            } else if self.eat_sym('-') {
                MathOp::Subtract
            } else if let Some(op) = self.eat_table(ADD_WORDS) {
                op
            } else {
                return Some(left);
            };
            // `200 - 10%`, `4200000 trừ 10%`: a percentage of the amount before it.
            if let Some(p) = self.bare_percent() {
                let part = Expr::bin(MathOp::Percent, p, left.clone());
                left = Expr::bin(op, left, part);
                continue;
            }
            left = Expr::bin(op, left, self.term()?);
        }
    }

    /// A percentage standing alone after `+` or `-` (`10%`, `10 percent`, `10 phần
    /// trăm`), at the end or before another `+`, `-` or `)`: its number, consumed.
    fn bare_percent(&mut self) -> Option<Expr> {
        let Some(Tok::Num(n)) = self.peek() else {
            return None;
        };
        let at = self.pos + 1;
        let marker = if self.toks.get(at).is_some_and(|t| t.is_sym('%'))
            || self.at_words(at, &["percent"])
        {
            1
        } else if self.at_words(at, &["phần", "trăm"]) {
            2
        } else {
            return None;
        };
        let alone = match self.toks.get(at + marker) {
            None => true,
            Some(t) => matches!(t.tok, Tok::Sym('+' | '-' | ')')),
        };
        if !alone {
            return None;
        }
        let n = Expr::Num(n.clone());
        self.pos = at + marker;
        Some(n)
    }

    fn term(&mut self) -> Option<Expr> {
        let mut left = self.unary()?;
        loop {
            let op = if self.eat_sym('*') {
                MathOp::Multiply
            } else if !(self.in_list && self.at_spaced_slash())
                && (self.eat_sym('/') || self.eat_sym(':'))
            {
                MathOp::Divide
            } else if self.peek_sym('%') && !self.percent_of_follows(self.pos + 1) {
                self.pos += 1;
                MathOp::Modulo
            } else if let Some(op) = self.eat_table(MUL_WORDS) {
                op
            } else {
                return Some(left);
            };
            left = Expr::bin(op, left, self.unary()?);
            // `3/4 of 120`: a written fraction of an amount, 3 × 120 ÷ 4 (multiplied
            // first, so that 2/3 of 90 is exactly 60).
            if let Expr::Op(MathOp::Divide, x) = &left
                && let [a @ Expr::Num(_), b @ Expr::Num(_)] = x.as_slice()
                && (self.at_words(self.pos, &["of"]) || self.at_words(self.pos, &["của"]))
            {
                let (a, b) = (a.clone(), b.clone());
                self.pos += 1;
                left = Expr::bin(
                    MathOp::Divide,
                    Expr::bin(MathOp::Multiply, a, self.unary()?),
                    b,
                );
            }
        }
    }

    /// `three quarters of 120`, `2 thirds of 90`: a fraction named in words, of an
    /// amount.
    fn fraction_of(&mut self) -> Option<Expr> {
        const PARTS: &[(&str, &str)] = &[
            ("halves", "2"),
            ("thirds", "3"),
            ("quarters", "4"),
            ("fourths", "4"),
            ("fifths", "5"),
            ("sixths", "6"),
            ("eighths", "8"),
            ("tenths", "10"),
        ];
        let start = self.pos;
        let count = match self.peek()? {
            Tok::Num(n) => {
                let n = n.clone();
                self.pos += 1;
                n
            }
            _ => {
                let (n, next) = numbers::parse_words(self.toks, self.pos, false)?;
                self.pos = next;
                n
            }
        };
        let found = PARTS
            .iter()
            .find(|(w, _)| self.at_words(self.pos, &[w, "of"]));
        let Some((_, d)) = found else {
            self.pos = start;
            return None;
        };
        self.pos += 2;
        let of = Expr::bin(MathOp::Multiply, Expr::Num(count), self.unary()?);
        Some(Expr::bin(MathOp::Divide, of, Expr::Num((*d).into())))
    }

    fn unary(&mut self) -> Option<Expr> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let e = if self.eat_sym('-')
            || self.eat_words(&["minus"])
            || self.eat_words(&["negative"])
            || self.eat_words(&["âm"])
        {
            self.unary().map(Expr::negate)
        } else if self.eat_sym('+') {
            self.unary()
        } else {
            self.power()
        };
        self.depth -= 1;
        e
    }

    fn power(&mut self) -> Option<Expr> {
        let base = self.postfix()?;
        let is_pow = self.eat_sym('^') || POW_WORDS.iter().any(|p| self.eat_words(p));
        if !is_pow {
            return Some(base);
        }
        Some(Expr::bin(MathOp::Power, base, self.unary()?))
    }

    fn percent_of_follows(&self, at: usize) -> bool {
        self.at_words(at, &["of"]) || self.at_words(at, &["của"])
    }

    fn postfix(&mut self) -> Option<Expr> {
        let mut e = self.primary()?;
        loop {
            // `100 chia đôi`, `7 nhân đôi`, `81 khai căn`.
            if let Some((p, op, n)) = POSTFIX_CONST
                .iter()
                .find(|(p, _, _)| self.at_words(self.pos, p))
            {
                self.pos += p.len();
                e = match n {
                    Some(n) => Expr::bin(*op, e, Expr::Num((*n).into())),
                    None => Expr::Op(*op, vec![e]),
                };
                continue;
            }
            if let Some((p, n)) = POSTFIX_POWERS
                .iter()
                .find(|(p, _)| self.at_words(self.pos, p))
            {
                self.pos += p.len();
                e = Expr::bin(MathOp::Power, e, Expr::Num((*n).into()));
                continue;
            }
            let marker = if self.peek_sym('%') || self.at_words(self.pos, &["percent"]) {
                1
            } else if self.at_words(self.pos, &["phần", "trăm"]) {
                2
            } else {
                return Some(e);
            };
            if !self.percent_of_follows(self.pos + marker) {
                return Some(e);
            }
            self.pos += marker + 1;
            e = Expr::bin(MathOp::Percent, e, self.unary()?);
        }
    }

    /// An "X of N" form ([`PREFIX_CONST`]), with an optional leading 1 before a fraction.
    fn const_prefix(&mut self) -> Option<Expr> {
        let one = matches!(self.peek(), Some(Tok::Num(n)) if n == "1")
            || self.at_words(self.pos, &["one"])
            || self.at_words(self.pos, &["một"]);
        let (phrase, op, n) = PREFIX_CONST.iter().find(|(p, op, _)| {
            self.at_words(self.pos, p)
                || (one && *op == MathOp::Divide && self.at_words(self.pos + 1, p))
        })?;
        self.pos += phrase.len() + usize::from(!self.at_words(self.pos, phrase));
        Some(Expr::bin(*op, self.unary()?, Expr::Num((*n).into())))
    }

    fn primary(&mut self) -> Option<Expr> {
        if let Some(e) = self.const_prefix() {
            return Some(e);
        }
        if let Some(e) = self.fraction_of() {
            return Some(e);
        }
        // `căn bậc 2 của 144`, `cube root of 343`, `căn bậc ba của 216`, `5th root of 32`.
        if let Some(e) = self.root() {
            return Some(e);
        }
        match self.peek()? {
            Tok::Num(n) => {
                let n = n.clone();
                self.pos += 1;
                return Some(Expr::Num(n));
            }
            Tok::Sym('(') => {
                self.pos += 1;
                let e = self.expr()?;
                return self.eat_sym(')').then_some(e);
            }
            Tok::Sym('√') => {
                self.pos += 1;
                return Some(Expr::Op(MathOp::Sqrt, vec![self.unary()?]));
            }
            Tok::Word(_) => {}
            _ => return None,
        }
        if let Some((n, next)) = numbers::parse_words(self.toks, self.pos, !self.no_and) {
            self.pos = next;
            return Some(Expr::Num(n));
        }
        self.eat_words(&["the"]);
        if let Some(e) = self.remainder() {
            return Some(e);
        }
        if let Some(e) = self.root() {
            return Some(e);
        }
        if let Some(op) = self.eat_table(PREFIX_WORDS) {
            return Some(Expr::Op(op, vec![self.unary()?]));
        }
        // `square 9`, `cube 3` (after `square root`, which PREFIX_WORDS reads).
        for (word, n) in [("square", "2"), ("cube", "3")] {
            if self.eat_words(&[word]) {
                return Some(Expr::bin(MathOp::Power, self.unary()?, Expr::Num(n.into())));
            }
        }
        if let Some(e) = self.call() {
            return Some(e);
        }
        if let Some(e) = self.rounding() {
            return Some(e);
        }
        if let Some(e) = self.list() {
            return Some(e);
        }
        let (phrase, op) = VERB_WORDS
            .iter()
            .find(|(p, _)| self.at_words(self.pos, p))?;
        self.pos += phrase.len();
        self.verb(*op)
    }
}
