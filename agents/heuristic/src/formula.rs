//! A math step written as the formula it computes, through the steps it took its
//! operands from: `multiply(a=$s1, b=3)` after `sum(2, 4)` is `(2 + 4) × 3`. Parentheses
//! only where precedence needs them. Operands are the values the steps received.

use std::collections::HashMap;

use chorus_bus::{Language, StepReport};

use crate::args::value_text;

/// How tightly an operator binds (higher binds tighter); functions are atoms.
fn precedence(tool: &str) -> Option<u8> {
    Some(match tool {
        "sum" | "subtract" => 1,
        "multiply" | "divide" | "modulo" => 2,
        "power" => 3,
        _ => return None,
    })
}

/// Whether `tool` is a math tool this module writes as a formula.
pub fn is_formula(tool: &str) -> bool {
    precedence(tool).is_some()
        || matches!(
            tool,
            "sqrt" | "root" | "abs" | "percent" | "round" | "min" | "max"
        )
}

/// The steps of a report by id.
pub type ById<'a> = HashMap<&'a str, &'a StepReport>;

/// The formula of `step`, operands from other math steps written in place; `?` for an
/// operand whose value is unknown (it never ran). Depth-limited: a plan is a DAG of at
/// most a few dozen steps, but a hand-written one must not recurse forever.
pub fn formula(step: &StepReport, by_id: &ById<'_>, language: Language) -> String {
    write(step, by_id, language, 0)
}

fn write(step: &StepReport, by_id: &ById<'_>, language: Language, depth: usize) -> String {
    let operand = |name: &str, parent: Option<(u8, bool)>| -> String {
        let from = step
            .inputs
            .get(name)
            .and_then(|id| by_id.get(id.as_str()))
            .filter(|s| is_formula(&s.tool) && depth < 32);
        match from {
            Some(inner) => {
                let text = write(inner, by_id, language, depth + 1);
                let needs = match (parent, precedence(&inner.tool)) {
                    (Some((outer, right)), Some(p)) => p < outer || (right && p == outer),
                    _ => false,
                };
                if needs { format!("({text})") } else { text }
            }
            None => match step.arguments.get(name).map(value_text) {
                Some(v) if step.recalled.iter().any(|r| r == name) => {
                    format!("{v} {}", recalled_note(language))
                }
                Some(v) if v.starts_with('-') && parent.is_some_and(|(_, right)| right) => {
                    format!("({v})")
                }
                Some(v) => v,
                None => "?".to_owned(),
            },
        }
    };
    let infix = |a: &str, sym: &str, b: &str, p: u8| {
        // `a - (b - c)`, `a / (b / c)`; `2 ^ (3 ^ 2)` is written with parentheses too.
        let left = operand(a, Some((p, tool_is(step, "power"))));
        let right = operand(b, Some((p, true)));
        format!("{left} {sym} {right}")
    };
    let of = if language.is_vi() { "của" } else { "of" };
    match step.tool.as_str() {
        "sum" => infix("a", "+", "b", 1),
        "subtract" => infix("a", "−", "b", 1),
        "multiply" => infix("a", "×", "b", 2),
        "divide" => infix("a", "÷", "b", 2),
        "modulo" => infix("a", "mod", "b", 2),
        "power" => infix("base", "^", "exponent", 3),
        "sqrt" => format!("√{}", atom(operand("x", None))),
        "root" => format!(
            "{}{}",
            root_sign(&step.arguments.get("n").map(value_text).unwrap_or_default()),
            atom(operand("x", None))
        ),
        "abs" => format!("|{}|", operand("x", None)),
        "percent" => format!("{}% {of} {}", operand("percent", None), operand("of", None)),
        // Rounded up or down to a whole number: the ceiling or floor brackets.
        "round" => {
            let places = step.arguments.get("places").map(value_text);
            let mode = step.arguments.get("mode").map(value_text);
            match whole_brackets(mode.as_deref(), places.as_deref()) {
                Some((open, close)) => format!("{open}{}{close}", operand("x", None)),
                None => format!(
                    "round({}, {})",
                    operand("x", None),
                    places.unwrap_or_else(|| "0".to_owned())
                ),
            }
        }
        tool => format!("{tool}({}, {})", operand("a", None), operand("b", None)),
    }
}

/// What a value taken from the conversation is called in a report.
pub fn recalled_note(language: Language) -> &'static str {
    if language.is_vi() {
        "(câu trả lời trước của bạn)"
    } else {
        "(your last answer)"
    }
}

fn tool_is(step: &StepReport, tool: &str) -> bool {
    step.tool == tool
}

/// The brackets of a rounding to a whole number (`places` 0) by `mode`: `⌈ ⌉` up
/// (how many whole ones hold it), `⌊ ⌋` down (the full groups); none for another.
pub fn whole_brackets(mode: Option<&str>, places: Option<&str>) -> Option<(char, char)> {
    match (mode, places) {
        (Some("up"), Some("0")) => Some(('⌈', '⌉')),
        (Some("down"), Some("0")) => Some(('⌊', '⌋')),
        _ => None,
    }
}

/// The root sign for degree `n`: `√`, `∛`, `∜`, else superscript digits (`⁵√`).
pub fn root_sign(n: &str) -> String {
    match n {
        "2" => "√".to_owned(),
        "3" => "∛".to_owned(),
        "4" => "∜".to_owned(),
        _ => n
            .chars()
            .map(|c| match c.to_digit(10) {
                Some(d) => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize],
                None => c,
            })
            .chain(['√'])
            .collect(),
    }
}

/// `√16`, `√(2 + 4)`.
fn atom(text: String) -> String {
    if text.contains(' ') {
        format!("({text})")
    } else {
        text
    }
}
