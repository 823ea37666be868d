//! Arithmetic expressions and how they become math steps: one step per operation, in
//! post-order, so `(2+4)*3` is `sum(2, 4)` then `multiply($s1, 3)` and `2*3 + 4*5` is
//! two independent multiplies (the Router runs them at once) then a sum.

use crate::builder::{PlanBuilder, text};

/// The math pool's name.
pub const MATH_POOL: &str = "math";

/// A math operation, named after the tool that performs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MathOp {
    /// `sum {a, b}`.
    Sum,
    /// `subtract {a, b}`: a − b.
    Subtract,
    /// `multiply {a, b}`.
    Multiply,
    /// `divide {a, b}`.
    Divide,
    /// `power {base, exponent}`.
    Power,
    /// `modulo {a, b}`.
    Modulo,
    /// `percent {percent, of}`.
    Percent,
    /// `round {x, places}`.
    Round,
    /// `round {x, places, mode}`: x rounded up (boxes needed to hold it) or down (the
    /// full groups); its operands are x, the places and the mode, [`Expr::UP`] or
    /// [`Expr::DOWN`].
    RoundUp,
    /// `sqrt {x}`.
    Sqrt,
    /// `root {x, n}`: the n-th root of x.
    Root,
    /// `abs {x}`.
    Abs,
    /// `min {a, b}`: the smaller.
    Min,
    /// `max {a, b}`: the larger.
    Max,
}

impl MathOp {
    /// The tool's name and its argument names, in operand order.
    pub fn tool(self) -> (&'static str, &'static [&'static str]) {
        match self {
            MathOp::Sum => ("sum", &["a", "b"]),
            MathOp::Subtract => ("subtract", &["a", "b"]),
            MathOp::Multiply => ("multiply", &["a", "b"]),
            MathOp::Divide => ("divide", &["a", "b"]),
            MathOp::Power => ("power", &["base", "exponent"]),
            MathOp::Modulo => ("modulo", &["a", "b"]),
            MathOp::Percent => ("percent", &["percent", "of"]),
            MathOp::Round => ("round", &["x", "places"]),
            MathOp::RoundUp => ("round", &["x", "places", "mode"]),
            MathOp::Sqrt => ("sqrt", &["x"]),
            MathOp::Root => ("root", &["x", "n"]),
            MathOp::Abs => ("abs", &["x"]),
            MathOp::Min => ("min", &["a", "b"]),
            MathOp::Max => ("max", &["a", "b"]),
        }
    }
}

/// An arithmetic expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// A literal, as a normalised decimal string (`"-3"`, `"0.1"`).
    Num(String),
    /// An operation on its operands (one or two, see [`MathOp::tool`]).
    Op(MathOp, Vec<Expr>),
}

impl Expr {
    /// A two-operand operation.
    pub fn bin(op: MathOp, a: Expr, b: Expr) -> Expr {
        Expr::Op(op, vec![a, b])
    }

    /// `items` joined left to right by `op` (`((a op b) op c)…`); `None` when empty.
    pub fn chain(op: MathOp, items: impl IntoIterator<Item = Expr>) -> Option<Expr> {
        let mut items = items.into_iter();
        let first = items.next()?;
        Some(items.fold(first, |acc, e| Expr::bin(op, acc, e)))
    }

    /// The negation of `e`: a literal's sign flips; anything else becomes `0 − e`.
    pub fn negate(e: Expr) -> Expr {
        match e {
            Expr::Num(n) if n == "0" => Expr::Num(n),
            Expr::Num(n) => match n.strip_prefix('-') {
                Some(pos) => Expr::Num(pos.to_owned()),
                None => Expr::Num(format!("-{n}")),
            },
            other => Expr::bin(MathOp::Subtract, Expr::Num("0".into()), other),
        }
    }

    /// Adds this expression's steps to `plan` for `part`; the last one (the result) is
    /// marked as output. Returns false, adding nothing, when there is nothing to compute.
    pub fn lower_into(&self, plan: &mut PlanBuilder, part: &str) -> bool {
        if matches!(self, Expr::Num(_)) {
            return false;
        }
        lower(self, plan, part);
        plan.mark_last_output();
        true
    }

    /// `part` as a percentage of `base`: `part × 100 ÷ base` (multiplied first, so a
    /// whole percentage stays exact).
    pub fn percent_of(part: Expr, base: Expr) -> Expr {
        Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, part, Expr::Num("100".into())),
            base,
        )
    }

    /// The rounding mode of [`MathOp::RoundUp`].
    pub const UP: &'static str = "up";

    /// `x` rounded up to a whole number.
    pub fn round_up(x: Expr) -> Expr {
        Expr::Op(
            MathOp::RoundUp,
            vec![x, Expr::Num("0".into()), Expr::Num(Self::UP.into())],
        )
    }

    /// The rounding mode that rounds down (towards −∞), with [`MathOp::RoundUp`]'s
    /// operands.
    pub const DOWN: &'static str = "down";

    /// `x` rounded down to a whole number (the full groups a count makes).
    pub fn round_down(x: Expr) -> Expr {
        Expr::Op(
            MathOp::RoundUp,
            vec![x, Expr::Num("0".into()), Expr::Num(Self::DOWN.into())],
        )
    }

    /// The placeholder for the previous part's result in a continuation ("then subtract
    /// 2"); no number the lexer reads looks like it.
    pub const PREVIOUS: &'static str = "@previous";

    /// Whether the expression refers to the previous part's result.
    pub fn refers_back(&self) -> bool {
        match self {
            Expr::Num(n) => n == Self::PREVIOUS,
            Expr::Op(_, args) => args.iter().any(Expr::refers_back),
        }
    }

    /// The expression with `by` in place of every literal `number`.
    pub fn replacing(self, number: &str, by: &Expr) -> Expr {
        match self {
            Expr::Num(n) if n == number => by.clone(),
            Expr::Op(op, args) => Expr::Op(
                op,
                args.into_iter().map(|a| a.replacing(number, by)).collect(),
            ),
            other => other,
        }
    }

    /// The expression with the previous part's result, `previous`, in place of the
    /// placeholder.
    pub fn with_previous(self, previous: &Expr) -> Expr {
        match self {
            Expr::Num(n) if n == Self::PREVIOUS => previous.clone(),
            Expr::Op(op, args) => Expr::Op(
                op,
                args.into_iter()
                    .map(|a| a.with_previous(previous))
                    .collect(),
            ),
            other => other,
        }
    }

    /// How many steps this expression needs.
    pub fn step_count(&self) -> usize {
        match self {
            Expr::Num(_) => 0,
            Expr::Op(_, args) => 1 + args.iter().map(Expr::step_count).sum::<usize>(),
        }
    }
}

fn lower(e: &Expr, plan: &mut PlanBuilder, part: &str) -> chorus_bus::Arg {
    match e {
        Expr::Num(n) => text(n),
        Expr::Op(op, operands) => {
            let values: Vec<_> = operands.iter().map(|o| lower(o, plan, part)).collect();
            let (tool, names) = op.tool();
            let args = names.iter().copied().zip(values).collect();
            plan.push(part, MATH_POOL, tool, args, false)
        }
    }
}
