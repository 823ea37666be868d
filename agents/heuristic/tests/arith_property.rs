//! Property: random arithmetic — in digits with symbols and parentheses, in English
//! number and operator words, in Vietnamese number and operator words, with digits and
//! words mixed, behind the openings and question tails people type ("what is …", "tính
//! … bằng mấy?") — plans to steps that, run in order through the real math tools (each
//! reference replaced by the earlier step's result), give the one answer computed
//! directly here with exact decimals.
//!
//! The expected value never comes from the planner: the digit forms are trees whose value
//! is computed node by node, the word forms are flat sequences (words have no
//! parentheses) computed with the usual precedence, and the number words come from the
//! converters below, written independently of `chorus_heuristic::numbers`.

use std::collections::HashMap;
use std::str::FromStr;

use bigdecimal::{BigDecimal, Zero};
use chorus_bus::{Arg, TaskContext};
use chorus_heuristic::{Capabilities, PlanOutcome, plan};
use chorus_mcp_common::args::Args;
use chorus_mcp_math::tools::registry;
use proptest::prelude::*;
use serde_json::{Map, Value};

// ---------------------------------------------------------------------------------------
// Arithmetic, computed directly.

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

impl Op {
    fn precedence(self) -> u8 {
        match self {
            Op::Add | Op::Sub => 1,
            Op::Mul | Op::Div => 2,
        }
    }
}

/// `a / b` when it is an exact (terminating) decimal, as the math server computes it;
/// `None` for a zero divisor or a quotient that does not terminate.
fn exact_div(a: &BigDecimal, b: &BigDecimal) -> Option<BigDecimal> {
    if b.is_zero() {
        return None;
    }
    let q = a / b;
    (&q * b == *a).then_some(q)
}

/// `a op b`, exactly; panics on a division that is not exact (the generators never make
/// one).
fn apply(op: Op, a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    match op {
        Op::Add => a + b,
        Op::Sub => a - b,
        Op::Mul => a * b,
        Op::Div => exact_div(a, b).expect("the generators divide exactly"),
    }
}

/// An operator with no exact result here becomes a multiplication, so every division
/// the generators keep terminates (the server rounds those that do not, and a rounded
/// intermediate would make the comparison meaningless).
fn exact_op(op: Op, a: &BigDecimal, b: &BigDecimal) -> Op {
    if op == Op::Div && exact_div(a, b).is_none() {
        Op::Mul
    } else {
        op
    }
}

fn signed(n: u32, neg: bool) -> BigDecimal {
    let v = BigDecimal::from(n);
    if neg { -v } else { v }
}

// ---------------------------------------------------------------------------------------
// Number words, independent of the planner's reader.

