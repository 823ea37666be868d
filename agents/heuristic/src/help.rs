//! Recognises "what can you do?" in English and Vietnamese.

use crate::lexer::{Tok, Token};

/// Phrases that ask for help anywhere in a query without numbers or dates.
const HELP_PHRASES: &[&[&str]] = &[
    &["what", "can", "you", "do"],
    &["what", "can", "chorus", "do"],
    &["what", "do", "you", "do"],
    &["what", "can", "you", "help"],
    &["what", "can", "i", "ask"],
    &["what", "are", "you", "able", "to", "do"],
    &["what", "are", "you", "capable", "of"],
    &["what", "are", "your", "capabilities"],
    &["what", "do", "you", "know", "how", "to", "do"],
    &["what", "tools", "do", "you", "have"],
    &["what", "tools", "are", "available"],
    &["how", "can", "you", "help"],
    &["how", "do", "i", "use", "you"],
    &["how", "do", "i", "use", "chorus"],
    &["what", "is", "chorus"],
    &["who", "are", "you"],
    &["làm", "được", "gì"],
    &["làm", "được", "những", "gì"],
    &["có", "thể", "làm", "gì"],
    &["giúp", "được", "gì"],
    &["biết", "làm", "gì"],
    &["biết", "làm", "những", "gì"],
    &["giúp", "gì", "được"],
    &["giúp", "tôi", "được", "gì"],
    &["có", "những", "công", "cụ", "gì"],
    &["có", "công", "cụ", "gì"],
    &["bạn", "là", "ai"],
    &["dùng", "thế", "nào"],
    &["sử", "dụng", "thế", "nào"],
    &["what", "kind", "of", "questions"],
    &["what", "kinds", "of", "questions"],
    &["what", "kind", "of", "things"],
    &["what", "kinds", "of", "things"],
    &["which", "tools"],
    &["list", "your", "tools"],
    &["your", "tools"],
    &["what", "are", "you", "for"],
    &["show", "me", "what", "you", "can", "do"],
    &["what", "math", "can", "you", "do"],
    &["can", "you", "do", "math"],
    &["anything", "you", "can", "help"],
    &["what", "else", "can", "you", "do"],
    &["giúp", "gì", "cho", "tôi"],
    &["giúp", "tôi", "được", "những", "gì"],
    &["những", "công", "cụ", "nào"],
    &["công", "cụ", "nào"],
    &["hướng", "dẫn", "sử", "dụng"],
    &["hỏi", "bạn", "những", "gì"],
    &["hỏi", "được", "gì"],
    &["hỏi", "được", "những", "gì"],
    &["tính", "toán", "được", "không"],
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
    &["giúp", "tôi", "với"],
    &["giúp", "với"],
    &["giúp", "đỡ"],
    &["please", "help"],
    &["help", "please"],
    &["i", "need", "help"],
    &["tools"],
    &["usage"],
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
        for q in [
            "what can you help me with?",
            "What are you able to do",
            "what are your capabilities",
            "How can you help me?",
            "what tools do you have",
            "who are you?",
            "Please help",
            "bạn biết làm gì?",
            "giúp tôi với",
            "bạn có những công cụ gì",
            "dùng thế nào?",
            "what kind of questions can you answer?",
            "which tools do you have",
            "what are you for",
            "show me what you can do",
            "list your tools",
            "what kinds of things can I ask",
            "what math can you do",
            "can you do math?",
            "anything you can help with?",
            "bạn có thể giúp gì cho tôi",
            "bạn giúp tôi được những gì",
            "bạn có những công cụ nào",
            "hướng dẫn sử dụng",
            "tôi có thể hỏi bạn những gì",
            "mình hỏi được gì nhỉ",
            "bạn có tính toán được không",
        ] {
            assert!(asks_for_help(&lex(q)), "{q}");
        }
    }

    #[test]
    fn requests_with_numbers_or_other_words_are_not_help() {
        assert!(!asks_for_help(&lex("help me compute 2+2")));
        assert!(!asks_for_help(&lex("what can you do with 2 and 3")));
        assert!(!asks_for_help(&lex("help me with 2026-12-25")));
        assert!(!asks_for_help(&lex("what is the weather")));
    }
}
