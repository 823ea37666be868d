//! The operator words and forms the parser reads: adding, multiplying and power words,
//! prefix and postfix forms with a fixed operand, verb forms and their joining words.

use super::Table;
use crate::expr::MathOp;

pub(super) const ADD_WORDS: Table = &[
    (&["cộng", "với"], MathOp::Sum),
    (&["plus"], MathOp::Sum),
    (&["cộng"], MathOp::Sum),
    (&["trừ", "đi"], MathOp::Subtract),
    (&["minus"], MathOp::Subtract),
    (&["trừ"], MathOp::Subtract),
];

pub(super) const MUL_WORDS: Table = &[
    (&["multiplied", "by"], MathOp::Multiply),
    (&["times"], MathOp::Multiply),
    (&["x"], MathOp::Multiply),
    (&["nhân", "với"], MathOp::Multiply),
    (&["nhân"], MathOp::Multiply),
    (&["divided", "by"], MathOp::Divide),
    (&["is", "divided", "by"], MathOp::Divide),
    (&["over"], MathOp::Divide),
    (&["chia", "lấy", "dư", "cho"], MathOp::Modulo),
    (&["chia", "lấy", "dư"], MathOp::Modulo),
    (&["chia", "cho"], MathOp::Divide),
    (&["chia"], MathOp::Divide),
    (&["modulo"], MathOp::Modulo),
    (&["mod"], MathOp::Modulo),
];

pub(super) const POW_WORDS: &[&[&str]] = &[
    &["raised", "to", "the", "power", "of"],
    &["to", "the", "power", "of"],
    &["to", "the", "power"],
    &["raised", "to"],
    &["lũy", "thừa"],
    &["luỹ", "thừa"],
    &["mũ"],
];

pub(super) const PREFIX_WORDS: Table = &[
    (&["the", "square", "root", "of"], MathOp::Sqrt),
    (&["square", "root", "of"], MathOp::Sqrt),
    (&["square", "root"], MathOp::Sqrt),
    (&["căn", "bậc", "hai", "của"], MathOp::Sqrt),
    (&["căn", "bậc", "hai"], MathOp::Sqrt),
    (&["căn", "của"], MathOp::Sqrt),
    (&["căn"], MathOp::Sqrt),
    (&["sqrt", "of"], MathOp::Sqrt),
    (&["sqrt"], MathOp::Sqrt),
    (&["the", "absolute", "value", "of"], MathOp::Abs),
    (&["absolute", "value", "of"], MathOp::Abs),
    (&["giá", "trị", "tuyệt", "đối", "của"], MathOp::Abs),
    (&["abs"], MathOp::Abs),
];

/// Ordinal words naming a root's degree (`cube root`, `fourth root`).
pub(super) const ORDINAL_DEGREES: &[(&str, &str)] = &[
    ("cube", "3"),
    ("cubic", "3"),
    ("third", "3"),
    ("fourth", "4"),
    ("fifth", "5"),
    ("sixth", "6"),
    ("seventh", "7"),
    ("eighth", "8"),
    ("ninth", "9"),
    ("tenth", "10"),
];

/// "X of N" forms that apply a binary tool with a fixed second operand: `the square of
/// 12` is 12², `half of 90` is 90 ÷ 2, `double 21` is 21 × 2. A leading "one"/"một" (lexed
/// as the number 1: `one half of`, `một nửa của`) is allowed before a fraction.
pub(super) const PREFIX_CONST: &[(&[&str], MathOp, &str)] = &[
    (&["the", "square", "of"], MathOp::Power, "2"),
    (&["square", "of"], MathOp::Power, "2"),
    (&["the", "cube", "of"], MathOp::Power, "3"),
    (&["cube", "of"], MathOp::Power, "3"),
    (&["bình", "phương", "của"], MathOp::Power, "2"),
    (&["lập", "phương", "của"], MathOp::Power, "3"),
    (&["half", "of"], MathOp::Divide, "2"),
    (&["a", "half", "of"], MathOp::Divide, "2"),
    (&["nửa", "của"], MathOp::Divide, "2"),
    (&["a", "third", "of"], MathOp::Divide, "3"),
    (&["third", "of"], MathOp::Divide, "3"),
    (&["quarter", "of"], MathOp::Divide, "4"),
    (&["phần", "hai", "của"], MathOp::Divide, "2"),
    (&["phần", "ba", "của"], MathOp::Divide, "3"),
    (&["phần", "tư", "của"], MathOp::Divide, "4"),
    (&["a", "quarter", "of"], MathOp::Divide, "4"),
    (&["gấp", "đôi", "của"], MathOp::Multiply, "2"),
    (&["gấp", "ba", "của"], MathOp::Multiply, "3"),
    (&["nhân", "đôi"], MathOp::Multiply, "2"),
    (&["chia", "đôi"], MathOp::Divide, "2"),
    (&["double"], MathOp::Multiply, "2"),
    (&["twice"], MathOp::Multiply, "2"),
    (&["triple"], MathOp::Multiply, "3"),
    (&["gấp", "đôi"], MathOp::Multiply, "2"),
    (&["gấp", "ba"], MathOp::Multiply, "3"),
];

/// Verb forms `VERB x JOIN y`: the operation and whether `y` comes first (`subtract 7 from 10`).
pub(super) const VERB_WORDS: &[(&[&str], MathOp)] = &[
    (&["add"], MathOp::Sum),
    (&["sum", "of"], MathOp::Sum),
    (&["tổng", "của"], MathOp::Sum),
    (&["subtract"], MathOp::Subtract),
    (&["difference", "of"], MathOp::Subtract),
    (&["hiệu", "của"], MathOp::Subtract),
    (&["multiply"], MathOp::Multiply),
    (&["product", "of"], MathOp::Multiply),
    (&["tích", "của"], MathOp::Multiply),
    (&["divide"], MathOp::Divide),
    (&["quotient", "of"], MathOp::Divide),
    (&["thương", "của"], MathOp::Divide),
    // `chia 10 cho 2`, `chia 1000000 cho` (asked).
    (&["chia"], MathOp::Divide),
    (&["cộng", "thêm"], MathOp::Sum),
    (&["cộng"], MathOp::Sum),
    (&["nhân"], MathOp::Multiply),
];

/// Joining words of verb forms, and whether the operands swap (`from`, `to`).
pub(super) const JOIN_WORDS: &[(&str, bool)] = &[
    ("and", false),
    ("và", false),
    ("by", false),
    ("with", false),
    ("với", false),
    ("cho", false),
    ("from", true),
    ("to", true),
    ("vào", true),
];

/// Vietnamese postfix forms: `100 chia đôi` (÷ 2), `7 nhân đôi` (× 2), `81 khai căn` (√).
/// (`nhân ba` is not one: `một nhân ba trăm` is 1 × 300.)
pub(super) const POSTFIX_CONST: &[(&[&str], MathOp, Option<&str>)] = &[
    // (`chia đôi ra`: `ra` only says it is split out.)
    (&["chia", "đôi", "ra"], MathOp::Divide, Some("2")),
    (&["chia", "đôi"], MathOp::Divide, Some("2")),
    (&["nhân", "đôi"], MathOp::Multiply, Some("2")),
    (&["khai", "căn"], MathOp::Sqrt, None),
];

pub(super) const POSTFIX_POWERS: &[(&[&str], &str)] = &[
    (&["squared"], "2"),
    (&["cubed"], "3"),
    (&["bình", "phương"], "2"),
    (&["lập", "phương"], "3"),
];
