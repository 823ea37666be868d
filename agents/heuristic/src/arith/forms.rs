//! Forms read by their words: roots, remainders, verb forms, calls, and rounding to
//! places.

use super::continuation::parse_continuation;
use super::words::{JOIN_WORDS, ORDINAL_DEGREES};
use super::{Parser, parse};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token};
use crate::numbers;

/// `100 chia 8 dư mấy`, `100 divided by 8, remainder?`: a division whose remainder is
/// asked after it.
pub(super) fn remainder_after(toks: &[Token]) -> Option<Expr> {
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
pub(super) fn rounded_after(toks: &[Token]) -> Option<Expr> {
    let k = (1..toks.len()).find(|&k| {
        matches!(toks[k].word(), Some("rounded" | "round"))
            || crate::lexer::words_at(toks, k, &["làm", "tròn"])
    })?;
    let head = parse(&toks[..k])?;
    let tail = parse_continuation(&toks[k..])?;
    matches!(tail, Expr::Op(MathOp::Round, _)).then(|| tail.with_previous(&head))
}

impl Parser<'_> {
    /// An n-th root: `cube root of 343`, `the fourth root of 81`, `5th root of 32`,
    /// `n-th root`, `căn bậc ba của 216`, `căn bậc 4 của 81`, `∛27`; degree 2 is `sqrt`.
    pub(super) fn root(&mut self) -> Option<Expr> {
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
    pub(super) fn remainder(&mut self) -> Option<Expr> {
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

    /// `x JOIN y` after a verb; `subtract 7 from 10` is 10 − 7, `add 3 to 5` is 5 + 3.
    pub(super) fn verb(&mut self, op: MathOp) -> Option<Expr> {
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
    pub(super) fn call(&mut self) -> Option<Expr> {
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
    pub(super) fn rounding(&mut self) -> Option<Expr> {
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
        // (`round 532857 up to the nearest thousand`, `làm tròn 532857 lên hàng nghìn`:
        // the way it rounds, said before its places.)
        let mode = if self.eat_words(&["up"]) || self.eat_words(&["lên"]) {
            Some(Expr::UP)
        } else if self.eat_words(&["down"]) || self.eat_words(&["xuống"]) {
            Some(Expr::DOWN)
        } else {
            None
        };
        let places = self.round_places()?;
        Some(match mode {
            Some(m) => Expr::Op(MathOp::RoundUp, vec![x, places, Expr::Num(m.into())]),
            None => Expr::bin(MathOp::Round, x, places),
        })
    }

    /// How many decimal places a rounding keeps: `to 2 decimal places`, `đến 2 chữ số
    /// thập phân`, `to the nearest cent` (2), `… tenth` (1), `… whole number` (0); no
    /// `to` at all is 0.
    pub(super) fn round_places(&mut self) -> Option<Expr> {
        let joined =
            self.eat_words(&["to"]) || self.eat_words(&["đến"]) || self.eat_words(&["tới"]);
        if !joined {
            // (`làm tròn 532857 lên hàng nghìn`: a place named without `đến`.)
            if let Some((_, n)) = NAMED
                .iter()
                .filter(|(w, _)| w[0] == "hàng")
                .find(|(w, _)| self.eat_words(w))
            {
                return Some(Expr::Num((*n).into()));
            }
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
        // (`round 383.3333 to the cent`: `the` alone before a named place.)
        let named_from = self.pos;
        if !nearest {
            let _ = self.eat_words(&["the"]) || self.eat_words(&["a"]);
        }
        // (`round that up to a whole euro`: a currency's whole unit, `whole` said.)
        let whole_at = self.pos;
        if let Some((_, n)) = NAMED.iter().find(|(w, _)| self.eat_words(w)).or_else(|| {
            self.eat_words(&["whole"])
                .then(|| NAMED.iter().find(|(w, n)| *n == "0" && self.eat_words(w)))
                .flatten()
        }) {
            return Some(Expr::Num((*n).into()));
        }
        self.pos = whole_at;
        if !nearest {
            self.pos = named_from;
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

/// Places a rounding keeps, named: decimals right of the point, positive; tens,
/// hundreds… left of it, negative.
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
    // (`to the nearest won`: a currency's whole unit.)
    (&["won"], "0"),
    (&["yen"], "0"),
    (&["euro"], "0"),
    (&["dong"], "0"),
    (&["đồng"], "0"),
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
    // (`làm tròn tới ngàn`: the place without `hàng`.)
    (&["ngàn"], "-3"),
    (&["nghìn"], "-3"),
    (&["trăm"], "-2"),
    (&["million"], "-6"),
    (&["hàng", "chục"], "-1"),
    (&["hàng", "trăm"], "-2"),
    (&["hàng", "nghìn"], "-3"),
    (&["hàng", "ngàn"], "-3"),
    (&["hàng", "triệu"], "-6"),
];

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
