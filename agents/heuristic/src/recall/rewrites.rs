//! Follow-ups rewritten as a request of their own from the last question or answer:
//! a rate asked per another period, a place called `there`, a month's amount for a year, more
//! added to the last total, more time on the last date.

use super::{Conversation, date_span};
use crate::lexer::{Token, words_at};

/// The last question and `query` in canonical form, the follow-up read in the last
/// question's language (which is returned too).
pub(super) fn last_and_follow(
    query: &str,
    questions: &[String],
) -> Option<(String, String, chorus_bus::Language)> {
    let last = crate::normalise::normalise(questions.last()?, None).text;
    let hint = crate::language::detect(&last, None);
    let follow = crate::normalise::normalise(query, Some(hint.as_str())).text;
    Some((last, follow, hint))
}

/// `take AMOUNT, then QUERY` when `query` asks again per the period the amount of a
/// recent question (a rate converted to another period; the last of three) was given
/// in.
pub fn on_rate_amount(query: &str, questions: &[String]) -> Option<String> {
    (questions.len().saturating_sub(3)..questions.len())
        .rev()
        .find_map(|n| {
            let (last, follow, _) = last_and_follow(query, &questions[..=n])?;
            let amount = crate::rates::amount_asked_again(
                &crate::lexer::lex(&last),
                &crate::lexer::lex(&follow),
            )?;
            Some(format!("take {amount}, then {follow}"))
        })
}

/// Words saying a follow-up is computed as the last question was (`split the same way`,
/// `chia như vậy`, `như trên`).
const SAME_WAY: &[&[&str]] = &[
    &["the", "same", "way"],
    &["same", "way"],
    &["like", "before"],
    &["như", "vậy"],
    &["như", "trên"],
    &["như", "lúc", "nãy"],
];

/// The last question with its amount replaced by the one amount of `query`, when
/// `query` says it is computed the same way (`then the deposit, 2775 split the same way`
/// after `rent is 1850 split 3 ways, how much each`): an ellipsis said in words.
pub fn same_way(query: &str, questions: &[String]) -> Option<String> {
    // (A cheap look first: every phrase of it holds one of these, marks or none.)
    let lower = query.to_lowercase();
    if !crate::frames::vocabulary::SAME_WAY_CUES
        .iter()
        .any(|w| lower.contains(w))
    {
        return None;
    }
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    if !crate::lexer::says(&toks, SAME_WAY) {
        return None;
    }
    let [k] = crate::lexer::number_positions(&toks)[..] else {
        return None;
    };
    let amount = toks[k].number()?;
    super::ellipses(&format!("and {amount}?"), questions)
        .into_iter()
        .next()
}

/// `query` with `there` (`ở đó`, `bên đó`; `they` in a time difference) put as the place
/// the last question asked the time at (`6pm there is what time in hanoi` after `and in
/// los angeles`, `how many hours ahead are they`).
pub fn place_there(query: &str, questions: &[String]) -> Option<String> {
    // (As typed without marks too: `ben do may gio`.)
    let query = &crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(query);
    // (`how many hours ahead are they`: the place asked before, named by a pronoun.)
    let ahead = toks
        .iter()
        .any(|t| matches!(t.word(), Some("ahead" | "behind")));
    let named = |i: usize| ahead && matches!(toks[i].word(), Some("they" | "them"));
    let (start, end) = (0..toks.len()).find_map(|i| {
        let there = toks[i].word() == Some("there")
            || named(i)
            || words_at(&toks, i, &["ở", "đó"])
            || words_at(&toks, i, &["bên", "đó"]);
        let len = if toks[i].word() == Some("there") || named(i) {
            1
        } else {
            2
        };
        there.then(|| (toks[i].start, toks[i + len - 1].end))
    })?;
    let bare = named(toks.iter().position(|t| t.start == start)?);
    // (The last place asked that is not here: `o nha minh may gio` asked the time here.)
    let asked = |question: &String| {
        let text = crate::normalise::normalise(question, None).text;
        match crate::places::parse(&crate::lexer::lex(&text), &text)? {
            crate::dates::DateQuery::TimeIn { place } => Some(place),
            crate::dates::DateQuery::ConvertTime { to, .. } => Some(to),
            _ => None,
        }
    };
    let place = questions
        .iter()
        .rev()
        .take(3)
        .filter_map(asked)
        .find(|p| p != "here")?;
    let vietnamese = !toks[toks.iter().position(|t| t.start == start)?]
        .word()?
        .is_ascii();
    let new = if bare {
        place
    } else if vietnamese {
        format!("ở {place}")
    } else {
        format!("in {place}")
    };
    Some(format!("{}{new}{}", &query[..start], &query[end..]))
}

