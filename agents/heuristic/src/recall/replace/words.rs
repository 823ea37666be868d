//! The words the replacing cases read a follow-up by.

/// Words that say a price moved to a new one, beside a price word (`nếu giá tăng lên
/// 25.500`, `if the price goes up to 2.10`): the new price, no change applied.
pub(super) const PRICE_MOVES: &[&str] = &[
    "tăng", "lên", "giảm", "xuống", "goes", "went", "up", "down", "to", "rises", "drops", "raise",
    "raises", "raised", "cut", "cuts", "drop",
];

/// Words before a number that say what it is to the request (`for 4`, `at 169`).
pub(super) const PREPOSITIONS: &[&str] = &["for", "at", "to", "by", "of", "with", "cho", "với"];

/// Words that say more people come (`and if 2 more join`): the number counts people.
pub(super) const JOIN_WORDS: &[&str] = &[
    "join", "joins", "come", "comes", "confirm", "confirms", "attend", "attends",
];

/// Words naming a price, before it: the number a new price replaces.
pub(super) const PRICE_WORDS: &[&str] = &["giá", "price", "costs", "cost"];

/// Words that make a replaced count relative to the one before: `nếu thêm 1 người
/// nữa` is one person more than before, `2 fewer people` two fewer.
pub(super) const MORE_WORDS: &[&str] = &["more", "another", "extra", "additional", "thêm"];

/// See [`MORE_WORDS`].
pub(super) const FEWER_WORDS: &[&str] = &["fewer", "less", "bớt"];

/// Words that say what to do with a number, never shared dressing between a
/// follow-up and the question before it: `chia 3` after `48 chia 6` goes on from the
/// answer, it does not replace the 6.
pub(super) const OPERATION_WORDS: &[&str] = &[
    "plus",
    "minus",
    "times",
    "divided",
    "multiplied",
    "over",
    "add",
    "subtract",
    "multiply",
    "divide",
    "take",
    "halve",
    "double",
    "cộng",
    "trừ",
    "nhân",
    "chia",
    "lấy",
    "mũ",
    "căn",
    "sqrt",
    "root",
    "square",
    "squared",
    "cube",
    "power",
    "mod",
    "round",
];

/// Words no place is named with: a follow-up made of them asks something else
/// (`and what weekday is that?`), never the time in a place of that name.
pub(super) const NOT_PLACE_WORDS: &[&str] = &[
    // (`uncle tuan lives there`: who is at the place, no place.)
    "there",
    "lives",
    "works",
    "that",
    "this",
    "those",
    "these",
    "them",
    "it",
    "date",
    "day",
    "days",
    "weekday",
    "time",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "today",
    "tomorrow",
    "yesterday",
    "now",
    "then",
    "after",
    "before",
    "result",
    "answer",
    "number",
    "đó",
    "này",
    "ngày",
    "thứ",
    "giờ",
    "tuần",
    "tháng",
    "năm",
    "nay",
    "mai",
    "kết",
    "quả",
    "số",
    "nó",
];

/// Units a term is counted in (`6 tháng`, `a year`).
pub(super) const TERM_UNITS: &[&str] = &[
    "tháng", "năm", "months", "month", "years", "year", "tuần", "weeks", "week",
];