const EN_UNITS: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const EN_TENS: [&str; 10] = [
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// Spelling choices, one bit each, so shrinking goes to the plainest spelling.
#[derive(Debug, Clone, Copy)]
struct Spelling(u8);

impl Spelling {
    fn bit(self, n: u8) -> bool {
        self.0 & (1 << n) != 0
    }
}

/// English words for `n` < 100 000: `twenty-one` or `twenty one`, `one hundred and
/// five` or `one hundred five`, `twelve thousand and seven`.
fn english(n: u32, s: Spelling) -> String {
    fn below_100(n: u32, s: Spelling, out: &mut Vec<String>) {
        if n < 20 {
            out.push(EN_UNITS[n as usize].into());
        } else if n.is_multiple_of(10) {
            out.push(EN_TENS[(n / 10) as usize].into());
        } else {
            let (t, u) = (EN_TENS[(n / 10) as usize], EN_UNITS[(n % 10) as usize]);
            if s.bit(0) {
                out.push(t.into());
                out.push(u.into());
            } else {
                out.push(format!("{t}-{u}"));
            }
        }
    }
    fn below_1000(n: u32, s: Spelling, out: &mut Vec<String>) {
        let (h, r) = (n / 100, n % 100);
        if h > 0 {
            out.push(EN_UNITS[h as usize].into());
            out.push("hundred".into());
            if r > 0 && !s.bit(1) {
                out.push("and".into());
            }
        }
        if r > 0 || h == 0 {
            below_100(r, s, out);
        }
    }
    let mut out = Vec::new();
    let (k, r) = (n / 1000, n % 1000);
    if k > 0 {
        below_1000(k, s, &mut out);
        out.push("thousand".into());
        if r > 0 && r < 100 && !s.bit(1) {
            out.push("and".into());
        }
    }
    if r > 0 || k == 0 {
        below_1000(r, s, &mut out);
    }
    out.join(" ")
}

/// Vietnamese words for `n` < 100 000: `mười lăm`, `mười tư`, `hai mươi mốt`, `hai mươi tư`,
/// `một trăm linh năm` (or `lẻ`), `một nghìn` (or `ngàn`), `hai nghìn không trăm hai mươi
/// sáu`.
fn vietnamese(n: u32, s: Spelling) -> String {
    fn unit(u: u32, s: Spelling) -> &'static str {
        const UNITS: [&str; 10] = [
            "không", "một", "hai", "ba", "bốn", "năm", "sáu", "bảy", "tám", "chín",
        ];
        if u == 7 && s.bit(2) {
            "bẩy"
        } else {
            UNITS[u as usize]
        }
    }
    fn below_100(n: u32, s: Spelling, out: &mut Vec<&'static str>) {
        let (t, u) = (n / 10, n % 10);
        match t {
            0 => out.push(unit(u, s)),
            1 => {
                out.push("mười");
                match u {
                    0 => {}
                    4 if s.bit(3) => out.push("tư"),
                    5 => out.push("lăm"),
                    _ => out.push(unit(u, s)),
                }
            }
            _ => {
                out.push(unit(t, s));
                out.push("mươi");
                match u {
                    0 => {}
                    1 => out.push("mốt"),
                    4 if !s.bit(3) => out.push("tư"),
                    5 if s.bit(4) => out.push("nhăm"),
                    5 => out.push("lăm"),
                    _ => out.push(unit(u, s)),
                }
            }
        }
    }
    fn below_1000(n: u32, s: Spelling, out: &mut Vec<&'static str>, full: bool) {
        let (h, r) = (n / 100, n % 100);
        if h > 0 || full {
            out.push(unit(h, s));
            out.push("trăm");
            if r == 0 {
                return;
            }
            if r < 10 {
                out.push(if s.bit(5) { "lẻ" } else { "linh" });
            }
        }
        below_100(r, s, out);
    }
    let mut out = Vec::new();
    let (k, r) = (n / 1000, n % 1000);
    if k > 0 {
        below_1000(k, s, &mut out, false);
        out.push(if s.bit(6) { "ngàn" } else { "nghìn" });
        if r > 0 {
            // 1 005 is `một nghìn không trăm linh năm`, or colloquially `một nghìn linh
            // năm`.
            if r < 10 && s.bit(7) {
                out.push(if s.bit(5) { "lẻ" } else { "linh" });
                out.push(unit(r, s));
            } else {
                below_1000(r, s, &mut out, true);
            }
        }
    } else {
        below_1000(r, s, &mut out, false);
    }
    out.join(" ")
}

// ---------------------------------------------------------------------------------------
// Queries: what the user types, and the value it must plan to.

/// A generated query and its directly computed value.
#[derive(Debug, Clone)]
struct Case {
    query: String,
    expected: BigDecimal,
}

/// Openings and question tails; `vi` picks the Vietnamese ones.
#[derive(Debug, Clone, Copy)]
struct Framing {
    vi: bool,
    lead: u8,
    tail: u8,
    capital: bool,
}

impl Framing {
    fn wrap(self, core: &str) -> String {
        const EN_LEADS: &[&str] = &[
            "",
            "what is ",
            "what's ",
            "how much is ",
            "compute ",
            "calculate ",
            "please compute ",
            "can you calculate ",
        ];
        const EN_TAILS: &[&str] = &["", "?", " = ?", " equals?", "!"];
        const VI_LEADS: &[&str] = &["", "tính ", "hãy tính ", "tính giúp tôi ", "tính: "];
        const VI_TAILS: &[&str] = &[
            "",
            " bằng mấy?",
            " là bao nhiêu?",
            " bằng bao nhiêu",
            " = ??",
        ];
        let (leads, tails) = if self.vi {
            (VI_LEADS, VI_TAILS)
        } else {
            (EN_LEADS, EN_TAILS)
        };
        let lead = leads[self.lead as usize % leads.len()];
        let tail = tails[self.tail as usize % tails.len()];
        let text = format!("{lead}{core}{tail}");
        if !self.capital {
            return text;
        }
        let mut chars = text.chars();
        match chars.next() {
            Some(c) => c.to_uppercase().chain(chars).collect(),
            None => text,
        }
    }
}

fn framing(vi: impl Strategy<Value = bool>) -> impl Strategy<Value = Framing> {
    (vi, any::<u8>(), any::<u8>(), prop::bool::weighted(0.2)).prop_map(
        |(vi, lead, tail, capital)| Framing {
            vi,
            lead,
            tail,
            capital,
        },
    )
}

