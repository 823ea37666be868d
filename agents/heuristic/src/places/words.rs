//! The words a time question is read with: what asks the time, what stands around it,
//! what puts the place next or ends it, what opens a conversion or states a condition.

/// Words that ask for the time.
pub(super) const ASKS_TIME: &[&[&str]] = &[&["time"], &["mấy", "giờ"], &["giờ"], &["thời", "gian"]];

/// Words that may stand around a time question without changing it.
pub(super) const AROUND: &[&str] = &[
    "what",
    "what's",
    "whats",
    "is",
    "it",
    "the",
    "current",
    "local",
    "now",
    "right",
    "tell",
    "me",
    "please",
    "do",
    "you",
    "know",
    "s",
    "currently",
    "bây",
    "giờ",
    "mấy",
    "rồi",
    "là",
    "hiện",
    "tại",
    "bao",
    "nhiêu",
    "cho",
    "tôi",
    "biết",
    "xem",
    "ạ",
    "nhé",
    "thời",
    "gian",
    "time",
    "hãy",
    "đang",
    "hỏi",
    "that",
    "this",
    "này",
    // (`giờ nay` typed without marks: `giờ này`.)
    "nay",
    "back",
    "home",
    "there",
    "then",
    "over",
    "will",
    "be",
    "going",
    "here",
];

/// Words that put the place next: `in Tokyo`, `ở New York`, `tại Luân Đôn`.
pub(super) const AT: &[&str] = &["in", "at", "ở", "tại", "bên"];

/// Words a place name cannot hold: they end it (`in Tokyo right now`).
pub(super) const STOP: &[&str] = &[
    "in",
    "at",
    "to",
    "into",
    "from",
    "ở",
    "tại",
    "bên",
    "sang",
    "time",
    "giờ",
    "is",
    "what",
    "là",
    "mấy",
    "it",
    "now",
    "right",
    "rồi",
    "bây",
    "will",
    "be",
    "would",
    "when",
    "thì",
    "sẽ",
    "theo",
    "currently",
    "hiện",
    "please",
    "nhé",
    "ạ",
    "for",
    "then",
    "and",
    "và",
    "also",
    "what's",
    "whats",
    "that",
    "this",
    "there",
    "back",
    "over",
    "tomorrow",
    "tonight",
    "today",
    "yesterday",
    "qua",
    "về",
    "on",
];

/// Words that open a conversion.
pub(super) const CONVERT: &[&[&str]] = &[
    &["convert"],
    &["chuyển", "đổi"],
    &["quy", "đổi"],
    &["đổi"],
    &["chuyển"],
    &["what", "is"],
    &["what's"],
    &["whats"],
    // (`what's 2pm vietnam time in melbourne`: the lexer keeps `what` of `what's`.)
    &["what"],
];

/// An hour and the part of the day after it.
pub(super) const HOUR_PHRASES: &[&[&str]] = &[
    &["giờ", "sáng"],
    &["giờ", "trưa"],
    &["giờ", "chiều"],
    &["giờ", "tối"],
];

/// Words that may name what happens at a stated time (`call is at 2pm LA time`).
pub(super) const EVENT: &[&str] = &[
    "call", "meeting", "meet", "flight", "game", "match", "show", "event", "webinar", "stream",
    "the", "my", "our", "a", "is", "at", "it's", "its", "starts", "cuộc", "họp", "gọi", "lúc",
    "vào", "trận", "đấu", "chuyến", "bay", "i", "have", "we", "got", "leaves", "departs", "lands",
    "arrives", "begins", "ends", "takes", "off", "kicks", "goes", "live", "call", "calls", "home",
    "you", "they", "he", "she", "will", "leave", "arrive", "land", "start", "uni", "class",
];

/// Words that state the time at one place as a condition: `if it's 9am in Paris, what
/// time is it in Seoul`, `when it is 3pm in London …`, `nếu 8 giờ sáng ở Hà Nội thì …`.
pub(super) const CONDITIONS: &[&[&str]] = &[
    &["if"],
    &["when"],
    &["suppose"],
    &["say"],
    &["nếu"],
    &["khi"],
    &["giả", "sử"],
];
