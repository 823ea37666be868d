//! A step's arguments as the report shows them: math operations infix (`2 + 4`,
//! `6 × 3`, `√16`), other tools as their single value (`2026-12-25`) or `name=value`
//! pairs. Values are shown exactly as the step received them; nothing is computed.
//! `now`, `timezone` and `day_first` are context the pool agent adds, not shown.

use chorus_bus::Language;
use serde_json::{Map, Value};

/// Argument names that are context, not the user's input.
const HIDDEN: &[&str] = &["now", "timezone", "day_first"];

/// A value as text: strings without quotes, everything else as JSON.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The arguments of a `tool` call for the report, in `language` (`en`, `vi`); empty when
/// there are none to show.
pub fn render_arguments(tool: &str, args: &Map<String, Value>, language: Language) -> String {
    let get = |k: &str| args.get(k).map(value_text);
    let whole = crate::formula::whole_brackets(get("mode").as_deref(), get("places").as_deref());
    let infix = |a: &str, op: &str, b: &str| match (get(a), get(b)) {
        (Some(x), Some(y)) => Some(format!("{x} {op} {y}")),
        _ => None,
    };
    let of = if language.is_vi() { "của" } else { "of" };
    let pretty = match tool {
        "sum" => infix("a", "+", "b"),
        "subtract" => infix("a", "-", "b"),
        "multiply" => infix("a", "×", "b"),
        "divide" => infix("a", "/", "b"),
        "modulo" => infix("a", "mod", "b"),
        "power" => infix("base", "^", "exponent"),
        "percent" => match (get("percent"), get("of")) {
            (Some(p), Some(n)) => Some(format!("{p}% {of} {n}")),
            _ => None,
        },
        "sqrt" => get("x").map(|x| format!("√{x}")),
        "root" => match (get("x"), get("n")) {
            (Some(x), Some(n)) => Some(format!("{}{x}", crate::formula::root_sign(&n))),
            _ => None,
        },
        "abs" => get("x").map(|x| format!("|{x}|")),
        // Rounded up (how many whole ones hold it) or down (the full groups).
        "round" if whole.is_some() => get("x")
            .zip(whole)
            .map(|(x, (open, close))| format!("{open}{x}{close}")),
        "min" | "max" => match (get("a"), get("b")) {
            (Some(a), Some(b)) => Some(format!("{tool}({a}, {b})")),
            _ => None,
        },
        // A named day, as month-day (the language's own order): `12-25`, `25/12`.
        "next_date" => match (get("month"), get("day")) {
            (Some(m), Some(d)) if language.is_vi() => Some(format!("{d}/{m}")),
            (Some(m), Some(d)) => Some(format!("{m:0>2}-{d:0>2}")),
            _ => None,
        },
        _ => None,
    };
    pretty.unwrap_or_else(|| plain(args))
}

/// A single shown argument as its value; several as `name=value, …` sorted by name.
fn plain(args: &Map<String, Value>) -> String {
    let mut shown: Vec<(&String, &Value)> = args
        .iter()
        .filter(|(k, _)| !HIDDEN.contains(&k.as_str()))
        .collect();
    shown.sort_by(|a, b| a.0.cmp(b.0));
    match shown.as_slice() {
        [(_, v)] => value_text(v),
        many => many
            .iter()
            .map(|(k, v)| format!("{k}={}", value_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn a_named_day_shows_as_month_and_day() {
        let md = args(json!({"month": 12, "day": 25, "now": "2026-11-22"}));
        assert_eq!(render_arguments("next_date", &md, Language::En), "12-25");
        assert_eq!(render_arguments("next_date", &md, Language::Vi), "25/12");
    }

    #[test]
    fn math_operations_are_infix() {
        assert_eq!(
            render_arguments("sum", &args(json!({"a": "2", "b": "4"})), Language::En),
            "2 + 4"
        );
        assert_eq!(
            render_arguments("multiply", &args(json!({"a": "6", "b": 3})), Language::En),
            "6 × 3"
        );
        assert_eq!(
            render_arguments(
                "subtract",
                &args(json!({"a": "10", "b": "7"})),
                Language::En
            ),
            "10 - 7"
        );
        assert_eq!(
            render_arguments("divide", &args(json!({"a": "1", "b": "0"})), Language::En),
            "1 / 0"
        );
        assert_eq!(
            render_arguments(
                "power",
                &args(json!({"base": "2", "exponent": "10"})),
                Language::En
            ),
            "2 ^ 10"
        );
        assert_eq!(
            render_arguments("sqrt", &args(json!({"x": "16"})), Language::En),
            "√16"
        );
        assert_eq!(
            render_arguments(
                "percent",
                &args(json!({"percent": "15", "of": "200"})),
                Language::Vi
            ),
            "15% của 200"
        );
    }

    #[test]
    fn other_tools_show_a_single_value_or_name_value_pairs() {
        assert_eq!(
            render_arguments(
                "weekday",
                &args(json!({"date": "2026-12-25"})),
                Language::En
            ),
            "2026-12-25"
        );
        assert_eq!(
            render_arguments(
                "add_duration",
                &args(json!({"amount": 10, "unit": "days"})),
                Language::En
            ),
            "amount=10, unit=days"
        );
        assert_eq!(
            render_arguments(
                "round",
                &args(json!({"x": "3.14159", "places": "2"})),
                Language::En
            ),
            "places=2, x=3.14159"
        );
    }

    #[test]
    fn injected_context_is_not_shown() {
        let a =
            args(json!({"date": "2026-12-25", "now": "2026-11-22T00:00:00Z", "timezone": "UTC"}));
        assert_eq!(render_arguments("weekday", &a, Language::En), "2026-12-25");
        assert_eq!(
            render_arguments("today", &args(json!({"timezone": "UTC"})), Language::En),
            ""
        );
    }
}