/// The operators, division a little more often: many divisions are not exact and
/// become multiplications (see [`exact_op`]).
fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::Add),
        2 => Just(Op::Sub),
        2 => Just(Op::Mul),
        3 => Just(Op::Div),
    ]
}

/// Divisors whose quotients always terminate (products of 2s and 5s), so divisions stay
/// frequent and some answers are not whole (`7 / 8` = 0.875).
const DIVISORS: &[u32] = &[
    1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 40, 50, 64, 80, 100, 125, 200, 250, 400, 500, 625, 800,
];

/// Integers 0..=999, often one of [`DIVISORS`].
fn small() -> impl Strategy<Value = u32> {
    prop_oneof![3 => 0..=999u32, 1 => prop::sample::select(DIVISORS)]
}

// --- Digits with symbols: trees, parenthesised where needed (and sometimes where not).

/// An expression tree written in digits.
#[derive(Debug, Clone)]
enum Tree {
    Leaf {
        n: u32,
        neg: bool,
        style: u8,
    },
    Bin {
        op: Op,
        style: u8,
        paren: bool,
        l: Box<Tree>,
        r: Box<Tree>,
    },
}

impl Tree {
    fn bin(op: Op, style: u8, paren: bool, l: Tree, r: Tree) -> Tree {
        let op = exact_op(op, &l.value(), &r.value());
        Tree::Bin {
            op,
            style,
            paren,
            l: Box::new(l),
            r: Box::new(r),
        }
    }

    fn value(&self) -> BigDecimal {
        match self {
            Tree::Leaf { n, neg, .. } => signed(*n, *neg),
            Tree::Bin { op, l, r, .. } => apply(*op, &l.value(), &r.value()),
        }
    }

    /// The tree in digits and symbols: `(12 + 7) * 3 - 4`, `12+7×3`, `8 ÷ (−2)`.
    /// `parent` is the enclosing operator and whether this is its right operand.
    fn digits(&self, parent: Option<(Op, bool)>) -> String {
        match self {
            Tree::Leaf { n, neg, style } => match (neg, style % 3) {
                (false, _) => n.to_string(),
                (true, 0) => format!("-{n}"),
                (true, 1) => format!("(-{n})"),
                (true, _) => format!("−{n}"),
            },
            Tree::Bin {
                op,
                style,
                paren,
                l,
                r,
            } => {
                let symbols: &[&str] = match op {
                    Op::Add => &["+"],
                    Op::Sub => &["-", "−"],
                    Op::Mul => &["*", "×", "x", "·"],
                    Op::Div => &["/", "÷", ":"],
                };
                let symbol = symbols[*style as usize % symbols.len()];
                // Tight `2+3`, `2*3`, `2×3` sometimes; `-` and `/` always spaced (so
                // `12-3-2026` and `12/3/2026` are not dates).
                let tight = style & 0x80 != 0 && matches!(symbol, "+" | "*" | "×");
                let sep = if tight { "" } else { " " };
                let text = format!(
                    "{}{sep}{symbol}{sep}{}",
                    l.digits(Some((*op, false))),
                    r.digits(Some((*op, true)))
                );
                let needed = parent.is_some_and(|(p, right)| {
                    op.precedence() < p.precedence() || (right && op.precedence() == p.precedence())
                });
                if needed || *paren {
                    format!("({text})")
                } else {
                    text
                }
            }
        }
    }
}

/// Trees of depth at most 3 with integers 0..=999 (sometimes negative), always at least
/// one operation.
fn tree() -> impl Strategy<Value = Tree> {
    let leaf = (small(), prop::bool::weighted(0.1), any::<u8>())
        .prop_map(|(n, neg, style)| Tree::Leaf { n, neg, style });
    let sub = leaf.prop_recursive(2, 8, 2, |inner| {
        (
            op(),
            any::<u8>(),
            prop::bool::weighted(0.1),
            inner.clone(),
            inner,
        )
            .prop_map(|(op, style, paren, l, r)| Tree::bin(op, style, paren, l, r))
    });
    (
        op(),
        any::<u8>(),
        prop::bool::weighted(0.1),
        sub.clone(),
        sub,
    )
        .prop_map(|(op, style, paren, l, r)| Tree::bin(op, style, paren, l, r))
}

fn digit_case() -> impl Strategy<Value = Case> {
    (tree(), framing(any::<bool>())).prop_map(|(t, f)| Case {
        query: f.wrap(&t.digits(None)),
        expected: t.value(),
    })
}

