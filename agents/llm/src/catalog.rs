//! Which tools a plan request shows the model, and how. Every live tool with its full
//! input schema was about 7,250 tokens — more than a small local model's context, and
//! tens of seconds of prompt processing on a CPU — so a request shows only the tools
//! its words point at ([`relevant`]), each as one compact line of JSON ([`ToolCard`]):
//! pool, name, the first sentence of its description, and its arguments as
//! `name: type` (`?` when optional, the allowed values of an `enum`; the optional `now`
//! and `timezone`, which the pool agent fills from the task's context, left out).
//!
//! Choosing is a hint, not a rule: the plan is still checked against every live tool,
//! and a request whose words point at no tool is shown every tool (compact), so a
//! model can still plan what the word lists here do not foresee.

use std::collections::BTreeMap;

use chorus_bus::PoolName;
use serde::Serialize;
use serde_json::Value;

use crate::tools::PoolTool;

/// Most tools shown for one request when its words point at some.
pub const MAX_SHOWN: usize = 6;

/// Optional arguments a pool agent fills from the task's context when a step leaves
/// them out: not shown (the model would only copy the context).
const FILLED_BY_POOL: &[&str] = &["now", "timezone"];

/// Longest description shown, in characters.
const MAX_DESCRIPTION_CHARS: usize = 160;

/// One tool as a plan request shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCard {
    /// The pool whose agents run it.
    pub pool: PoolName,
    /// The tool's name.
    pub tool: String,
    /// The first sentence of its description.
    pub does: String,
    /// Each argument and its type: `"integer"`, `"number|string"`, `"days|weeks"`;
    /// an optional one is named with a final `?`.
    pub arguments: BTreeMap<String, String>,
}

impl ToolCard {
    /// The card of `tool`.
    pub fn of(tool: &PoolTool) -> Self {
        let required: Vec<&str> = tool
            .input_schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let arguments = tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props
                    .iter()
                    .filter(|(name, _)| {
                        required.contains(&name.as_str())
                            || !FILLED_BY_POOL.contains(&name.as_str())
                    })
                    .map(|(name, schema)| {
                        let key = if required.contains(&name.as_str()) {
                            name.clone()
                        } else {
                            format!("{name}?")
                        };
                        (key, type_of(schema))
                    })
                    .collect()
            })
            .unwrap_or_default();
        ToolCard {
            pool: tool.pool.clone(),
            tool: tool.name.clone(),
            does: first_sentence(&tool.description),
            arguments,
        }
    }
}

/// A property's type in a few characters: its `enum` values, else its type(s).
fn type_of(schema: &Value) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = values
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            .collect();
        return names.join("|");
    }
    match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("|"),
        _ => ["anyOf", "oneOf"]
            .iter()
            .find_map(|k| schema.get(*k).and_then(Value::as_array))
            .map(|options| options.iter().map(type_of).collect::<Vec<_>>().join("|"))
            .unwrap_or_else(|| "any".into()),
    }
}

/// The first sentence of `text` (up to a `. ` or the end), at most
/// [`MAX_DESCRIPTION_CHARS`] characters.
fn first_sentence(text: &str) -> String {
    let text = text.trim();
    let end = text.find(". ").map_or(text.len(), |i| i + 1);
    let sentence = &text[..end];
    if sentence.chars().count() <= MAX_DESCRIPTION_CHARS {
        return sentence.to_owned();
    }
    let mut cut: String = sentence.chars().take(MAX_DESCRIPTION_CHARS).collect();
    cut.push('…');
    cut
}

/// Words that point at a tool though neither its name nor its description has them,
/// and the symbols of arithmetic. (English; a request in another language whose words
/// point at nothing is shown every tool.)
const POINTERS: &[(&str, &[&str])] = &[
    ("sum", &["+", "plus", "add", "total", "sum", "altogether"]),
    (
        "subtract",
        &["-", "minus", "less", "take", "difference", "left", "fewer"],
    ),
    (
        "multiply",
        &[
            "*", "×", "times", "product", "double", "triple", "twice", "thrice", "each",
        ],
    ),
    (
        "divide",
        &[
            "/", "÷", "divided", "over", "half", "third", "quarter", "split", "share", "per",
            "ratio", "average",
        ],
    ),
    ("power", &["^", "squared", "cubed", "power", "exponent"]),
    ("sqrt", &["√", "square", "root"]),
    ("root", &["cube", "root"]),
    ("percent", &["%", "percent", "percentage"]),
    ("modulo", &["remainder", "mod", "modulo"]),
    ("abs", &["absolute", "distance"]),
    ("round", &["round", "rounded", "nearest"]),
    ("min", &["smaller", "smallest", "least", "lower"]),
    (
        "max",
        &[
            "larger", "largest", "bigger", "biggest", "greater", "higher",
        ],
    ),
    ("today", &["today", "date"]),
    ("now", &["now", "time", "current"]),
    ("weekday", &["weekday", "day", "monday", "friday", "sunday"]),
    (
        "days_until",
        &["until", "till", "left", "christmas", "away"],
    ),
    ("difference", &["between", "since", "ago"]),
    (
        "add_duration",
        &["after", "later", "from", "tomorrow", "next"],
    ),
    (
        "subtract_duration",
        &["before", "ago", "earlier", "yesterday", "last"],
    ),
    ("age", &["old", "born", "birthday", "age"]),
    ("time_in", &["time", "in", "clock"]),
    (
        "time_difference",
        &["difference", "ahead", "behind", "hours"],
    ),
];

/// Words too common to point at anything.
const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "what", "with", "that", "this", "how", "many", "much", "are", "was", "is",
    "of", "to", "a", "an", "me", "my", "by", "it", "be", "or", "do", "does", "you", "your",
    "please", "tell", "give", "get", "number", "numbers", "result", "value", "exactly",
];