/// `ANSWER * 12` (or `/ 12`) when `query` asks the last answer, an amount a month, for a
/// year (`vậy 1 năm được bao nhiêu` after `lương tháng 9tr5, trừ 10,5% bảo hiểm còn bao
/// nhiêu`), or an amount a year for a month.
pub fn over_other_period(
    query: &str,
    questions: &[String],
    conversation: &Conversation,
) -> Option<String> {
    let (last, follow, hint) = last_and_follow(query, questions)?;
    let (ltoks, ftoks) = (crate::lexer::lex(&last), crate::lexer::lex(&follow));
    let has = |toks: &[Token], ws: &[&str]| {
        toks.iter()
            .any(|t| t.word().is_some_and(|w| ws.contains(&w)))
    };
    const MONTH: &[&str] = &["tháng", "month", "monthly", "months"];
    const YEAR: &[&str] = &["năm", "year", "yearly", "annual", "years"];
    const ONE: &[&str] = &["1", "một", "a", "one", "cả", "mỗi", "per"];
    let one_period = |ws: &[&str]| {
        (0..ftoks.len()).any(|i| {
            ftoks[i].word().is_some_and(|w| ws.contains(&w))
                && i > 0
                && (ftoks[i - 1].word().is_some_and(|w| ONE.contains(&w))
                    || ftoks[i - 1].number() == Some("1"))
        })
    };
    let other_numbers = ftoks
        .iter()
        .filter(|t| t.number().is_some_and(|n| n != "1"))
        .count();
    let asks = has(&ftoks, &["bao", "nhiêu", "how", "much", "bn", "what"]);
    // (`how many days in a year` asks no amount.)
    let other_units = has(
        &ftoks,
        &[
            "day", "days", "ngày", "week", "weeks", "tuần", "hour", "hours", "giờ", "date", "many",
        ],
    );
    if other_numbers > 0 || !asks || other_units {
        return None;
    }
    let value = conversation
        .answers
        .iter()
        .rev()
        .find(|a| a.parse::<f64>().is_ok())?;
    let vi = hint.is_vi();
    if one_period(YEAR) && has(&ltoks, MONTH) && !has(&ltoks, YEAR) {
        return Some(if vi {
            format!("{value} nhân 12")
        } else {
            format!("{value} * 12")
        });
    }
    if one_period(MONTH) && has(&ltoks, YEAR) && !has(&ltoks, MONTH) {
        return Some(if vi {
            format!("{value} chia 12")
        } else {
            format!("{value} / 12")
        });
    }
    None
}

/// Words that make a duration go on from the last date answer: `thêm 1 tuần nữa thì
/// là ngày nào`, `and 3 more days?`, `another week after that`.
const ON_FROM_DATE: &[&str] = &[
    "thêm", "more", "another", "further", "push", "postpone", "delay", "dời", "lùi", "hoãn",
];

/// `query` adding a duration to the conversation's last date answer (`them 1 tuan nua
/// thi la ngay nao` after 2026-12-13 → `2026-12-13 plus 1 week`), when it names a
/// duration with `thêm` / `more` / `another` and no date of its own: from today would
/// answer another question.
pub fn more_time_on_date(query: &str, conversation: &Conversation) -> Option<String> {
    use crate::lexer::Tok;
    let iso = |s: &str| {
        s.len() == 10 && s.as_bytes()[4] == b'-' && s[..4].bytes().all(|b| b.is_ascii_digit())
    };
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    // `push it back a week` moves the date itself, also when a count of days to it
    // was the last answer; `thêm`, `more` go on from the last answer only.
    let moves = toks.iter().any(|t| {
        t.word()
            .is_some_and(|w| matches!(w, "push" | "postpone" | "delay" | "dời" | "lùi" | "hoãn"))
    });

    let date = match conversation.answers.as_slice() {
        [.., d] if iso(d) => d,
        [.., d, c] if moves && iso(d) && c.parse::<u64>().is_ok() => d,
        _ => return None,
    };

    if !toks
        .iter()
        .any(|t| t.word().is_some_and(|w| ON_FROM_DATE.contains(&w)))
        || date_span(&toks).is_some()
        || toks.iter().any(|t| {
            t.word()
                .is_some_and(|w| matches!(w, "today" | "nay" | "now" | "tomorrow" | "mai"))
        })
    {
        return None;
    }
    let unit_of = |w: &str| {
        Some(match w {
            "ngày" | "day" | "days" => "days",
            "tuần" | "week" | "weeks" => "weeks",
            "tháng" | "month" | "months" => "months",
            "năm" | "year" | "years" => "years",
            _ => return None,
        })
    };
    let mut found = Vec::new();
    for k in 0..toks.len() {
        let Some(unit) = toks[k].word().and_then(unit_of) else {
            continue;
        };
        // `2 more weeks`: the number before the word that says more.
        let mut j = k.checked_sub(1);
        if let Some(p) = j
            && p > 0
            && toks[p]
                .word()
                .is_some_and(|w| matches!(w, "more" | "further"))
            && matches!(toks[p - 1].tok, Tok::Num(_))
        {
            j = Some(p - 1);
        }
        let before = j.map(|j| &toks[j]);
        let amount = match before.map(|t| &t.tok) {
            Some(Tok::Num(n)) => n.clone(),
            Some(Tok::Word(w)) if matches!(w.as_str(), "a" | "an" | "another" | "một") => {
                "1".to_owned()
            }
            _ => continue,
        };
        // `là ngày nào`: a day asked, no duration.
        if before.is_some_and(|t| matches!(t.tok, Tok::Word(_)))
            && toks
                .get(k + 1)
                .and_then(Token::word)
                .is_some_and(|w| matches!(w, "nào" | "mấy" | "gì"))
        {
            continue;
        }
        found.push((amount, unit));
    }
    let [(amount, unit)] = found.as_slice() else {
        return None;
    };
    let vi = crate::language::detect(&text, None).is_vi();
    let unit_vi = match *unit {
        "days" => "ngày",
        "weeks" => "tuần",
        "months" => "tháng",
        _ => "năm",
    };
    Some(match vi {
        true => format!("ngày {date} cộng {amount} {unit_vi} là ngày nào"),
        false => format!("{date} plus {amount} {unit}"),
    })
}

