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

/// Deepest nesting accepted (parentheses, unary operators), so a hostile query cannot
/// exhaust the stack.
const MAX_DEPTH: usize = 64;

type Table = &'static [(&'static [&'static str], MathOp)];

const ADD_WORDS: Table = &[
    (&["cộng", "với"], MathOp::Sum),
    (&["plus"], MathOp::Sum),
    (&["cộng"], MathOp::Sum),
    (&["trừ", "đi"], MathOp::Subtract),
    (&["minus"], MathOp::Subtract),
    (&["trừ"], MathOp::Subtract),
];

const MUL_WORDS: Table = &[
    (&["multiplied", "by"], MathOp::Multiply),
    (&["times"], MathOp::Multiply),
    (&["x"], MathOp::Multiply),
    (&["nhân", "với"], MathOp::Multiply),
    (&["nhân"], MathOp::Multiply),
    (&["divided", "by"], MathOp::Divide),
    (&["is", "divided", "by"], MathOp::Divide),
    (&["over"], MathOp::Divide),
    (&["chia", "lấy", "dư", "cho"], MathOp::Modulo),
    (&["chia", "lấy", "dư"], MathOp::Modulo),
    (&["chia", "cho"], MathOp::Divide),
    (&["chia"], MathOp::Divide),
    (&["modulo"], MathOp::Modulo),
    (&["mod"], MathOp::Modulo),
];

const POW_WORDS: &[&[&str]] = &[
    &["raised", "to", "the", "power", "of"],
    &["to", "the", "power", "of"],
    &["to", "the", "power"],
    &["raised", "to"],
    &["lũy", "thừa"],
    &["luỹ", "thừa"],
    &["mũ"],
];

const PREFIX_WORDS: Table = &[
    (&["the", "square", "root", "of"], MathOp::Sqrt),
    (&["square", "root", "of"], MathOp::Sqrt),
    (&["square", "root"], MathOp::Sqrt),
    (&["căn", "bậc", "hai", "của"], MathOp::Sqrt),
    (&["căn", "bậc", "hai"], MathOp::Sqrt),
    (&["căn", "của"], MathOp::Sqrt),
    (&["căn"], MathOp::Sqrt),
    (&["sqrt", "of"], MathOp::Sqrt),
    (&["sqrt"], MathOp::Sqrt),
    (&["the", "absolute", "value", "of"], MathOp::Abs),
    (&["absolute", "value", "of"], MathOp::Abs),
    (&["giá", "trị", "tuyệt", "đối", "của"], MathOp::Abs),
    (&["abs"], MathOp::Abs),
];

/// Ordinal words naming a root's degree (`cube root`, `fourth root`).
const ORDINAL_DEGREES: &[(&str, &str)] = &[
    ("cube", "3"),
    ("cubic", "3"),
    ("third", "3"),
    ("fourth", "4"),
    ("fifth", "5"),
    ("sixth", "6"),
    ("seventh", "7"),
    ("eighth", "8"),
    ("ninth", "9"),
    ("tenth", "10"),
];

/// "X of N" forms that apply a binary tool with a fixed second operand: `the square of
/// 12` is 12², `half of 90` is 90 ÷ 2, `double 21` is 21 × 2. A leading "one"/"một" (lexed
/// as the number 1: `one half of`, `một nửa của`) is allowed before a fraction.
const PREFIX_CONST: &[(&[&str], MathOp, &str)] = &[
    (&["the", "square", "of"], MathOp::Power, "2"),
    (&["square", "of"], MathOp::Power, "2"),
    (&["the", "cube", "of"], MathOp::Power, "3"),
    (&["cube", "of"], MathOp::Power, "3"),
    (&["bình", "phương", "của"], MathOp::Power, "2"),
    (&["lập", "phương", "của"], MathOp::Power, "3"),
    (&["half", "of"], MathOp::Divide, "2"),
    (&["a", "half", "of"], MathOp::Divide, "2"),
    (&["nửa", "của"], MathOp::Divide, "2"),
    (&["a", "third", "of"], MathOp::Divide, "3"),
    (&["third", "of"], MathOp::Divide, "3"),
    (&["quarter", "of"], MathOp::Divide, "4"),
    (&["phần", "hai", "của"], MathOp::Divide, "2"),
    (&["phần", "ba", "của"], MathOp::Divide, "3"),
    (&["phần", "tư", "của"], MathOp::Divide, "4"),
    (&["a", "quarter", "of"], MathOp::Divide, "4"),
    (&["gấp", "đôi", "của"], MathOp::Multiply, "2"),
    (&["gấp", "ba", "của"], MathOp::Multiply, "3"),
    (&["nhân", "đôi"], MathOp::Multiply, "2"),
    (&["chia", "đôi"], MathOp::Divide, "2"),
    (&["double"], MathOp::Multiply, "2"),
    (&["twice"], MathOp::Multiply, "2"),
    (&["triple"], MathOp::Multiply, "3"),
    (&["gấp", "đôi"], MathOp::Multiply, "2"),
    (&["gấp", "ba"], MathOp::Multiply, "3"),
];

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

/// Verb forms `VERB x JOIN y`: the operation and whether `y` comes first (`subtract 7 from 10`).
const VERB_WORDS: &[(&[&str], MathOp)] = &[
    (&["add"], MathOp::Sum),
    (&["sum", "of"], MathOp::Sum),
    (&["tổng", "của"], MathOp::Sum),
    (&["subtract"], MathOp::Subtract),
    (&["difference", "of"], MathOp::Subtract),
    (&["hiệu", "của"], MathOp::Subtract),
    (&["multiply"], MathOp::Multiply),
    (&["product", "of"], MathOp::Multiply),
    (&["tích", "của"], MathOp::Multiply),
    (&["divide"], MathOp::Divide),
    (&["quotient", "of"], MathOp::Divide),
    (&["thương", "của"], MathOp::Divide),
    // `chia 10 cho 2`, `chia 1000000 cho` (asked).
    (&["chia"], MathOp::Divide),
    (&["cộng", "thêm"], MathOp::Sum),
    (&["cộng"], MathOp::Sum),
    (&["nhân"], MathOp::Multiply),
];

/// Joining words of verb forms, and whether the operands swap (`from`, `to`).
const JOIN_WORDS: &[(&str, bool)] = &[
    ("and", false),
    ("và", false),
    ("by", false),
    ("with", false),
    ("với", false),
    ("cho", false),
    ("from", true),
    ("to", true),
    ("vào", true),
];

/// Vietnamese postfix forms: `100 chia đôi` (÷ 2), `7 nhân đôi` (× 2), `81 khai căn` (√).
/// (`nhân ba` is not one: `một nhân ba trăm` is 1 × 300.)
const POSTFIX_CONST: &[(&[&str], MathOp, Option<&str>)] = &[
    // (`chia đôi ra`: `ra` only says it is split out.)
    (&["chia", "đôi", "ra"], MathOp::Divide, Some("2")),
    (&["chia", "đôi"], MathOp::Divide, Some("2")),
    (&["nhân", "đôi"], MathOp::Multiply, Some("2")),
    (&["khai", "căn"], MathOp::Sqrt, None),
];

const POSTFIX_POWERS: &[(&[&str], &str)] = &[
    (&["squared"], "2"),
    (&["cubed"], "3"),
    (&["bình", "phương"], "2"),
    (&["lập", "phương"], "3"),
];

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

/// `100 chia 8 dư mấy`, `100 divided by 8, remainder?`: a division whose remainder is
/// asked after it.
fn remainder_after(toks: &[Token]) -> Option<Expr> {
    // (`du` typed without marks may stay `du` or fold to `dự` beside `bao`, as in `dự
    // báo`: after a division with only a question after it, it is `dư`.)
    let k = (1..toks.len())
        .find(|&k| matches!(toks[k].word(), Some("dư" | "du" | "dự" | "remainder")))?;
    let tail_ok = toks[k + 1..].iter().all(|t| {
        matches!(t.tok, Tok::Sym('?' | ',' | '.'))
            || t.word()
                .is_some_and(|w| matches!(w, "mấy" | "bao" | "nhiêu" | "là" | "bn"))
    });
    let head = &toks[..k];
    let head = match head.last() {
        Some(t) if t.is_sym(',') => &head[..head.len() - 1],
        _ => head,
    };
    match (tail_ok, parse(head)?) {
        (true, Expr::Op(MathOp::Divide, args)) => Some(Expr::Op(MathOp::Modulo, args)),
        _ => None,
    }
}

/// `10/3 làm tròn đến 2 chữ số thập phân`, `1000/7 rounded to 2 dp`: an expression
/// then its rounding, with no separator between.
fn rounded_after(toks: &[Token]) -> Option<Expr> {
    let k = (1..toks.len()).find(|&k| {
        matches!(toks[k].word(), Some("rounded" | "round"))
            || crate::lexer::words_at(toks, k, &["làm", "tròn"])
    })?;
    let head = parse(&toks[..k])?;
    let tail = parse_continuation(&toks[k..])?;
    matches!(tail, Expr::Op(MathOp::Round, _)).then(|| tail.with_previous(&head))
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

    /// An n-th root: `cube root of 343`, `the fourth root of 81`, `5th root of 32`,
    /// `n-th root`, `căn bậc ba của 216`, `căn bậc 4 của 81`, `∛27`; degree 2 is `sqrt`.
    fn root(&mut self) -> Option<Expr> {
        let start = self.pos;
        let degree = if let Some(Tok::Sym(c @ ('∛' | '∜'))) = self.peek() {
            let n = if *c == '∛' { "3" } else { "4" };
            self.pos += 1;
            n.to_owned()
        } else if self.eat_words(&["căn", "bậc"]) || self.eat_words(&["khai", "căn", "bậc"]) {
            let n = self.degree()?;
            self.eat_words(&["của"]);
            n
        } else {
            let n = match ORDINAL_DEGREES.iter().find(|(w, _)| self.eat_words(&[w])) {
                Some((_, n)) => (*n).to_owned(),
                None => {
                    let n = self.degree().filter(|_| {
                        let suffix = ["th", "st", "nd", "rd"]
                            .iter()
                            .any(|s| self.eat_words(&[s]));
                        suffix || self.eat_sym('-') && self.eat_words(&["th"])
                    });
                    match n {
                        Some(n) => n,
                        None => {
                            self.pos = start;
                            return None;
                        }
                    }
                }
            };
            if !self.eat_words(&["root"]) {
                self.pos = start;
                return None;
            }
            self.eat_words(&["of"]);
            n
        };
        let x = match self.unary() {
            Some(x) => x,
            None => {
                self.pos = start;
                return None;
            }
        };
        Some(match degree.as_str() {
            "2" => Expr::Op(MathOp::Sqrt, vec![x]),
            _ => Expr::bin(MathOp::Root, x, Expr::Num(degree)),
        })
    }

    /// A root's degree, in digits or words (`3`, `ba`, `three`).
    fn degree(&mut self) -> Option<String> {
        if let Some(Tok::Num(n)) = self.peek() {
            let n = n.clone();
            self.pos += 1;
            return Some(n);
        }
        let (n, next) = numbers::parse_words(self.toks, self.pos, false)?;
        self.pos = next;
        Some(n)
    }

    /// `the remainder when 17 is divided by 5`, `remainder of 17 divided by 5`, `số dư
    /// của 17 chia 5`: the division written after the head, as a modulo.
    fn remainder(&mut self) -> Option<Expr> {
        const HEADS: &[&[&str]] = &[
            &["remainder", "when"],
            &["remainder", "of"],
            &["số", "dư", "của"],
            &["số", "dư", "khi"],
            &["số", "dư"],
        ];
        let start = self.pos;
        let head = HEADS.iter().find(|h| self.at_words(self.pos, h))?;
        self.pos += head.len();
        match self.expr() {
            Some(Expr::Op(MathOp::Divide, args)) => Some(Expr::Op(MathOp::Modulo, args)),
            _ => {
                self.pos = start;
                None
            }
        }
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

    /// A list form: `HEAD x, y, … and z`, or `HEAD x and y` for a mean. Leaves the
    /// position alone and returns `None` when what follows the head is no such list (a
    /// verb form may still read it).
    fn list(&mut self) -> Option<Expr> {
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

    /// `x JOIN y` after a verb; `subtract 7 from 10` is 10 − 7, `add 3 to 5` is 5 + 3.
    fn verb(&mut self, op: MathOp) -> Option<Expr> {
        let saved = self.no_and;
        self.no_and = true;
        let first = self.expr();
        self.no_and = saved;
        let first = first?;
        let word = self.toks.get(self.pos).and_then(Token::word)?;
        let &(_, swap) = JOIN_WORDS.iter().find(|(w, _)| *w == word)?;
        self.pos += 1;
        let second = self.expr()?;
        Some(if swap {
            Expr::bin(op, second, first)
        } else {
            Expr::bin(op, first, second)
        })
    }

    /// `power(2, 10)`, `pow(2, 10)`, `round(3.14159, 2)`, `sqrt(16)`-style calls.
    fn call(&mut self) -> Option<Expr> {
        let start = self.pos;
        let op = match self.toks.get(self.pos).and_then(Token::word)? {
            "power" | "pow" => MathOp::Power,
            "round" => MathOp::Round,
            "min" => MathOp::Min,
            "max" => MathOp::Max,
            _ => return None,
        };
        if !self.toks.get(self.pos + 1).is_some_and(|t| t.is_sym('(')) {
            return None;
        }
        self.pos += 2;
        let a = self.expr();
        let b = if self.eat_sym(',') {
            self.expr()
        } else {
            (op == MathOp::Round).then(|| Expr::Num("0".into()))
        };
        match (a, b, self.eat_sym(')')) {
            (Some(a), Some(b), true) => Some(Expr::bin(op, a, b)),
            _ => {
                self.pos = start;
                None
            }
        }
    }

    /// `round 3.14159 to 2 decimal places`, `làm tròn 3.14159 đến 2 chữ số thập phân`.
    fn rounding(&mut self) -> Option<Expr> {
        let start = self.pos;
        if !(self.eat_words(&["round"]) || self.eat_words(&["làm", "tròn"])) {
            return None;
        }
        let x = self.unary()?;
        // `làm tròn 2 số thập phân`: 2 is the places, of a number said before.
        if ROUND_TAILS.iter().any(|t| self.at_words(self.pos, t)) {
            self.pos = start;
            return None;
        }
        let places = self.round_places()?;
        Some(Expr::bin(MathOp::Round, x, places))
    }

    /// How many decimal places a rounding keeps: `to 2 decimal places`, `đến 2 chữ số
    /// thập phân`, `to the nearest cent` (2), `… tenth` (1), `… whole number` (0); no
    /// `to` at all is 0.
    fn round_places(&mut self) -> Option<Expr> {
        let joined =
            self.eat_words(&["to"]) || self.eat_words(&["đến"]) || self.eat_words(&["tới"]);
        if !joined {
            // `làm tròn 2 số thập phân`: the places said without `to`.
            let start = self.pos;
            if let Some(places) = self.unary()
                && ROUND_TAILS.iter().any(|t| self.eat_words(t))
            {
                return Some(places);
            }
            self.pos = start;
            return Some(Expr::Num("0".into()));
        }
        let nearest = self.eat_words(&["the", "nearest"]) || self.eat_words(&["nearest"]);
        const NAMED: &[(&[&str], &str)] = &[
            (&["cent"], "2"),
            (&["cents"], "2"),
            (&["penny"], "2"),
            (&["hundredth"], "2"),
            (&["tenth"], "1"),
            (&["thousandth"], "3"),
            (&["whole", "number"], "0"),
            (&["integer"], "0"),
            (&["dollar"], "0"),
            (&["unit"], "0"),
            (&["số", "nguyên"], "0"),
            (&["hàng", "đơn", "vị"], "0"),
            // Left of the point: negative places.
            (&["ten"], "-1"),
            (&["tens"], "-1"),
            (&["hundred"], "-2"),
            (&["hundreds"], "-2"),
            (&["thousand"], "-3"),
            (&["thousands"], "-3"),
            (&["million"], "-6"),
            (&["hàng", "chục"], "-1"),
            (&["hàng", "trăm"], "-2"),
            (&["hàng", "nghìn"], "-3"),
            (&["hàng", "ngàn"], "-3"),
            (&["hàng", "triệu"], "-6"),
        ];
        if let Some((_, n)) = NAMED.iter().find(|(w, _)| self.eat_words(w)) {
            return Some(Expr::Num((*n).into()));
        }
        let places = self.unary()?;
        if nearest {
            // `to the nearest 100`: a power of ten left of the point; any other step
            // (`nearest 5`) is not a number of places, so not this reading.
            return power_of_ten_places(&places);
        }
        let _ = ROUND_TAILS.iter().any(|t| self.eat_words(t));
        Some(places)
    }
}

/// Words after a count of places: `2 decimal places`, `2 chữ số thập phân`.
const ROUND_TAILS: &[&[&str]] = &[
    &["decimal", "places"],
    &["decimal", "place"],
    &["places"],
    &["place"],
    &["decimals"],
    &["decimal"],
    &["digits"],
    &["dp"],
    &["chữ", "số", "thập", "phân"],
    &["số", "thập", "phân"],
    &["chữ", "số"],
];

/// The places a rounding `to the nearest` step keeps: 10 → -1, 100 → -2, 1000 → -3…;
/// `None` for a step that is not a power of ten of at least 10.
fn power_of_ten_places(step: &Expr) -> Option<Expr> {
    let Expr::Num(n) = step else { return None };
    let zeros = n.strip_prefix('1')?;
    (!zeros.is_empty() && zeros.len() <= 15 && zeros.bytes().all(|b| b == b'0'))
        .then(|| Expr::Num(format!("-{}", zeros.len())))
}