/// The words and symbols of `text`, lowercase. A `-` or `/` between two digits is
/// part of a date (`2026-12-25`, `25/12/2026`), not a symbol.
fn words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    let mut out = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_alphabetic() {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        let digit_at = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(char::is_ascii_digit)
        };
        let in_date = (c == '-' || c == '/') && digit_at(i.checked_sub(1)) && digit_at(Some(i + 1));
        if "+-*×/÷^√%".contains(c) && !in_date {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The stem two words must share to match: their first five letters.
fn stem(word: &str) -> String {
    word.chars().take(5).collect()
}

/// Whether a query word is `word`: the same symbol or short word, or a long word with
/// the same stem (`todays` is `today`, `multiplied` is `multiply`).
fn matches(word: &str, query_word: &str) -> bool {
    word == query_word
        || (word.chars().count() >= 5
            && query_word.chars().count() >= 5
            && stem(word) == stem(query_word))
}

/// How strongly `query_words` point at `tool`: 3 for each pointer word or word of its
/// name, 1 for each word of its description's first sentence.
fn score(query_words: &[String], tool: &PoolTool) -> usize {
    let pointers: &[&str] = POINTERS
        .iter()
        .find(|(name, _)| *name == tool.name)
        .map_or(&[], |(_, words)| *words);
    let name_words = words(&tool.name.replace('_', " "));
    let description: Vec<String> = words(&first_sentence(&tool.description))
        .into_iter()
        .filter(|w| w.chars().count() >= 4 && !STOP_WORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect();
    query_words
        .iter()
        .map(|w| {
            let named = |word: &&str| matches(word, w);
            if pointers.iter().any(named) || name_words.iter().any(|n| matches(n, w)) {
                3
            } else if w.chars().count() >= 4 && description.contains(&stem(w)) {
                1
            } else {
                0
            }
        })
        .sum()
}

/// The tools to show for `query`: those its words point at, best first, at most
/// [`MAX_SHOWN`] (ties in the live order); every tool when its words point at none.
pub fn relevant<'a>(query: &str, tools: &'a [PoolTool]) -> Vec<&'a PoolTool> {
    let query_words: Vec<String> = words(query)
        .into_iter()
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .collect();
    let mut scored: Vec<(usize, usize, &PoolTool)> = tools
        .iter()
        .enumerate()
        .map(|(i, t)| (score(&query_words, t), i, t))
        .filter(|(s, _, _)| *s > 0)
        .collect();
    if scored.is_empty() {
        return tools.iter().collect();
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(MAX_SHOWN);
    // Shown in the live order, so the same tools always read the same.
    scored.sort_by_key(|(_, i, _)| *i);
    scored.into_iter().map(|(_, _, t)| t).collect()
}

/// The cards of the tools to show for `query`.
pub fn cards_for(query: &str, tools: &[PoolTool]) -> Vec<ToolCard> {
    relevant(query, tools)
        .into_iter()
        .map(ToolCard::of)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::ToolInfo;
    use serde_json::json;

    fn tool(pool: &str, name: &str, description: &str, schema: Value) -> PoolTool {
        PoolTool::new(
            pool,
            ToolInfo {
                name: name.into(),
                description: description.into(),
                input_schema: schema,
            },
        )
    }

    fn two() -> Value {
        json!({"type":"object","properties":{"a":{"type":["number","string"],"description":"first"},
               "b":{"type":["number","string"]}},"required":["a","b"],"additionalProperties":false})
    }

    fn catalogue() -> Vec<PoolTool> {
        vec![
            tool(
                "date",
                "add_duration",
                "Add an amount of days, weeks or months to a date (default: today). Example: …",
                json!({"type":"object","properties":{"amount":{"type":"integer"},
                    "unit":{"type":"string","enum":["days","weeks"]},"date":{"type":"string"},
                    "now":{"type":"string"},"timezone":{"type":"string"}},
                    "required":["amount","unit"]}),
            ),
            tool(
                "date",
                "weekday",
                "The day of the week of a date.",
                json!({"type":"object"}),
            ),
            tool(
                "math",
                "multiply",
                "Multiply two numbers exactly: a * b. Returns …",
                two(),
            ),
            tool(
                "math",
                "sum",
                "Add two numbers exactly: a + b. Returns …",
                two(),
            ),
        ]
    }

    #[test]
    fn a_card_is_the_first_sentence_and_the_arguments_as_name_and_type() {
        let card = ToolCard::of(&catalogue()[0]);
        assert_eq!(
            card.does,
            "Add an amount of days, weeks or months to a date (default: today)."
        );
        let args: Vec<(&str, &str)> = card
            .arguments
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            args,
            vec![
                ("amount", "integer"),
                ("date?", "string"),
                ("unit", "days|weeks")
            ]
        );
        assert_eq!(
            ToolCard::of(&catalogue()[3]).arguments["a"],
            "number|string"
        );
    }

    #[test]
    fn a_request_is_shown_the_tools_its_words_point_at() {
        let all = catalogue();
        let names =
            |q: &str| -> Vec<String> { relevant(q, &all).iter().map(|t| t.name.clone()).collect() };
        assert_eq!(
            names("triple the total of two and four"),
            ["multiply", "sum"]
        );
        assert_eq!(names("what day of the week is 2026-12-25"), ["weekday"]);
        assert_eq!(names("3 weeks after 2026-01-01"), ["add_duration"]);
        assert_eq!(names("8 multiplied by 7"), ["multiply"]);
        // Nothing points anywhere: every tool, so the model may still plan.
        assert_eq!(names("bao nhiêu").len(), all.len());
    }
}
