//! Text made safe to print on a terminal. A query, a report, a step id or an agent name
//! comes from outside (a user, a model, anyone who may write on the bus), and a terminal
//! acts on some characters instead of showing them: ESC starts a sequence that can clear
//! the screen or recolour it, `\r` and backspace overwrite what was printed, C1 controls
//! (U+0080–U+009F) are escapes of their own, and the bidi controls (U+202E, U+2066–U+2069,
//! …) make text display other than it is. Every text `chorus` prints (ask, cancel, watch,
//! trace, its errors) goes through [`escape`] (by [`line()`] or [`text()`]) and every JSON it
//! prints through [`json`].
//!
//! An unsafe character is written the way Rust's `{:?}` writes it (and so the way the
//! `task_available` line of `chorus watch` always has): `\t`, `\r`, `\n`, and `\u{1b}`
//! (lower-case hex) for the others. Everything else is printed unchanged — a backslash
//! too, so printable text reads as it was written. docs/cli.md says the same.

use std::borrow::Cow;
use std::fmt::Write as _;

/// What [`escape`] does with line breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Newlines {
    /// A `\n` is printed as the two characters `\n`: the result is one line.
    Escape,
    /// A `\n` (or `\r\n`) stays a line break: text of several lines, such as a report.
    Keep,
}

/// Whether a terminal could act on `c` rather than show it: a control character (C0,
/// DEL, C1: Unicode's `Cc`), a bidi control (Unicode's `Bidi_Control`: U+061C, U+200E,
/// U+200F, U+202A–U+202E, U+2066–U+2069), or the line and paragraph separators U+2028
/// and U+2029.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// `s` with every unsafe character ([`is_unsafe`]) written as an escape (`\u{1b}`, `\r`,
/// …); with [`Newlines::Keep`], `\n` and `\r\n` are kept as line breaks. Borrows `s` when
/// it holds nothing to escape.
pub fn escape(s: &str, newlines: Newlines) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) || (newlines == Newlines::Keep && !needs_escape_keeping(s)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' if newlines == Newlines::Keep => out.push('\n'),
            '\r' if newlines == Newlines::Keep && chars.peek() == Some(&'\n') => {}
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether `s` holds an unsafe character other than a `\n` kept as a line break.
fn needs_escape_keeping(s: &str) -> bool {
    s.chars().any(|c| c != '\n' && is_unsafe(c))
}

/// `s` as one line: every unsafe character escaped, `\n` included.
pub fn line(s: &str) -> Cow<'_, str> {
    escape(s, Newlines::Escape)
}

/// `s` as text of several lines: its line breaks kept, every other unsafe character
/// escaped.
pub fn text(s: &str) -> Cow<'_, str> {
    escape(s, Newlines::Keep)
}