/// `plan` as one computation of numbers the user wrote (`2 × 200000` → `2 * 200000`),
/// when it is one step of adding or multiplying two literal numbers.
pub fn one_computation(plan: &chorus_bus::Plan) -> Option<String> {
    let [step] = plan.steps.as_slice() else {
        return None;
    };
    let op = match step.tool.as_str() {
        "multiply" => "*",
        "sum" => "+",
        _ => return None,
    };
    let number = |name: &str| match step.arguments.get(name)? {
        chorus_bus::Arg::Value(v) => {
            let text = v
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| v.to_string());
            text.parse::<f64>().ok().map(|_| text)
        }
        chorus_bus::Arg::Ref { .. } => None,
    };
    Some(format!("{} {op} {}", number("a")?, number("b")?))
}

/// Words of a part paid first (a deposit, an upfront payment), which is always a share
/// of the whole price, never of the share or the rest the last answer was.
const DEPOSIT: &[&[&str]] = &[
    &["cọc"],
    &["đặt", "cọc"],
    &["trả", "trước"],
    &["upfront"],
    &["up", "front"],
    &["deposit"],
    &["down", "payment"],
];

/// `P% of WHOLE` when `query` asks a percentage paid first of the amount the
/// conversation is about (`what if i pay 40% upfront instead` after `tuition is C$7,800
/// in 3 instalments … and for 4?`; `Nếu cọc 50% thì cọc bao nhiêu?` after `Đơn
/// 3.200.000đ, khách cọc 1.000.000đ, còn nợ bao nhiêu?`, and `Còn 40% thì sao?` after
/// it): the whole is the largest amount the conversation's questions said, or its last
/// answer when larger (`cọc 30% là bao nhiêu` after `3 phòng x 4 đêm x 450k bao nhiêu`:
/// the total computed, never the price of one night).
pub fn deposit_of_whole(query: &str, questions: &[String], answers: &[String]) -> Option<String> {
    let lexed = |q: &str| crate::lexer::lex(&crate::normalise::normalise(q, None).text);
    let text = crate::normalise::normalise(query, None).text;
    let toks = crate::lexer::lex(&text);
    // (`30% deposit on that`, `cọc trước 30% số đó`: the answer named is what it is
    // of; `how much is that` only asks.)
    if let Some(r) = super::reference::find(&toks, &text) {
        let at = toks.iter().position(|t| t.start == r.start)?;
        let of = at > 0
            && (matches!(toks[at - 1].word(), Some("on" | "of" | "của" | "trên"))
                || toks[at - 1].is_sym('%'));
        if of {
            return None;
        }
    }
    let nums: Vec<usize> = crate::lexer::number_positions(&toks);
    let [k] = nums.as_slice() else {
        return None;
    };
    if !toks.get(k + 1).is_some_and(|t| t.is_sym('%')) {
        return None;
    }
    let deposit = |t: &[Token]| (0..t.len()).any(|i| DEPOSIT.iter().any(|p| words_at(t, i, p)));
    // (`Còn 40% thì sao?`: another percentage for the deposit the last question asked.)
    let again = questions.last().is_some_and(|q| deposit(&lexed(q)))
        && toks.iter().filter(|t| t.word().is_some()).count() <= 4;
    if !(deposit(&toks) || again) {
        return None;
    }
    let whole = questions
        .iter()
        .flat_map(|q| {
            let t = lexed(q);
            crate::lexer::number_positions(&t)
                .into_iter()
                .filter(|&j| !t.get(j + 1).is_some_and(|s| s.is_sym('%')))
                .filter_map(|j| t[j].number().map(str::to_owned))
                .collect::<Vec<_>>()
        })
        .chain(answers.last().cloned())
        .filter_map(|n| n.parse::<f64>().ok().map(|v| (v, n)))
        .max_by(|a, b| a.0.total_cmp(&b.0))?
        .1;
    Some(format!("{}% of {whole}", toks[*k].number()?))
}