// --- Words: flat sequences (words have no parentheses), usual precedence.

/// One number of a flat sequence.
#[derive(Debug, Clone, Copy)]
struct Operand {
    n: u32,
    neg: bool,
    /// Written in digits rather than words (`tính 12 nhân năm`).
    digits: bool,
    spelling: Spelling,
}

/// `first op1 n1 op2 n2 …`.
#[derive(Debug, Clone)]
struct Flat {
    first: Operand,
    rest: Vec<(Op, u8, Operand)>,
}

impl Flat {
    /// The value with × ÷ before + −, left to right; with `fix`, a division that is not
    /// exact becomes a multiplication first.
    fn evaluate(&mut self, fix: bool) -> BigDecimal {
        let value = |o: &Operand| signed(o.n, o.neg);
        let mut total = BigDecimal::zero();
        let mut pending = Op::Add;
        let mut term = value(&self.first);
        for (op, _, o) in &mut self.rest {
            let v = value(o);
            if op.precedence() == 2 {
                if fix {
                    *op = exact_op(*op, &term, &v);
                }
                term = apply(*op, &term, &v);
            } else {
                total = apply(pending, &total, &term);
                pending = *op;
                term = v;
            }
        }
        apply(pending, &total, &term)
    }

    /// The sequence in English (`vi` false) or Vietnamese words.
    fn words(&self, vi: bool) -> String {
        let number = |o: &Operand| {
            let n = o.word(vi);
            if !o.neg {
                return n;
            }
            let minus = if vi {
                "âm"
            } else if o.spelling.bit(7) {
                "negative"
            } else {
                "minus"
            };
            format!("{minus} {n}")
        };
        let mut out = number(&self.first);
        for (op, style, o) in &self.rest {
            let words: &[&str] = match (vi, op) {
                (false, Op::Add) => &["plus"],
                (false, Op::Sub) => &["minus"],
                (false, Op::Mul) => &["times", "multiplied by", "x"],
                (false, Op::Div) => &["divided by", "over"],
                (true, Op::Add) => &["cộng", "cộng với"],
                (true, Op::Sub) => &["trừ", "trừ đi"],
                (true, Op::Mul) => &["nhân", "nhân với", "x"],
                (true, Op::Div) => &["chia", "chia cho"],
            };
            let word = words[*style as usize % words.len()];
            out = format!("{out} {word} {}", number(o));
        }
        out
    }
}

impl Operand {
    /// The number alone, in digits (`12345` or `12,345`) or in words.
    fn word(&self, vi: bool) -> String {
        if self.digits && self.n >= 1000 && self.spelling.bit(6) {
            format!("{},{:03}", self.n / 1000, self.n % 1000)
        } else if self.digits {
            self.n.to_string()
        } else if vi {
            vietnamese(self.n, self.spelling)
        } else {
            english(self.n, self.spelling)
        }
    }
}

/// Numbers 0..=999 (often one of [`DIVISORS`]), and sometimes up to 99 999.
fn number() -> impl Strategy<Value = u32> {
    prop_oneof![4 => small(), 1 => 1000..=99_999u32]
}

fn operand() -> impl Strategy<Value = Operand> {
    (
        number(),
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.15),
        any::<u8>(),
    )
        .prop_map(|(n, neg, digits, s)| Operand {
            n,
            neg,
            digits,
            spelling: Spelling(s),
        })
}

/// Two to five numbers with one to four operators between them.
fn flat() -> impl Strategy<Value = Flat> {
    (
        operand(),
        prop::collection::vec((op(), any::<u8>(), operand()), 1..=4),
    )
        .prop_map(|(first, rest)| {
            let mut f = Flat { first, rest };
            f.evaluate(true);
            f
        })
}

fn word_case(vi: bool) -> impl Strategy<Value = Case> {
    (flat(), framing(Just(vi))).prop_map(move |(mut flat, f)| Case {
        query: f.wrap(&flat.words(vi)),
        expected: flat.evaluate(false),
    })
}

// ---------------------------------------------------------------------------------------
// Running a plan through the math tools.

