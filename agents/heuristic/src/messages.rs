//! The planner's sentences to the user, in English and Vietnamese.

use chorus_bus::Language;

use crate::capabilities::{Capabilities, Missing};
use crate::compound::PartError;

/// `reason`, then what Chorus can do with `tools`.
pub fn with_capabilities(reason: &str, language: Language, tools: &Capabilities) -> String {
    format!("{reason}\n\n{}", tools.describe(language))
}

/// The answer to "what can you do?".
pub fn help(language: Language, tools: &Capabilities) -> String {
    let intro = if language.is_vi() {
        "Đây là những gì tôi có thể làm."
    } else {
        "Here is what I can do."
    };
    with_capabilities(intro, language, tools)
}

/// Why a part could not be read.
pub fn part_error(e: &PartError, language: Language) -> String {
    if let PartError::NotUnderstood(p) = e
        && let Some(kind) = crate::refusals::topic(p, language)
    {
        return if language.is_vi() {
            format!("Tôi không có công cụ cho {kind}, nên không thể trả lời \"{p}\".")
        } else {
            format!("I have no tool for {kind}, so \"{p}\" cannot be answered.")
        };
    }
    match (e, language.is_vi()) {
        (PartError::NotUnderstood(p), false) => {
            format!("I could not understand \"{p}\", or no tool of mine serves it.")
        }
        (PartError::NotUnderstood(p), true) => {
            format!("Tôi không hiểu \"{p}\", hoặc không có công cụ cho việc này.")
        }
        (PartError::InvalidDate(d), false) => format!("\"{d}\" is not a valid date."),
        (PartError::InvalidDate(d), true) => format!("\"{d}\" không phải là ngày hợp lệ."),
        (PartError::NothingToCompute(p), false) => {
            format!("\"{p}\" has no operation to compute.")
        }
        (PartError::NothingToCompute(p), true) => format!("\"{p}\" không có phép tính nào."),
        (PartError::TooManyParts, false) => "The request has too many parts.".to_owned(),
        (PartError::TooManyParts, true) => "Yêu cầu có quá nhiều phần.".to_owned(),
    }
}

/// Nothing in the request asks for anything (a greeting alone, a lone `?`).
pub fn nothing_asked(language: Language) -> String {
    if language.is_vi() {
        "Tôi không thấy câu hỏi hay phép tính nào trong yêu cầu này."
    } else {
        "I did not find a question or a calculation in this request."
    }
    .to_owned()
}

/// The request was empty.
pub fn empty(language: Language) -> String {
    if language.is_vi() {
        "Yêu cầu trống."
    } else {
        "The request is empty."
    }
    .to_owned()
}

/// The request is longer than the limit.
pub fn too_long(chars: usize, max: usize, language: Language) -> String {
    if language.is_vi() {
        format!("Yêu cầu quá dài ({chars} ký tự, giới hạn là {max}).")
    } else {
        format!("The request is too long ({chars} characters, the limit is {max}).")
    }
}

/// The plan would have more steps than the limit.
pub fn too_many_steps(steps: usize, max: usize, language: Language) -> String {
    if language.is_vi() {
        format!("Yêu cầu cần {steps} bước, vượt quá giới hạn {max} bước.")
    } else {
        format!("The request needs {steps} steps, more than the limit of {max}.")
    }
}

/// A tool the plan needs is not available.
pub fn missing(m: &Missing, part: &str, language: Language) -> String {
    match (m, language.is_vi()) {
        (Missing::Pool(pool), false) => format!(
            "The {pool} pool is down right now (no live {pool} agent offers its tools), so \"{part}\" cannot be answered."
        ),
        (Missing::Pool(pool), true) => format!(
            "Nhóm {pool} hiện không khả dụng (không có tác tử {pool} nào đang chạy), nên không thể trả lời \"{part}\"."
        ),
        (Missing::Tool { pool, tool }, false) => format!(
            "The {pool} pool does not offer the {tool} tool right now, so \"{part}\" cannot be answered."
        ),
        (Missing::Tool { pool, tool }, true) => format!(
            "Nhóm {pool} hiện không cung cấp công cụ {tool}, nên không thể trả lời \"{part}\"."
        ),
    }
}

/// The opening of a question asked again after an answer that did not settle it.
pub fn not_settled(answer: &str, language: Language) -> String {
    if language.is_vi() {
        format!("Câu trả lời \"{answer}\" chưa rõ.")
    } else {
        format!("The answer \"{answer}\" does not settle it.")
    }
}

/// Why a request is refused after `asked` questions none of whose answers settled it.
pub fn unsettled_after(asked: u32, question: &str, language: Language) -> String {
    if language.is_vi() {
        format!(
            "Sau {asked} câu hỏi, yêu cầu vẫn chưa rõ (\"{question}\"), nên tôi không thực hiện nó."
        )
    } else {
        format!(
            "After {asked} questions the request is still unclear (\"{question}\"), so it was not carried out."
        )
    }
}

/// What a task canceled before its plan came says in place of results.
pub fn canceled_before_planning(language: Language) -> String {
    if language.is_vi() {
        "Chưa có bước nào chạy trước khi hủy.".to_owned()
    } else {
        "Nothing had run before the cancellation.".to_owned()
    }
}

/// The line a canceled task's report carries about why, in the client's words.
pub fn cancel_reason(reason: &str, language: Language) -> String {
    if language.is_vi() {
        format!("**Lý do hủy:** {reason}")
    } else {
        format!("**Why canceled:** {reason}")
    }
}

/// The report of a task whose question got no answer in time: it repeats the question
/// and its options.
pub fn unanswered(
    question: &str,
    options: &[chorus_bus::AnswerOption],
    language: Language,
) -> String {
    let mut text = if language.is_vi() {
        format!(
            "Không có câu trả lời cho câu hỏi của tôi, nên yêu cầu chưa được thực hiện.\n\n**Câu hỏi:** {question}"
        )
    } else {
        format!(
            "No answer came to my question, so the request was not carried out.\n\n**Question:** {question}"
        )
    };
    text.push_str(&numbered_options(options));
    text.push('\n');
    text
}

/// A question's options as a reader picks one: each on its own line (a line break
/// before each), numbered from 1 — "\n1. 3 April 2026\n2. 4 March 2026"; empty
/// without options.
pub fn numbered_options(options: &[chorus_bus::AnswerOption]) -> String {
    options
        .iter()
        .enumerate()
        .map(|(i, o)| format!("\n{}. {}", i + 1, o.label))
        .collect()
}