/// JSON text as `serde_json` writes it, with the unsafe characters it leaves raw in
/// strings (DEL, C1 controls, bidi controls, U+2028, U+2029) written as `\uXXXX`: the
/// same JSON value, safe on a terminal. `serde_json` already escapes U+0000–U+001F in
/// strings, and valid JSON holds no raw control character outside them but whitespace,
/// which is kept.
pub fn json(s: &str) -> Cow<'_, str> {
    let raw = |c: char| is_unsafe(c) && !matches!(c, '\n' | '\r' | '\t');
    if !s.chars().any(raw) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            // Every unsafe character above U+001F is in the Basic Multilingual Plane.
            c if raw(c) => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn an_escape_sequence_is_shown_not_run() {
        assert_eq!(line("\u{1b}[2J\u{1b}[31mred"), "\\u{1b}[2J\\u{1b}[31mred");
        assert_eq!(text("a\u{7}b\u{8}c\u{7f}"), "a\\u{7}b\\u{8}c\\u{7f}");
        assert_eq!(line("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(
            line("abc\u{202e}fed\u{2066}x\u{2069}"),
            "abc\\u{202e}fed\\u{2066}x\\u{2069}"
        );
    }

    #[test]
    fn escapes_read_as_rusts_debug_of_the_same_text() {
        let s = "tab\there\rcr\u{1b}[0m\u{9b}\u{202e}";
        let debug = format!("{s:?}");
        assert_eq!(format!("\"{}\"", line(s)), debug);
    }

    #[test]
    fn a_report_keeps_its_lines_but_not_a_carriage_return_inside_one() {
        assert_eq!(text("one\ntwo\r\nthree"), "one\ntwo\nthree");
        assert_eq!(text("fake\rreal\n"), "fake\\rreal\n");
        assert_eq!(line("one\ntwo\r\n"), "one\\ntwo\\r\\n");
    }

    #[test]
    fn safe_text_is_borrowed_unchanged() {
        for s in [
            "",
            "2 + 4 = 6",
            "tính 2+4 = ??",
            "C:\\path \\u{1b}",
            "２＋４ ٢+٤ 👍🏽",
        ] {
            assert!(matches!(line(s), Cow::Borrowed(b) if b == s), "{s:?}");
            assert!(matches!(json(s), Cow::Borrowed(b) if b == s), "{s:?}");
        }
        assert!(matches!(text("a\nb\n"), Cow::Borrowed("a\nb\n")));
    }

    #[test]
    fn json_escapes_what_serde_json_leaves_raw() {
        let value = serde_json::json!({"text": "\u{1b}[2J \u{9b}1m \u{7f} \u{202e}x \u{2028}"});
        let printed = serde_json::to_string_pretty(&value).expect("json");
        assert!(printed.contains('\u{9b}') && printed.contains('\u{202e}'));
        let safe = json(&printed);
        assert!(
            safe.contains(r"\u001b[2J \u009b1m \u007f \u202ex \u2028"),
            "{safe}"
        );
        let back: serde_json::Value = serde_json::from_str(&safe).expect("still JSON");
        assert_eq!(back, value);
    }

    /// Any character, with the unsafe ones and line breaks drawn often.
    fn any_text() -> impl Strategy<Value = String> {
        let unsafe_char = prop::sample::select(vec![
            '\u{0}', '\u{7}', '\u{8}', '\t', '\n', '\r', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}',
            '\u{9f}', '\u{61c}', '\u{200e}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{2028}',
        ]);
        let c = prop_oneof![any::<char>(), unsafe_char, Just('\\'), Just('{')];
        prop::collection::vec(c, 0..40).prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #[test]
        fn a_line_holds_no_unsafe_character(s in any_text()) {
            let out = line(&s);
            prop_assert!(!out.chars().any(is_unsafe), "{:?}", out);
        }

        #[test]
        fn text_holds_no_unsafe_character_but_its_line_breaks(s in any_text()) {
            let out = text(&s);
            prop_assert!(!out.chars().any(|c| c != '\n' && is_unsafe(c)), "{:?}", out);
            let breaks = s.matches('\n').count();
            prop_assert_eq!(out.matches('\n').count(), breaks);
        }

        #[test]
        fn printable_text_is_unchanged(s in any_text()) {
            let printable: String = s.chars().filter(|c| !is_unsafe(*c)).collect();
            prop_assert_eq!(line(&printable).into_owned(), printable.clone());
            prop_assert_eq!(text(&printable).into_owned(), printable);
        }

        #[test]
        fn each_unsafe_character_becomes_its_escape(s in any_text()) {
            let expected: String = s
                .chars()
                .map(|c| match c {
                    // escape_debug writes U+0000 as `\0`, ours as `\u{0}`.
                    '\0' => "\\u{0}".to_owned(),
                    c if is_unsafe(c) => c.escape_debug().to_string(),
                    c => c.to_string(),
                })
                .collect();
            prop_assert_eq!(line(&s).into_owned(), expected);
        }

        #[test]
        fn json_stays_the_same_value_and_safe(s in any_text()) {
            let value = serde_json::json!({"query": s, "steps": [s.clone()]});
            let printed = serde_json::to_string_pretty(&value).expect("json");
            let safe = json(&printed);
            prop_assert!(!safe.chars().any(|c| c != '\n' && is_unsafe(c)), "{:?}", safe);
            let back: serde_json::Value = serde_json::from_str(&safe).expect("valid JSON");
            prop_assert_eq!(back, value);
        }
    }
}
