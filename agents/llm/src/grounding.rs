//! Numbers in a model-written report must come from the results: this checks it in code.
//!
//! Every number written with digits in the answer must equal a number found in the
//! query, a step's arguments, its result value or text, or its error. Numbers are
//! compared by value, ignoring sign (the model may write "minus 3" for "-3") and
//! trailing zeros ("6.0" is "6"), and each may be read with `.` or `,` as the decimal
//! mark, because Vietnamese writes `1.234,5`. Digits glued to a letter ("s1") are not
//! numbers, and a list marker at the start of a line ("2.") is allowed up to the number
//! of steps. Numbers written as words are not checked.

use std::collections::HashSet;

use chorus_bus::{StepOutcome, StepReport};
use serde_json::Value;

/// One number written in a text.
struct NumberToken<'a> {
    text: &'a str,
    at_line_start: bool,
}

/// The numbers written with digits in `text`.
fn number_tokens(text: &str) -> Vec<NumberToken<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || (matches!(bytes[i], b'.' | b',')
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        let before = text[..start].chars().next_back();
        // The `T` of an ISO 8601 date-time (`2026-11-24T06:15`) between two digits
        // separates the date from the hour; it does not glue the hour to a name.
        let date_time = before == Some('T') && start >= 2 && bytes[start - 2].is_ascii_digit();
        if before.is_some_and(char::is_alphabetic) && !date_time {
            continue;
        }
        let line_start = text[..start].rsplit('\n').next().unwrap_or("");
        out.push(NumberToken {
            text: &text[start..i],
            at_line_start: line_start.trim().is_empty(),
        });
    }
    out
}

/// `digits` (ASCII digits and at most one `.`) as a canonical decimal: no leading
/// zeros, no trailing fraction zeros — the planner's form of numbers.
fn canonical(digits: &str) -> String {
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    chorus_heuristic::lexer::normalise(int, frac)
}

