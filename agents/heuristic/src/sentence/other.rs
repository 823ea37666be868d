//! The answer of a tool Chorus has no wording for (a tool of another pool), on one
//! line, and what such a tool was asked, as `tool (name=value, …)`.

use chorus_bus::{Language, StepReport};
use serde_json::Value;

use super::own_pool;
use crate::args::{render_arguments, value_text};

/// Longest answer of a tool of another pool in the report, in characters; the rest is
/// cut (the step's whole value stays in the report's steps).
pub(super) const MAX_OTHER_ANSWER_CHARS: usize = 1000;

/// `tool (arguments)`, or `tool` when it took none to show. Only a tool of Chorus's own
/// pools has its arguments written its way (`2 + 4`); another pool's are `name=value`
/// pairs, whatever its tool is called.
pub(super) fn tool_with_arguments(step: &StepReport, language: Language) -> String {
    let as_tool = if own_pool(step) {
        step.tool.as_str()
    } else {
        ""
    };
    let args = render_arguments(as_tool, &step.arguments, language);
    if args.is_empty() {
        step.tool.clone()
    } else {
        format!("{} ({args})", step.tool)
    }
}

/// The answer of a tool Chorus has no wording for, on one line: an object or a list as
/// `name: value` pairs separated by `; ` (nested names joined with `.`, list items
/// numbered `[0]`, a list of plain values as `a, b`); a plain value as the tool's own
/// text when it gave one (its lines joined), else the value. At most
/// `MAX_OTHER_ANSWER_CHARS` characters, then `…`.
pub fn other_answer(value: &Value, text: &str) -> String {
    let structured = match value {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    };
    let line = if structured {
        let mut pairs = Vec::new();
        flatten("", value, &mut pairs);
        pairs.join("; ")
    } else {
        let own: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if own.is_empty() {
            value_text(value)
        } else {
            own.join(" ")
        }
    };
    match line.char_indices().nth(MAX_OTHER_ANSWER_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

/// `value`'s leaves as `name: value` under `prefix`, in `out`.
fn flatten(prefix: &str, value: &Value, out: &mut Vec<String>) {
    let named = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        }
    };
    let leaf = |text: String| {
        if prefix.is_empty() {
            text
        } else {
            format!("{prefix}: {text}")
        }
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (name, v) in map {
                flatten(&named(name), v, out);
            }
        }
        Value::Array(items) if items.iter().all(|v| !v.is_object() && !v.is_array()) => {
            let items: Vec<String> = items.iter().map(value_text).collect();
            out.push(leaf(items.join(", ")));
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), v, out);
            }
        }
        other => out.push(leaf(value_text(other))),
    }
}