/// Plans `query`, runs every step through the math server's own tool runners in order,
/// and returns the value of the one output step, or what went wrong.
fn planned_value(query: &str) -> Result<BigDecimal, String> {
    let outcome = plan(
        query,
        &TaskContext::default(),
        &Capabilities::default_tools(),
    );
    let PlanOutcome::Planned { plan, .. } = outcome else {
        return Err(format!("not planned: {outcome:?}"));
    };
    let mut results: HashMap<String, Value> = HashMap::new();
    let mut outputs = Vec::new();
    for step in &plan.steps {
        if step.pool != "math" {
            return Err(format!("step {} is on pool {}", step.id, step.pool));
        }
        let (_, run) = registry()
            .iter()
            .find(|(def, _)| def.name == step.tool)
            .ok_or_else(|| format!("no math tool {}", step.tool))?;
        let mut args = Map::new();
        for (name, arg) in &step.arguments {
            let value = match arg {
                Arg::Value(v) => v.clone(),
                Arg::Ref { step: dep } => results
                    .get(&dep.to_string())
                    .cloned()
                    .ok_or_else(|| format!("step {} refers to {dep} before it", step.id))?,
            };
            args.insert(name.clone(), value);
        }
        let reply =
            run(&Args::new(&args)).map_err(|e| format!("{} {:?} failed: {e}", step.tool, args))?;
        let value = reply.structured["result"].clone();
        if step.output {
            outputs.push(value.clone());
        }
        results.insert(step.id.to_string(), value);
    }
    let [value] = outputs.as_slice() else {
        return Err(format!(
            "{} output steps (one expected): {:?}",
            outputs.len(),
            plan.steps
        ));
    };
    let text = value
        .as_str()
        .ok_or_else(|| format!("result {value} is not a string"))?;
    BigDecimal::from_str(text).map_err(|e| format!("result {text:?}: {e}"))
}

fn check(case: &Case) -> Result<(), TestCaseError> {
    let got = planned_value(&case.query)
        .map_err(|e| TestCaseError::fail(format!("{:?}: {e}", case.query)))?;
    prop_assert_eq!(
        &got,
        &case.expected,
        "{:?} planned to {} but is {}",
        case.query,
        got,
        case.expected
    );
    Ok(())
}

/// Cases per property: 512 (well under a second in debug), or `PROPTEST_CASES` for a
/// longer search (read here too, so the allowance for rejects keeps up).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512)
}

fn config() -> ProptestConfig {
    let cases = cases();
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn digits_with_symbols_plan_to_their_value(case in digit_case()) {
        check(&case)?;
    }

    #[test]
    fn english_words_plan_to_their_value(case in word_case(false)) {
        check(&case)?;
    }

    #[test]
    fn vietnamese_words_plan_to_their_value(case in word_case(true)) {
        check(&case)?;
    }
}

#[test]
fn the_number_word_converters_spell_as_people_write() {
    let plain = Spelling(0);
    assert_eq!(english(0, plain), "zero");
    assert_eq!(english(21, plain), "twenty-one");
    assert_eq!(english(21, Spelling(1)), "twenty one");
    assert_eq!(english(105, plain), "one hundred and five");
    assert_eq!(english(105, Spelling(2)), "one hundred five");
    assert_eq!(english(1000, plain), "one thousand");
    assert_eq!(english(12_007, plain), "twelve thousand and seven");
    assert_eq!(
        english(99_999, plain),
        "ninety-nine thousand nine hundred and ninety-nine"
    );
    assert_eq!(vietnamese(0, plain), "không");
    assert_eq!(vietnamese(15, plain), "mười lăm");
    assert_eq!(vietnamese(12, plain), "mười hai");
    assert_eq!(vietnamese(14, Spelling(8)), "mười tư");
    assert_eq!(vietnamese(21, plain), "hai mươi mốt");
    assert_eq!(vietnamese(24, plain), "hai mươi tư");
    assert_eq!(vietnamese(24, Spelling(8)), "hai mươi bốn");
    assert_eq!(vietnamese(105, plain), "một trăm linh năm");
    assert_eq!(vietnamese(105, Spelling(32)), "một trăm lẻ năm");
    assert_eq!(vietnamese(110, plain), "một trăm mười");
    assert_eq!(vietnamese(1000, plain), "một nghìn");
    assert_eq!(vietnamese(1000, Spelling(64)), "một ngàn");
    assert_eq!(vietnamese(1005, plain), "một nghìn không trăm linh năm");
    assert_eq!(vietnamese(1005, Spelling(128)), "một nghìn linh năm");
    assert_eq!(vietnamese(2026, plain), "hai nghìn không trăm hai mươi sáu");
    assert_eq!(vietnamese(21_000, plain), "hai mươi mốt nghìn");
    assert_eq!(
        vietnamese(99_999, plain),
        "chín mươi chín nghìn chín trăm chín mươi chín"
    );
}