/// The values a written number may mean: `.` as decimal mark, or `,` as decimal mark.
fn readings(token: &str) -> Vec<String> {
    let dot_decimal = token.replace(',', "");
    let comma_decimal = token.replace('.', "").replace(',', ".");
    let mut out = Vec::with_capacity(2);
    for r in [dot_decimal, comma_decimal] {
        if r.matches('.').count() <= 1 {
            let c = canonical(&r);
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// Adds every number in `text` to `set`.
fn collect_text(text: &str, set: &mut HashSet<String>) {
    for token in number_tokens(text) {
        set.extend(readings(token.text));
        // Each digit run on its own too: "2026-12-25" grounds "25", "1,234" grounds "234".
        for part in token.text.split(['.', ',']) {
            set.insert(canonical(part));
        }
    }
}

/// Adds every number in a JSON value to `set`.
fn collect_value(value: &Value, set: &mut HashSet<String>) {
    match value {
        Value::Number(n) => collect_text(&n.to_string(), set),
        Value::String(s) => collect_text(s, set),
        Value::Array(items) => items.iter().for_each(|v| collect_value(v, set)),
        Value::Object(map) => map.values().for_each(|v| collect_value(v, set)),
        Value::Bool(_) | Value::Null => {}
    }
}

/// The numbers a report about `steps` for `query` may contain.
pub fn grounded_numbers(query: &str, steps: &[StepReport]) -> HashSet<String> {
    let mut set = HashSet::new();
    collect_text(query, &mut set);
    for s in steps {
        collect_text(&s.part, &mut set);
        s.arguments
            .values()
            .for_each(|v| collect_value(v, &mut set));
        match &s.outcome {
            Some(StepOutcome::Ok { value, text }) => {
                collect_value(value, &mut set);
                collect_text(text, &mut set);
            }
            Some(StepOutcome::Failed { error, .. }) => collect_text(error, &mut set),
            None => {}
        }
    }
    set
}

/// Checks every number written in `answer` comes from `query` or `steps`; the error
/// names the first number that does not.
pub fn numbers_grounded(answer: &str, query: &str, steps: &[StepReport]) -> Result<(), String> {
    check_against(answer, &grounded_numbers(query, steps), steps.len())
}

/// Checks every number in `answer` is in `grounded`; list markers up to `list_len` are
/// allowed at the start of a line.
pub(crate) fn check_against(
    answer: &str,
    grounded: &HashSet<String>,
    list_len: usize,
) -> Result<(), String> {
    for token in number_tokens(answer) {
        let readings = readings(token.text);
        if readings.iter().any(|r| grounded.contains(r)) {
            continue;
        }
        let marker = token.at_line_start
            && token
                .text
                .parse::<usize>()
                .is_ok_and(|n| (1..=list_len).contains(&n));
        if !marker {
            return Err(format!(
                "the number {} is not in the results, the arguments or the query",
                token.text
            ));
        }
    }
    Ok(())
}

/// How many bytes at the end of `text` may still be the start of a number that the
/// next chunk continues (digits, `.`, `,`), so a stream holds them back.
pub(crate) fn open_number_tail(text: &str) -> usize {
    text.bytes()
        .rev()
        .take_while(|b| b.is_ascii_digit() || matches!(b, b'.' | b','))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(args: Value, value: Value, text: &str) -> StepReport {
        serde_json::from_value(
            json!({"step_id":"s1","pool":"math","tool":"sum","arguments":args,
            "outcome":{"status":"ok","value":value,"text":text}}),
        )
        .expect("step")
    }

    #[test]
    fn numbers_from_results_arguments_and_query_pass() {
        let steps = [step(json!({"a":"2","b":"4"}), json!("6"), "6")];
        assert_eq!(numbers_grounded("2 + 4 = 6.0", "tính 2+4", &steps), Ok(()));
    }

    #[test]
    fn an_invented_number_is_named() {
        let steps = [step(json!({"a":"2","b":"4"}), json!("6"), "6")];
        assert_eq!(
            numbers_grounded("2 + 4 = 7", "2+4", &steps),
            Err("the number 7 is not in the results, the arguments or the query".into())
        );
    }

    #[test]
    fn vietnamese_decimal_commas_and_date_parts_are_read() {
        let steps = [
            step(json!({"a":"1234.5","b":"0"}), json!("1234.5"), "1234.5"),
            step(json!({"date":"2026-12-25"}), json!("Friday"), "Friday"),
        ];
        assert_eq!(numbers_grounded("Kết quả: 1.234,5", "", &steps), Ok(()));
        assert_eq!(
            numbers_grounded("25/12/2026 is a Friday", "", &steps),
            Ok(())
        );
        assert!(numbers_grounded("1234.6", "", &steps).is_err());
    }

    #[test]
    fn list_markers_and_digits_glued_to_letters_are_not_numbers() {
        let steps = [step(json!({}), json!("6"), "6")];
        assert_eq!(
            numbers_grounded("1. six\nstep s3 gave 6", "", &steps),
            Ok(())
        );
        assert!(numbers_grounded("we got 3. six", "", &steps).is_err());
    }

    #[test]
    fn the_hour_of_an_iso_date_time_is_a_number() {
        let steps = [step(
            json!({}),
            json!({"target": {"datetime": "2026-11-24T06:15:00+00:00"}}),
            "",
        )];
        assert_eq!(numbers_grounded("It is 06:15 there.", "", &steps), Ok(()));
        assert!(numbers_grounded("It is 07:15 there.", "", &steps).is_err());
        // A letter other than the date-time `T`, or a `T` after a letter, still glues.
        let glued = [step(json!({}), json!("s06 AT07"), "")];
        assert!(numbers_grounded("06", "", &glued).is_err());
        assert!(numbers_grounded("07", "", &glued).is_err());
    }

    #[test]
    fn a_trailing_number_is_held_back_in_a_stream() {
        assert_eq!(open_number_tail("the sum is 1,2"), 3);
        assert_eq!(open_number_tail("the sum is "), 0);
    }
}
