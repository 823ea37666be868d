//! Words that carry no operation: polite openings (`compute`, `what is`, `tính`, `hãy`),
//! question tails (`= ??`, `bằng mấy`, `là bao nhiêu`) and greetings. Stripped before a
//! part is parsed; everything else in a part must be understood.

use crate::lexer::{Tok, Token};

/// Words dropped from the start of an arithmetic part.
const MATH_LEAD: &[&str] = &[
    "em",
    "compute",
    "calculate",
    "calc",
    "evaluate",
    "solve",
    "what",
    "how",
    "much",
    "is",
    "please",
    "tell",
    "me",
    "result",
    "value",
    "answer",
    "of",
    "can",
    "you",
    "could",
    "would",
    "give",
    "find",
    "work",
    "out",
    "then",
    "also",
    "tính",
    "tinh",
    "hãy",
    "giúp",
    "tôi",
    "mình",
    "cho",
    "biết",
    "kết",
    "quả",
    "lấy",
    "xem",
    "rồi",
    "thử",
    "cũng",
    "whats",
    "what's",
    "does",
    "i",
    "need",
    "hỏi",
    "now",
    "and",
    // `what do I get if I multiply 8 by`, `what do you get when you add …`.
    "do",
    "get",
    "if",
    "when",
    "we",
    "so",
    "okay",
    "ok",
    "bây",
    "giờ",
    "vậy",
    "thế",
];

/// Words dropped from the end of an arithmetic part.
const MATH_TAIL: &[&str] = &[
    "bằng", "mấy", "bao", "nhiêu", "là", "gì", "equals", "equal", "is", "what", "please", "ạ",
    "vậy", "nhé", "nhỉ", "thế", "nào", "for", "me", "thì", "được", "sao", "come", "to", "số",
    "nữa", "lên", "với", "giùm", "giúp", "nha", "ha",
];

/// Symbols that only end a question.
const QUESTION_SYMS: &[char] = &['?', '!', '.', '='];

/// Words a part may consist of and still ask nothing: greetings and thanks.
const GREETINGS: &[&str] = &[
    "hi", "hello", "hey", "thanks", "thank", "you", "please", "xin", "chào", "chao", "cảm", "ơn",
    "cám", "chorus", "ok", "okay", "bạn", "ơi",
];

fn is_word_in(t: &Token, set: &[&str]) -> bool {
    t.word().is_some_and(|w| set.contains(&w))
}

fn is_question_sym(t: &Token) -> bool {
    matches!(t.tok, Tok::Sym(c) if QUESTION_SYMS.contains(&c))
}

