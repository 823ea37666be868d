//! Part of an amount paid already, and what is still owed asked: the words of both,
//! shared by the readers of one request (`mua 2 tấn 9tr8 1 tấn, trả trước 12 triệu, còn
//! nợ bao nhiêu`) and of a follow-up (`chị trả 200k rồi, còn bao nhiêu`).

use crate::lexer::{Token, says};

/// Words of part of an amount paid already.
pub(crate) const PAID_ALREADY: &[&[&str]] = &[
    &["trả", "trước"],
    &["đã", "trả"],
    &["đặt", "cọc"],
    &["cọc"],
    &["paid"],
    &["put", "down"],
    &["deposit"],
    &["upfront"],
];

/// Words asking what is left to pay.
pub(crate) const STILL_OWED: &[&[&str]] = &[
    &["còn", "nợ"],
    &["còn", "lại"],
    &["còn", "phải"],
    &["còn", "bao", "nhiêu"],
    &["still", "owe"],
    &["left", "to", "pay"],
    &["how", "much", "left"],
    &["how", "much", "is", "left"],
    &["owe"],
];

/// Whether `toks` say part of an amount was paid and ask what is still owed.
pub(crate) fn paid_and_owed(toks: &[Token]) -> bool {
    says(toks, PAID_ALREADY) && says(toks, STILL_OWED)
}
