//! Recognises "what can you do?" in English and Vietnamese.

use crate::lexer::{Tok, Token};

/// Phrases that ask for help anywhere in a query without numbers or dates.
const HELP_PHRASES: &[&[&str]] = &[
    &["what", "can", "you", "do"],
    &["what", "can", "chorus", "do"],
    &["what", "do", "you", "do"],
    &["làm", "được", "gì"],
    &["làm", "được", "những", "gì"],
    &["có", "thể", "làm", "gì"],
    &["giúp", "được", "gì"],
];

/// Queries that are help requests when they are the whole query.
const HELP_WHOLE: &[&[&str]] = &[
    &["help"],
    &["help", "me"],
    &["capabilities"],
    &["commands"],
    &["menu"],
    &["trợ", "giúp"],
    &["hướng", "dẫn"],
    &["giúp", "tôi"],
    &["giúp", "đỡ"],
];

/// Whether the query asks what Chorus can do.
pub fn asks_for_help(toks: &[Token]) -> bool {
    if toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Num(_) | Tok::Date(_)))
    {
        return false;
    }
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    HELP_WHOLE.contains(&words.as_slice())
        || HELP_PHRASES
            .iter()
            .any(|p| words.windows(p.len()).any(|w| w == *p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    #[test]
    fn help_questions_are_recognised_in_both_languages() {
        assert!(asks_for_help(&lex("What can you do?")));
        assert!(asks_for_help(&lex("bạn làm được gì?")));
        assert!(asks_for_help(&lex("help")));
        assert!(asks_for_help(&lex("/help")));
    }

    #[test]
    fn requests_with_numbers_or_other_words_are_not_help() {
        assert!(!asks_for_help(&lex("help me compute 2+2")));
        assert!(!asks_for_help(&lex("what can you do with 2 and 3")));
    }
}