/// The arithmetic core of a part: leading fillers (and a `:` after `tính`) and trailing
/// question words removed.
pub fn strip_math(toks: &[Token]) -> &[Token] {
    let mut s = toks;
    while let Some((first, rest)) = s.split_first() {
        if is_word_in(first, MATH_LEAD) || first.is_sym(':') {
            s = rest;
        } else {
            break;
        }
    }
    s = trim_question_tail(s);
    // (`transfer fee = 6.50 plus 0.8% of 1500`: a name of a few words before `=` only
    // says what is computed.)
    if let Some(eq) = s.iter().position(|t| t.is_sym('='))
        && (1..=3).contains(&eq)
        && s[..eq].iter().all(|t| t.word().is_some())
        && s[eq + 1..].iter().any(|t| matches!(t.tok, Tok::Num(_)))
    {
        s = &s[eq + 1..];
    }
    while let Some((last, rest)) = s.split_last() {
        let equal_to =
            last.word() == Some("to") && rest.last().and_then(Token::word) == Some("equal");
        // (`… giúp tôi`, `… giùm em`: asking for help, for whom.)
        let helped = last.word().is_some_and(crate::frames::is_helped_word)
            && rest
                .last()
                .and_then(Token::word)
                .is_some_and(|w| matches!(w, "giúp" | "giùm"));
        if equal_to || helped {
            s = &rest[..rest.len() - 1];
        } else if is_word_in(last, MATH_TAIL) || is_question_sym(last) {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// Drops everything from a `=` on when nothing after it is a number (`2+4 = ??`).
fn trim_question_tail(toks: &[Token]) -> &[Token] {
    match toks.iter().position(|t| t.is_sym('=')) {
        Some(eq)
            if toks[eq..]
                .iter()
                .all(|t| !matches!(t.tok, Tok::Num(_) | Tok::Date(_))) =>
        {
            &toks[..eq]
        }
        _ => toks,
    }
}

/// Trailing question symbols removed (for quoting a part).
pub fn trim_symbols(toks: &[Token]) -> &[Token] {
    let mut s = toks;
    while let Some((last, rest)) = s.split_last() {
        if matches!(last.tok, Tok::Sym(c) if "?!.=,;:".contains(c)) {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// Whether a part is only greetings, thanks and punctuation (nothing to plan).
pub fn is_greeting(toks: &[Token]) -> bool {
    !toks.is_empty()
        && toks
            .iter()
            .all(|t| is_word_in(t, GREETINGS) || matches!(t.tok, Tok::Sym(_)))
}

/// Who may say what they mean to do (`I`, `we`, `bà`, `mẹ`), or be spoken to (`con`).
const SPEAKERS: &[&str] = &[
    "i", "we", "i'm", "im", "tôi", "mình", "em", "anh", "bà", "ông", "mẹ", "bố", "con", "cháu",
];

/// Words saying what the user means to do: `want to call my brother`, `need to ping the
/// office`, `bà muốn gọi cho thằng Hùng`.
const INTENT: &[&str] = &[
    "want", "wanna", "need", "gotta", "going", "gonna", "planning", "muốn", "cần", "định",
];

/// Words that only speak to someone (`con`, `mẹ ơi`) or end a sentence (`rồi`, `nha`):
/// a part of them alone asks nothing.
const VOCATIVES: &[&str] = &[
    "con", "còn", "mẹ", "bà", "ông", "bố", "ơi", "cháu", "em", "rồi", "nha", "nhé", "ạ", "vậy",
];

/// Whether `toks` only say what the user means to do, or only speak to someone, with no
/// number: context around a question (`what time is it in Osaka, want to call my
/// brother`), not a request of its own — dropped beside an understood part rather than
/// reported as not understood.
pub fn only_context(toks: &[Token]) -> bool {
    let words: Vec<&str> = toks.iter().filter_map(Token::word).collect();
    let numbers = toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Num(_) | Tok::Date(_)));
    let lead = words
        .iter()
        .position(|w| !SPEAKERS.contains(w))
        .unwrap_or(words.len());
    let intent = words.get(lead).is_some_and(|w| INTENT.contains(w));
    let vocative = !words.is_empty() && words.iter().all(|w| VOCATIVES.contains(w));
    // (`uncle tuan lives there`, `conf organisers are there`: who is at the place the
    // question names, said after it.)
    let who_is_there = words.len() <= 6
        && words.last() == Some(&"there")
        && words.iter().rev().nth(1).is_some_and(|w| {
            matches!(
                *w,
                "lives" | "live" | "is" | "are" | "works" | "work" | "stays"
            )
        });
    !numbers && (intent || vocative || who_is_there)
}

/// Words after `0%` saying no interest is charged (`0% interest`, `0% apr`).
const INTEREST: &[&str] = &["interest", "apr", "lãi", "finance"];

/// `toks` without an interest rate of nothing (`21,500 over 60 months 0% interest`, `lãi
/// suất 0%`): it charges nothing and says nothing to compute; `None` when there is none.
pub fn without_zero_interest(toks: &[Token]) -> Option<Vec<Token>> {
    let at = (0..toks.len()).find(|&k| {
        toks[k].number() == Some("0") && toks.get(k + 1).is_some_and(|t| t.is_sym('%'))
    })?;
    let after = toks
        .get(at + 2)
        .and_then(Token::word)
        .is_some_and(|w| INTEREST.contains(&w));
    let before = crate::lexer::words_at(toks, at.saturating_sub(2), &["lãi", "suất"]) && at >= 2;
    let (from, to) = match (before, after) {
        (true, _) => (at - 2, at + 2),
        (false, true) => (at, at + 3),
        _ => return None,
    };
    let mut out = toks.to_vec();
    out.drain(from..to);
    Some(out)
}

/// The day a sale or a count happened on, said in English (`i sold 14 today at 26
/// each`), which names no date asked.
const WHEN_SAID: &[&str] = &["today", "yesterday", "tonight"];

/// Words of a date or time question besides the date words
/// ([`crate::tolerant::DATE_WORDS`]): with one, the day said is part of it.
const ASKS_WHEN: &[&str] = &[
    "dates", "when", "until", "till", "til", "since", "ago", "later", "born", "birthday", "clock",
    "am", "pm", "tomorrow", "after", "before",
];

/// `toks` without the day a sale or a count happened (`i sold 14 today at 26 each, how
/// much`, `26 pallets per truck, 14 trucks unloaded today`): amounts with nothing of a
/// date or a time asked; `None` unless one such day is said and nothing of a date.
pub fn without_day_said(toks: &[Token]) -> Option<Vec<Token>> {
    let said: Vec<usize> = (0..toks.len())
        .filter(|&k| toks[k].word().is_some_and(|w| WHEN_SAID.contains(&w)))
        .collect();
    let dated = toks.iter().any(|t| {
        matches!(t.tok, crate::lexer::Tok::Date(_))
            || t.word().is_some_and(|w| {
                crate::tolerant::DATE_WORDS.contains(&w)
                    || ASKS_WHEN.contains(&w)
                    || crate::normalise::WEEKDAY_LABELS.contains(&w)
            })
    }) || crate::lexer::has_clock_time(toks);
    // (One day only: `16 rooms today and 14 yesterday` label two items by their days.)
    let [k] = said[..] else { return None };
    if dated || crate::lexer::number_positions(toks).len() < 2 {
        return None;
    }
    let mut out = toks.to_vec();
    out.remove(k);
    Some(out)
}

/// `toks` without a vocative at their end, after a question particle (`Hôm nay là thứ
/// mấy vậy con?` is `Hôm nay là thứ mấy vậy?`); `None` when there is none.
pub fn without_vocative(toks: &[Token]) -> Option<Vec<Token>> {
    let fold = |t: &Token| t.word().map(crate::normalise::fold::fold);
    let end = toks
        .iter()
        .rposition(|t| t.word().is_some() || t.number().is_some())?;
    let last = fold(&toks[end])?;
    let before = fold(toks.get(end.checked_sub(1)?)?)?;
    crate::normalise::lexicon::ends_with_vocative(&before, &last).then(|| {
        let mut out = toks.to_vec();
        out.remove(end);
        out
    })
}

/// `toks` without `max`/`min` that only name what a list holds (`max temps this week
/// were 29, 31, … wats the average`: the days' highest temperatures, averaged), when
/// another list operation is asked; `None` when there is none such.
pub fn without_extreme_label(toks: &[Token]) -> Option<Vec<Token>> {
    let labels = |k: usize| {
        toks[k]
            .word()
            .is_some_and(|w| matches!(w, "max" | "min" | "maximum" | "minimum"))
            && toks
                .get(k + 1)
                .and_then(Token::word)
                .is_some_and(|w| matches!(w, "temp" | "temps" | "temperature" | "temperatures"))
    };
    let other = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "average" | "avg" | "mean" | "total" | "sum"))
    });
    let at = (0..toks.len()).find(|&k| labels(k))?;
    other.then(|| {
        let mut out = toks.to_vec();
        out.remove(at);
        out
    })
}

