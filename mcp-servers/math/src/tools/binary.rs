//! The tools of two decimal operands — sum, subtract, multiply, divide, modulo, percent, min,
//! max — share their glue: a
//! definition made from a name, a description and the two operands, and a runner that
//! reads exactly those operands and replies with the exact result. This file is their
//! table; each tool's arithmetic stays in its own file.

use bigdecimal::BigDecimal;
use chorus_mcp_common::ToolDef;
use serde_json::{Map, Value};

use super::{
    Runner, decimal_reply, def, divide, max, min, modulo, multiply, object_schema, operand_schema,
    percent, subtract, sum,
};
use crate::{MathError, decimal::operand};

/// One two-operand tool.
pub(crate) struct Binary {
    /// The tool's name.
    pub name: &'static str,
    /// Its description for models and people.
    pub about: &'static str,
    /// The operands' argument names and descriptions.
    pub operands: [(&'static str, &'static str); 2],
    /// The arithmetic.
    pub op: fn(&BigDecimal, &BigDecimal) -> Result<BigDecimal, MathError>,
}

impl Binary {
    /// The tool's definition and its runner.
    pub(crate) fn entry(self) -> (ToolDef, Runner) {
        let [(a, a_about), (b, b_about)] = self.operands;
        let mut properties = Map::new();
        properties.insert(a.to_owned(), operand_schema(a_about));
        properties.insert(b.to_owned(), operand_schema(b_about));
        let def = def(
            self.name,
            self.about,
            object_schema(Value::Object(properties), &[a, b]),
        );
        let op = self.op;
        let run: Runner = Box::new(move |args| {
            args.only(&[a, b])?;
            Ok(decimal_reply(&op(&operand(args, a)?, &operand(args, b)?)?))
        });
        (def, run)
    }
}

/// The two-operand tools, in listing order.
pub(crate) fn tools() -> [Binary; 8] {
    [
        Binary {
            name: "sum",
            about: "Add two numbers exactly: a + b. Returns the exact decimal result as a string, e.g. sum(2, 4) = \"6\", sum(0.1, 0.2) = \"0.3\".",
            operands: [("a", "First addend"), ("b", "Second addend")],
            op: |a, b| Ok(sum::sum(a, b)),
        },
        Binary {
            name: "subtract",
            about: "Subtract exactly: a - b (b is taken away from a). Returns the exact decimal result as a string, e.g. subtract(10, 4) = \"6\".",
            operands: [
                ("a", "Number to subtract from (minuend)"),
                ("b", "Number to subtract (subtrahend)"),
            ],
            op: |a, b| Ok(subtract::subtract(a, b)),
        },
        Binary {
            name: "multiply",
            about: "Multiply two numbers exactly: a * b. Returns the exact decimal result as a string, e.g. multiply(6, 3) = \"18\", multiply(0.1, 3) = \"0.3\".",
            operands: [("a", "First factor"), ("b", "Second factor")],
            op: |a, b| Ok(multiply::multiply(a, b)),
        },
        Binary {
            name: "divide",
            about: "Divide a by b: a / b. Exact when the result terminates (divide(10, 4) = \"2.5\"); otherwise rounded to 28 significant digits, half to even (divide(1, 3) = \"0.3333333333333333333333333333\"). Dividing by zero is an error.",
            operands: [
                ("a", "Dividend (the number divided)"),
                ("b", "Divisor (must not be 0)"),
            ],
            op: divide::divide,
        },
        Binary {
            name: "modulo",
            about: "Remainder of a divided by b (truncated division, so the remainder has the sign of a): modulo(10, 3) = \"1\", modulo(-7, 3) = \"-1\", modulo(5.5, 2) = \"1.5\". b = 0 is an error.",
            operands: [("a", "Dividend"), ("b", "Divisor (must not be 0)")],
            op: modulo::modulo,
        },
        Binary {
            name: "percent",
            about: "Percentage of a number: percent% of `of` = percent / 100 * of, exact. percent(15, 200) = \"30\" (15% of 200).",
            operands: [
                ("percent", "The percentage, e.g. 15 for 15%"),
                ("of", "The number the percentage is taken of"),
            ],
            op: |a, b| Ok(percent::percent(a, b)),
        },
        Binary {
            name: "min",
            about: "The smaller of two numbers, compared exactly: min(4, 9) = \"4\", min(-2.5, 1) = \"-2.5\". For a list, apply it pairwise: min(min(4, 9), 2) = \"2\".",
            operands: [("a", "First number"), ("b", "Second number")],
            op: |a, b| Ok(min::min(a, b)),
        },
        Binary {
            name: "max",
            about: "The larger of two numbers, compared exactly: max(4, 9) = \"9\", max(-2.5, 1) = \"1\". For a list, apply it pairwise: max(max(4, 9), 2) = \"9\".",
            operands: [("a", "First number"), ("b", "Second number")],
            op: |a, b| Ok(max::max(a, b)),
        },
    ]
}