/// `toks` without the two a halving is for (`chia đôi cho bố với mẹ`, `split it in half
/// for mum and dad`): halved, the count is said; `None` when there is nothing such.
pub fn without_halves_recipients(toks: &[Token]) -> Option<Vec<Token>> {
    use crate::lexer::words_at;
    let half = (0..toks.len()).find_map(|k| {
        [&["chia", "đôi"][..], &["in", "half"], &["in", "halves"]]
            .iter()
            .find(|p| words_at(toks, k, p))
            .map(|p| k + p.len())
    })?;
    let cho = half + usize::from(toks.get(half).and_then(Token::word) == Some("ra"));
    if !matches!(
        toks.get(cho).and_then(Token::word),
        Some("cho" | "for" | "between")
    ) {
        return None;
    }
    // The recipients: words only, to the end or a sentence's mark.
    let end = (cho + 1..toks.len())
        .find(|&k| matches!(toks[k].tok, crate::lexer::Tok::Sym('.' | '?' | '!' | ',')))
        .unwrap_or(toks.len());
    let words_only = toks[cho + 1..end].iter().all(|t| t.word().is_some());
    (words_only && end > cho + 1).then(|| {
        let mut out = toks[..cho].to_vec();
        out.extend_from_slice(&toks[end..]);
        out
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_vocative_at_the_end_asks_nothing() {
        let words = |q: &str| {
            super::without_vocative(&crate::lexer::lex(q)).map(|t| {
                t.iter()
                    .filter_map(|t| t.word().map(str::to_owned))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            words("hôm nay là thứ mấy vậy con?").as_deref(),
            Some(&["hôm", "nay", "là", "thứ", "mấy", "vậy"].map(String::from)[..])
        );
        assert!(words("mấy giờ rồi em").is_some());
        // A number word or no particle before it: nothing dropped.
        assert_eq!(words("cộng 2 với ba"), None);
        assert_eq!(words("còn mấy con"), None);
    }
    use super::*;
    use crate::lexer::lex;

    #[test]
    fn what_the_user_means_to_do_is_context() {
        for q in [
            "want to call my brother",
            "need to ping the Japan office",
            "bà muốn gọi cho thằng Hùng",
            "con",
            "rồi con",
            "I'm planning a trip",
        ] {
            assert!(only_context(&lex(q)), "{q}");
        }
        for q in [
            "want to know 2+4",
            "book me a flight",
            "need 3 more",
            "what time is it",
        ] {
            assert!(!only_context(&lex(q)), "{q}");
        }
    }

    fn core(text: &str) -> String {
        let toks = lex(text);
        let s = strip_math(&toks);
        match (s.first(), s.last()) {
            (Some(a), Some(b)) => text[a.start..b.end].to_owned(),
            _ => String::new(),
        }
    }

    #[test]
    fn vietnamese_question_dressing_is_removed() {
        assert_eq!(core("tính 2+4 = ??"), "2+4");
        assert_eq!(core("2 cộng 4 bằng mấy"), "2 cộng 4");
        assert_eq!(core("hãy tính: 2+4 là bao nhiêu?"), "2+4");
    }

    #[test]
    fn english_question_dressing_is_removed() {
        assert_eq!(core("what is 2 + 2?"), "2 + 2");
        assert_eq!(core("please compute (2+4)*3"), "(2+4)*3");
        assert_eq!(core("what is 2 + 2 equal to?"), "2 + 2");
    }

    #[test]
    fn greetings_are_recognised() {
        assert!(is_greeting(&lex("hello!")));
        assert!(is_greeting(&lex("xin chào")));
        assert!(!is_greeting(&lex("hello 2+2")));
    }
}
